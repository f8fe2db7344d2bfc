// F_DOWN's block triangular form and its solution block by block (see
// leading_blocks.h).
//
// Why a numeric fallback: Newton's method on the whole of F_DOWN starts
// from the leading variables' start values (0 when none is given). Where an
// equation multiplies two leading variables (v = R_actual*i with R_actual
// itself given by an equation) the whole-system Jacobian at the zero guess
// can be singular although the system is regular at its solution. Solved
// in the block triangular order, each block's Newton step sees the earlier
// blocks' values.
#include "simulation/leading_blocks.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "flatten/expression_builder.h"
#include "simulation/mode_system.h"
#include "structure/dulmage_mendelsohn.h"
#include "structure/signature.h"

namespace modeaudit::sim {

using GiNaC::ex;

LeadingBlocks leading_blocks(std::size_t m, const std::vector<std::pair<std::size_t, std::size_t>>& pattern) {
    SignatureMatrix incidence;
    incidence.rows = incidence.cols = static_cast<int>(m);
    incidence.entries.resize(m);
    for (const auto& [i, j] : pattern) incidence.entries[i].push_back(SignatureEntry{static_cast<int>(j), 0});
    for (auto& row : incidence.entries) {
        std::sort(row.begin(), row.end(), [](const SignatureEntry& a, const SignatureEntry& b) { return a.col < b.col; });
        row.erase(std::unique(row.begin(), row.end(),
                              [](const SignatureEntry& a, const SignatureEntry& b) { return a.col == b.col; }),
                  row.end());
    }
    const DulmageMendelsohn dm = dulmage_mendelsohn(incidence);
    LeadingBlocks out;
    if (!dm.perfect()) return out;
    for (const std::vector<int>& rows : dm.blocks) {
        out.rows.emplace_back();
        out.cols.emplace_back();
        for (int r : rows) {
            out.rows.back().push_back(static_cast<std::size_t>(r));
            out.cols.back().push_back(static_cast<std::size_t>(dm.row_match[static_cast<std::size_t>(r)]));
        }
    }
    out.block_of_row.resize(m);
    out.block_of_col.resize(m);
    out.place_of_row.resize(m);
    out.place_of_col.resize(m);
    for (std::size_t b = 0; b < out.rows.size(); ++b)
        for (std::size_t k = 0; k < out.rows[b].size(); ++k) {
            out.block_of_row[out.rows[b][k]] = out.block_of_col[out.cols[b][k]] = b;
            out.place_of_row[out.rows[b][k]] = out.place_of_col[out.cols[b][k]] = k;
        }
    return out;
}

bool ModeSystem::solve_leading_by_blocks(double t, const double* x, double* y) const {
    const std::size_t n = states_.size(), m = leading_.size();
    if (!blocks_ready_) {
        blocks_ready_ = true;
        blocks_ = leading_blocks(m, fy_);
    }
    if (blocks_.rows.empty()) return false;
    std::copy(x, x + n, in_.begin());
    in_[n + m] = t;
    std::vector<double> a, r;
    DenseLu lu;
    for (std::size_t b = 0; b < blocks_.rows.size(); ++b) {
        const std::vector<std::size_t>& rows = blocks_.rows[b];
        const std::vector<std::size_t>& cols = blocks_.cols[b];
        const std::size_t k = rows.size();
        bool converged = false;
        double previous_step = HUGE_VAL;
        for (int it = 0; it < 50 && !converged; ++it) {
            std::copy(y, y + m, in_.begin() + static_cast<std::ptrdiff_t>(n));
            down_.evaluate(in_.data(), out_.data(), 2);
            r.assign(k, 0.0);
            double rnorm = 0;
            for (std::size_t i = 0; i < k; ++i) {
                r[i] = -out_[rows[i]];
                rnorm = std::max(rnorm, std::fabs(r[i]));
            }
            if (!std::isfinite(rnorm)) return false;
            if (rnorm == 0) {
                converged = true;
                break;
            }
            a.assign(k * k, 0.0);
            for (std::size_t e = 0; e < fy_.size(); ++e) {
                const auto [i, j] = fy_[e];
                if (blocks_.block_of_row[i] == b && blocks_.block_of_col[j] == b)
                    a[blocks_.place_of_row[i] * k + blocks_.place_of_col[j]] = out_[down_.group_begin(1) + e];
            }
            if (!lu.factor(a.data(), k)) return false;
            lu.solve(r.data());
            double step = 0, size = 0;
            for (std::size_t i = 0; i < k; ++i) {
                y[cols[i]] += r[i];
                step = std::max(step, std::fabs(r[i]));
                size = std::max(size, std::fabs(y[cols[i]]));
            }
            if (!std::isfinite(step)) return false;
            converged = newton_settled(it, step, previous_step, size);
            previous_step = step;
        }
        if (!converged) return false;
    }
    return true;
}

BlockSolution::BlockSolution(const std::vector<ex>& down, const std::vector<GiNaC::symbol>& leading,
                             const std::vector<std::pair<std::size_t, std::size_t>>& pattern,
                             ex (*canonical)(const ex&))
    : down_(down), leading_(leading), canonical_(canonical), blocks_(leading_blocks(leading.size(), pattern)) {
    uses_.resize(down_.size());
    for (const auto& [i, j] : pattern) uses_[i].push_back(j);
    status_.assign(blocks_.rows.size(), 0);
}

bool BlockSolution::solve(std::size_t block) {
    // The blocks this one needs, transitively, solved in order (earlier
    // blocks first: the order is a topological one).
    std::vector<bool> need(blocks_.rows.size(), false);
    need[block] = true;
    for (std::size_t b = block + 1; b-- > 0;) {
        if (!need[b]) continue;
        for (std::size_t i : blocks_.rows[b])
            for (std::size_t j : uses_[i]) need[blocks_.block_of_col[j]] = true;
    }
    for (std::size_t b = 0; b <= block; ++b) {
        if (!need[b] || status_[b] == 1) continue;
        if (status_[b] == -1) return false;
        status_[b] = -1;
        GiNaC::lst eqs, syms;
        std::vector<ex> rows;
        for (std::size_t i : blocks_.rows[b]) rows.push_back(down_[i].subs(solved_, kExactSubs).expand());
        for (std::size_t j : blocks_.cols[b]) syms.append(leading_[j]);
        // Affine in its own variables: every derivative free of them.
        for (const ex& row : rows)
            for (std::size_t j : blocks_.cols[b]) {
                const ex d = row.diff(leading_[j]);
                for (std::size_t l : blocks_.cols[b])
                    if (d.has(leading_[l])) return false;
            }
        for (const ex& row : rows) eqs.append(row == 0);
        ex sol;
        try {
            sol = GiNaC::lsolve(eqs, syms);
        } catch (const std::logic_error&) {
            return false;  // GiNaC: not linear after all
        } catch (const std::runtime_error&) {
            return false;  // GiNaC: an inconsistent (singular) block
        }
        if (sol.nops() != blocks_.cols[b].size()) return false;
        for (std::size_t k = 0; k < sol.nops(); ++k) solved_[sol.op(k).lhs()] = canonical_(sol.op(k).rhs());
        status_[b] = 1;
    }
    return true;
}

std::optional<ex> BlockSolution::substitute(const ex& e) {
    if (blocks_.rows.empty()) return std::nullopt;
    bool any = false;
    for (std::size_t j = 0; j < leading_.size(); ++j)
        if (e.has(leading_[j])) {
            if (!solve(blocks_.block_of_col[j])) return std::nullopt;
            any = true;
        }
    if (!any) return e;
    return e.subs(solved_, kExactSubs).expand();
}

}  // namespace modeaudit::sim
