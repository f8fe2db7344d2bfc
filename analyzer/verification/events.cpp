// The verification stage, event part: every simulated event checked at its
// actual left limits (see verification.h). Everything here is evaluated at
// the event's time: an explicit `time` in a condition, an assert, a
// quantity or a restart equation takes it.
#include <fmt/format.h>
#include <z3++.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"
#include "flatten/condition_semantics.h"
#include "flatten/flattener.h"
#include "restart/restart.h"
#include "structure/numeric.h"
#include "verification/verification.h"
#include "verification/verification_internal.h"

namespace modeaudit {

using namespace verification_detail;

namespace {

// The margin of a condition (>= 0 where it holds), or nullopt.
std::optional<double> margin(const Condition& c, const std::map<std::string, double>& values, const GiNaC::exmap& params) {
    return condition_margin(c, [&](const Condition& leaf) -> std::optional<double> {
        if (leaf.kind != Condition::Kind::Relation) return std::nullopt;
        auto l = evaluate(leaf.lhs, values, params), r = evaluate(leaf.rhs, values, params);
        if (!l || !r) return std::nullopt;
        return relation_margin(leaf.op, *l - *r);
    });
}

GiNaC::exmap params_for(const FlatModel& flat, const std::vector<GiNaC::ex>& exprs, double time) {
    return parameter_values(flat, exprs, {}, time);
}

std::vector<GiNaC::ex> condition_exprs(const Condition& c) {
    std::vector<GiNaC::ex> out;
    if (c.kind == Condition::Kind::Relation) {
        out.push_back(c.lhs);
        out.push_back(c.rhs);
    }
    for (const ConditionPtr& o : c.operands) {
        auto sub = condition_exprs(*o);
        out.insert(out.end(), sub.begin(), sub.end());
    }
    return out;
}

// The transition an event fired: the combined transition of exactly its
// guards when the modes stage studied one (modes/simultaneous.h), else the
// first fired transition in clause order.
int transition_of(const ModeSet& modes, const EventRecord& ev) {
    const std::set<std::string> fired(ev.guards.begin(), ev.guards.end());
    if (fired.size() > 1)
        for (std::size_t t = 0; t < modes.transitions.size(); ++t) {
            const Transition& tr = modes.transitions[t];
            if (tr.parts.empty() || tr.from != ev.from || tr.to != ev.to) continue;
            std::set<std::string> guards{tr.guard_text};
            for (const Transition::Guard& g : tr.simultaneous) guards.insert(g.guard_text);
            if (guards == fired) return static_cast<int>(t);
        }
    for (std::size_t t = 0; t < modes.transitions.size(); ++t) {
        const Transition& tr = modes.transitions[t];
        if (tr.from != ev.from || !tr.parts.empty()) continue;
        if (fired.count(tr.guard_text)) return static_cast<int>(t);
    }
    return -1;
}

// The mode is admissible at these values and this time: its consistency
// conditions hold, its leading variables can be solved, and its asserts hold
// there.
bool admissible(const FlatModel& flat, const Mode& mode, const ModeStructure& ms, std::map<std::string, double> values,
                double time) {
    if (ms.status != ModeStatus::Regular) return false;
    std::set<std::string> states;
    GiNaC::exmap at;
    double scale = 1;
    for (const GiNaC::symbol& s : ms.states) {
        auto it = values.find(s.get_name());
        if (it == values.end()) return false;
        at[s] = it->second;
        scale = std::max(scale, std::fabs(it->second));
        states.insert(s.get_name());
    }
    for (const CompletedEquation& c : ms.consistency) {
        std::vector<GiNaC::ex> e{c.residual};
        auto r = evaluate(c.residual, values, parameter_values(flat, e, states, time));
        if (!r || std::fabs(*r) > 1e-8 * scale * scale) return false;
    }
    std::vector<GiNaC::ex> down;
    for (const CompletedEquation& c : ms.reduced) down.push_back(c.residual);
    GiNaC::exmap params = parameter_values(flat, down, states, time);
    for (GiNaC::ex& e : down) e = e.subs(params, kExactSubs).subs(at, kExactSubs);
    std::vector<GiNaC::symbol> lead(ms.leading.begin(), ms.leading.end());
    std::vector<double> x0;
    for (const GiNaC::symbol& s : lead) {
        auto it = values.find(s.get_name());
        x0.push_back(it == values.end() ? 0.0 : it->second);
    }
    NewtonResult nr = newton(down, lead, {}, x0);
    if (!nr.converged) return false;
    for (std::size_t i = 0; i < lead.size(); ++i) values[lead[i].get_name()] = nr.values[i];
    for (int a : mode.asserts) {
        const FlatAssert& fa = flat.asserts[static_cast<std::size_t>(a)];
        auto m = margin(*fa.condition, values, params_for(flat, condition_exprs(*fa.condition), time));
        if (!m || *m < -1e-9 * scale) return false;
    }
    return true;
}

// ---- GiNaC -> Z3, for the impact-law range ---------------------------------

z3::expr to_z3(z3::context& ctx, const GiNaC::ex& e, const std::map<std::string, z3::expr>& vars) {
    using namespace GiNaC;
    if (is_a<numeric>(e)) {
        const numeric& n = ex_to<numeric>(e);
        if (n.is_rational()) {
            std::ostringstream num, den;
            num << n.numer();
            den << n.denom();
            return ctx.real_val(num.str().c_str()) / ctx.real_val(den.str().c_str());
        }
        return ctx.real_val(fmt::format("{:.17g}", n.to_double()).c_str());
    }
    if (is_a<symbol>(e)) {
        auto it = vars.find(ex_to<symbol>(e).get_name());
        if (it == vars.end()) throw std::runtime_error("symbol " + ex_to<symbol>(e).get_name() + " has no value");
        return it->second;
    }
    if (is_a<add>(e)) {
        z3::expr s = ctx.real_val(0);
        for (std::size_t i = 0; i < e.nops(); ++i) s = s + to_z3(ctx, e.op(i), vars);
        return s;
    }
    if (is_a<mul>(e)) {
        z3::expr s = ctx.real_val(1);
        for (std::size_t i = 0; i < e.nops(); ++i) s = s * to_z3(ctx, e.op(i), vars);
        return s;
    }
    if (is_a<power>(e) && is_a<numeric>(e.op(1)) && ex_to<numeric>(e.op(1)).is_pos_integer()) {
        z3::expr b = to_z3(ctx, e.op(0), vars), s = b;
        for (int k = 1; k < ex_to<numeric>(e.op(1)).to_int(); ++k) s = s * b;
        return s;
    }
    throw std::runtime_error("the expression " + canonical(e) + " is not polynomial");
}

GiNaC::ex exact(double v) {
    return GiNaC::numeric(fmt::format("{:.17g}", v).c_str());
}

double z3_value(const z3::model& m, const z3::expr& e) {
    z3::expr v = m.eval(e, true);
    if (v.is_numeral()) {
        std::string s = v.get_decimal_string(20);
        if (!s.empty() && s.back() == '?') s.pop_back();
        return std::stod(s);
    }
    return std::nan("");
}

// For an incomplete impact law: the range of every impulse magnitude over
// the coefficient's bounds, at this event's left limits (Z3's optimizer on
// the linear part of the restart system), each end's restart re-checked by
// our own substitution, and the mode it implies.
void impulse_ranges(const FlatModel& flat, const ModeSet& modes, const StructureResult& structures,
                    const TransitionRestart& r, const TransitionVerification& tv, const EventRecord& ev,
                    EventVerification& out) {
    TransitionRestart view = r;
    if (!view.system && view.continuation_system) view.system = view.continuation_system;
    if (!view.system) {
        out.range_note = "the restart system is not available: the range of the impulse is not computed";
        return;
    }
    RestartNames rn = restart_names(view);
    if (rn.impulses.empty()) {
        out.range_note = "the restart has no impulse: nothing is left free by the impact law";
        return;
    }
    LinearPart lp = linear_part(view, rn);
    z3::context ctx;
    std::map<std::string, z3::expr> vars;
    for (const GiNaC::symbol& u : lp.unknowns) vars.emplace(u.get_name(), ctx.real_const(u.get_name().c_str()));
    z3::optimize opt(ctx);
    for (int c : tv.impact_law.coefficient_variables) {
        const FlatVariable& v = flat.variables[static_cast<std::size_t>(c)];
        z3::expr e = ctx.real_const(v.name.c_str());
        vars.emplace(flat.symbols.variable(c).get_name(), e);
        if (v.min) opt.add(e >= to_z3(ctx, GiNaC::evalf(*v.min), {}));
        if (v.max) opt.add(e <= to_z3(ctx, GiNaC::evalf(*v.max), {}));
    }
    GiNaC::exmap data;
    for (const auto& [base, pre] : view.system->left_limits) {
        auto it = ev.before.find(base);
        if (it == ev.before.end()) {
            out.range_note = "the left limit of " + base + " is not known at the event";
            return;
        }
        data[pre] = exact(it->second);
    }
    std::vector<GiNaC::ex> eqs;
    try {
        for (const GiNaC::ex& e : lp.equations) {
            std::vector<GiNaC::ex> one{e};
            std::set<std::string> skip;
            for (const auto& [name, z] : vars) skip.insert(name);
            GiNaC::ex num = checked_expand(e.subs(data, kExactSubs).subs(parameter_values(flat, one, skip, ev.time), kExactSubs));
            eqs.push_back(num);
            opt.add(to_z3(ctx, num, vars) == 0);
        }
    } catch (const std::exception& x) {
        out.range_note = std::string("the impact-law range is not computed: ") + x.what();
        return;
    }
    for (const GiNaC::symbol& a : rn.impulses) {
        if (!vars.count(a.get_name())) continue;
        // The impulse of a force, not the rescaled accelerations it drives.
        if (display_name(view, a.get_name()).rfind("der(", 0) == 0) continue;
        ImpulseRange ir;
        ir.impulse = display_name(view, a.get_name());
        bool ok = true;
        for (int end = 0; end < 2 && ok; ++end) {
            opt.push();
            z3::expr target = vars.at(a.get_name());
            z3::optimize::handle h = end == 0 ? opt.minimize(target) : opt.maximize(target);
            (void)h;
            if (opt.check() != z3::sat) {
                ok = false;
                opt.pop();
                break;
            }
            z3::model m = opt.get_model();
            // Our own check: the equations hold at Z3's point.
            std::map<std::string, double> at;
            for (const auto& [name, z] : vars) at[name] = z3_value(m, z);
            for (const GiNaC::ex& e : eqs) {
                auto v = evaluate(e, at, {});
                if (!v || std::fabs(*v) > 1e-9) ok = false;
            }
            const double value = at.at(a.get_name());
            (end == 0 ? ir.low : ir.high) = value;
            // The state after the restart at this end, and the mode it implies.
            std::map<std::string, double> state = ev.before;
            for (const auto& [base, plus] : view.system->restart_values)
                if (at.count(plus.get_name())) {
                    state[base] = at.at(plus.get_name());  // der(x) of the array and vx of the model
                    std::string shown = display_name(view, plus.get_name());
                    if (!shown.empty() && shown.back() == '+') state[shown.substr(0, shown.size() - 1)] = state[base];
                }
            std::vector<int> order;
            const Transition& t = modes.transitions[static_cast<std::size_t>(r.transition)];
            if (t.contact_mode >= 0) order.push_back(t.contact_mode);
            order.push_back(t.to);
            order.push_back(t.from);
            for (std::size_t k = 0; k < modes.modes.size(); ++k) order.push_back(static_cast<int>(k));
            std::string implied;
            for (int k : order) {
                const Mode& md = modes.modes[static_cast<std::size_t>(k)];
                if (admissible(flat, md, structures.modes[static_cast<std::size_t>(k)], state, ev.time)) {
                    implied = md.id;
                    break;
                }
            }
            (end == 0 ? ir.low_mode : ir.high_mode) = implied;
            opt.pop();
        }
        if (!ok) {
            out.range_note = "Z3 found no restart within the coefficient's bounds, or its answer did not check";
            continue;
        }
        out.ranges.push_back(std::move(ir));
    }
}

// A jump law at one event at time `time`: Q at the left limits and after the
// restart; "conserved..." kinds need a zero jump, the others its sign.
EventJump event_jump(const FlatModel& flat, const std::string& name, const std::string& kind, const GiNaC::ex& quantity,
                     const std::map<std::string, double>& before, const std::map<std::string, double>& after,
                     double time) {
    EventJump j;
    j.invariant = name;
    j.kind = kind;
    std::vector<GiNaC::ex> q{quantity};
    GiNaC::exmap params = parameter_values(flat, q, {}, time);
    auto b = evaluate(quantity, before, params), a = evaluate(quantity, after, params);
    if (!b || !a) {
        j.note = "a variable of the quantity has no value at the event";
        return j;
    }
    j.before = *b;
    j.after = *a;
    j.jump = *a - *b;
    const double tol = 1e-9 * std::max({1.0, std::fabs(*a), std::fabs(*b)});
    const bool holds = kind.rfind("conserved", 0) == 0 ? std::fabs(j.jump) <= tol
                       : kind == "nonincreasing"        ? j.jump <= tol
                                                        : j.jump >= -tol;
    j.status = holds ? CheckStatus::Holds : CheckStatus::Violated;
    return j;
}

}  // namespace

void verify_events(const FlatModel& flat, const ModeSet& modes, const StructureResult& structures,
                   const RestartStageResult& restarts, const SimulationResult& sim, VerificationResult& v) {
    v.events_checked = true;
    v.events.clear();
    for (std::size_t k = 0; k < sim.events.size(); ++k) {
        const EventRecord& ev = sim.events[k];
        EventVerification e;
        e.event = k;
        e.time = ev.time;
        e.transition = transition_of(modes, ev);
        if (e.transition < 0) continue;
        const Transition& t = modes.transitions[static_cast<std::size_t>(e.transition)];
        const TransitionVerification& tv = v.transitions[static_cast<std::size_t>(e.transition)];
        const TransitionRestart* r =
            static_cast<std::size_t>(e.transition) < restarts.transitions.size() ? &restarts.transitions[static_cast<std::size_t>(e.transition)] : nullptr;
        const bool restarted = !ev.after.empty() && ev.to >= 0;
        // The values after the restart: the new ones over the left limits.
        std::map<std::string, double> after = ev.before;
        for (const auto& [n, x] : ev.after) after[n] = x;
        // Declared jump laws at the actual values, then the discovered conserved quantities.
        if (restarted) {
            for (const DeclaredInvariant& inv : v.invariants)
                if (!inv.decl->at_events.empty() && applies_to(*inv.decl, modes.modes[static_cast<std::size_t>(ev.to)]))
                    e.jumps.push_back(event_jump(flat, inv.name, inv.decl->at_events, inv.quantity, ev.before, after, ev.time));
            for (std::size_t d = 0; d < tv.discovered.size(); ++d)
                e.jumps.push_back(event_jump(flat, tv.discovered[d], "conserved (discovered)",
                                             tv.discovered_quantities[d], ev.before, after, ev.time));
        }
        // Admissibility of the target mode at the restart values.
        if (restarted) {
            const std::map<std::string, double>& values = after;
            const Mode& to = modes.modes[static_cast<std::size_t>(ev.to)];
            bool violated = false;
            for (int a : to.asserts) {
                const FlatAssert& fa = flat.asserts[static_cast<std::size_t>(a)];
                EventAdmissibility ad;
                ad.assert_index = a;
                ad.condition = canonical(flat, *fa.condition);
                ad.message = fa.message;
                auto m = margin(*fa.condition, values, params_for(flat, condition_exprs(*fa.condition), ev.time));
                if (m) {
                    ad.value = *m;
                    double scale = 1;
                    for (const auto& [n, x] : values) scale = std::max(scale, std::fabs(x));
                    ad.status = *m >= -1e-9 * scale ? CheckStatus::Holds : CheckStatus::Violated;
                    violated = violated || ad.status == CheckStatus::Violated;
                }
                e.admissibility.push_back(std::move(ad));
            }
            if (violated)
                for (std::size_t m = 0; m < modes.modes.size(); ++m) {
                    if (static_cast<int>(m) == ev.to || modes.modes[m].transient_only) continue;
                    if (admissible(flat, modes.modes[m], structures.modes[m], values, ev.time)) e.alternatives.push_back(modes.modes[m].id);
                }
        }
        // A continuous restart without reset whose next segment leaves the
        // mode's admissible set at once: the impact law is missing.
        if (restarted && t.resets.empty() && t.restart_constraints.empty() && ev.verdict == "continuous")
            for (const SegmentRecord& sg : sim.segments) {
                if (sg.mode != ev.to || std::fabs(sg.begin - ev.time) > 1e-12 * std::max(1.0, std::fabs(ev.time))) continue;
                for (const AssertRecord& a : sg.asserts) {
                    if (!a.violated) continue;
                    const double span = std::max(sg.end - sg.begin, 1e-300);
                    if (a.time - sg.begin <= 1e-3 * span + 1e-9 * std::max(1.0, std::fabs(ev.time))) {
                        e.missing_impact_law = true;
                        e.missing_note = fmt::format(
                            "the states carry over unchanged and mode {} leaves its admissible set at once "
                            "(\"{}\" fails at t = {:.12g}); nothing in the model says what the impact does",
                            sg.mode_id, a.message, a.time);
                    }
                }
            }
        if (tv.impact_law.incomplete && r) impulse_ranges(flat, modes, structures, *r, tv, ev, e);
        v.events.push_back(std::move(e));
    }
}

}  // namespace modeaudit
