#include "modes/clusters.h"

#include <map>
#include <numeric>

namespace modeaudit {

void ModelReader::variable(int v, Reads& r) const {
    const Variability k = flat_.variables[static_cast<std::size_t>(v)].variability;
    (k == Variability::Continuous || k == Variability::Discrete ? r.variables : r.parameters).push_back(v);
}

void ModelReader::read(const GiNaC::ex& e, Reads& r) const {
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
        auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
        if (!m) continue;
        using R = SymbolTable::Meaning::Role;
        if (m->role == R::Condition) {
            r.conditions.push_back(m->index);
            read(*flat_.conditions[static_cast<std::size_t>(m->index)], r);
        } else if (m->role != R::Time) {
            variable(m->index, r);
        }
    }
}

void ModelReader::read(const Condition& c, Reads& r) const {
    if (c.kind == Condition::Kind::Variable && c.variable >= 0) variable(c.variable, r);
    if (c.kind == Condition::Kind::Relation || c.kind == Condition::Kind::Sample) {
        read(c.lhs, r);
        read(c.rhs, r);
    }
    for (const ConditionPtr& o : c.operands) read(*o, r);
}

void ModelReader::active_when(const std::vector<std::pair<int, bool>>& path, Reads& r) const {
    for (const auto& [k, value] : path) {
        r.conditions.push_back(k);
        read(*flat_.conditions[static_cast<std::size_t>(k)], r);
    }
}

void ModelReader::equation(const FlatEquation& e, Reads& r) const {
    read(e.lhs, r);
    read(e.rhs, r);
    active_when(e.active_when, r);
}

void ModelReader::when(const FlatWhen& w, Reads& r) const {
    for (const ConditionPtr& t : w.triggers) read(*t, r);
    for (const WhenAction& a : w.actions) {
        if (a.variable >= 0) variable(a.variable, r);
        read(a.value, r);
        if (a.bool_value) read(*a.bool_value, r);
        read(a.lhs, r);
        read(a.rhs, r);
        if (a.assertion) read(*a.assertion, r);
    }
}

void ModelReader::definition(const RelationDefinition& d, Reads& r) const {
    variable(d.variable, r);
    read(*d.condition, r);
}

void ModelReader::definition(const IntegerDefinition& d, Reads& r) const {
    variable(d.variable, r);
    read(d.value, r);
}

void ModelReader::assertion(const FlatAssert& a, Reads& r) const {
    read(*a.condition, r);
    active_when(a.active_when, r);
}

void ModelReader::attributes(int v, Reads& r) const {
    const FlatVariable& var = flat_.variables[static_cast<std::size_t>(v)];
    for (const auto* a : {&var.start, &var.value})
        if (*a) read(**a, r);
    for (const auto* a : {&var.min, &var.max, &var.nominal})
        if (*a) read(**a, r);
    if (var.invariant && var.invariant->rate) read(*var.invariant->rate, r);
}

VariableCoupling::VariableCoupling(const FlatModel& flat) : reader_(flat), parent_(flat.variables.size()) {
    std::iota(parent_.begin(), parent_.end(), 0);
    Reads r;
    auto unite_read = [&](auto read) {
        r.clear();
        read();
        unite_all(r.variables);
    };
    for (const FlatEquation& e : flat.equations)
        if (!e.initial) unite_read([&] { reader_.equation(e, r); });  // initial equations hold at the start only
    for (const FlatWhen& w : flat.whens) unite_read([&] { reader_.when(w, r); });
    for (const RelationDefinition& d : flat.relation_definitions) unite_read([&] { reader_.definition(d, r); });
    for (const IntegerDefinition& d : flat.integer_definitions) unite_read([&] { reader_.definition(d, r); });
    for (const FlatAssert& a : flat.asserts) unite_read([&] { reader_.assertion(a, r); });
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

int VariableCoupling::first_component(const Reads& r) const {
    return r.variables.empty() ? -1 : find(r.variables.front());
}

int VariableCoupling::component_of(const GiNaC::ex& e) const {
    Reads r;
    reader_.read(e, r);
    return first_component(r);
}

int VariableCoupling::component_of(const Condition& c) const {
    Reads r;
    reader_.read(c, r);
    return first_component(r);
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
