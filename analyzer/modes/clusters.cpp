#include "modes/clusters.h"

#include <map>
#include <numeric>

namespace modeaudit {

VariableCoupling::VariableCoupling(const FlatModel& flat) : flat_(flat), parent_(flat.variables.size()) {
    std::iota(parent_.begin(), parent_.end(), 0);
    std::vector<int> vars;
    for (const FlatEquation& e : flat.equations) {
        if (e.initial) continue;  // initial equations hold at the start only
        vars.clear();
        variables_of(e.lhs, vars);
        variables_of(e.rhs, vars);
        for (const auto& [k, value] : e.active_when) variables_of(*flat.conditions[static_cast<std::size_t>(k)], vars);
        unite_all(vars);
    }
    for (const FlatWhen& w : flat.whens) {
        vars.clear();
        for (const ConditionPtr& t : w.triggers) variables_of(*t, vars);
        for (const WhenAction& a : w.actions) {
            if (a.variable >= 0) vars.push_back(a.variable);
            variables_of(a.value, vars);
            if (a.bool_value) variables_of(*a.bool_value, vars);
            variables_of(a.lhs, vars);
            variables_of(a.rhs, vars);
            if (a.assertion) variables_of(*a.assertion, vars);
        }
        unite_all(vars);
    }
    for (const RelationDefinition& d : flat.relation_definitions) {
        vars.clear();
        vars.push_back(d.variable);
        variables_of(*d.condition, vars);
        unite_all(vars);
    }
    for (const IntegerDefinition& d : flat.integer_definitions) {
        vars.clear();
        vars.push_back(d.variable);
        variables_of(d.value, vars);
        unite_all(vars);
    }
    for (const FlatAssert& a : flat.asserts) {
        vars.clear();
        variables_of(*a.condition, vars);
        for (const auto& [k, value] : a.active_when) variables_of(*flat.conditions[static_cast<std::size_t>(k)], vars);
        unite_all(vars);
    }
}

int VariableCoupling::find(int v) const {
    int root = v;
    while (parent_[static_cast<std::size_t>(root)] != root) root = parent_[static_cast<std::size_t>(root)];
    while (parent_[static_cast<std::size_t>(v)] != root) {  // path compression
        const int next = parent_[static_cast<std::size_t>(v)];
        parent_[static_cast<std::size_t>(v)] = root;
        v = next;
    }
    return root;
}

void VariableCoupling::unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (a > b) std::swap(a, b);  // the smaller index represents: deterministic
    parent_[static_cast<std::size_t>(b)] = a;
}

void VariableCoupling::unite_all(const std::vector<int>& vars) {
    for (std::size_t k = 1; k < vars.size(); ++k) unite(vars[0], vars[k]);
}

int VariableCoupling::component(int v) const { return find(v); }

void VariableCoupling::variables_of(const GiNaC::ex& e, std::vector<int>& out) const {
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
        auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
        if (!m) continue;
        using R = SymbolTable::Meaning::Role;
        if (m->role == R::Condition) {
            variables_of(*flat_.conditions[static_cast<std::size_t>(m->index)], out);
        } else if (m->role == R::Variable || m->role == R::Pre || m->role == R::Derivative) {
            const FlatVariable& var = flat_.variables[static_cast<std::size_t>(m->index)];
            if (var.variability == Variability::Continuous || var.variability == Variability::Discrete)
                out.push_back(m->index);
        }
    }
}

void VariableCoupling::variables_of(const Condition& c, std::vector<int>& out) const {
    if (c.kind == Condition::Kind::Variable && c.variable >= 0) out.push_back(c.variable);
    if (c.kind == Condition::Kind::Relation || c.kind == Condition::Kind::Sample) {
        variables_of(c.lhs, out);
        variables_of(c.rhs, out);
    }
    for (const ConditionPtr& o : c.operands) variables_of(*o, out);
}

int VariableCoupling::component_of(const GiNaC::ex& e) const {
    std::vector<int> vars;
    variables_of(e, vars);
    return vars.empty() ? -1 : find(vars[0]);
}

int VariableCoupling::component_of(const Condition& c) const {
    std::vector<int> vars;
    variables_of(c, vars);
    return vars.empty() ? -1 : find(vars[0]);
}

std::vector<SwitchingCluster> group_clusters(const std::vector<int>& component_of_mode_variable) {
    std::vector<SwitchingCluster> clusters;
    std::map<int, std::size_t> index;
    for (std::size_t i = 0; i < component_of_mode_variable.size(); ++i) {
        const int c = component_of_mode_variable[i];
        std::size_t at = clusters.size();
        if (c >= 0) {
            auto [it, fresh] = index.emplace(c, clusters.size());
            at = it->second;
            if (fresh) clusters.emplace_back();
        } else {
            clusters.emplace_back();
        }
        clusters[at].mode_variables.push_back(static_cast<int>(i));
    }
    return clusters;
}

}  // namespace modeaudit
