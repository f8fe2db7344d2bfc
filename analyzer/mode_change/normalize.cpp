#include "mode_change/normalize.h"
#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace modeaudit {

namespace {

struct VelocityAlias {
    int v, x;
    bool negated;  // v = -der(x)
};

// residual = c*(der(x) - v) or c*(der(x) + v) with x, v continuous unknowns
// and c a non-zero number (an equation scaled by a constant, or a velocity
// written negated, is the same alias): returns (v, x, negated).
std::optional<VelocityAlias> velocity_alias(const FlatModel& flat, const GiNaC::ex& residual,
                                                  const std::vector<int>& unknowns) {
    GiNaC::ex r = checked_expand(residual);
    if (!GiNaC::is_a<GiNaC::add>(r) || r.nops() != 2) return std::nullopt;
    int der_of = -1, var = -1;
    GiNaC::numeric c_der = 0, c_var = 0;
    for (std::size_t i = 0; i < 2; ++i) {
        GiNaC::ex t = r.op(i), c = 1;
        if (GiNaC::is_a<GiNaC::mul>(t) && t.nops() == 2 && GiNaC::is_a<GiNaC::numeric>(t.op(1))) c = t.op(1), t = t.op(0);
        if (!GiNaC::is_a<GiNaC::symbol>(t) || !GiNaC::is_a<GiNaC::numeric>(c) || c.is_zero()) return std::nullopt;
        auto m = flat.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(t));
        if (!m) return std::nullopt;
        if (m->role == SymbolTable::Meaning::Role::Derivative && m->order == 1)
            der_of = m->index, c_der = GiNaC::ex_to<GiNaC::numeric>(c);
        else if (m->role == SymbolTable::Meaning::Role::Variable)
            var = m->index, c_var = GiNaC::ex_to<GiNaC::numeric>(c);
    }
    if (der_of < 0 || var < 0 || der_of == var) return std::nullopt;
    const bool negated = (c_der - c_var).is_zero();
    if (!negated && !(c_der + c_var).is_zero()) return std::nullopt;
    auto known = [&](int v) { return std::find(unknowns.begin(), unknowns.end(), v) != unknowns.end(); };
    if (!known(der_of) || !known(var)) return std::nullopt;
    return VelocityAlias{var, der_of, negated};
}

// v -> ±der(x) and der(v, k) -> ±der(x, k+1).
GiNaC::exmap velocity_substitution(const FlatModel& flat, const VelocityAlias& a) {
    const int sign = a.negated ? -1 : 1;
    GiNaC::exmap map{{flat.symbols.variable(a.v), sign * flat.symbols.derivative(a.x, 1)}};
    for (int k = 1; k <= flat.symbols.highest_derivative(a.v); ++k)
        map[flat.symbols.derivative(a.v, k)] = sign * flat.symbols.derivative(a.x, k + 1);
    return map;
}

Mode apply(const Mode& m, const GiNaC::exmap& map, const std::set<int>& drop_equations,
           const std::set<int>& drop_unknowns) {
    Mode out;
    out.id = m.id;
    out.values = m.values;
    out.asserts = m.asserts;
    out.transient_only = m.transient_only;
    for (const ModeEquation& e : m.equations) {
        if (drop_equations.count(e.equation)) continue;
        out.equations.push_back({e.equation, map.empty() ? e.residual : e.residual.subs(map, kExactSubs)});
    }
    for (int v : m.unknowns)
        if (!drop_unknowns.count(v)) out.unknowns.push_back(v);
    return out;
}

// Whether flat equation `equation` has the residual `r` in mode `m`.
bool holds_in(const Mode& m, int equation, const GiNaC::ex& r) {
    for (const ModeEquation& e : m.equations)
        if (e.equation == equation) return checked_expand(e.residual - r).is_zero();
    return false;
}

// The highest derivative order of each variable in the modes' equations.
std::map<int, int> derivative_orders(const FlatModel& flat, const std::vector<const Mode*>& modes) {
    std::map<int, int> order;
    for (const Mode* m : modes)
        for (const ModeEquation& e : m->equations)
            for (GiNaC::const_preorder_iterator it = e.residual.preorder_begin(); it != e.residual.preorder_end(); ++it) {
                if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
                auto mm = flat.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
                if (!mm) continue;
                using R = SymbolTable::Meaning::Role;
                if (mm->role == R::Variable) order.emplace(mm->index, 0);
                if (mm->role == R::Derivative) order[mm->index] = std::max(order[mm->index], mm->order);
            }
    return order;
}

// The velocity aliases common to the modes (the next mode's equations that
// hold alike in the previous and the transient mode), with their equation.
// Only an alias whose x is not itself the v of another is kept: with
// der(x) = v and der(v) = f (a unit mass) both are aliases, and eliminating
// f as der(v) and then v as der(x) would leave f's value naming the
// eliminated v; v's own alias is the velocity, whatever the equation order.
std::vector<std::pair<int, VelocityAlias>> common_velocity_aliases(const FlatModel& flat, const Mode& previous,
                                                                   const Mode& next, const Mode* transient) {
    std::vector<std::pair<int, VelocityAlias>> all;
    std::set<int> velocities;
    for (const ModeEquation& e : next.equations) {
        if (!holds_in(previous, e.equation, e.residual)) continue;
        if (transient && !holds_in(*transient, e.equation, e.residual)) continue;
        if (auto alias = velocity_alias(flat, e.residual, next.unknowns)) {
            all.emplace_back(e.equation, *alias);
            velocities.insert(alias->v);
        }
    }
    // A negated alias only where v is itself differentiated (a velocity,
    // m*der(v) = f): with J = 1, J*der(w) = -tau reads tau = -der(w), and
    // eliminating the torque would hide its impulse.
    std::vector<const Mode*> modes{&previous, &next};
    if (transient) modes.push_back(transient);
    const std::map<int, int> orders = derivative_orders(flat, modes);
    auto differentiated = [&](int v) {
        auto it = orders.find(v);
        return it != orders.end() && it->second > 0;
    };
    std::vector<std::pair<int, VelocityAlias>> out;
    for (const auto& entry : all)
        if (!velocities.count(entry.second.x) && (!entry.second.negated || differentiated(entry.second.v)))
            out.push_back(entry);
    return out;
}

// A linear definition: residual = a*u + sum_k b_k*w_k + c with numeric a,
// b_k != 0, w_k variables or derivatives of unknowns, c free of them.
// Returns the unknown variables (role Variable) with their coefficients,
// or nothing when the residual is not of that form.
std::optional<std::vector<std::pair<int, GiNaC::numeric>>> linear_terms(const FlatModel& flat, const GiNaC::ex& residual,
                                                                        const std::set<int>& unknowns, int& symbols) {
    std::vector<std::pair<int, GiNaC::numeric>> vars;
    symbols = 0;
    for (const GiNaC::ex& t : terms_of(checked_expand(residual))) {
        GiNaC::ex coefficient = 1, factor;
        int unknown_factors = 0;
        std::vector<GiNaC::ex> factors;
        if (GiNaC::is_a<GiNaC::mul>(t))
            for (std::size_t i = 0; i < t.nops(); ++i) factors.push_back(t.op(i));
        else
            factors.push_back(t);
        for (const GiNaC::ex& f : factors) {
            bool has_unknown = false;
            for (GiNaC::const_preorder_iterator it = f.preorder_begin(); it != f.preorder_end(); ++it) {
                if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
                auto m = flat.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
                using R = SymbolTable::Meaning::Role;
                if (m && (m->role == R::Variable || m->role == R::Derivative) && unknowns.count(m->index))
                    has_unknown = true;
            }
            if (!has_unknown) {
                coefficient *= f;
                continue;
            }
            if (!GiNaC::is_a<GiNaC::symbol>(f)) return std::nullopt;  // a power or function of an unknown
            factor = f;
            ++unknown_factors;
        }
        if (unknown_factors == 0) continue;  // the constant part
        if (unknown_factors > 1 || !GiNaC::is_a<GiNaC::numeric>(coefficient)) return std::nullopt;
        ++symbols;
        auto m = flat.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(factor));
        if (m->role == SymbolTable::Meaning::Role::Variable)
            vars.emplace_back(m->index, GiNaC::ex_to<GiNaC::numeric>(coefficient));
    }
    return vars;
}

}  // namespace

NormalizedTransition normalize_first_order(const FlatModel& flat, const Mode& previous, const Mode& next,
                                           const Mode* transient, const Transition* transition) {
    NormalizedTransition n;
    // 1. Velocity aliases.
    GiNaC::exmap map;
    std::set<int> drop, dropped_unknowns;
    for (const auto& [equation, alias] : common_velocity_aliases(flat, previous, next, transient)) {
        if (n.velocity_of.count(alias.v)) continue;  // (an x is never a v: common_velocity_aliases)
        const auto [v, x, negated] = alias;
        n.velocity_of[v] = x;
        if (negated) n.negated_velocity.insert(v);
        drop.insert(equation);
        dropped_unknowns.insert(v);
        for (const auto& [from, to] : velocity_substitution(flat, alias)) map[from] = to;
        // pre(v) is left alone: it is the left limit of der(x), which the
        // array maps itself (ArrayInput::velocity_of).
    }
    Mode p = apply(previous, map, drop, dropped_unknowns);
    Mode nx = apply(next, map, drop, dropped_unknowns);
    Mode c = transient ? apply(*transient, map, drop, dropped_unknowns) : Mode{};
    n.substitution = map;

    // 2. Trivial equations and linear definitions of algebraic variables.
    std::set<int> pinned;
    if (transition) {
        for (const WhenAction& a : transition->restart_constraints)
            for (GiNaC::const_preorder_iterator it = (a.lhs - a.rhs).preorder_begin(); it != (a.lhs - a.rhs).preorder_end(); ++it)
                if (GiNaC::is_a<GiNaC::symbol>(*it))
                    if (auto m = flat.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it))) pinned.insert(m->index);
        for (const WhenAction& a : transition->resets) pinned.insert(a.variable);
    }
    for (std::size_t v = 0; v < flat.variables.size(); ++v)
        if (flat.variables[v].invariant || flat.variables[v].exogenous) pinned.insert(static_cast<int>(v));
    for (const auto& [v, x] : n.velocity_of) pinned.insert(x);
    std::set<int> unusable;  // definitions whose substitution divides by zero
    for (;;) {
        std::vector<const Mode*> modes{&p, &nx};
        if (transient) modes.push_back(&c);
        std::map<int, int> orders = derivative_orders(flat, modes);
        std::set<int> unknowns(nx.unknowns.begin(), nx.unknowns.end());
        unknowns.insert(p.unknowns.begin(), p.unknowns.end());
        if (transient) unknowns.insert(c.unknowns.begin(), c.unknowns.end());
        // The best definition: fewest unknowns, then equation order.
        int best_symbols = 0, best_equation = -1, best_variable = -1;
        GiNaC::ex best_value;
        for (const ModeEquation& e : nx.equations) {
            if (unusable.count(e.equation)) continue;
            if (!holds_in(p, e.equation, e.residual)) continue;
            if (transient && !holds_in(c, e.equation, e.residual)) continue;
            int symbols = 0;
            auto vars = linear_terms(flat, e.residual, unknowns, symbols);
            if (!vars) continue;
            if (symbols != static_cast<int>(vars->size())) continue;  // a derivative: a dynamic law, kept
            if (best_equation >= 0 && symbols >= best_symbols) continue;
            // The equation defines an algebraic, unpinned variable u when
            // every other variable in it is differentiated in the modes
            // (u = v1 - v2, isw = iL) or when u is alone (id = 0).
            int u = -1, algebraic = 0;
            GiNaC::numeric a;
            for (const auto& [var, coefficient] : *vars) {
                auto o = orders.find(var);
                if (o != orders.end() && o->second > 0) continue;
                ++algebraic;
                if (!pinned.count(var)) u = var, a = coefficient;
            }
            // Or an alias between two algebraic variables that only the
            // definitions reveal (a + b = s with b = 0 resolved leaves
            // a - s): the flattener's alias elimination, after them; the
            // later variable goes.
            if (algebraic == 2 && vars->size() == 2 && symbols == 2 && terms_of(checked_expand(e.residual)).size() == 2) {
                u = -1;
                for (const auto& [var, coefficient] : *vars)
                    if (!pinned.count(var) && (u < 0 || var > u)) u = var, a = coefficient;
            } else if (algebraic != 1) {
                continue;
            }
            if (u < 0) continue;
            const GiNaC::symbol& us = flat.symbols.variable(u);
            GiNaC::ex r = checked_expand(e.residual);
            GiNaC::ex value = checked_expand(-(r - a * us) / a);
            if (value.has(us)) continue;
            best_value = value;
            best_symbols = symbols;
            best_equation = e.equation;
            best_variable = u;
        }
        if (best_equation < 0) break;
        GiNaC::exmap one{{flat.symbols.variable(best_variable), best_value}};
        std::set<int> eq{best_equation}, var{best_variable};
        // A definition whose value makes another equation divide by zero
        // (u = 0 where an equation has 1/u, as in the MSL's FluxTubes
        // examples) is not applied: the modes keep that variable as
        // written, which only forgoes the canonical form for it.
        try {
            Mode p1 = apply(p, one, eq, var), nx1 = apply(nx, one, eq, var);
            Mode c1 = transient ? apply(c, one, eq, var) : Mode{};
            p = std::move(p1);
            nx = std::move(nx1);
            if (transient) c = std::move(c1);
        } catch (const std::domain_error&) {  // GiNaC's pole_error
            unusable.insert(best_equation);
            continue;
        }
        for (auto& [v, value] : n.resolved) value = checked_expand(value.subs(one, kExactSubs));
        for (auto& [from, to] : n.substitution) to = checked_expand(to.subs(one, kExactSubs));
        n.resolved.emplace_back(best_variable, best_value);
        n.substitution[flat.symbols.variable(best_variable)] = best_value;
    }
    // 3. Velocity aliases that the definitions reveal: der(x) = a with
    // a + b = v and b = 0 leaves der(x) - v = 0 once a and b are resolved
    // (a velocity routed through a node), the alias of the direct writing.
    for (bool found = true; found;) {
        found = false;
        for (const auto& [equation, alias] : common_velocity_aliases(flat, p, nx, transient ? &c : nullptr)) {
            if (n.velocity_of.count(alias.v)) continue;
            const auto [v, x, negated] = alias;
            GiNaC::exmap one = velocity_substitution(flat, alias);
            std::set<int> eq{equation}, var{v};
            p = apply(p, one, eq, var);
            nx = apply(nx, one, eq, var);
            if (transient) c = apply(c, one, eq, var);
            for (auto& [u, value] : n.resolved) value = checked_expand(value.subs(one, kExactSubs));
            for (auto& [from, to] : n.substitution) to = checked_expand(to.subs(one, kExactSubs));
            for (const auto& [from, to] : one) n.substitution[from] = to;
            n.velocity_of[v] = x;
            if (negated) n.negated_velocity.insert(v);
            found = true;
            break;
        }
    }
    n.previous = std::move(p);
    n.next = std::move(nx);
    StructureOptions o;
    o.numeric_check = false;
    if (!n.resolved.empty()) {
        ModeStructure as_written = analyze_mode(flat, next, o);
        for (const auto& [u, value] : n.resolved)
            for (const GiNaC::symbol& s : as_written.states)
                if (s == flat.symbols.variable(u)) n.resolved_states.emplace_back(u, value);
    }
    n.previous_structure = analyze_mode(flat, n.previous, o);
    n.next_structure = analyze_mode(flat, n.next, o);
    if (transient) {
        n.has_transient = true;
        n.transient = std::move(c);
        n.transient_structure = analyze_mode(flat, n.transient, o);
    }
    return n;
}

GiNaC::ex canonical_form(const NormalizedTransition& n, const GiNaC::ex& e) {
    return n.substitution.empty() ? e : e.subs(n.substitution, kExactSubs);
}

ArrayInput array_input(const FlatModel& flat, const NormalizedTransition& n, const Transition& t) {
    ArrayInput in;
    in.flat = &flat;
    in.previous = &n.previous;
    in.previous_structure = &n.previous_structure;
    in.next = &n.next;
    in.next_structure = &n.next_structure;
    in.transition = &t;
    in.velocity_of = &n.velocity_of;
    in.negated_velocity = &n.negated_velocity;
    in.substitution = &n.substitution;
    in.resolved_states = &n.resolved_states;
    if (n.has_transient) {
        in.transient = &n.transient;
        in.transient_structure = &n.transient_structure;
    }
    return in;
}

}  // namespace modeaudit
