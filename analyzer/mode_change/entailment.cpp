#include "mode_change/entailment.h"

#include <map>
#include <set>

#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"

namespace modeaudit {

namespace {

using Symbols = std::set<GiNaC::ex, GiNaC::ex_is_less>;

Symbols symbols_of(const GiNaC::ex& e, const std::function<bool(const GiNaC::symbol&)>& is_variable) {
    Symbols out;
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it) && is_variable(GiNaC::ex_to<GiNaC::symbol>(*it))) out.insert(*it);
    return out;
}

}  // namespace

Entailment entailed(const GiNaC::ex& r, const std::vector<GiNaC::ex>& basis,
                    const std::function<bool(const GiNaC::symbol&)>& is_variable) {
    Entailment out;
    GiNaC::ex target = checked_expand(r);
    if (target.is_zero()) {
        out.holds = true;
        return out;
    }
    // The basis equations connected to r through shared variables.
    Symbols reach = symbols_of(target, is_variable);
    std::vector<int> chosen;
    std::vector<bool> taken(basis.size(), false);
    for (bool grew = true; grew;) {
        grew = false;
        for (std::size_t k = 0; k < basis.size(); ++k) {
            if (taken[k]) continue;
            Symbols s = symbols_of(basis[k], is_variable);
            bool shares = false;
            for (const GiNaC::ex& x : s) shares = shares || reach.count(x);
            if (!shares) continue;
            taken[k] = true;
            chosen.push_back(static_cast<int>(k));
            reach.insert(s.begin(), s.end());
            grew = true;
        }
    }
    if (chosen.empty()) return out;
    // r - sum c_k b_k, grouped by monomial in the variables: every group's
    // coefficient must vanish, a linear system in the c_k.
    std::vector<GiNaC::symbol> c;
    GiNaC::ex combination = target;
    for (std::size_t k = 0; k < chosen.size(); ++k) {
        c.emplace_back("entailment_c" + std::to_string(k));
        combination -= c.back() * checked_expand(basis[static_cast<std::size_t>(chosen[k])]);
    }
    std::map<GiNaC::ex, GiNaC::ex, GiNaC::ex_is_less> groups;
    for (const GiNaC::ex& t : terms_of(checked_expand(combination))) {
        GiNaC::ex monomial = 1, coefficient = 1;
        std::vector<GiNaC::ex> factors;
        if (GiNaC::is_a<GiNaC::mul>(t))
            for (std::size_t i = 0; i < t.nops(); ++i) factors.push_back(t.op(i));
        else
            factors.push_back(t);
        for (const GiNaC::ex& f : factors) {
            bool constant = true;
            for (GiNaC::const_preorder_iterator it = f.preorder_begin(); it != f.preorder_end(); ++it)
                if (GiNaC::is_a<GiNaC::symbol>(*it) && is_variable(GiNaC::ex_to<GiNaC::symbol>(*it))) constant = false;
            (constant ? coefficient : monomial) *= f;
        }
        groups[monomial] += coefficient;
    }
    GiNaC::lst equations, unknowns;
    for (const auto& [monomial, coefficient] : groups) equations.append(coefficient == 0);
    for (const GiNaC::symbol& s : c) unknowns.append(s);
    GiNaC::ex solution;
    try {
        solution = GiNaC::lsolve(equations, unknowns);
    } catch (const std::exception&) {
        return out;  // not linear in the coefficients (cannot happen) or degenerate
    }
    if (!GiNaC::is_a<GiNaC::lst>(solution) || solution.nops() != unknowns.nops()) return out;
    out.holds = true;
    for (std::size_t k = 0; k < solution.nops(); ++k) {
        GiNaC::ex value = solution.op(k).rhs();
        // A free coefficient (lsolve leaves it as itself) counts as zero.
        GiNaC::exmap zero;
        for (const GiNaC::symbol& s : c) zero[s] = 0;
        if (!GiNaC::normal(value.subs(zero, kExactSubs)).is_zero()) out.used.push_back(chosen[k]);
    }
    return out;
}

}  // namespace modeaudit
