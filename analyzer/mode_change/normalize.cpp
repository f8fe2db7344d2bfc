#include "mode_change/normalize.h"
#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"

#include <algorithm>

namespace modeaudit {

namespace {


// residual = +-(der(x) - v) with x, v continuous unknowns: returns (v, x).
std::optional<std::pair<int, int>> velocity_alias(const FlatModel& flat, const GiNaC::ex& residual,
                                                  const std::vector<int>& unknowns) {
    GiNaC::ex r = checked_expand(residual);
    if (!GiNaC::is_a<GiNaC::add>(r) || r.nops() != 2) return std::nullopt;
    int der_of = -1, var = -1, sign_der = 0, sign_var = 0;
    for (std::size_t i = 0; i < 2; ++i) {
        GiNaC::ex t = r.op(i), c = 1;
        if (GiNaC::is_a<GiNaC::mul>(t) && t.nops() == 2 && GiNaC::is_a<GiNaC::numeric>(t.op(1))) c = t.op(1), t = t.op(0);
        if (!GiNaC::is_a<GiNaC::symbol>(t) || !(c.is_equal(1) || c.is_equal(-1))) return std::nullopt;
        auto m = flat.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(t));
        if (!m) return std::nullopt;
        int sign = c.is_equal(1) ? 1 : -1;
        if (m->role == SymbolTable::Meaning::Role::Derivative && m->order == 1)
            der_of = m->index, sign_der = sign;
        else if (m->role == SymbolTable::Meaning::Role::Variable)
            var = m->index, sign_var = sign;
    }
    if (der_of < 0 || var < 0 || der_of == var || sign_der == sign_var) return std::nullopt;
    auto known = [&](int v) { return std::find(unknowns.begin(), unknowns.end(), v) != unknowns.end(); };
    if (!known(der_of) || !known(var)) return std::nullopt;
    return std::make_pair(var, der_of);
}

Mode apply(const FlatModel& flat, const Mode& m, const GiNaC::exmap& map, const std::vector<int>& drop_equations,
           const std::map<int, int>& velocity_of) {
    Mode out;
    out.id = m.id;
    out.values = m.values;
    out.asserts = m.asserts;
    for (const ModeEquation& e : m.equations) {
        if (std::find(drop_equations.begin(), drop_equations.end(), e.equation) != drop_equations.end()) continue;
        out.equations.push_back({e.equation, e.residual.subs(map, kExactSubs)});
    }
    for (int v : m.unknowns)
        if (!velocity_of.count(v)) out.unknowns.push_back(v);
    (void)flat;
    return out;
}

}  // namespace

NormalizedTransition normalize_first_order(const FlatModel& flat, const Mode& previous, const Mode& next,
                                           const Mode* transient) {
    NormalizedTransition n;
    GiNaC::exmap map;
    std::vector<int> drop;
    for (const ModeEquation& e : next.equations) {
        bool common = false;
        for (const ModeEquation& p : previous.equations)
            if (p.equation == e.equation && checked_expand(p.residual - e.residual).is_zero()) common = true;
        if (!common) continue;
        if (transient) {
            bool in_transient = false;
            for (const ModeEquation& c : transient->equations)
                if (c.equation == e.equation && checked_expand(c.residual - e.residual).is_zero()) in_transient = true;
            if (!in_transient) continue;
        }
        auto alias = velocity_alias(flat, e.residual, next.unknowns);
        if (!alias || n.velocity_of.count(alias->first) || n.velocity_of.count(alias->second)) continue;
        auto [v, x] = *alias;
        n.velocity_of[v] = x;
        drop.push_back(e.equation);
        map[flat.symbols.variable(v)] = flat.symbols.derivative(x, 1);
        for (int k = 1; k <= flat.symbols.highest_derivative(v); ++k)
            map[flat.symbols.derivative(v, k)] = flat.symbols.derivative(x, k + 1);
        // pre(v) is left alone: it is the left limit of der(x), which the
        // array maps itself (ArrayInput::velocity_of).
    }
    n.previous = apply(flat, previous, map, drop, n.velocity_of);
    n.next = apply(flat, next, map, drop, n.velocity_of);
    StructureOptions o;
    o.numeric_check = false;
    n.previous_structure = analyze_mode(flat, n.previous, o);
    n.next_structure = analyze_mode(flat, n.next, o);
    if (transient) {
        n.has_transient = true;
        n.transient = apply(flat, *transient, map, drop, n.velocity_of);
        n.transient_structure = analyze_mode(flat, n.transient, o);
    }
    return n;
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
    if (n.has_transient) {
        in.transient = &n.transient;
        in.transient_structure = &n.transient_structure;
    }
    return in;
}

}  // namespace modeaudit
