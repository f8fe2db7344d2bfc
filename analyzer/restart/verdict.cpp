#include "restart/verdict.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"
#include "flatten/flattener.h"
#include "structure/dulmage_mendelsohn.h"

namespace modeaudit {

std::string_view verdict_name(Verdict v) {
    switch (v) {
        case Verdict::Continuous: return "continuous";
        case Verdict::Impulsive: return "impulsive";
        case Verdict::Supplied: return "supplied";
        case Verdict::Undetermined: return "undetermined";
        case Verdict::Inconsistent: return "inconsistent";
        case Verdict::Unsupported: return "unsupported";
        case Verdict::NotAnalysed: return "not-analysed";
    }
    return "not-analysed";
}

std::string display_name(const TransitionRestart& r, const std::string& symbol) {
    auto it = r.display.find(symbol);
    return it == r.display.end() ? symbol : it->second;
}

namespace {

// Renames derivative names of first-order aliases: with vx = der(x),
// "der(x)" reads "vx" and "der(x,m)" reads "der(vx)" / "der(vx,m-1)". An
// alias written negated (w = -der(x)) keeps the name der(x): "w" would
// read with the wrong sign.
class Renamer {
public:
    Renamer(const FlatModel& flat, const NormalizedTransition& n) {
        for (const auto& [v, x] : n.velocity_of) {
            if (n.negated_velocity.count(v)) continue;
            const std::string& xn = flat.variables[static_cast<std::size_t>(x)].name;
            const std::string& vn = flat.variables[static_cast<std::size_t>(v)].name;
            for (int m = std::max(2, flat.symbols.highest_derivative(x)); m >= 2; --m)
                pairs_.emplace_back(fmt::format("der({},{})", xn, m),
                                    m == 2 ? fmt::format("der({})", vn) : fmt::format("der({},{})", vn, m - 1));
            pairs_.emplace_back(fmt::format("der({})", xn), vn);
        }
    }
    std::string operator()(std::string s) const {
        for (const auto& [from, to] : pairs_)
            for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
                s.replace(p, from.size(), to);
        return s;
    }

private:
    std::vector<std::pair<std::string, std::string>> pairs_;
};

// Replaces every symbol of `e` whose display name differs by a symbol of
// that name, for printing.
GiNaC::ex for_display(const GiNaC::ex& e, const Renamer& rename, std::map<std::string, GiNaC::symbol>& pool) {
    GiNaC::exmap m;
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
        const std::string& n = GiNaC::ex_to<GiNaC::symbol>(*it).get_name();
        std::string d = rename(n);
        if (d == n) continue;
        auto p = pool.find(d);
        if (p == pool.end()) p = pool.emplace(d, GiNaC::symbol(d)).first;
        m[*it] = p->second;
    }
    return m.empty() ? e : e.subs(m, kExactSubs);
}

// c = 0 is a root fact: a constant multiple of a state guard that fired
// (any of them, for a combined transition), both in the canonical
// formulation of the route (mode_change/normalize.h).
bool implied_by_guard(const GiNaC::ex& c, const std::vector<GiNaC::ex>& guards) {
    for (const GiNaC::ex& g : guards)
        if (is_constant_multiple(c, g)) return true;
    return false;
}

// A restart variable of an array by its model name, without the instant
// ("der(x)@2" -> "vx").
std::string restart_name(const ModeChangeArray& a, int j, const Renamer& rename) {
    std::string n = rename(a.symbol(a.variables[static_cast<std::size_t>(j)]).get_name());
    return n.substr(0, n.rfind('@'));
}

struct Good {
    int height_index = -1;
    RestartSystem system;
};

std::optional<Good> good_solution(const FlatModel& flat, const TransitionStudy& st, const Route& route,
                                  const std::vector<ArrayRescaling>& rs) {
    ArrayInput in = route_input(flat, route, st);
    for (std::size_t h = 0; h < route.arrays.size(); ++h) {
        const auto& r = rs[h].result;
        if (!r) continue;
        // Fractional least offsets (rescaling.h): the integer ones make a
        // power dominate alone. If the fractional ones restart regularly,
        // this height is the answer, and modeaudit does not derive it.
        if (r->fractional) {
            RestartSystem f = procedure1_fractional(in, route.arrays[h], *r->fractional);
            if (f.rule1 && f.singular_row < 0) return std::nullopt;
            continue;
        }
        if (!r->solved || r->recheck_failure) continue;
        RestartSystem s = procedure1(in, route.arrays[h], *r);
        if (s.rule1 && s.singular_row < 0) return Good{static_cast<int>(h), std::move(s)};
    }
    return std::nullopt;
}

// The model equation an array row copies, as written, and its source; the
// array name (a restart constraint, an Euler identity) when none.
std::pair<std::string, SourceRange> source_of(const FlatModel& flat, const Route& route, const ModeChangeArray& a,
                                              int equation) {
    const ArrayEquation& eq = a.equations[static_cast<std::size_t>(equation)];
    if (eq.row < 0 || eq.kind != ArrayEquation::Kind::Model) return {eq.name, SourceRange{}};
    const Mode& m = eq.instant < a.height && route.normalized.has_transient ? route.normalized.transient
                                                                            : route.normalized.next;
    const FlatEquation& fe =
        flat.equations[static_cast<std::size_t>(m.equations[static_cast<std::size_t>(eq.row)].equation)];
    return {fmt::format("{} = {}", canonical(fe.lhs), canonical(fe.rhs)), fe.range};
}

std::string fraction(const GiNaC::numeric& q) {
    return q.is_integer() ? std::to_string(q.to_long())
                          : std::to_string(q.numer().to_long()) + "/" + std::to_string(q.denom().to_long());
}

class Deriver {
public:
    Deriver(const FlatModel& flat, const ModeSet& modes) : flat_(flat), modes_(modes) {}

    // `rescaling`: the rescaling stage's result for this study's arrays, [route][array].
    TransitionRestart run(const TransitionStudy& st, const std::vector<std::vector<ArrayRescaling>>& rescaling) {
        rs_ = &rescaling;
        const Transition& t = modes_.transitions[static_cast<std::size_t>(st.transition)];
        TransitionRestart out;
        out.transition = st.transition;
        if (!st.skipped.empty()) {
            out.verdict = Verdict::NotAnalysed;
            out.explanation = "not analysed: " + st.skipped;
            return out;
        }
        if (!t.resets.empty()) return supplied(st, t, std::move(out));
        if (static_continuous(st, t, out)) return out;
        const auto& rts = *rs_;
        const Route& direct = st.routes[0];
        Renamer rename(flat_, direct.normalized);
        if (auto g = good_solution(flat_, st, direct, rts[0])) {
            if (position_jump(st, direct, rts[0], *g, t, out)) return out;
            fill(out, st, 0, *g);
            out.verdict = out.impulse_orders.empty() ? Verdict::Continuous : Verdict::Impulsive;
            carried_conditions(out, direct, t);
            out.explanation = out.verdict == Verdict::Continuous
                                  ? "the states carry over; no variable is impulsive"
                                  : fmt::format("the restart is impulsive at height {}; the carried states would "
                                                "violate the new mode's consistency conditions",
                                                out.height);
            return out;
        }
        // A cascade through the transient contact mode, to the stated target.
        for (std::size_t k = 1; k < st.routes.size(); ++k) {
            const Route& r = st.routes[k];
            if (r.alternative || r.kind != Route::Kind::Cascade) continue;
            if (auto g = good_solution(flat_, st, r, rts[k])) {
                fill(out, st, static_cast<int>(k), *g);
                out.verdict = Verdict::Impulsive;
                carried_conditions(out, r, t);
                out.explanation = fmt::format("the restart constraints are met through the transient mode {}",
                                              modes_.modes[static_cast<std::size_t>(r.transient)].id);
                return out;
            }
        }
        if (auto u = unsupported(st, direct, rts[0], rename)) {
            out.verdict = Verdict::Unsupported;
            out.route = 0;
            out.route_text = direct.describe(modes_);
            out.height = u->height;
            out.nonlinear = u->what;
            out.nonlinear_range = u->range;
            out.explanation = u->why + ": " + u->what;
            carried_conditions(out, direct, t);
            return out;
        }
        if (!t.restart_constraints.empty()) return inconsistent(st, t, std::move(out), rename);
        return undetermined(st, t, std::move(out), rename);
    }

private:
    void fill(TransitionRestart& out, const TransitionStudy& st, int route_index, Good& g) {
        const Route& route = st.routes[static_cast<std::size_t>(route_index)];
        Renamer rename(flat_, route.normalized);
        out.route = route_index;
        out.route_text = route.describe(modes_);
        out.height = route.arrays[static_cast<std::size_t>(g.height_index)].height;
        for (const auto& [name, mu] : g.system.impulse_orders) out.impulse_orders[rename(name)] = mu;
        std::map<std::string, GiNaC::symbol> pool;
        for (const GiNaC::ex& e : g.system.equations)
            out.restart.push_back(canonical(for_display(e, rename, pool)) + " = 0");
        for (const auto& s : g.system.unknowns) out.display[s.get_name()] = rename(s.get_name());
        for (const auto& [base, s] : g.system.left_limits) out.display[s.get_name()] = rename(s.get_name());
        for (const GiNaC::symbol& s : route.normalized.next_structure.states)
            if (!g.system.restart_values.count(s.get_name())) {
                std::string n = rename(s.get_name());
                out.continuous_states.push_back(n);
                out.restart.push_back(fmt::format("{}+ = pre({})", n, n));
            }
        out.system = std::move(g.system);
    }

    // Issue 17, item 4: a good solution whose restart moves a variable whose
    // derivative is itself a state of the previous mode (a position, whose
    // velocity the previous mode integrates): its derivative is impulsive
    // (der(x)@k of order >= 1, so the force behind it of order >= 2). No
    // finite impulse moves a position; the array's answer is an artefact of
    // a constraint the event imposes without a law to reach it. The restart
    // is left undetermined (no system: the simulation stops) and the rule
    // restart-position-jump names the position and the missing law.
    bool position_jump(const TransitionStudy& st, const Route& route, const std::vector<ArrayRescaling>& rs,
                       const Good& g, const Transition& t, TransitionRestart& out) {
        const ModeChangeArray& a = route.arrays[static_cast<std::size_t>(g.height_index)];
        const RescalingResult& r = *rs[static_cast<std::size_t>(g.height_index)].result;
        const Mode& prev = route.normalized.previous;
        const ModeStructure& ps = route.normalized.previous_structure;
        auto prev_d = [&](int v) {
            for (std::size_t j = 0; j < prev.unknowns.size(); ++j)
                if (prev.unknowns[j] == v) return ps.sigma.d[j];
            return 0;
        };
        Renamer rename(flat_, route.normalized);
        std::set<std::string> moved;
        for (std::size_t j = 0; j < a.variables.size(); ++j) {
            const ArrayVariable& v = a.variables[j];
            if (r.mu[j] < 1 || v.order < 1 || v.order >= prev_d(v.variable)) continue;
            ArrayVariable below{v.variable, v.order - 1, 0};
            const std::string& n = flat_.variables[static_cast<std::size_t>(v.variable)].name;
            std::string base = below.order == 0 ? n
                               : below.order == 1 ? "der(" + n + ")"
                                                  : fmt::format("der({},{})", n, below.order);
            moved.insert(rename(base));
        }
        if (moved.empty()) return false;
        out.verdict = Verdict::Undetermined;
        out.route = static_cast<int>(&route - st.routes.data());
        out.route_text = route.describe(modes_);
        out.height = a.height;
        for (const auto& [name, mu] : g.system.impulse_orders) {
            std::string n = rename(name);
            n = n.substr(0, n.rfind('@'));  // one order per quantity: the largest over the instants
            out.impulse_orders[n] = std::max(out.impulse_orders[n], mu);
        }
        out.position_jump.assign(moved.begin(), moved.end());
        out.undetermined = out.position_jump;
        carried_conditions(out, route, t);
        out.explanation = fmt::format(
            "the new mode's constraints move {} at once, which needs an impulse of order 2 or more in a force; no "
            "finite impulse moves a position, so the model lacks the law that takes it there",
            fmt::join(out.position_jump, ", "));
        return true;
    }

    // The new mode's consistency conditions that the carried states do not
    // meet in general (not implied by the event's root fact).
    // The carried states are the left limits, so a condition fails only if
    // the previous mode's equations and the root facts at the event do not
    // entail it (mode_change/entailment.h): a contact that persists, or a
    // lock whose guard is its constraint, is never claimed violated.
    std::vector<std::string> unmet_conditions(const Route& route, const Transition& t) {
        Renamer rename(flat_, route.normalized);
        ArrayInput in = array_input(flat_, route.normalized, t);
        std::map<std::string, GiNaC::symbol> pool;
        std::vector<std::string> out;
        for (const CompletedEquation& c : route.normalized.next_structure.consistency)
            if (!holds_at_event(in, c.residual).holds)
                out.push_back(canonical(for_display(c.residual, rename, pool)) + " = 0");
        return out;
    }

    void carried_conditions(TransitionRestart& out, const Route& route, const Transition& t) {
        std::vector<std::string> carried;
        Renamer rename(flat_, route.normalized);
        for (const GiNaC::symbol& s : route.normalized.previous_structure.states) carried.push_back(rename(s.get_name()));
        out.standard_tool.action =
            carried.empty() ? "has no state to carry over"
                            : fmt::format("keeps {} continuous (no reinit)", fmt::join(carried, ", "));
        std::vector<std::string> unmet = unmet_conditions(route, t);
        if (out.verdict == Verdict::Continuous)
            out.conditions = unmet;  // the carried states must meet them: checked at the event
        else
            out.standard_tool.violates = unmet;
    }

    // The continuous restart shown symbolically (seed 000, 4.2): the new
    // mode's consistency conditions, with the inherited states at their
    // left limits and the new mode's other states eliminated (they enter
    // linearly), leave conditions on the inherited states only; each must
    // be implied by the event's root fact g = 0, with g written in the
    // previous mode's states (its algebraic variables eliminated through
    // its index-reduced equations). Then every state carries over and the
    // algebraic readouts are whatever the new mode's equations give.
    bool static_continuous(const TransitionStudy& st, const Transition& t, TransitionRestart& out) {
        const Route& direct = st.routes[0];
        const std::vector<GiNaC::ex> guards = canonical_root_guards(array_input(flat_, direct.normalized, t));
        if (guards.empty() || !t.restart_constraints.empty()) return false;
        const ModeStructure& ps = direct.normalized.previous_structure;
        const ModeStructure& ns = direct.normalized.next_structure;
        std::set<std::string> inherited;
        for (const GiNaC::symbol& s : ps.states) inherited.insert(s.get_name());
        std::vector<GiNaC::symbol> eliminate;
        for (const GiNaC::symbol& s : ns.states)
            if (!inherited.count(s.get_name())) eliminate.push_back(s);
        // Conditions A z + b = 0 in the eliminated states z.
        std::vector<std::vector<GiNaC::ex>> rows;
        for (const CompletedEquation& c : ns.consistency) {
            GiNaC::ex r = checked_expand(c.residual);
            std::vector<GiNaC::ex> row;
            GiNaC::ex rest = r;
            for (const GiNaC::symbol& z : eliminate) {
                if (auto d = polynomial_degree(r, z); !d || *d > 1) return false;
                GiNaC::ex a = r.coeff(z, 1);
                for (const GiNaC::symbol& z2 : eliminate)
                    if (a.has(z2)) return false;
                row.push_back(a);
                rest -= a * z;
            }
            row.push_back(checked_expand(rest));
            rows.push_back(row);
        }
        std::vector<bool> pivot_row(rows.size(), false);
        for (std::size_t col = 0; col < eliminate.size(); ++col) {
            std::size_t p = rows.size();
            for (std::size_t r = 0; r < rows.size() && p == rows.size(); ++r)
                if (!pivot_row[r] && !GiNaC::normal(rows[r][col]).is_zero()) p = r;
            if (p == rows.size()) continue;
            pivot_row[p] = true;
            for (std::size_t r = 0; r < rows.size(); ++r) {
                if (r == p || GiNaC::normal(rows[r][col]).is_zero()) continue;
                GiNaC::ex f = GiNaC::normal(rows[r][col] / rows[p][col]);
                for (std::size_t k = 0; k < rows[r].size(); ++k) rows[r][k] = GiNaC::normal(rows[r][k] - f * rows[p][k]);
            }
        }
        // Each condition left must be one root fact (a combined transition
        // has one per state guard that fired).
        std::vector<GiNaC::ex> in_states;
        for (const GiNaC::ex& guard : guards) in_states.push_back(guard_in_states(direct, guard));
        std::vector<GiNaC::ex> used;
        for (std::size_t r = 0; r < rows.size(); ++r) {
            if (pivot_row[r]) continue;
            GiNaC::ex cond = rows[r].back();
            if (cond.is_zero()) continue;
            auto g = std::find_if(in_states.begin(), in_states.end(),
                                  [&](const GiNaC::ex& e) { return is_constant_multiple(cond, e); });
            if (g == in_states.end()) return false;
            if (std::find_if(used.begin(), used.end(), [&](const GiNaC::ex& e) { return e.is_equal(*g); }) == used.end())
                used.push_back(*g);
        }
        out.verdict = Verdict::Continuous;
        out.route = 0;
        out.route_text = direct.describe(modes_) + " (consistency shown symbolically)";
        out.height = 0;
        Renamer rename(flat_, direct.normalized);
        for (const GiNaC::symbol& s : ns.states)
            if (inherited.count(s.get_name())) {
                std::string n = rename(s.get_name());
                out.continuous_states.push_back(n);
                out.restart.push_back(fmt::format("{}+ = pre({})", n, n));
            }
        std::map<std::string, GiNaC::symbol> pool;
        for (const GiNaC::symbol& z : eliminate)
            out.restart.push_back(fmt::format("{}+ from the consistency conditions of {}", rename(z.get_name()),
                                              modes_.modes[static_cast<std::size_t>(t.to)].id));
        // States of the new mode as written that the canonical formulation
        // resolved (u = v1 - v2): their definitions are consistency
        // conditions of the new mode too.
        std::vector<int> resolved;
        for (const auto& [u, value] : direct.normalized.resolved_states) resolved.push_back(u);
        std::sort(resolved.begin(), resolved.end());
        for (int u : resolved)
            out.restart.push_back(fmt::format("{}+ from the consistency conditions of {}",
                                              flat_.variables[static_cast<std::size_t>(u)].name,
                                              modes_.modes[static_cast<std::size_t>(t.to)].id));
        carried_conditions(out, direct, t);
        out.conditions.clear();  // implied by the root fact
        std::vector<std::string> facts;
        for (const GiNaC::ex& g : used) facts.push_back(canonical(for_display(g, rename, pool)) + " = 0");
        out.explanation = used.empty() ? "the new mode sets no consistency condition on the carried states"
                          : fmt::format("the new mode's consistency conditions on the carried states follow from the "
                                        "event's root fact{} {}",
                                        used.size() > 1 ? "s" : "", fmt::join(facts, " and "));
        return true;
    }

    // The guard with the previous mode's non-state unknowns eliminated by its
    // index-reduced equations (when they are linear in them); 0 if not possible.
    GiNaC::ex guard_in_states(const Route& route, const GiNaC::ex& guard) {
        const ModeStructure& ps = route.normalized.previous_structure;
        GiNaC::ex g = guard;
        bool needs = false;
        for (const GiNaC::symbol& l : ps.leading)
            if (g.has(l)) needs = true;
        if (!needs) return checked_expand(g);
        GiNaC::lst eqs, vars;
        for (const CompletedEquation& c : ps.reduced) eqs.append(c.residual == 0);
        for (const GiNaC::symbol& l : ps.leading) vars.append(l);
        try {
            GiNaC::ex sol = GiNaC::lsolve(eqs, vars);
            if (sol.nops() != vars.nops()) return 0;
            GiNaC::exmap m;
            for (std::size_t k = 0; k < sol.nops(); ++k) m[sol.op(k).op(0)] = sol.op(k).op(1);
            GiNaC::ex gs = GiNaC::normal(g.subs(m, kExactSubs));
            for (const GiNaC::symbol& l : ps.leading)
                if (gs.has(l)) return 0;
            return gs;
        } catch (const std::exception&) {
            return 0;  // not linear in the leading variables
        }
    }

    TransitionRestart supplied(const TransitionStudy& st, const Transition& t, TransitionRestart out) {
        out.verdict = Verdict::Supplied;
        const Route& direct = st.routes[0];
        out.route = 0;
        out.route_text = direct.describe(modes_);
        Renamer rename(flat_, direct.normalized);
        std::map<std::string, GiNaC::symbol> pool;
        GiNaC::exmap to_pre, reset;
        const Mode& n = modes_.modes[static_cast<std::size_t>(t.to)];
        for (int v : n.unknowns) to_pre[flat_.symbols.variable(v)] = flat_.symbols.pre(v);
        std::vector<std::string> reinit;
        for (const WhenAction& a : t.resets) {
            reset[flat_.symbols.variable(a.variable)] = a.value.subs(to_pre, kExactSubs);
            const std::string& name = flat_.variables[static_cast<std::size_t>(a.variable)].name;
            reinit.push_back(name);
            out.restart.push_back(fmt::format("{}+ = {}", name, canonical(a.value.subs(to_pre, kExactSubs))));
        }
        GiNaC::exmap carried = to_pre;
        for (const auto& [k, v] : reset) carried[k] = v;
        const std::vector<GiNaC::ex> guards = canonical_root_guards(array_input(flat_, direct.normalized, t));
        for (const GiNaC::symbol& s : direct.normalized.next_structure.states)
            if (!std::count(reinit.begin(), reinit.end(), s.get_name())) {
                std::string d = rename(s.get_name());
                out.continuous_states.push_back(d);
                out.restart.push_back(fmt::format("{}+ = pre({})", d, d));
            }
        for (const CompletedEquation& c : direct.normalized.next_structure.consistency) {
            GiNaC::ex r = checked_expand(c.residual.subs(carried, kExactSubs));
            if (r.is_zero() || implied_by_guard(c.residual, guards)) continue;
            out.conditions.push_back(canonical(for_display(r, rename, pool)) + " = 0");
        }
        out.standard_tool.action = fmt::format("applies the reinit of {} and keeps the other states continuous",
                                               fmt::join(reinit, ", "));
        out.explanation = out.conditions.empty()
                              ? "the supplied reset meets the new mode's consistency conditions"
                              : "the supplied reset must meet the listed conditions at the event";
        return out;
    }

    struct Unsupported {
        std::string what;   // the finding: which variable, which equation
        SourceRange range;  // that equation's source
        std::string why;    // the explanation's lead
        int height = -1;
    };

    // Why the method gives no restart although the array has a solution,
    // at the lowest height where one of these holds:
    //  - its least offsets are fractional (a power of an impulsive variable,
    //    f = lambda^3) and with them the restart would be regular: the
    //    variable, the order it would need, the equation;
    //  - its integer restart has a row singular at its solution
    //    (-lambda_r^3 = 0): the row, the equation;
    //  - an impulsive variable sits inside a non-polynomial function in a
    //    relaxed (axiom 112 left out) good solution: what and where.
    std::optional<Unsupported> unsupported(const TransitionStudy& st, const Route& route,
                                           const std::vector<ArrayRescaling>& rs, const Renamer& rename) {
        ArrayInput in = route_input(flat_, route, st);
        auto base = [&](const ModeChangeArray& a, int j) {
            std::string n = rename(a.symbol(a.variables[static_cast<std::size_t>(j)]).get_name());
            return n.substr(0, n.rfind('@'));
        };
        for (std::size_t h = 0; h < route.arrays.size(); ++h) {
            const ModeChangeArray& a = route.arrays[h];
            if (const auto& r = rs[h].result; r && r->fractional) {
                const FractionalOffsets& f = *r->fractional;
                RestartSystem fs = procedure1_fractional(in, a, f);
                if (fs.rule1 && fs.singular_row < 0) {
                    auto [where, range] = source_of(flat_, route, a, f.equation);
                    const std::string x = base(a, f.variable);
                    const GiNaC::numeric& q = f.mu[static_cast<std::size_t>(f.variable)];
                    return Unsupported{
                        fmt::format("{} would need impulse order {} in {}{}; modeaudit derives restarts for integer "
                                    "impulse orders only",
                                    x, fraction(q), where,
                                    f.power >= 2 ? fmt::format(", where {}^{} leads at order {}", x, f.power,
                                                               fraction(q * f.power))
                                                 : ""),
                        range, "the restart would need a fractional impulse order", a.height};
                }
            }
            if (const auto& r = rs[h].result; r && r->solved && !r->recheck_failure && !r->fractional) {
                RestartSystem s = procedure1(in, a, *r);
                if (s.rule1 && s.singular_row >= 0) {
                    auto [where, range] = source_of(flat_, route, a, s.singular_array_equation);
                    std::map<std::string, GiNaC::symbol> pool;
                    const std::string row =
                        canonical(for_display(s.equations[static_cast<std::size_t>(s.singular_row)], rename, pool));
                    const std::string u = rename(s.singular_unknown);
                    return Unsupported{
                        fmt::format("the restart row {} = 0 (from {}) holds only at {} = 0, where its Jacobian is "
                                    "singular",
                                    row, where, u),
                        range, "the restart system is not regular at its solution", a.height};
                }
            }
            const auto& r = rs[h].relaxed;
            if (!r || !r->solved) continue;
            if (!procedure1(in, a, *r).rule1) continue;
            for (const MatchedRow& row : matched_rows(a)) {
                for (int j : row.atoms)
                    if (r->mu[static_cast<std::size_t>(j)] > 0) {
                        auto [where, range] = source_of(flat_, route, a, row.equation);
                        return Unsupported{
                            fmt::format("{} is impulsive of order {} inside a non-polynomial function in {}",
                                        rename(a.symbol(a.variables[static_cast<std::size_t>(j)]).get_name()),
                                        r->mu[static_cast<std::size_t>(j)], where),
                            range, "an impulsive variable would enter a non-polynomial function", -1};
                    }
            }
        }
        return std::nullopt;
    }

    // The array's enabled equations against its dependent variables.
    DulmageMendelsohn enabled_dm(const ModeChangeArray& a, const std::vector<int>& skip_equations,
                                 std::vector<int>& rows) {
        std::map<std::string, int> col;
        for (std::size_t j = 0; j < a.variables.size(); ++j)
            if (a.dependent[j]) col[a.symbol(a.variables[j]).get_name()] = static_cast<int>(j);
        SignatureMatrix sig;
        sig.cols = static_cast<int>(a.variables.size());
        for (std::size_t i = 0; i < a.equations.size(); ++i) {
            const ArrayEquation& e = a.equations[i];
            if (!e.enabled || std::count(skip_equations.begin(), skip_equations.end(), static_cast<int>(i))) continue;
            std::set<int> cols;
            for (GiNaC::const_preorder_iterator it = e.residual.preorder_begin(); it != e.residual.preorder_end(); ++it)
                if (GiNaC::is_a<GiNaC::symbol>(*it))
                    if (auto f = col.find(GiNaC::ex_to<GiNaC::symbol>(*it).get_name()); f != col.end())
                        cols.insert(f->second);
            std::vector<SignatureEntry> row;
            for (int c : cols) row.push_back({c, 0});
            sig.entries.push_back(row);
            rows.push_back(static_cast<int>(i));
        }
        // Columns that are not dependent stay isolated: they are neither
        // matched nor underdetermined variables of interest.
        sig.rows = static_cast<int>(sig.entries.size());
        return dulmage_mendelsohn(sig);
    }

    TransitionRestart inconsistent(const TransitionStudy& st, const Transition& t, TransitionRestart out,
                                   const Renamer& rename) {
        out.verdict = Verdict::Inconsistent;
        const Route& direct = st.routes[0];
        out.route = 0;
        out.route_text = direct.describe(modes_);
        if (!direct.arrays.empty()) {
            std::size_t h = direct.base_height >= 0 ? static_cast<std::size_t>(direct.base_height) - direct.first_height
                                                     : direct.arrays.size() - 1;
            h = std::min(h, direct.arrays.size() - 1);
            const ModeChangeArray& a = direct.arrays[h];
            out.height = a.height;
            std::vector<int> rows;
            DulmageMendelsohn dm = enabled_dm(a, {}, rows);
            std::map<std::string, GiNaC::symbol> pool;
            for (int r : dm.over_rows) {
                const ArrayEquation& e = a.equations[static_cast<std::size_t>(rows[static_cast<std::size_t>(r)])];
                if (e.kind == ArrayEquation::Kind::Euler)
                    out.conflict.push_back(rename(e.name) + " (Euler identity)");
                else
                    out.conflict.push_back(fmt::format("{}: {} = 0", rename(e.name), canonical(for_display(e.residual, rename, pool))));
            }
            std::sort(out.conflict.begin(), out.conflict.end());
        }
        // Admissible continuations: alternative targets with a good solution.
        std::set<std::string> targets;
        const auto& rts = *rs_;
        for (std::size_t k = 1; k < st.routes.size(); ++k) {
            const Route& r = st.routes[k];
            if (!r.alternative) continue;
            if (auto g = good_solution(flat_, st, r, rts[k])) {
                const std::string& id = modes_.modes[static_cast<std::size_t>(r.target)].id;
                if (targets.insert(id).second && !out.continuation_system) {
                    out.continuation_system = std::move(g->system);
                    out.continuation_route = static_cast<int>(k);
                }
            }
        }
        out.continuations.assign(targets.begin(), targets.end());
        carried_conditions(out, direct, t);
        out.explanation = fmt::format(
            "the restart constraints contradict the new mode {}{}",
            modes_.modes[static_cast<std::size_t>(t.to)].id,
            out.continuations.empty() ? ""
                                      : fmt::format("; {} admits them", fmt::join(out.continuations, ", ")));
        return out;
    }

    TransitionRestart undetermined(const TransitionStudy& st, const Transition& t, TransitionRestart out,
                                   const Renamer& rename) {
        out.verdict = Verdict::Undetermined;
        const Route& direct = st.routes[0];
        out.route = 0;
        out.route_text = direct.describe(modes_);
        const auto& rts = (*rs_)[0];
        ArrayInput in = route_input(flat_, direct, st);
        std::set<std::string> und, det;
        bool diagnosed = false;
        for (std::size_t h = 0; h < direct.arrays.size() && !diagnosed; ++h) {
            const ModeChangeArray& a = direct.arrays[h];
            const auto& ng = rts[h].without_goodness;
            if (!a.matched || !ng || !ng->solved) continue;
            // Corollary 1: Y = impulsive restart variables; drop the
            // equations matched to them; the underdetermined part of what is
            // left holds the values without a determining relation.
            std::vector<int> rv = restart_variables(in, a), skip;
            for (const auto& [ei, xj] : a.matching)
                if (std::count(rv.begin(), rv.end(), xj) && ng->mu[static_cast<std::size_t>(xj)] > 0) skip.push_back(ei);
            std::vector<int> rows;
            DulmageMendelsohn dm = enabled_dm(a, skip, rows);
            std::set<int> under(dm.under_cols.begin(), dm.under_cols.end());
            for (int j : rv) (under.count(j) ? und : det).insert(restart_name(a, j, rename));
            out.height = a.height;
            diagnosed = true;
        }
        if (!diagnosed && !direct.arrays.empty()) {
            const ModeChangeArray& a = direct.arrays.back();
            std::vector<int> rows;
            DulmageMendelsohn dm = enabled_dm(a, {}, rows);
            for (int j : dm.under_cols)
                if (is_restart_variable(in, a, static_cast<std::size_t>(j))) und.insert(restart_name(a, j, rename));
            out.height = a.height;
            out.explanation = a.why_not_matched;
        } else if (!diagnosed && !direct.note.empty()) {
            out.explanation = direct.note;  // the route has no arrays: why
        }
        out.undetermined.assign(und.begin(), und.end());
        out.determined.assign(det.begin(), det.end());
        carried_conditions(out, direct, t);
        std::string what = root_guards(t).empty()
                               ? "the event is triggered by time: it implies no equality on the state"
                               : "no rescaling of the mode-change array is good";
        out.explanation = out.explanation.empty() ? what : what + "; " + out.explanation;
        return out;
    }

private:
    const FlatModel& flat_;
    const ModeSet& modes_;
    const std::vector<std::vector<ArrayRescaling>>* rs_ = nullptr;
};

}  // namespace

TransitionRestart derive_restart(const FlatModel& flat, const ModeSet& modes, const TransitionStudy& study,
                                 const std::vector<std::vector<ArrayRescaling>>& rescaling) {
    return Deriver(flat, modes).run(study, rescaling);
}

RestartStageResult derive_restarts(const FlatModel& flat, const ModeSet& modes, const ModeChangeResult& mc,
                                   const RescalingStageResult& rs) {
    RestartStageResult out;
    // Transitions whose routes have the same content share one derivation
    // (restart constraints name alternative targets: those are not shared).
    std::map<std::string, TransitionRestart> cache;
    for (std::size_t t = 0; t < mc.transitions.size(); ++t) {
        const TransitionStudy& st = mc.transitions[t];
        const Transition& tr = modes.transitions[t];
        std::string key;
        bool shareable = st.skipped.empty() && tr.restart_constraints.empty();
        if (shareable) {
            for (const Route& r : st.routes) key += r.key + "#";
            for (const WhenAction& a : tr.resets) key += canonical(a.value) + "@" + std::to_string(a.variable) + ";";
            if (auto it = cache.find(key); it != cache.end()) {
                TransitionRestart copy = it->second;
                copy.transition = static_cast<int>(t);
                copy.route_text = st.routes[static_cast<std::size_t>(std::max(0, copy.route))].describe(modes) +
                                  (copy.route_text.find("symbolically") != std::string::npos
                                       ? " (consistency shown symbolically)"
                                       : "");
                out.transitions.push_back(std::move(copy));
                continue;
            }
        }
        out.transitions.push_back(derive_restart(flat, modes, st, rs.arrays[t]));
        if (shareable) cache.emplace(key, out.transitions.back());
    }
    return out;
}

void dump_restarts(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r, std::ostream& out) {
    (void)flat;
    for (const TransitionRestart& tr : r.transitions) {
        const Transition& t = modes.transitions[static_cast<std::size_t>(tr.transition)];
        out << fmt::format("transition {} -> {} ({} event, guard {}): {}\n",
                           modes.modes[static_cast<std::size_t>(t.from)].id, modes.modes[static_cast<std::size_t>(t.to)].id,
                           t.trigger == Transition::Trigger::State ? "state" : "time", t.guard_text,
                           verdict_name(tr.verdict));
        if (!tr.route_text.empty()) out << "  route: " << tr.route_text << (tr.height >= 0 ? fmt::format(", K = {}", tr.height) : "") << "\n";
        out << "  why: " << tr.explanation << "\n";
        for (const auto& [n, mu] : tr.impulse_orders) out << fmt::format("  impulsive: {} of order {}\n", n, mu);
        for (const std::string& l : tr.restart) out << "  restart: " << l << "\n";
        for (const std::string& l : tr.conditions) out << "  requires at the event: " << l << "\n";
        for (const std::string& l : tr.undetermined) out << "  undetermined: " << l << "\n";
        for (const std::string& l : tr.position_jump) out << "  position moved at once: " << l << "\n";
        for (const std::string& l : tr.determined) out << "  determined: " << l << "\n";
        for (const std::string& l : tr.conflict) out << "  in conflict: " << l << "\n";
        for (const std::string& l : tr.continuations) out << "  admissible continuation: " << l << "\n";
        if (!tr.nonlinear.empty()) out << "  unsupported: " << tr.nonlinear << "\n";
        if (!tr.standard_tool.action.empty()) out << "  a standard Modelica tool " << tr.standard_tool.action << "\n";
        for (const std::string& l : tr.standard_tool.violates) out << "    which violates " << l << "\n";
    }
}

}  // namespace modeaudit
