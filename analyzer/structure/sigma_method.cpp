#include "structure/sigma_method.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <queue>

#include "common/internal_error.h"

namespace modeaudit {

namespace {

// Highest-value transversal as a minimum-cost perfect matching with costs
// -sigma_ij over the entries only, by successive shortest augmenting paths
// (Dijkstra with row/column potentials u, v keeping reduced costs
// cost - u - v >= 0). A greedy matching on tight entries comes first, so for
// typical DAEs most rows never search. Each search touches only the columns
// it reaches, and potentials are updated on those only (the usual shift by
// the sink distance), so no step is O(n) per augmentation beyond what it
// visits.
bool highest_value_transversal(const SignatureMatrix& s, std::vector<int>& row_match) {
    const auto n = static_cast<std::size_t>(s.rows);
    if (s.rows != s.cols) return false;
    using Cost = long;
    const Cost kInf = std::numeric_limits<Cost>::max() / 4;
    std::vector<Cost> u(n, 0), v(n, 0);
    std::vector<int> col_match(n, -1);
    row_match.assign(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
        if (s.entries[i].empty()) return false;
        Cost best = kInf;
        for (const SignatureEntry& e : s.entries[i]) best = std::min<Cost>(best, -e.sigma);
        u[i] = best;
    }
    // Greedy on tight entries, preferring the free column that the fewest
    // rows could take (a Karp-Sipser-like rule): taking the first free
    // column instead can leave long augmenting paths along chains such as an
    // RC ladder, which makes the searches below quadratic.
    std::vector<int> tight_degree(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        for (const SignatureEntry& e : s.entries[i])
            if (-e.sigma - u[i] == 0) ++tight_degree[static_cast<std::size_t>(e.col)];
    for (std::size_t i = 0; i < n; ++i) {
        int best = -1;
        for (const SignatureEntry& e : s.entries[i]) {
            auto j = static_cast<std::size_t>(e.col);
            if (-e.sigma - u[i] - v[j] != 0 || col_match[j] >= 0) continue;
            if (best < 0 || tight_degree[j] < tight_degree[static_cast<std::size_t>(best)]) best = e.col;
        }
        if (best >= 0) {
            row_match[i] = best;
            col_match[static_cast<std::size_t>(best)] = static_cast<int>(i);
        }
    }
    std::vector<Cost> dist(n, kInf);
    std::vector<int> prev(n, -1);
    std::vector<char> done(n, 0);
    std::vector<int> touched, finalized;
    using Item = std::pair<Cost, int>;
    for (std::size_t src = 0; src < n; ++src) {
        if (row_match[src] >= 0) continue;
        std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
        auto relax = [&](int row, Cost base) {
            for (const SignatureEntry& e : s.entries[static_cast<std::size_t>(row)]) {
                auto j = static_cast<std::size_t>(e.col);
                if (done[j]) continue;
                Cost nd = base + (-e.sigma - u[static_cast<std::size_t>(row)] - v[j]);
                if (nd < dist[j]) {
                    if (dist[j] == kInf) touched.push_back(e.col);
                    dist[j] = nd;
                    prev[j] = row;
                    heap.push({nd, e.col});
                }
            }
        };
        relax(static_cast<int>(src), 0);
        int sink = -1;
        while (!heap.empty()) {
            auto [d, j] = heap.top();
            heap.pop();
            if (done[static_cast<std::size_t>(j)] || d != dist[static_cast<std::size_t>(j)]) continue;
            done[static_cast<std::size_t>(j)] = 1;
            finalized.push_back(j);
            int next_row = col_match[static_cast<std::size_t>(j)];
            if (next_row < 0) {
                sink = j;
                break;
            }
            relax(next_row, d);
        }
        if (sink < 0) return false;  // no augmenting path: no perfect matching
        Cost dt = dist[static_cast<std::size_t>(sink)];
        // Potentials: columns finalized before the sink move by dist - dt,
        // the rows matched to them and the source accordingly.
        for (int j : finalized) {
            auto jj = static_cast<std::size_t>(j);
            if (j == sink) continue;
            int r = col_match[jj];
            v[jj] += dist[jj] - dt;
            u[static_cast<std::size_t>(r)] -= dist[jj] - dt;
        }
        u[src] += dt;
        // Augment along the path.
        for (int j = sink; j >= 0;) {
            int r = prev[static_cast<std::size_t>(j)];
            int next = row_match[static_cast<std::size_t>(r)];
            row_match[static_cast<std::size_t>(r)] = j;
            col_match[static_cast<std::size_t>(j)] = r;
            j = static_cast<std::size_t>(r) == src ? -1 : next;
        }
        for (int j : touched) {
            dist[static_cast<std::size_t>(j)] = kInf;
            prev[static_cast<std::size_t>(j)] = -1;
            done[static_cast<std::size_t>(j)] = 0;
        }
        touched.clear();
        finalized.clear();
    }
    return true;
}

}  // namespace

SigmaResult sigma_method(const SignatureMatrix& s) {
    SigmaResult r;
    if (s.rows != s.cols || !highest_value_transversal(s, r.transversal)) return r;
    r.well_posed = true;
    const auto n = static_cast<std::size_t>(s.rows);
    std::vector<int> tsigma(n);
    for (std::size_t i = 0; i < n; ++i) {
        tsigma[i] = s.sigma(static_cast<int>(i), r.transversal[i]);
        r.value += tsigma[i];
    }
    std::vector<int> row_of(n);
    for (std::size_t i = 0; i < n; ++i) row_of[static_cast<std::size_t>(r.transversal[i])] = static_cast<int>(i);

    // Pryce's fixed point c := 0; d_j := max_i(sigma_ij + c_i); c_i := d_T(i) - sigma_iT(i),
    // run as a worklist: only rows whose c grew propagate. It reaches the
    // smallest solution because it increases monotonically from below, and
    // it terminates because an HVT leaves no positive cycle.
    r.c.assign(n, 0);
    r.d.assign(n, 0);
    std::vector<char> has(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        for (const SignatureEntry& e : s.entries[i]) {
            auto j = static_cast<std::size_t>(e.col);
            if (!has[j] || e.sigma > r.d[j]) r.d[j] = e.sigma;
            has[j] = 1;
        }
    std::deque<int> work;
    std::vector<char> queued(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        r.c[i] = r.d[static_cast<std::size_t>(r.transversal[i])] - tsigma[i];
        if (r.c[i] > 0) {
            work.push_back(static_cast<int>(i));
            queued[i] = 1;
        }
    }
    long max_sigma = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (const SignatureEntry& e : s.entries[i]) max_sigma = std::max<long>(max_sigma, e.sigma);
    // No offset exceeds n * (max sigma + 1); more updates mean a bug.
    const long bound = static_cast<long>(n) * (max_sigma + 1) + 1;
    while (!work.empty()) {
        int i = work.front();
        work.pop_front();
        queued[static_cast<std::size_t>(i)] = 0;
        int ci = r.c[static_cast<std::size_t>(i)];
        for (const SignatureEntry& e : s.entries[static_cast<std::size_t>(i)]) {
            auto j = static_cast<std::size_t>(e.col);
            if (e.sigma + ci <= r.d[j]) continue;
            r.d[j] = e.sigma + ci;
            MODEAUDIT_ASSERT(r.d[j] <= bound, "Sigma-method offsets do not converge");
            auto k = static_cast<std::size_t>(row_of[j]);
            int ck = r.d[j] - tsigma[k];
            if (ck > r.c[k]) {
                r.c[k] = ck;
                if (!queued[k]) {
                    queued[k] = 1;
                    work.push_back(static_cast<int>(k));
                }
            }
        }
    }
    int max_c = 0;
    bool some_d_zero = false;
    for (std::size_t i = 0; i < n; ++i) {
        max_c = std::max(max_c, r.c[i]);
        if (r.d[i] == 0) some_d_zero = true;
        r.dof += r.d[i] - r.c[i];
    }
    r.index = max_c + (some_d_zero ? 1 : 0);
    return r;
}

std::optional<std::string> check_offsets(const SignatureMatrix& s, const SigmaResult& r) {
    const auto n = static_cast<std::size_t>(s.rows);
    if (!r.well_posed) return std::nullopt;
    if (r.transversal.size() != n || r.c.size() != n || r.d.size() != n) return "offset vectors of the wrong size";
    std::vector<char> used(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        int j = r.transversal[i];
        if (j < 0 || static_cast<std::size_t>(j) >= n || used[static_cast<std::size_t>(j)])
            return fmt::format("the transversal is not a permutation at row {}", i);
        used[static_cast<std::size_t>(j)] = 1;
        if (r.c[i] < 0) return fmt::format("c_{} = {} < 0", i, r.c[i]);
        int sig = s.sigma(static_cast<int>(i), j);
        if (sig == SignatureMatrix::kNoEntry) return fmt::format("the transversal uses a non-entry at row {}", i);
        if (r.d[static_cast<std::size_t>(j)] - r.c[i] != sig)
            return fmt::format("d_{} - c_{} = {} differs from sigma = {} on the transversal", j, i,
                               r.d[static_cast<std::size_t>(j)] - r.c[i], sig);
        for (const SignatureEntry& e : s.entries[i])
            if (r.d[static_cast<std::size_t>(e.col)] - r.c[i] < e.sigma)
                return fmt::format("d_{} - c_{} = {} < sigma = {}", e.col, i, r.d[static_cast<std::size_t>(e.col)] - r.c[i],
                                   e.sigma);
    }
    long dof = 0;
    for (std::size_t i = 0; i < n; ++i) dof += r.d[i] - r.c[i];
    if (dof != r.value || dof != r.dof) return fmt::format("sum d - sum c = {} differs from Val(Sigma) = {}", dof, r.value);
    return std::nullopt;
}

}  // namespace modeaudit
