// The logic of the discrete variables, as the modes stage explores it.
//
// The explored discrete state (DiscreteState) is one truth value per atomic
// relation over continuous quantities (`x < 0.5`) and one value per discrete
// variable. Discrete variables are of two kinds here: those assigned in
// when-clauses (or never changed), whose values are part of the state as
// they are, and those defined by an equation outside when (Modelica 3.6,
// 8.6): a Boolean defined by a condition (the MSL diode's `off = s < 0;`, a
// latch `y = pre(y) and x < 1.5 or x < 0.5`) or an Integer defined by an
// expression over conditions (a friction element's
// `mode = if ... then Forward else if ... then Backward else Stuck`).
// A defined variable may read its own left limit, pre(v): its value is then
// memory, not a function of the relations, so every defined variable's
// value is held in the state too, and is recomputed at each event by the
// event iteration of Modelica (8.6): the definitions are evaluated with
// pre(v) the values before the step and the others' values of this step,
// in the order of their (non-pre) dependencies; while some v differs from
// pre(v) the step is repeated with pre(v) = v. The iteration is bounded
// (a valuation seen twice is a cycle: the logic has no fixed point, as
// `y = not pre(y)`), so every evaluation terminates.
#pragma once

#include <ginac/ginac.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "flatten/flat_model.h"

namespace modeaudit {

// The discrete state explored: values of the atomic relations (0/1) and of
// the discrete variables (by flat variable; only discrete ones meaningful).
struct DiscreteState {
    std::vector<std::int64_t> relations;
    std::vector<std::int64_t> discrete;
    bool operator<(const DiscreteState& o) const {
        return relations != o.relations ? relations < o.relations : discrete < o.discrete;
    }
    bool operator==(const DiscreteState& o) const = default;
};

// The truth of a relation over continuous quantities, as written or with
// the if-expressions of its sides selected (x > 0.5 for x > (if y then 0.5
// else 1.5)). The modes stage reads it from the explored state's relation
// values (the default); the simulation evaluates it at the event.
using RelationTruth = std::function<bool(const Condition& relation)>;

class DiscreteLogic {
public:
    explicit DiscreteLogic(const FlatModel& flat);

    // ---- atomic relations ----
    // A relation over continuous quantities (time, a continuous variable or
    // a derivative on either side).
    bool is_continuous_relation(const Condition& c) const;
    // Registers an atomic relation (once per canonical text); its index.
    int add_relation(const ConditionPtr& c);
    // Its index, or -1 when it is not registered.
    int find_relation(const Condition& c) const;
    const std::vector<ConditionPtr>& relations() const { return relations_; }
    const std::string& relation_text(std::size_t k) const { return relation_text_[k]; }

    // ---- defined variables ----
    bool is_defined(int v) const { return definition_of_.count(v) != 0; }
    // The Boolean definition of v, or null (an Integer one, or none).
    ConditionPtr boolean_definition(int v) const;
    // The Integer definition of v (an expression over Integer variables,
    // their pre() and condition symbols), or nullptr.
    const GiNaC::ex* integer_definition(int v) const;
    // The order the definitions are evaluated in within one step (each after
    // the defined variables it reads without pre). False, with the variables
    // of the loop in `loop` and the definition of its first in `where`, when
    // the definitions depend on each other in a loop that no pre() breaks
    // (every definition is still ordered, the loop cut somewhere).
    bool order_definitions(std::vector<std::string>& loop, SourceRange& where);

    // ---- evaluation ----
    // The truth of c with the discrete values of `now`, pre(v) read from
    // `pre` (between events pre(v) = v: pass the same state twice) and the
    // registered relations from `now`; a relation that is not registered (a
    // when-trigger's) is false between events.
    bool truth(const Condition& c, const DiscreteState& now, const DiscreteState& pre,
               const RelationTruth* relation = nullptr) const;
    // A leaf of a condition (a Variable, a Relation, sample(), initial()).
    bool leaf_truth(const Condition& c, const DiscreteState& now, const DiscreteState& pre,
                    const RelationTruth* relation) const;
    // e with its discrete symbols (Integer variables, their pre(), condition
    // symbols) replaced by their values.
    GiNaC::ex substitute(const GiNaC::ex& e, const DiscreteState& now, const DiscreteState& pre,
                         const RelationTruth* relation = nullptr) const;

    // The event iteration (see above) from `s`, whose relations and
    // when-assigned variables already hold their new values, with the left
    // limits `before`: on return s holds the settled values of the defined
    // variables. False when it does not settle (`why` says how: the cycle of
    // valuations, or the bound; `where` the definition of a variable that
    // keeps changing).
    bool settle(DiscreteState& s, const DiscreteState& before, std::string& why, SourceRange& where,
                const RelationTruth* relation = nullptr) const;
    // The defined variables, in evaluation order (after order_definitions).
    const std::vector<int>& defined() const { return order_; }

    // Upper bound on the steps of one event iteration.
    static constexpr int kMaxSteps = 64;

private:
    const FlatModel& flat_;
    std::vector<ConditionPtr> relations_;
    std::vector<std::string> relation_text_;
    std::map<std::string, int> relation_by_text_;
    struct Definition {
        int variable = -1;
        ConditionPtr condition;            // Boolean
        const GiNaC::ex* value = nullptr;  // Integer
        SourceRange range;
    };
    std::map<int, Definition> definition_of_;
    std::vector<int> order_;  // defined variables in evaluation order
    std::int64_t evaluate(const Definition& d, const DiscreteState& now, const DiscreteState& pre,
                          const RelationTruth* relation) const;
    std::string valuation_text(const DiscreteState& s) const;
};

}  // namespace modeaudit
