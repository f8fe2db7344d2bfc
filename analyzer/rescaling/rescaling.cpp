#include "rescaling/rescaling.h"

#include <fmt/format.h>
#include <z3++.h>

#include <algorithm>
#include <mutex>
#include <set>

#include "common/internal_error.h"
#include "common/limits.h"
#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"

namespace modeaudit {

namespace {

std::map<std::string, int> index_by_name(const ModeChangeArray& a) {
    std::map<std::string, int> m;
    for (std::size_t j = 0; j < a.variables.size(); ++j) m[a.symbol(a.variables[j]).get_name()] = static_cast<int>(j);
    return m;
}

void collect_atoms(const GiNaC::ex& e, const std::map<std::string, int>& idx, std::vector<int>& atoms) {
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it))
            if (auto f = idx.find(GiNaC::ex_to<GiNaC::symbol>(*it).get_name()); f != idx.end()) atoms.push_back(f->second);
}

long value(const Monomial& m, const std::vector<int>& mu) {
    long v = m.eps_power;
    for (const auto& [j, p] : m.powers) v += static_cast<long>(p) * mu[static_cast<std::size_t>(j)];
    return v;
}

}  // namespace

namespace {

std::vector<Monomial> monomials_with(const ModeChangeArray& a, const std::map<std::string, int>& idx,
                                     const GiNaC::ex& residual, std::vector<int>& atoms) {
    std::vector<Monomial> out;
    for (const GiNaC::ex& t : terms_of(checked_expand(residual))) {
        std::vector<GiNaC::ex> factors;
        if (GiNaC::is_a<GiNaC::mul>(t))
            for (std::size_t i = 0; i < t.nops(); ++i) factors.push_back(t.op(i));
        else
            factors.push_back(t);
        Monomial m;
        for (const GiNaC::ex& f : factors) {
            GiNaC::ex base = f, exponent = 1;
            if (GiNaC::is_a<GiNaC::power>(f)) base = f.op(0), exponent = f.op(1);
            if (GiNaC::is_a<GiNaC::numeric>(base)) continue;
            bool integer_power = GiNaC::is_a<GiNaC::numeric>(exponent) && GiNaC::ex_to<GiNaC::numeric>(exponent).is_integer();
            if (GiNaC::is_a<GiNaC::symbol>(base) && base.is_equal(a.eps) && integer_power) {
                m.eps_power -= GiNaC::ex_to<GiNaC::numeric>(exponent).to_int();
                continue;
            }
            if (GiNaC::is_a<GiNaC::symbol>(base)) {
                auto it = idx.find(GiNaC::ex_to<GiNaC::symbol>(base).get_name());
                if (it == idx.end()) continue;  // a parameter, a left limit: a constant
                if (integer_power && GiNaC::ex_to<GiNaC::numeric>(exponent).is_positive()) {
                    m.powers[it->second] += GiNaC::ex_to<GiNaC::numeric>(exponent).to_int();
                    continue;
                }
            }
            collect_atoms(f, idx, atoms);  // non-polynomial: its variables must stay finite
        }
        out.push_back(m);
    }
    std::sort(atoms.begin(), atoms.end());
    atoms.erase(std::unique(atoms.begin(), atoms.end()), atoms.end());
    return out;
}

}  // namespace

std::vector<MatchedRow> matched_rows(const ModeChangeArray& a) {
    const auto idx = index_by_name(a);
    std::vector<MatchedRow> rows;
    for (const auto& [ei, xj] : a.matching) {
        MatchedRow row;
        row.equation = ei;
        row.variable = xj;
        row.monomials = monomials_with(a, idx, a.equations[static_cast<std::size_t>(ei)].residual, row.atoms);
        rows.push_back(std::move(row));
    }
    return rows;
}

namespace {

// Z3's memory limit is a global parameter; set it when it changes.
void apply_memory_limit(unsigned mb) {
    static std::mutex m;
    static unsigned current = 0;
    std::lock_guard<std::mutex> lock(m);
    if (current == mb) return;
    z3::set_param("memory_max_size", static_cast<int>(mb));
    current = mb;
}

[[noreturn]] void z3_limit(const ModeChangeArray& a, const Z3Limits& limits, const std::string& reason) {
    const bool memory = reason.find("memory") != std::string::npos;
    throw LimitExceeded(
        memory ? fmt::format("Z3 ran out of its {} MiB memory limit ({}) on the rescaling of a mode-change array "
                             "of height {} with {} equations",
                             limits.max_memory_mb, reason, a.height, a.equations.size())
               : fmt::format("Z3 gave no answer within {} ms ({}), the Z3 time limit per query, on the rescaling of "
                             "a mode-change array of height {} with {} equations",
                             limits.timeout_ms, reason, a.height, a.equations.size()),
        memory ? "Z3 memory" : "Z3 time", memory ? "--z3-memory" : "--z3-timeout");
}

}  // namespace

namespace {

// The named constraints of the rescaling problem over integer (`real`
// false) or rational offsets `mu`: (name, formula).
std::vector<std::pair<std::string, z3::expr>> rescaling_constraints(const ModeChangeArray& a,
                                                                     const std::vector<MatchedRow>& rows,
                                                                     const std::vector<int>& restart_variables,
                                                                     bool nonlinear_finite, z3::context& ctx,
                                                                     const std::vector<z3::expr>& mu, bool real) {
    std::vector<std::pair<std::string, z3::expr>> named;
    for (std::size_t j = 0; j < a.variables.size(); ++j) {
        const std::string& v = a.symbol(a.variables[j]).get_name();
        named.emplace_back(fmt::format("offsets are natural numbers: {}", v), mu[j] >= 0);
        if (!a.dependent[j]) named.emplace_back(fmt::format("previous-mode data are finite: {}", v), mu[j] == 0);
    }
    for (int j : restart_variables)
        named.emplace_back(fmt::format("goodness (124): the restart variable {} is not impulsive",
                                       a.symbol(a.variables[static_cast<std::size_t>(j)]).get_name()),
                           mu[static_cast<std::size_t>(j)] == 0);
    auto val = [&](const Monomial& m) {
        z3::expr v = real ? ctx.real_val(m.eps_power) : ctx.int_val(m.eps_power);
        for (const auto& [j, p] : m.powers) v = v + p * mu[static_cast<std::size_t>(j)];
        return v;
    };
    for (const MatchedRow& row : rows) {
        const ArrayEquation& eq = a.equations[static_cast<std::size_t>(row.equation)];
        const int xj = row.variable;
        for (int j : nonlinear_finite ? row.atoms : std::vector<int>{})
            named.emplace_back(fmt::format("nonlinear in {}: {} must not be impulsive", eq.name,
                                           a.symbol(a.variables[static_cast<std::size_t>(j)]).get_name()),
                               mu[static_cast<std::size_t>(j)] == 0);
        std::vector<const Monomial*> with, without;
        for (const Monomial& m : row.monomials) (m.powers.count(xj) ? with : without).push_back(&m);
        const std::string x = a.symbol(a.variables[static_cast<std::size_t>(xj)]).get_name();
        if (with.empty()) {
            named.emplace_back(fmt::format("{} matched to {} does not contain it", eq.name, x), ctx.bool_val(false));
            continue;
        }
        for (const Monomial* o : without) {
            z3::expr_vector alternatives(ctx);
            for (const Monomial* w : with) alternatives.push_back(val(*w) >= val(*o));
            named.emplace_back(fmt::format("in {}, the terms of the matched {} dominate", eq.name, x),
                               z3::mk_or(alternatives));
        }
    }
    return named;
}

// The least offsets (smallest sum) under `named`, known satisfiable or
// not; nullopt when unsatisfiable.
std::optional<z3::model> least_offsets(const ModeChangeArray& a, const Z3Limits& limits, z3::context& ctx,
                                       const std::vector<std::pair<std::string, z3::expr>>& named,
                                       const std::vector<z3::expr>& mu, bool real, const z3::params& params) {
    z3::optimize opt(ctx);
    for (const auto& [name, f] : named) opt.add(f);
    z3::expr total = real ? ctx.real_val(0) : ctx.int_val(0);
    for (const z3::expr& m : mu) total = total + m;
    opt.minimize(total);
    opt.set(params);
    z3::check_result optimum = z3::unknown;
    try {
        optimum = opt.check();
    } catch (const z3::exception& e) {
        z3_limit(a, limits, e.msg());
    }
    if (optimum == z3::unknown) z3_limit(a, limits, Z3_optimize_get_reason_unknown(ctx, opt));
    if (optimum != z3::sat) return std::nullopt;
    return opt.get_model();
}

// The least offsets over the rationals, when some are not integers; the
// row that forces them: a matched row whose leading monomial holds its
// matched variable to a power >= 2 (f = lambda^3 -> lambda of order 1/3).
std::optional<FractionalOffsets> fractional_offsets(const ModeChangeArray& a, const std::vector<MatchedRow>& rows,
                                                    const std::vector<int>& restart_variables,
                                                    bool nonlinear_finite, const Z3Limits& limits,
                                                    z3::context& ctx, const z3::params& params) {
    std::vector<z3::expr> mu;
    for (std::size_t j = 0; j < a.variables.size(); ++j)
        mu.push_back(ctx.real_const(fmt::format("nu[{}]", a.symbol(a.variables[j]).get_name()).c_str()));
    auto named = rescaling_constraints(a, rows, restart_variables, nonlinear_finite, ctx, mu, /*real=*/true);
    std::optional<z3::model> model = least_offsets(a, limits, ctx, named, mu, /*real=*/true, params);
    if (!model) return std::nullopt;
    FractionalOffsets out;
    bool integral = true;
    for (const z3::expr& m : mu) {
        z3::expr v = model->eval(m, true);
        GiNaC::numeric q(v.numerator().get_numeral_int64());
        q = q / GiNaC::numeric(v.denominator().get_numeral_int64());
        integral = integral && q.is_integer();
        out.mu.push_back(q);
    }
    if (integral) return std::nullopt;
    // The cause: a fractional variable raised to a power >= 2 in a leading
    // monomial of its matched row; else the first fractional variable.
    auto rational_value = [&](const Monomial& m) {
        GiNaC::numeric v = m.eps_power;
        for (const auto& [j, p] : m.powers) v += p * out.mu[static_cast<std::size_t>(j)];
        return v;
    };
    for (const MatchedRow& row : rows) {
        const int xj = row.variable;
        const GiNaC::numeric& q = out.mu[static_cast<std::size_t>(xj)];
        if (q.is_integer()) continue;
        const std::vector<Monomial>& mons = row.monomials;
        GiNaC::numeric best = rational_value(mons.at(0));
        for (const Monomial& m : mons)
            if (rational_value(m) > best) best = rational_value(m);
        int power = 1;
        for (const Monomial& m : mons)
            if (auto p = m.powers.find(xj); p != m.powers.end() && rational_value(m) == best)
                power = std::max(power, p->second);
        if (out.variable < 0 || (power >= 2 && out.power < 2)) {
            out.variable = xj;
            out.equation = row.equation;
            out.power = power;
        }
    }
    return out;
}

}  // namespace

long monomial_value(const Monomial& m, const std::vector<int>& mu) { return value(m, mu); }

namespace {

bool dependent_powers_in(const ModeChangeArray& a, const std::vector<MatchedRow>& rows) {
    for (const MatchedRow& row : rows)
        for (const Monomial& m : row.monomials) {
            int degree = 0;
            for (const auto& [j, p] : m.powers)
                if (a.dependent[static_cast<std::size_t>(j)]) degree += p;
            if (degree >= 2) return true;
        }
    return false;
}

std::map<int, int> offsets_of_rows(const std::vector<MatchedRow>& rows, const std::vector<int>& mu) {
    std::map<int, int> out;
    for (const MatchedRow& row : rows) {
        long best = -1000000;
        for (const Monomial& m : row.monomials) best = std::max(best, value(m, mu));
        out[row.equation] = static_cast<int>(best);
    }
    return out;
}

std::optional<std::string> check_rows(const ModeChangeArray& a, const std::vector<MatchedRow>& rows,
                                      const std::vector<int>& restart_variables, const RescalingResult& r,
                                      bool nonlinear_finite) {
    if (r.mu.size() != a.variables.size()) return "wrong number of offsets";
    for (std::size_t j = 0; j < a.variables.size(); ++j) {
        if (r.mu[j] < 0) return fmt::format("negative offset for {}", a.symbol(a.variables[j]).get_name());
        if (!a.dependent[j] && r.mu[j] != 0)
            return fmt::format("previous-mode data {} given an offset", a.symbol(a.variables[j]).get_name());
    }
    for (int j : restart_variables)
        if (r.mu[static_cast<std::size_t>(j)] != 0)
            return fmt::format("restart variable {} impulsive", a.symbol(a.variables[static_cast<std::size_t>(j)]).get_name());
    for (const MatchedRow& row : rows) {
        for (int j : row.atoms)
            if (nonlinear_finite && r.mu[static_cast<std::size_t>(j)] != 0)
                return "an impulsive variable inside a non-polynomial term";
        long with = -1000000, without = -1000000;
        for (const Monomial& m : row.monomials) {
            long& best = m.powers.count(row.variable) ? with : without;
            best = std::max(best, value(m, r.mu));
        }
        if (with < without)
            return fmt::format("in {} the matched variable's terms do not dominate",
                               a.equations[static_cast<std::size_t>(row.equation)].name);
    }
    return std::nullopt;
}

std::optional<RescalingResult> zero_offsets_of_rows(const ModeChangeArray& a, const std::vector<MatchedRow>& rows,
                                                    const std::vector<int>& restart_variables, bool nonlinear_finite) {
    MODEAUDIT_ASSERT(a.matched, "rescaling of an array without a matching");
    // At mu = 0 every constraint of rescaling_constraints is the check's
    // (check_rows), except one the check leaves to Z3: a matched row must
    // contain its variable.
    for (const MatchedRow& row : rows)
        if (std::none_of(row.monomials.begin(), row.monomials.end(),
                         [&](const Monomial& m) { return m.powers.count(row.variable) != 0; }))
            return std::nullopt;
    RescalingResult r;
    r.mu.assign(a.variables.size(), 0);
    if (check_rows(a, rows, restart_variables, r, nonlinear_finite)) return std::nullopt;
    r.mu_equation = offsets_of_rows(rows, r.mu);
    r.solved = true;
    return r;
}

// What the rescaling problem of an array is, with the variables by their
// position: the dependent flags, each matched row's monomials and
// non-polynomial atoms, the matching, the restart variables. Two arrays with
// the same content (the transitions of identical switching cells) have the
// same constraints up to the variables' names.
std::string problem_content(const ModeChangeArray& a, const std::vector<MatchedRow>& rows,
                            const std::vector<int>& restart_variables, bool nonlinear_finite) {
    std::string key = fmt::format("{}|{}|", a.variables.size(), nonlinear_finite ? 1 : 0);
    for (bool d : a.dependent) key += d ? '1' : '0';
    key += '|';
    for (int j : restart_variables) key += fmt::format("{},", j);
    for (const MatchedRow& row : rows) {
        key += fmt::format("|{}>{}:", row.equation, row.variable);
        // The monomials sorted: GiNaC's term order varies between arrays.
        std::vector<std::string> terms;
        for (const Monomial& m : row.monomials) {
            std::string t = fmt::format("e{}", m.eps_power);
            for (const auto& [j, p] : m.powers) t += fmt::format("x{}^{}", j, p);
            terms.push_back(std::move(t));
        }
        std::sort(terms.begin(), terms.end());
        for (const std::string& t : terms) key += t + ';';
        for (int j : row.atoms) key += fmt::format("a{}", j);  // sorted by monomials_with
    }
    return key;
}

RescalingResult solve_with_z3(const ModeChangeArray& a, const std::vector<MatchedRow>& rows,
                              const std::vector<int>& restart_variables, bool nonlinear_finite,
                              const Z3Limits& limits);

// Solved problems by content, per thread, at most this many kept: a long
// `regress` sees many models, and a content seen again is mostly one of
// the same model's.
constexpr std::size_t kSolvedByContentLimit = 4096;

}  // namespace

bool has_dependent_powers(const ModeChangeArray& a) { return dependent_powers_in(a, matched_rows(a)); }

std::map<int, int> equation_offsets(const ModeChangeArray& a, const std::vector<int>& mu) {
    return offsets_of_rows(matched_rows(a), mu);
}

std::optional<std::string> check_rescaling(const ModeChangeArray& a, const std::vector<int>& restart_variables,
                                           const RescalingResult& r, bool nonlinear_finite) {
    return check_rows(a, matched_rows(a), restart_variables, r, nonlinear_finite);
}

std::optional<RescalingResult> zero_offsets(const ModeChangeArray& a, const std::vector<int>& restart_variables,
                                            bool nonlinear_finite) {
    return zero_offsets_of_rows(a, matched_rows(a), restart_variables, nonlinear_finite);
}

RescalingResult solve_rescaling(const ModeChangeArray& a, const std::vector<int>& restart_variables,
                                bool nonlinear_finite, const Z3Limits& limits, bool zero_shortcut) {
    MODEAUDIT_ASSERT(a.matched, "rescaling of an array without a matching");
    const std::vector<MatchedRow> rows = matched_rows(a);
    if (!zero_shortcut) return solve_with_z3(a, rows, restart_variables, nonlinear_finite, limits);
    if (std::optional<RescalingResult> zero = zero_offsets_of_rows(a, rows, restart_variables, nonlinear_finite))
        return *zero;
    // Solved problems by content: identical cells ask Z3 once. Only answers
    // that name no variable are kept (solved, checked): an unsat core names
    // this array's variables.
    thread_local std::map<std::string, RescalingResult> solved_by_content;
    const std::string content = problem_content(a, rows, restart_variables, nonlinear_finite);
    if (auto it = solved_by_content.find(content); it != solved_by_content.end()) return it->second;
    RescalingResult r = solve_with_z3(a, rows, restart_variables, nonlinear_finite, limits);
    if (r.solved && !r.recheck_failure && r.nonlinear.empty() && r.core.empty()) {
        if (solved_by_content.size() >= kSolvedByContentLimit) solved_by_content.clear();
        solved_by_content.emplace(content, r);
    }
    return r;
}

RescalingResult solve_rescaling_with_z3(const ModeChangeArray& a, const std::vector<int>& restart_variables,
                                        bool nonlinear_finite, const Z3Limits& limits) {
    MODEAUDIT_ASSERT(a.matched, "rescaling of an array without a matching");
    return solve_with_z3(a, matched_rows(a), restart_variables, nonlinear_finite, limits);
}

namespace {

RescalingResult solve_with_z3(const ModeChangeArray& a, const std::vector<MatchedRow>& rows,
                              const std::vector<int>& restart_variables, bool nonlinear_finite,
                              const Z3Limits& limits) {
    RescalingResult r;
    // One Z3 context per thread: creating a context costs far more than
    // solving one of these small arrays (each solve has its own solver).
    thread_local z3::context ctx;
    std::vector<z3::expr> mu;
    for (std::size_t j = 0; j < a.variables.size(); ++j)
        mu.push_back(ctx.int_const(fmt::format("mu[{}]", a.symbol(a.variables[j]).get_name()).c_str()));
    const auto named = rescaling_constraints(a, rows, restart_variables, nonlinear_finite, ctx, mu, /*real=*/false);
    // Satisfiability with tracked assertions, for an unsat core by name.
    z3::solver solver(ctx);
    std::vector<z3::expr> trackers;
    for (std::size_t k = 0; k < named.size(); ++k) {
        z3::expr t = ctx.bool_const(fmt::format("c{}", k).c_str());
        solver.add(z3::implies(t, named[k].second));
        trackers.push_back(t);
    }
    z3::expr_vector assumptions(ctx);
    for (const z3::expr& t : trackers) assumptions.push_back(t);
    apply_memory_limit(limits.max_memory_mb);
    z3::params params(ctx);
    params.set("timeout", limits.timeout_ms);
    solver.set(params);
    z3::check_result answer = z3::unknown;
    try {
        answer = solver.check(assumptions);
    } catch (const z3::exception& e) {
        z3_limit(a, limits, e.msg());
    }
    if (answer == z3::unknown) z3_limit(a, limits, solver.reason_unknown());
    // Powers of dependent variables: the least offsets over the rationals
    // may be fractional (and may exist where integer ones do not).
    if (dependent_powers_in(a, rows))
        r.fractional = fractional_offsets(a, rows, restart_variables, nonlinear_finite, limits, ctx, params);
    if (answer != z3::sat) {
        z3::expr_vector core = solver.unsat_core();
        std::set<std::string> seen;
        for (unsigned i = 0; i < core.size(); ++i) {
            std::string n = core[i].decl().name().str();
            std::size_t k = std::stoul(n.substr(1));
            if (seen.insert(named[k].first).second) r.core.push_back(named[k].first);
        }
        std::sort(r.core.begin(), r.core.end());
        for (const std::string& c : r.core)
            if (c.rfind("nonlinear in", 0) == 0) r.nonlinear = c;
        return r;
    }
    // The least offsets: minimise their sum.
    std::optional<z3::model> model = least_offsets(a, limits, ctx, named, mu, /*real=*/false, params);
    MODEAUDIT_ASSERT(model.has_value(), "Z3: satisfiable constraints became unsatisfiable under minimisation");
    for (const z3::expr& m : mu) r.mu.push_back(model->eval(m, true).get_numeral_int());
    r.mu_equation = offsets_of_rows(rows, r.mu);
    r.solved = true;
    r.recheck_failure = check_rows(a, rows, restart_variables, r, nonlinear_finite);
    return r;
}

}  // namespace

}  // namespace modeaudit
