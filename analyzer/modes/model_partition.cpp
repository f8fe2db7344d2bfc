#include "modes/model_partition.h"

#include <algorithm>
#include <map>
#include <set>

#include "modes/clusters.h"

namespace modeaudit {

namespace {

// The whole model's conditions and variables renumbered for one part.
class PartBuilder {
public:
    PartBuilder(const FlatModel& flat, ModelPart& part) : flat_(flat), part_(part) {}

    void add_variable(int v) { variables_.insert(v); }
    const std::set<int>& variables() const { return variables_; }
    void add_condition(int c) { conditions_.insert(c); }

    // Numbers the part's variables and conditions (in the whole model's
    // order) and builds its symbol table.
    void number() {
        part_.variables.assign(variables_.begin(), variables_.end());
        for (std::size_t k = 0; k < part_.variables.size(); ++k) var_index_[part_.variables[k]] = static_cast<int>(k);
        std::vector<int> conds(conditions_.begin(), conditions_.end());
        for (std::size_t k = 0; k < conds.size(); ++k) cond_index_[conds[k]] = static_cast<int>(k);
        FlatModel& m = part_.model;
        m.symbols = flat_.symbols.subset(part_.variables, conds);
        for (int v : part_.variables) m.variables.push_back(flat_.variables[static_cast<std::size_t>(v)]);
        for (int c : conds) {
            m.conditions.push_back(condition(flat_.conditions[static_cast<std::size_t>(c)]));
            m.condition_text.push_back(flat_.condition_text[static_cast<std::size_t>(c)]);
        }
    }

    int variable(int v) const { return v < 0 ? v : var_index_.at(v); }

    ConditionPtr condition(const ConditionPtr& c) {
        if (!c) return c;
        auto memo = remapped_.find(c.get());
        if (memo != remapped_.end()) return memo->second;
        auto copy = std::make_shared<Condition>(*c);
        if (copy->kind == Condition::Kind::Variable) copy->variable = variable(copy->variable);
        for (ConditionPtr& o : copy->operands) o = condition(o);
        ConditionPtr out = copy;
        remapped_[c.get()] = out;
        return out;
    }

    std::vector<std::pair<int, bool>> path(const std::vector<std::pair<int, bool>>& p) const {
        std::vector<std::pair<int, bool>> out;
        for (const auto& [k, value] : p) out.emplace_back(cond_index_.at(k), value);
        return out;
    }

    FlatEquation equation(FlatEquation e) const {
        e.active_when = path(e.active_when);
        return e;
    }

    FlatWhen when(FlatWhen w) {
        for (ConditionPtr& t : w.triggers) t = condition(t);
        for (WhenAction& a : w.actions) {
            a.variable = variable(a.variable);
            a.bool_value = condition(a.bool_value);
            a.assertion = condition(a.assertion);
        }
        return w;
    }

private:
    const FlatModel& flat_;
    ModelPart& part_;
    std::set<int> variables_, conditions_;
    std::map<int, int> var_index_, cond_index_;
    std::map<const Condition*, ConditionPtr> remapped_;
};

}  // namespace

std::vector<ModelPart> split_model(const FlatModel& flat) {
    // Nothing that can switch (no when-clause, condition or discrete
    // variable): one part, and no walk of the model.
    if (flat.whens.empty() && flat.conditions.empty() &&
        std::none_of(flat.variables.begin(), flat.variables.end(),
                     [](const FlatVariable& v) { return v.variability == Variability::Discrete; }))
        return {};
    const VariableCoupling coupling(flat);
    const ModelReader reader(flat);
    // The component of every unknown; an alias goes with its representative.
    std::vector<int> component(flat.variables.size(), -1);
    for (std::size_t v = 0; v < flat.variables.size(); ++v) {
        const Variability k = flat.variables[v].variability;
        if (k == Variability::Continuous || k == Variability::Discrete)
            component[v] = coupling.component(static_cast<int>(v));
    }
    for (const FlatModel::Alias& a : flat.aliases)
        if (component[static_cast<std::size_t>(a.representative)] >= 0)
            component[static_cast<std::size_t>(a.variable)] = component[static_cast<std::size_t>(a.representative)];

    // What each item (equation, when-clause, definition, assert) reads, and
    // the component it sits in (-1: it reads no unknown).
    auto component_of_reads = [&](const Reads& reads) {
        return reads.variables.empty() ? -1 : component[static_cast<std::size_t>(reads.variables.front())];
    };
    auto reads_of = [&](const auto& items, auto read) {
        std::vector<Reads> out(items.size());
        for (std::size_t i = 0; i < items.size(); ++i) read(items[i], out[i]);
        return out;
    };
    const std::vector<Reads> equation_reads =
        reads_of(flat.equations, [&](const FlatEquation& e, Reads& r) { reader.equation(e, r); });
    const std::vector<Reads> when_reads = reads_of(flat.whens, [&](const FlatWhen& w, Reads& r) { reader.when(w, r); });
    std::set<int> switching;  // components with modes of their own
    for (std::size_t v = 0; v < flat.variables.size(); ++v)
        if (flat.variables[v].variability == Variability::Discrete && component[v] >= 0) switching.insert(component[v]);
    for (const Reads& r : equation_reads)
        if (!r.conditions.empty() && component_of_reads(r) >= 0) switching.insert(component_of_reads(r));
    for (const Reads& r : when_reads)
        if (component_of_reads(r) >= 0) switching.insert(component_of_reads(r));
    if (switching.size() < 2) return {};
    const std::vector<Reads> initial_reads =
        reads_of(flat.initial_equations, [&](const FlatEquation& e, Reads& r) { reader.equation(e, r); });
    const std::vector<Reads> relation_reads = reads_of(
        flat.relation_definitions, [&](const RelationDefinition& d, Reads& r) { reader.definition(d, r); });
    const std::vector<Reads> integer_reads = reads_of(
        flat.integer_definitions, [&](const IntegerDefinition& d, Reads& r) { reader.definition(d, r); });
    const std::vector<Reads> assert_reads =
        reads_of(flat.asserts, [&](const FlatAssert& a, Reads& r) { reader.assertion(a, r); });

    // Parts: each switching component, in the order of its first variable;
    // the rest (part 0) when anything is left.
    std::map<int, int> part_of_component;
    for (std::size_t v = 0; v < flat.variables.size(); ++v) {
        const int c = component[v];
        if (c >= 0 && switching.count(c) && !part_of_component.count(c)) {
            const int next = static_cast<int>(part_of_component.size()) + 1;
            part_of_component[c] = next;
        }
    }
    auto part_of = [&](int c) {
        auto it = part_of_component.find(c);
        return it == part_of_component.end() ? 0 : it->second;
    };
    std::vector<ModelPart> parts(part_of_component.size() + 1);
    std::vector<PartBuilder> builders;
    builders.reserve(parts.size());
    for (ModelPart& p : parts) builders.emplace_back(flat, p);
    for (std::size_t k = 1; k < parts.size(); ++k) parts[k].switching = true;

    // What each part holds; anything joining two parts makes the model one.
    bool joined = false;
    auto take = [&](int part, const Reads& reads) {
        for (int v : reads.variables)
            if (part_of(component[static_cast<std::size_t>(v)]) != part) joined = true;
        PartBuilder& b = builders[static_cast<std::size_t>(part)];
        for (int v : reads.variables) b.add_variable(v);
        for (int v : reads.parameters) b.add_variable(v);
        for (int c : reads.conditions) b.add_condition(c);
    };
    std::map<int, int> condition_part;  // a condition on time alone may not serve two parts
    auto claim = [&](int part, const Reads& reads) {
        take(part, reads);
        for (int c : reads.conditions) {
            auto [it, fresh] = condition_part.emplace(c, part);
            if (!fresh && it->second != part) joined = true;
        }
        return part;
    };
    for (std::size_t v = 0; v < flat.variables.size(); ++v)
        if (component[v] >= 0) builders[static_cast<std::size_t>(part_of(component[v]))].add_variable(static_cast<int>(v));
    // Each item goes to the part of its component (a definition: of the
    // variable it defines, which it reads first).
    auto claim_all = [&](const std::vector<Reads>& reads) {
        std::vector<int> part(reads.size());
        for (std::size_t i = 0; i < reads.size(); ++i) part[i] = claim(part_of(component_of_reads(reads[i])), reads[i]);
        return part;
    };
    const std::vector<int> equation_part = claim_all(equation_reads), initial_part = claim_all(initial_reads),
                           when_part = claim_all(when_reads), relation_part = claim_all(relation_reads),
                           integer_part = claim_all(integer_reads), assert_part = claim_all(assert_reads);
    std::map<int, int> chain_part;  // a when/elsewhen chain stays in one part
    for (std::size_t w = 0; w < flat.whens.size(); ++w) {
        auto [it, fresh] = chain_part.emplace(flat.whens[w].chain, when_part[w]);
        if (!fresh && it->second != when_part[w]) joined = true;
    }
    // The attributes of every variable a part holds, and the parameters
    // they read, until no new one comes.
    for (std::size_t k = 0; k < parts.size() && !joined; ++k) {
        std::vector<int> todo(builders[k].variables().begin(), builders[k].variables().end());
        std::set<int> seen;
        Reads r;
        while (!todo.empty()) {
            const int v = todo.back();
            todo.pop_back();
            if (!seen.insert(v).second) continue;
            r.clear();
            reader.attributes(v, r);
            for (int u : r.variables)
                if (part_of(component[static_cast<std::size_t>(u)]) != static_cast<int>(k)) joined = true;
            for (int u : r.parameters) {
                builders[k].add_variable(u);
                todo.push_back(u);
            }
        }
    }
    if (joined) return {};

    // The parts' models, each item in the whole model's order.
    for (PartBuilder& b : builders) b.number();
    for (ModelPart& p : parts) {
        p.model.name = flat.name;
        p.model.description = flat.description;
        p.model.stop_time = flat.stop_time;
        p.model.suppress = flat.suppress;
        p.model.suppressions = flat.suppressions;
        p.model.range = flat.range;
    }
    auto model = [&](int part) -> FlatModel& { return parts[static_cast<std::size_t>(part)].model; };
    auto builder = [&](int part) -> PartBuilder& { return builders[static_cast<std::size_t>(part)]; };
    for (std::size_t i = 0; i < flat.equations.size(); ++i)
        model(equation_part[i]).equations.push_back(builder(equation_part[i]).equation(flat.equations[i]));
    for (std::size_t i = 0; i < flat.initial_equations.size(); ++i)
        model(initial_part[i]).initial_equations.push_back(builder(initial_part[i]).equation(flat.initial_equations[i]));
    for (std::size_t w = 0; w < flat.whens.size(); ++w)
        model(when_part[w]).whens.push_back(builder(when_part[w]).when(flat.whens[w]));
    for (std::size_t i = 0; i < flat.relation_definitions.size(); ++i) {
        RelationDefinition d = flat.relation_definitions[i];
        d.variable = builder(relation_part[i]).variable(d.variable);
        d.condition = builder(relation_part[i]).condition(d.condition);
        model(relation_part[i]).relation_definitions.push_back(d);
    }
    for (std::size_t i = 0; i < flat.integer_definitions.size(); ++i) {
        IntegerDefinition d = flat.integer_definitions[i];
        d.variable = builder(integer_part[i]).variable(d.variable);
        model(integer_part[i]).integer_definitions.push_back(d);
    }
    for (std::size_t i = 0; i < flat.asserts.size(); ++i) {
        FlatAssert a = flat.asserts[i];
        a.condition = builder(assert_part[i]).condition(a.condition);
        a.active_when = builder(assert_part[i]).path(a.active_when);
        model(assert_part[i]).asserts.push_back(a);
    }
    for (const FlatModel::Alias& a : flat.aliases) {
        const int c = component[static_cast<std::size_t>(a.representative)];
        if (c < 0) continue;
        const int p = part_of(c);
        model(p).aliases.push_back({builder(p).variable(a.variable), builder(p).variable(a.representative), a.sign});
    }
    // The rest may be empty.
    if (parts[0].model.variables.empty() && parts[0].model.equations.empty() && parts[0].model.whens.empty() &&
        parts[0].model.asserts.empty() && parts[0].model.initial_equations.empty())
        parts.erase(parts.begin());
    return parts;
}

}  // namespace modeaudit
