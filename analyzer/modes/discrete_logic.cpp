#include "modes/discrete_logic.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "flatten/condition_semantics.h"
#include "flatten/expression_builder.h"
#include "flatten/flattener.h"

namespace modeaudit {

using GiNaC::ex;
using K = Condition::Kind;
using Role = SymbolTable::Meaning::Role;

DiscreteLogic::DiscreteLogic(const FlatModel& flat) : flat_(flat) {
    for (const RelationDefinition& r : flat_.relation_definitions)
        definition_of_[r.variable] = Definition{r.variable, r.condition, nullptr, r.range};
    for (const IntegerDefinition& d : flat_.integer_definitions)
        definition_of_[d.variable] = Definition{d.variable, nullptr, &d.value, d.range};
}

bool DiscreteLogic::is_continuous_relation(const Condition& c) const {
    if (c.kind != K::Relation) return false;
    for (const ex* side : {&c.lhs, &c.rhs})
        for (GiNaC::const_preorder_iterator it = side->preorder_begin(); it != side->preorder_end(); ++it)
            if (GiNaC::is_a<GiNaC::symbol>(*it)) {
                auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
                if (!m) continue;
                if (m->role == Role::Time || m->role == Role::Derivative) return true;
                if (m->role == Role::Variable &&
                    flat_.variables[static_cast<std::size_t>(m->index)].variability == Variability::Continuous)
                    return true;
            }
    return false;
}

int DiscreteLogic::add_relation(const ConditionPtr& c) {
    std::string text = canonical(flat_, *c);
    if (auto it = relation_by_text_.find(text); it != relation_by_text_.end()) return it->second;
    relations_.push_back(c);
    relation_text_.push_back(text);
    const int k = static_cast<int>(relations_.size()) - 1;
    relation_by_text_.emplace(std::move(text), k);
    return k;
}

int DiscreteLogic::find_relation(const Condition& c) const {
    auto it = relation_by_text_.find(canonical(flat_, c));
    return it == relation_by_text_.end() ? -1 : it->second;
}

ConditionPtr DiscreteLogic::boolean_definition(int v) const {
    auto it = definition_of_.find(v);
    return it == definition_of_.end() ? nullptr : it->second.condition;
}

const ex* DiscreteLogic::integer_definition(int v) const {
    auto it = definition_of_.find(v);
    return it == definition_of_.end() ? nullptr : it->second.value;
}

bool DiscreteLogic::order_definitions(std::vector<std::string>& loop, SourceRange& where) {
    order_.clear();
    enum class Mark { None, Visiting, Done };
    std::map<int, Mark> mark;
    std::vector<int> stack;
    bool ok = true;
    std::function<void(int)> visit;
    // The defined variables a definition reads without pre(), through the
    // conditions it selects by too.
    std::function<void(const Condition&, std::set<int>&)> reads_condition;
    std::function<void(const ex&, std::set<int>&)> reads_expr = [&](const ex& e, std::set<int>& out) {
        for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
            if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
            auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
            if (!m) continue;
            if (m->role == Role::Variable && is_defined(m->index)) out.insert(m->index);
            if (m->role == Role::Condition) reads_condition(*flat_.conditions[static_cast<std::size_t>(m->index)], out);
        }
    };
    reads_condition = [&](const Condition& c, std::set<int>& out) {
        if (c.kind == K::Variable && !c.pre && is_defined(c.variable)) out.insert(c.variable);
        if (c.kind == K::Relation) {
            reads_expr(c.lhs, out);
            reads_expr(c.rhs, out);
        }
        for (const ConditionPtr& o : c.operands) reads_condition(*o, out);
    };
    visit = [&](int v) {
        Mark& m = mark[v];
        if (m == Mark::Done) return;
        if (m == Mark::Visiting) {
            // A loop: the first one is reported; the edge closing it is
            // skipped, so that every definition still gets a place.
            if (!ok) return;
            ok = false;
            where = definition_of_.at(v).range;
            auto from = std::find(stack.begin(), stack.end(), v);
            for (auto it = from; it != stack.end(); ++it)
                loop.push_back(flat_.variables[static_cast<std::size_t>(*it)].name);
            loop.push_back(flat_.variables[static_cast<std::size_t>(v)].name);
            return;
        }
        m = Mark::Visiting;
        stack.push_back(v);
        const Definition& d = definition_of_.at(v);
        std::set<int> reads;
        if (d.condition) reads_condition(*d.condition, reads);
        if (d.value) reads_expr(*d.value, reads);
        for (int r : reads) visit(r);
        stack.pop_back();
        mark[v] = Mark::Done;
        order_.push_back(v);
    };
    for (const auto& [v, d] : definition_of_) visit(v);
    return ok;
}

ex DiscreteLogic::substitute(const ex& e, const DiscreteState& now, const DiscreteState& pre,
                             const RelationTruth* relation) const {
    GiNaC::exmap map;
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
        auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
        if (!m) continue;
        if (m->role == Role::Variable || m->role == Role::Pre) {
            const FlatVariable& var = flat_.variables[static_cast<std::size_t>(m->index)];
            if (var.variability == Variability::Discrete && var.type != BaseType::Real)
                map[*it] = GiNaC::numeric(static_cast<long>(
                    (m->role == Role::Pre ? pre : now).discrete[static_cast<std::size_t>(m->index)]));
        }
        if (m->role == Role::Condition)
            map[*it] = truth(*flat_.conditions[static_cast<std::size_t>(m->index)], now, pre, relation) ? 1 : 0;
    }
    return map.empty() ? e : e.subs(map, kExactSubs);
}

bool DiscreteLogic::truth(const Condition& c, const DiscreteState& now, const DiscreteState& pre,
                          const RelationTruth* relation) const {
    // The tree by the shared Kleene evaluator; the leaves never give Unknown
    // here (a relation without a value is false, as between events).
    return condition_truth(c, [&](const Condition& leaf) { return truth_of(leaf_truth(leaf, now, pre, relation)); }) ==
           Truth::True;
}

bool DiscreteLogic::leaf_truth(const Condition& c, const DiscreteState& now, const DiscreteState& pre,
                               const RelationTruth* relation) const {
    switch (c.kind) {
        case K::Variable: return (c.pre ? pre : now).discrete[static_cast<std::size_t>(c.variable)] != 0;
        case K::Relation: {
            if (is_continuous_relation(c)) {
                // An if-expression on mode variables in a side (x > if y
                // then a else b) reads as the relation of the selected branch.
                Condition selected = c;
                selected.lhs = substitute(c.lhs, now, pre, relation);
                selected.rhs = substitute(c.rhs, now, pre, relation);
                if (relation) return (*relation)(selected);
                const int k = find_relation(selected);
                // Not part of the mode structure (a when trigger): false between events.
                return k >= 0 && now.relations[static_cast<std::size_t>(k)] != 0;
            }
            auto a = numeric_value(substitute(c.lhs, now, pre, relation));
            auto b = numeric_value(substitute(c.rhs, now, pre, relation));
            if (!a || !b || !a->is_real() || !b->is_real()) return false;
            return relation_holds(c.op, *a, *b);
        }
        default: return false;  // sample(), initial(): false between events
    }
}

std::int64_t DiscreteLogic::evaluate(const Definition& d, const DiscreteState& now, const DiscreteState& pre,
                                     const RelationTruth* relation) const {
    if (d.condition) return truth(*d.condition, now, pre, relation) ? 1 : 0;
    auto n = numeric_value(substitute(*d.value, now, pre, relation));
    if (!n || !n->is_real()) return now.discrete[static_cast<std::size_t>(d.variable)];
    return n->is_integer() ? n->to_long() : static_cast<std::int64_t>(std::llround(n->to_double()));
}

std::string DiscreteLogic::valuation_text(const DiscreteState& s) const {
    std::string text;
    for (int v : order_) {
        const FlatVariable& var = flat_.variables[static_cast<std::size_t>(v)];
        const std::int64_t x = s.discrete[static_cast<std::size_t>(v)];
        text += fmt::format("{}{}={}", text.empty() ? "" : ",", var.name,
                            var.type == BaseType::Boolean ? (x ? "true" : "false") : std::to_string(x));
    }
    return text;
}

bool DiscreteLogic::settle(DiscreteState& s, const DiscreteState& before, std::string& why, SourceRange& where,
                           const RelationTruth* relation) const {
    if (order_.empty()) return true;
    DiscreteState pre = before;
    std::vector<std::vector<std::int64_t>> seen{before.discrete};
    std::vector<std::string> steps{valuation_text(before)};
    for (int step = 0; step < kMaxSteps; ++step) {
        DiscreteState next = s;
        for (int v : order_) next.discrete[static_cast<std::size_t>(v)] = evaluate(definition_of_.at(v), next, pre, relation);
        s = next;
        if (next.discrete == pre.discrete) return true;
        steps.push_back(valuation_text(next));
        for (int v : order_)
            if (next.discrete[static_cast<std::size_t>(v)] != pre.discrete[static_cast<std::size_t>(v)]) {
                where = definition_of_.at(v).range;
                break;
            }
        if (std::find(seen.begin(), seen.end(), next.discrete) != seen.end()) {
            why = fmt::format("the event iteration cycles through {}", fmt::join(steps, " -> "));
            return false;
        }
        seen.push_back(next.discrete);
        pre = std::move(next);
    }
    why = fmt::format("the event iteration did not settle after {} steps ({})", kMaxSteps, fmt::join(steps, " -> "));
    return false;
}

}  // namespace modeaudit
