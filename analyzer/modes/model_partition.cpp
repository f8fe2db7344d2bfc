#include "modes/model_partition.h"

#include <algorithm>
#include <map>
#include <set>

#include "modes/clusters.h"

namespace modeaudit {

namespace {

// What an expression or condition reads: unknowns (continuous and discrete
// variables, also through derivatives and left limits), parameters and
// constants, condition symbols.
struct Reads {
    std::vector<int> variables, parameters, conditions;
    void clear() {
        variables.clear();
        parameters.clear();
        conditions.clear();
    }
};

class Reader {
public:
    explicit Reader(const FlatModel& flat) : flat_(flat) {}

    void read(const GiNaC::ex& e, Reads& r) const {
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

    void read(const Condition& c, Reads& r) const {
        if (c.kind == Condition::Kind::Variable && c.variable >= 0) variable(c.variable, r);
        if (c.kind == Condition::Kind::Relation || c.kind == Condition::Kind::Sample) {
            read(c.lhs, r);
            read(c.rhs, r);
        }
        for (const ConditionPtr& o : c.operands) read(*o, r);
    }

    void active_when(const std::vector<std::pair<int, bool>>& path, Reads& r) const {
        for (const auto& [k, value] : path) {
            r.conditions.push_back(k);
            read(*flat_.conditions[static_cast<std::size_t>(k)], r);
        }
    }

    // The attributes of variable v: its start, bounds, nominal, value and
    // invariant rate.
    void attributes(int v, Reads& r) const {
        const FlatVariable& var = flat_.variables[static_cast<std::size_t>(v)];
        for (const auto* a : {&var.start, &var.min, &var.max, &var.nominal, &var.value})
            if (*a) read(**a, r);
        if (var.invariant && var.invariant->rate) read(*var.invariant->rate, r);
    }

private:
    void variable(int v, Reads& r) const {
        const Variability k = flat_.variables[static_cast<std::size_t>(v)].variability;
        (k == Variability::Continuous || k == Variability::Discrete ? r.variables : r.parameters).push_back(v);
    }
    const FlatModel& flat_;
};

// The whole model's conditions and variables renumbered for one part.
class PartBuilder {
public:
    PartBuilder(const FlatModel& flat, ModelPart& part) : flat_(flat), part_(part) {}

    void add_variable(int v) { variables_.insert(v); }
    const std::set<int>& variables() const { return variables_; }
    bool empty() const { return variables_.empty(); }
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
    const VariableCoupling coupling(flat);
    const Reader reader(flat);
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

    // Items (equations, when-clauses, definitions, asserts) and the
    // component each one sits in (-1: it reads no unknown).
    Reads r;
    auto component_of_reads = [&](const Reads& reads) {
        return reads.variables.empty() ? -1 : component[static_cast<std::size_t>(reads.variables.front())];
    };
    auto equation_reads = [&](const FlatEquation& e) {
        r.clear();
        reader.read(e.lhs, r);
        reader.read(e.rhs, r);
        reader.active_when(e.active_when, r);
    };
    auto when_reads = [&](const FlatWhen& fw) {
        r.clear();
        for (const ConditionPtr& t : fw.triggers) reader.read(*t, r);
        for (const WhenAction& a : fw.actions) {
            if (a.variable >= 0) r.variables.push_back(a.variable);
            reader.read(a.value, r);
            reader.read(a.lhs, r);
            reader.read(a.rhs, r);
            if (a.bool_value) reader.read(*a.bool_value, r);
            if (a.assertion) reader.read(*a.assertion, r);
        }
    };
    std::set<int> switching;  // components with modes of their own
    for (std::size_t v = 0; v < flat.variables.size(); ++v)
        if (flat.variables[v].variability == Variability::Discrete && component[v] >= 0) switching.insert(component[v]);
    std::vector<int> equation_component(flat.equations.size());
    for (std::size_t i = 0; i < flat.equations.size(); ++i) {
        equation_reads(flat.equations[i]);
        equation_component[i] = component_of_reads(r);
        if (!r.conditions.empty() && equation_component[i] >= 0) switching.insert(equation_component[i]);
    }
    std::vector<int> when_component(flat.whens.size());
    for (std::size_t w = 0; w < flat.whens.size(); ++w) {
        when_reads(flat.whens[w]);
        when_component[w] = component_of_reads(r);
        if (when_component[w] >= 0) switching.insert(when_component[w]);
    }
    if (switching.size() < 2) return {};

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
    std::vector<int> equation_part(flat.equations.size()), initial_part(flat.initial_equations.size()),
        when_part(flat.whens.size()), relation_part(flat.relation_definitions.size()),
        integer_part(flat.integer_definitions.size()), assert_part(flat.asserts.size());
    for (std::size_t i = 0; i < flat.equations.size(); ++i) {
        equation_reads(flat.equations[i]);
        equation_part[i] = claim(part_of(equation_component[i]), r);
    }
    for (std::size_t i = 0; i < flat.initial_equations.size(); ++i) {
        equation_reads(flat.initial_equations[i]);
        initial_part[i] = claim(part_of(component_of_reads(r)), r);
    }
    std::map<int, int> chain_part;  // a when/elsewhen chain stays in one part
    for (std::size_t w = 0; w < flat.whens.size(); ++w) {
        when_reads(flat.whens[w]);
        when_part[w] = claim(part_of(when_component[w]), r);
        auto [it, fresh] = chain_part.emplace(flat.whens[w].chain, when_part[w]);
        if (!fresh && it->second != when_part[w]) joined = true;
    }
    for (std::size_t i = 0; i < flat.relation_definitions.size(); ++i) {
        const RelationDefinition& d = flat.relation_definitions[i];
        r.clear();
        r.variables.push_back(d.variable);
        reader.read(*d.condition, r);
        relation_part[i] = claim(part_of(component[static_cast<std::size_t>(d.variable)]), r);
    }
    for (std::size_t i = 0; i < flat.integer_definitions.size(); ++i) {
        const IntegerDefinition& d = flat.integer_definitions[i];
        r.clear();
        r.variables.push_back(d.variable);
        reader.read(d.value, r);
        integer_part[i] = claim(part_of(component[static_cast<std::size_t>(d.variable)]), r);
    }
    for (std::size_t i = 0; i < flat.asserts.size(); ++i) {
        r.clear();
        reader.read(*flat.asserts[i].condition, r);
        reader.active_when(flat.asserts[i].active_when, r);
        assert_part[i] = claim(part_of(component_of_reads(r)), r);
    }
    // The attributes of every variable a part holds, and the parameters
    // they read, until no new one comes.
    for (std::size_t k = 0; k < parts.size() && !joined; ++k) {
        std::vector<int> todo(builders[k].variables().begin(), builders[k].variables().end());
        std::set<int> seen;
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
