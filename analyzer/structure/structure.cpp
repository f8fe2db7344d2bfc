#include "structure/structure.h"

#include "flatten/function_call.h"
#include "flatten/function_interpreter.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>

#include "common/internal_error.h"
#include "flatten/expression_builder.h"
#include "flatten/flattener.h"
#include "structure/numeric.h"

namespace modeaudit {

std::string_view mode_status_name(ModeStatus s) {
    switch (s) {
        case ModeStatus::Regular: return "regular";
        case ModeStatus::StructurallySingular: return "structurally-singular";
        case ModeStatus::NumericallySingular: return "numerically-singular";
        case ModeStatus::Overdetermined: return "overdetermined";
        case ModeStatus::Underdetermined: return "underdetermined";
    }
    return "regular";
}

namespace {

using GiNaC::ex;

std::set<GiNaC::symbol, GiNaC::ex_is_less> symbols_of(const ex& e) {
    std::set<GiNaC::symbol, GiNaC::ex_is_less> out;
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it)) out.insert(GiNaC::ex_to<GiNaC::symbol>(*it));
    return out;
}

double start_value(const FlatVariable& v) {
    if (v.start)
        if (auto n = numeric_value(*v.start); n && n->is_real()) return n->to_double();
    return 0;
}

// Newton's first guess for each symbol: a variable's start value, 0 for a derivative.
std::vector<double> start_guesses(const FlatModel& flat, const std::vector<GiNaC::symbol>& symbols) {
    std::vector<double> out;
    for (const GiNaC::symbol& s : symbols) {
        auto m = flat.symbols.meaning(s);
        out.push_back(m && m->role == SymbolTable::Meaning::Role::Variable
                          ? start_value(flat.variables[static_cast<std::size_t>(m->index)])
                          : 0.0);
    }
    return out;
}

// The scale of each symbol for the further start points: a variable's
// |nominal| when it has a non-zero one, else |start| when non-zero, else 1.
std::vector<double> start_scales(const FlatModel& flat, const std::vector<GiNaC::symbol>& symbols) {
    std::vector<double> out;
    for (const GiNaC::symbol& s : symbols) {
        double scale = 1;
        auto m = flat.symbols.meaning(s);
        if (m && m->role == SymbolTable::Meaning::Role::Variable) {
            const FlatVariable& v = flat.variables[static_cast<std::size_t>(m->index)];
            auto nominal = v.nominal ? numeric_value(*v.nominal) : std::nullopt;
            if (nominal && nominal->is_real() && !nominal->is_zero())
                scale = std::fabs(nominal->to_double());
            else if (double st = start_value(v); st != 0)
                scale = std::fabs(st);
        }
        out.push_back(std::isfinite(scale) ? scale : 1.0);
    }
    return out;
}

// Start point number k (0 <= k < kStartPoints) for Newton's method: 0 is the
// start values; when Newton fails from there (a zero start is often exactly
// where a Jacobian vanishes: d(x^2)/dx at 0), 1 and 2 replace the zero
// start values by +scale and -scale, and 3 moves every value by a
// deterministic pseudo-random fraction in [-1, 1] of its scale.
constexpr int kStartPoints = 4;
std::vector<double> start_point(const std::vector<double>& start, const std::vector<double>& scale, int k) {
    std::vector<double> x = start;
    std::uint32_t state = 2463534242u;  // xorshift32: the same points on every platform
    for (std::size_t i = 0; i < x.size(); ++i) {
        switch (k) {
            case 1: if (x[i] == 0) x[i] = scale[i]; break;
            case 2: if (x[i] == 0) x[i] = -scale[i]; break;
            case 3: {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                double u = static_cast<double>(state) / 4294967295.0 * 2 - 1;
                x[i] += u * scale[i];
                break;
            }
            default: break;
        }
    }
    return x;
}

// Values for every symbol of the completed system that is neither a state
// nor a leading variable: parameters kept symbolic (their value, or for an
// unknown constant the middle of its range), discrete variables and given
// inputs (start values), time 0.
GiNaC::exmap data_values(const FlatModel& flat, const std::vector<const ex*>& exprs,
                         const std::set<GiNaC::symbol, GiNaC::ex_is_less>& unknowns, std::string& note) {
    GiNaC::exmap m;
    for (const ex* e : exprs)
        for (const GiNaC::symbol& s : symbols_of(*e)) {
            if (unknowns.count(s) || m.count(s)) continue;
            auto meaning = flat.symbols.meaning(s);
            if (!meaning) continue;
            using R = SymbolTable::Meaning::Role;
            switch (meaning->role) {
                case R::Time: m[s] = 0; break;
                case R::Condition: break;
                case R::Derivative: m[s] = 0; break;
                case R::Pre:
                case R::Variable: {
                    const FlatVariable& v = flat.variables[static_cast<std::size_t>(meaning->index)];
                    if (v.value && !v.unknown_constant) {
                        m[s] = *v.value;
                    } else if (v.unknown_constant) {
                        auto lo = v.min ? numeric_value(*v.min) : std::nullopt;
                        auto hi = v.max ? numeric_value(*v.max) : std::nullopt;
                        ex val = lo && hi ? ex((*lo + *hi) / 2) : lo ? ex(*lo) : hi ? ex(*hi) : ex(1);
                        m[s] = val;
                        note += fmt::format("{}the unknown constant {} is taken as {}", note.empty() ? "" : "; ", v.name,
                                            canonical(val));
                    } else {
                        m[s] = GiNaC::numeric(start_value(v));
                    }
                    break;
                }
            }
        }
    return m;
}

std::string equation_label(const FlatModel& flat, const Mode& mode, int row) {
    const FlatEquation& fe = flat.equations[static_cast<std::size_t>(mode.equations[static_cast<std::size_t>(row)].equation)];
    return fmt::format("line {}: 0 = {}", fe.range.begin.line, canonical_in(flat, mode.equations[static_cast<std::size_t>(row)].residual));
}

void check_regularity(const FlatModel& flat, const Mode& mode, ModeStructure& ms) {
    Regularity& reg = ms.regularity;
    const std::size_t n = ms.reduced.size();
    reg.size = n;
    reg.checked = true;
    // Jacobian of F_DOWN in the leading variables: by Griewank's lemma only
    // the tight entries d_j - c_i = sigma_ij can be non-zero.
    std::vector<std::vector<ex>> jac(n, std::vector<ex>(n, 0));
    for (std::size_t i = 0; i < n; ++i)
        for (const SignatureEntry& e : ms.signature.entries[i])
            if (ms.sigma.d[static_cast<std::size_t>(e.col)] - ms.sigma.c[i] == e.sigma)
                jac[i][static_cast<std::size_t>(e.col)] = ms.reduced[i].residual.diff(ms.leading[static_cast<std::size_t>(e.col)]);
    std::set<GiNaC::symbol, GiNaC::ex_is_less> unknowns(ms.states.begin(), ms.states.end());
    unknowns.insert(ms.leading.begin(), ms.leading.end());
    std::vector<const ex*> all;
    for (const auto& c : ms.reduced) all.push_back(&c.residual);
    for (const auto& c : ms.consistency) all.push_back(&c.residual);
    std::string note;
    GiNaC::exmap data = data_values(flat, all, unknowns, note);
    bool constant = true;
    // A derivative can have a pole where the equation itself is defined (abs
    // or a fractional power at its kink: d|u|^0.5/du = 0.5*sign(u)/|u|^0.5); GiNaC throws on
    // the substitution. That point then does not decide the rank.
    auto substitute = [](std::vector<std::vector<ex>>& m, const GiNaC::exmap& values, std::string& why) {
        try {
            for (auto& row : m)
                for (ex& x : row) x = x.subs(values, kExactSubs);
            return true;
        } catch (const std::exception& e) {
            why = e.what();
            return false;
        }
    };
    std::string pole;
    if (!substitute(jac, data, pole)) {
        reg.conclusive = false;
        reg.jacobian_undefined = true;
        reg.point_note = "the Jacobian is not defined at the parameter values (" + pole + ")";
        return;
    }
    for (auto& row : jac)
        for (ex& x : row)
            for (const GiNaC::symbol& s : symbols_of(x))
                if (unknowns.count(s)) constant = false;
    if (constant) {
        reg.constant = true;
        reg.point_consistent = true;
        reg.point_note = "the Jacobian does not depend on the point";
    } else {
        // A consistent point: states from their start values moved as little
        // as possible onto the consistency conditions (Gauss-Newton), then
        // the leading variables from F_DOWN. When that fails from the start
        // values, a few other start points (start_point) are tried; a point
        // that is not consistent is not where the rank is decided (below).
        std::vector<ex> cons;
        for (const auto& c : ms.consistency) cons.push_back(c.residual.subs(data, kExactSubs));
        const std::vector<double> x_start = start_guesses(flat, ms.states), x_scale = start_scales(flat, ms.states);
        const std::vector<double> l_start = start_guesses(flat, ms.leading), l_scale = start_scales(flat, ms.leading);
        struct Attempt {
            bool ok = true;
            std::vector<double> xs, ls;
            std::string note;
            int iterations = 0;       // both solves
            int cons_iterations = 0;  // the consistency conditions' solve
        };
        auto attempt = [&](int k) {
            Attempt a;
            a.xs = start_point(x_start, x_scale, k);
            if (!cons.empty()) {
                NewtonResult r = newton(cons, ms.states, {}, a.xs);
                a.ok = r.converged;
                a.iterations += r.iterations;
                a.cons_iterations = r.iterations;
                if (!r.values.empty()) a.xs = r.values;
                if (!a.ok) a.note = "the consistency conditions could not be solved: " + r.message;
            }
            GiNaC::exmap states_at;
            for (std::size_t i = 0; i < ms.states.size(); ++i) states_at[ms.states[i]] = a.xs[i];
            std::vector<ex> red;
            // A function of the states evaluated at this point may fail there
            // (a loop that does not end for a negative argument, a division
            // by zero): the point is then not consistent, like a failed solve.
            try {
                for (const auto& c : ms.reduced)
                    red.push_back(c.residual.subs(data, kExactSubs).subs(states_at, kExactSubs));
            } catch (const std::exception& e) {
                a.ok = false;
                a.note += std::string(a.note.empty() ? "" : "; ") + "F_DOWN cannot be evaluated there: " + e.what();
                a.ls = start_point(l_start, l_scale, k);
                return a;
            }
            std::vector<double> l0 = start_point(l_start, l_scale, k);
            NewtonResult lr = newton(red, ms.leading, {}, l0);
            a.iterations += lr.iterations;
            if (!lr.converged) {
                a.ok = false;
                a.note += std::string(a.note.empty() ? "" : "; ") + "the leading variables could not be solved: " + lr.message;
            }
            a.ls = lr.values.empty() ? l0 : lr.values;
            return a;
        };
        static const char* const kStartNames[] = {"the start values", "the start values with zeros replaced by +scale",
                                                  "the start values with zeros replaced by -scale",
                                                  "perturbed start values"};
        auto point_of = [&](const Attempt& a) {
            GiNaC::exmap at;
            for (std::size_t k = 0; k < ms.states.size(); ++k) at[ms.states[k]] = a.xs[k];
            for (std::size_t k = 0; k < ms.leading.size(); ++k) at[ms.leading[k]] = a.ls[k];
            return at;
        };
        // The first consistent point (in the order of the start points) at
        // which the Jacobian is defined.
        Attempt first = attempt(0), chosen = first;
        std::vector<std::vector<ex>> jac_at;
        int used = -1;
        for (int k = 0; used < 0 && k < kStartPoints; ++k) {
            Attempt a = k == 0 ? first : attempt(k);
            if (!a.ok) continue;
            std::vector<std::vector<ex>> trial = jac;
            std::string why;
            if (substitute(trial, point_of(a), why)) {
                chosen = std::move(a), used = k, jac_at = std::move(trial);
            } else if (pole.empty()) {
                pole = fmt::format("the Jacobian is not defined at the consistent point found from {} ({})",
                                   kStartNames[k], why);
            }
        }
        if (used < 0 && !pole.empty()) {
            // Consistent points exist, but the Jacobian has a pole at each.
            reg.conclusive = false;
            reg.jacobian_undefined = true;
            reg.point_consistent = true;
            reg.point_note = pole;
            return;
        }
        if (used < 0) {
            used = 0;  // no consistent point: the rank at the start values decides nothing (below)
            std::string why;
            jac_at = jac;
            if (!substitute(jac_at, point_of(first), why)) {
                reg.conclusive = false;
                reg.jacobian_undefined = true;
                reg.point_note = fmt::format("no consistent point found from {} start points, and the Jacobian is not "
                                             "defined at the start values ({}); from the start values, {}",
                                             kStartPoints, why, first.note);
                return;
            }
        }
        if (chosen.ok) {
            if (used == 0)
                reg.point_note = cons.empty() ? std::string()
                                              : fmt::format("consistency conditions solved from the start values ({} iterations)",
                                                            chosen.cons_iterations);
            else
                reg.point_note = fmt::format("consistent point solved from {} ({} iterations); from the start values, {}",
                                             kStartNames[used], chosen.iterations, first.note);
        } else {
            reg.point_note = fmt::format("no consistent point found from {} start points; from the start values, {}",
                                         kStartPoints, first.note);
        }
        if (!pole.empty()) reg.point_note += "; " + pole;
        for (std::size_t k = 0; k < ms.states.size(); ++k) reg.point.emplace_back(ms.states[k], chosen.xs[k]);
        for (std::size_t k = 0; k < ms.leading.size(); ++k) reg.point.emplace_back(ms.leading[k], chosen.ls[k]);
        reg.point_consistent = chosen.ok;
        jac = std::move(jac_at);
    }
    if (!note.empty()) reg.point_note += (reg.point_note.empty() ? "" : "; ") + note;
    // Exact when every entry is a rational number, else floating point.
    bool rational = true;
    std::vector<std::vector<GiNaC::numeric>> q(n, std::vector<GiNaC::numeric>(n));
    std::vector<std::vector<double>> f(n, std::vector<double>(n, 0));
    bool evaluable = true;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            auto v = numeric_value(jac[i][j]);
            if (!v || !v->is_real()) {
                evaluable = false;
                continue;
            }
            if (v->is_rational())
                q[i][j] = *v;
            else
                rational = false;
            f[i][j] = v->to_double();
        }
    if (!evaluable) {
        reg.checked = false;
        reg.point_note += std::string(reg.point_note.empty() ? "" : "; ") + "the Jacobian could not be evaluated";
        return;
    }
    if (rational) {
        ExactRank er = exact_rank(q);
        reg.exact = true;
        reg.rank = er.rank;
        if (er.rank == n) {
            FloatRank fr = float_rank(f);
            reg.condition = fr.condition;
            reg.scaled_condition = fr.scaled_condition;
        } else {
            reg.condition = reg.scaled_condition = std::numeric_limits<double>::infinity();
        }
        for (const auto& dep : er.dependent) {
            reg.dependent.push_back(static_cast<int>(dep.row));
            auto line = [&](std::size_t reduced_row) {
                int row = ms.reduced[reduced_row].row;
                return flat.equations[static_cast<std::size_t>(mode.equations[static_cast<std::size_t>(row)].equation)]
                    .range.begin.line;
            };
            std::string combo;
            for (const auto& [row, coeff] : dep.combination)
                combo += fmt::format("{}{} * (line {})", combo.empty() ? "" : " + ", canonical(coeff), line(row));
            reg.dependencies.push_back(fmt::format("in the Jacobian, the row of line {} = {}", line(dep.row),
                                                   combo.empty() ? "0" : combo));
        }
    } else {
        FloatRank fr = float_rank(f);
        reg.rank = fr.rank;
        reg.condition = fr.condition;
        reg.scaled_condition = fr.scaled_condition;
        for (std::size_t r : fr.dependent_rows) reg.dependent.push_back(static_cast<int>(r));
    }
    // A rank-deficient Jacobian at a point that is not consistent says
    // nothing about the mode (Newton's failure from its start points is not
    // a singularity: x^2 = 4 from x = 0); only a constant Jacobian is
    // decided anywhere.
    if (reg.rank < n && !reg.constant && !reg.point_consistent) reg.conclusive = false;
}

}  // namespace

ModeStructure analyze_mode(const FlatModel& flat, const Mode& mode, const StructureOptions& options) {
    ModeStructure ms;
    ms.signature = build_signature(flat, mode);
    ms.dm = dulmage_mendelsohn(ms.signature);
    if (!ms.dm.perfect()) {
        bool over = !ms.dm.over_rows.empty(), under = !ms.dm.under_cols.empty();
        ms.status = over && under ? ModeStatus::StructurallySingular
                    : over        ? ModeStatus::Overdetermined
                                  : ModeStatus::Underdetermined;
        return ms;
    }
    ms.sigma = sigma_method(ms.signature);
    MODEAUDIT_ASSERT(ms.sigma.well_posed, "a perfect matching exists but the Sigma-method found no transversal");
    ms.certificate_failure = check_offsets(ms.signature, ms.sigma);
    MODEAUDIT_ASSERT(!ms.certificate_failure, "Sigma-method offsets fail their certificate: " + ms.certificate_failure.value_or(""));
    // The completed system: each equation and its derivatives up to c_i.
    for (std::size_t i = 0; i < mode.equations.size(); ++i) {
        ex f = mode.equations[i].residual;
        for (int k = 0; k <= ms.sigma.c[i]; ++k) {
            if (k > 0) f = total_derivative(flat, f);
            CompletedEquation ce{static_cast<int>(i), k, f};
            (k == ms.sigma.c[i] ? ms.reduced : ms.consistency).push_back(ce);
        }
    }
    for (std::size_t j = 0; j < mode.unknowns.size(); ++j) {
        int v = mode.unknowns[j];
        int d = ms.sigma.d[j];
        ms.leading.push_back(d == 0 ? flat.symbols.variable(v) : flat.symbols.derivative(v, d));
        for (int k = 0; k < d; ++k) ms.states.push_back(k == 0 ? flat.symbols.variable(v) : flat.symbols.derivative(v, k));
    }
    if (options.numeric_check && mode.equations.size() <= options.max_numeric_size) check_regularity(flat, mode, ms);
    ms.status = ms.regularity.checked && ms.regularity.conclusive && ms.regularity.rank < ms.regularity.size
                    ? ModeStatus::NumericallySingular
                    : ModeStatus::Regular;
    return ms;
}

StructureResult analyze_structure(const FlatModel& flat, const ModeSet& modes, DiagnosticSink& sink,
                                  const StructureOptions& options) {
    StructureResult result;
    for (const Mode& mode : modes.modes) {
        ModeStructure ms = analyze_mode(flat, mode, options);
        std::string which = mode.id.empty() ? "the model" : "mode " + mode.id;
        auto eq_range = [&](int row) {
            return flat.equations[static_cast<std::size_t>(mode.equations[static_cast<std::size_t>(row)].equation)].range;
        };
        auto var_name = [&](int col) {
            return flat.variables[static_cast<std::size_t>(mode.unknowns[static_cast<std::size_t>(col)])].name;
        };
        if (!ms.dm.over_rows.empty()) {
            std::vector<std::string> notes;
            for (int r : ms.dm.over_rows) notes.push_back(equation_label(flat, mode, r));
            std::string vars;
            for (int c : ms.dm.over_cols) vars += (vars.empty() ? "" : ", ") + var_name(c);
            sink.report(rule::structure_overdetermined, eq_range(ms.dm.over_rows.front()),
                        fmt::format("{} is overdetermined: {} equations for the {} variable{} {}; one of them is "
                                    "redundant or contradicts the others",
                                    which, ms.dm.over_rows.size(), ms.dm.over_cols.size(),
                                    ms.dm.over_cols.size() == 1 ? "" : "s", vars.empty() ? "(none)" : vars),
                        notes);
        }
        if (!ms.dm.under_cols.empty()) {
            std::string vars;
            for (int c : ms.dm.under_cols) vars += (vars.empty() ? "" : ", ") + var_name(c);
            std::vector<std::string> notes;
            for (int r : ms.dm.under_rows) notes.push_back(equation_label(flat, mode, r));
            sink.report(rule::structure_underdetermined, flat.range,
                        fmt::format("{} is underdetermined: {} have no determining equation ({} variable{} for {} "
                                    "equation{})",
                                    which, vars, ms.dm.under_cols.size(), ms.dm.under_cols.size() == 1 ? "" : "s",
                                    ms.dm.under_rows.size(), ms.dm.under_rows.size() == 1 ? "" : "s"),
                        notes);
        }
        if (ms.status == ModeStatus::NumericallySingular) {
            std::vector<std::string> notes = ms.regularity.dependencies;
            for (int r : ms.regularity.dependent) notes.push_back(equation_label(flat, mode, ms.reduced[static_cast<std::size_t>(r)].row));
            if (!ms.regularity.point_note.empty()) notes.push_back(ms.regularity.point_note);
            int first = ms.reduced[static_cast<std::size_t>(ms.regularity.dependent.empty() ? 0 : ms.regularity.dependent.front())].row;
            sink.report(rule::structure_numerically_singular, eq_range(first),
                        fmt::format("{} is numerically singular: its equations have a perfect structural matching, "
                                    "but the Jacobian of the leading variables has rank {} of {}{}",
                                    which, ms.regularity.rank, ms.regularity.size,
                                    ms.regularity.constant ? "" : " at the point checked"),
                        notes);
        }
        if (ms.regularity.checked && ms.regularity.jacobian_undefined) {
            std::vector<std::string> notes;
            if (!ms.regularity.point_note.empty()) notes.push_back(ms.regularity.point_note);
            sink.report(rule::structure_regularity_inconclusive, flat.range,
                        fmt::format("the numerical regularity of {} is not established: its Jacobian of the leading "
                                    "variables is not defined at the points tried, where a derivative has a pole "
                                    "(such as that of abs(u)^0.5 at u = 0)",
                                    which),
                        notes);
        } else if (ms.regularity.checked && !ms.regularity.conclusive) {
            std::vector<std::string> notes;
            if (!ms.regularity.point_note.empty()) notes.push_back(ms.regularity.point_note);
            notes.push_back(fmt::format("at the last point tried the Jacobian of the leading variables has rank {} of {}; "
                                        "at a point that does not satisfy the equations this decides nothing",
                                        ms.regularity.rank, ms.regularity.size));
            sink.report(rule::structure_regularity_inconclusive, flat.range,
                        fmt::format("the numerical regularity of {} is not established: no point satisfying its "
                                    "equations was found, and its Jacobian depends on the point",
                                    which),
                        notes);
        }
        // Functions evaluated numerically that index reduction differentiates.
        if (ms.sigma.well_posed) {
            std::set<std::string> approximated, missing;
            auto scan = [&](const CompletedEquation& c) {
                if (c.order == 0) return;
                for (GiNaC::const_preorder_iterator it = c.residual.preorder_begin(); it != c.residual.preorder_end();
                     ++it) {
                    if (auto call = as_call(*it); call && call->partial > 0)
                        approximated.insert(fn::Registry::instance().get(call->function).name);
                    if (auto f = noderiv_function(*it)) missing.insert(*f);
                }
            };
            for (const CompletedEquation& c : ms.consistency) scan(c);
            for (const CompletedEquation& c : ms.reduced) scan(c);
            for (const std::string& f : missing) approximated.erase(f);
            auto names = [](const std::set<std::string>& fs) {
                std::string out;
                for (const std::string& f : fs) out += (out.empty() ? "'" : ", '") + f + "'";
                return out;
            };
            if (!approximated.empty() || !missing.empty()) {
                std::string msg = fmt::format("index reduction of {} differentiates ", which);
                if (!approximated.empty())
                    msg += fmt::format("the function{} {}, evaluated numerically without a derivative annotation: its "
                                       "derivative is approximated by central differences",
                                       approximated.size() == 1 ? "" : "s", names(approximated));
                if (!approximated.empty() && !missing.empty()) msg += "; it also differentiates ";
                if (!missing.empty())
                    msg += fmt::format("the function{} {} three times, which is not available: the mode cannot be simulated",
                                       missing.size() == 1 ? "" : "s", names(missing));
                sink.report(rule::structure_function_differentiated, flat.range, msg,
                            {"give the function annotation(derivative = ...), or write its body as straight-line "
                             "assignments, which are inlined and differentiated exactly"});
            }
        }
        if (ms.sigma.well_posed && ms.sigma.index > options.max_index)
            sink.report(rule::structure_index_high, flat.range,
                        fmt::format("{} has structural index {} (above {}): {} equation{} must be differentiated; "
                                    "numerical solvers and initialization are fragile at such an index",
                                    which, ms.sigma.index, options.max_index, ms.consistency.size(),
                                    ms.consistency.size() == 1 ? "" : "s"));
        // Consistency conditions over fixed start values only.
        if (ms.sigma.well_posed && &mode == &modes.modes.front()) {
            for (const CompletedEquation& c : ms.consistency) {
                if (c.order != 0) continue;
                GiNaC::exmap at;
                bool all_fixed = true;
                for (const GiNaC::symbol& s : symbols_of(c.residual)) {
                    auto m = flat.symbols.meaning(s);
                    if (!m || m->role != SymbolTable::Meaning::Role::Variable) {
                        all_fixed = false;
                        break;
                    }
                    const FlatVariable& v = flat.variables[static_cast<std::size_t>(m->index)];
                    if (v.variability == Variability::Continuous && v.fixed && v.start)
                        at[s] = *v.start;
                    else if (v.value && !v.unknown_constant)
                        at[s] = *v.value;
                    else
                        all_fixed = false;
                }
                if (!all_fixed) continue;
                auto r = numeric_value(c.residual.subs(at, kExactSubs));
                if (!r || !r->is_real() || std::abs(r->to_double()) <= 1e-9) continue;
                sink.report(rule::structure_inconsistent_start, eq_range(c.row),
                            fmt::format("the fixed start values violate the consistency condition 0 = {} of {} "
                                        "(residual {}); release one of the fixed starts or correct it",
                                        canonical_in(flat, c.residual), which, fmt::format("{:.6g}", r->to_double())));
            }
        }
        result.modes.push_back(std::move(ms));
    }
    return result;
}

void dump_structure(const FlatModel& flat, const ModeSet& modes, const StructureResult& s, std::ostream& out) {
    for (std::size_t m = 0; m < modes.modes.size(); ++m) {
        const Mode& mode = modes.modes[m];
        const ModeStructure& ms = s.modes[m];
        out << fmt::format("mode {} [{}]: {}\n", m, mode.id.empty() ? "single mode" : mode.id, mode_status_name(ms.status));
        auto var_name = [&](int col) {
            return flat.variables[static_cast<std::size_t>(mode.unknowns[static_cast<std::size_t>(col)])].name;
        };
        out << "  signature matrix (row: variable^sigma ...):\n";
        for (int i = 0; i < ms.signature.rows; ++i) {
            std::string row;
            for (const SignatureEntry& e : ms.signature.entries[static_cast<std::size_t>(i)])
                row += fmt::format(" {}^{}", var_name(e.col), e.sigma);
            out << fmt::format("    e{}:{}\n", i + 1, row);
        }
        if (!ms.dm.perfect()) {
            auto list = [&](const std::vector<int>& v, bool rows) {
                std::string t;
                for (int x : v) t += (t.empty() ? "" : ", ") + (rows ? fmt::format("e{}", x + 1) : var_name(x));
                return t.empty() ? std::string("-") : t;
            };
            out << "  Dulmage-Mendelsohn: over " << list(ms.dm.over_rows, true) << " / " << list(ms.dm.over_cols, false)
                << "; under " << list(ms.dm.under_rows, true) << " / " << list(ms.dm.under_cols, false) << "; well "
                << ms.dm.well_rows.size() << " equations\n";
            continue;
        }
        out << fmt::format("  blocks (BTF): {}\n", ms.dm.blocks.size());
        std::string hvt, c, d;
        for (int i = 0; i < ms.signature.rows; ++i) {
            hvt += fmt::format(" e{}-{}", i + 1, var_name(ms.sigma.transversal[static_cast<std::size_t>(i)]));
            c += fmt::format(" {}", ms.sigma.c[static_cast<std::size_t>(i)]);
        }
        for (int j = 0; j < ms.signature.cols; ++j) d += fmt::format(" {}={}", var_name(j), ms.sigma.d[static_cast<std::size_t>(j)]);
        out << "  HVT:" << hvt << fmt::format("  (value {})\n", ms.sigma.value);
        out << "  c:" << c << "\n  d:" << d << "\n";
        out << fmt::format("  index {}, degrees of freedom {}, certificate {}\n", ms.sigma.index, ms.sigma.dof,
                           ms.certificate_failure ? "FAILED: " + *ms.certificate_failure : "holds");
        std::string states, leading;
        for (const auto& x : ms.states) states += (states.empty() ? "" : ", ") + x.get_name();
        for (const auto& x : ms.leading) leading += (leading.empty() ? "" : ", ") + x.get_name();
        out << "  states: " << (states.empty() ? "-" : states) << "\n  leading: " << leading << "\n";
        out << "  consistency conditions:\n";
        for (const CompletedEquation& ce : ms.consistency)
            out << fmt::format("    0 = {}   (e{}, order {})\n", canonical_in(flat, ce.residual), ce.row + 1, ce.order);
        out << "  index-reduced system:\n";
        for (const CompletedEquation& ce : ms.reduced)
            out << fmt::format("    0 = {}   (e{}, order {})\n", canonical_in(flat, ce.residual), ce.row + 1, ce.order);
        const Regularity& r = ms.regularity;
        if (r.checked)
            out << fmt::format("  Jacobian: rank {} of {} ({}{}{}), condition {} (equilibrated {}){}\n", r.rank, r.size,
                               r.exact ? "exact" : "floating point", r.constant ? ", constant" : "",
                               r.conclusive ? "" : ", inconclusive",
                               std::isinf(r.condition) ? std::string("inf") : fmt::format("{:.3g}", r.condition),
                               std::isinf(r.scaled_condition) ? std::string("inf") : fmt::format("{:.3g}", r.scaled_condition),
                               r.point_note.empty() ? "" : "; " + r.point_note);
        else
            out << "  Jacobian: not checked" << (r.point_note.empty() ? "" : " (" + r.point_note + ")") << "\n";
    }
}

}  // namespace modeaudit
