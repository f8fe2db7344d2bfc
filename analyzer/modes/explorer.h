// The modes stage's explorer (modes.h): the exploration of the discrete
// state from the initial one, shared by modes.cpp (the whole state, the
// modes and transitions built from it, the clusters) and
// discrete_groups.cpp (the state explored by independent groups and the
// modes composed from theirs). Internal to the modes stage.
#pragma once

#include <ginac/ginac.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/diagnostics.h"
#include "flatten/flat_model.h"
#include "modes/discrete_logic.h"
#include "modes/modes.h"
#include "modes/relation_consistency.h"

namespace modeaudit::modes_detail {

using GiNaC::ex;
using K = Condition::Kind;

// The discrete state explored (discrete_logic.h): the truth of each atomic
// relation over continuous quantities (s < 0) that selects equations or
// defines a discrete variable, and the values of the discrete variables
// that decide the modes (assigned in when-clauses, never changed, or
// defined by an equation: their values are settled by the event iteration).
using State = DiscreteState;

class Explorer {
public:
    Explorer(const FlatModel& flat, DiagnosticSink& sink, const ModeLimits& limits)
        : flat_(flat), sink_(sink), limits_(limits), logic_(flat) {}

    ModeSet run();

private:
    const FlatModel& flat_;
    DiagnosticSink& sink_;
    const ModeLimits& limits_;

    DiscreteLogic logic_;                        // atomic relations, definitions, the event iteration
    // Which valuations of the atomic relations can hold together (built
    // once the relations are collected).
    std::optional<RelationConsistency> consistency_;
    // Variables every mode makes a multiple of another (or zero): the
    // relations and a contact's guard are compared with them rewritten.
    // Found on first use (same()): a model without relations or guards
    // (an RC ladder of 100,000 cells) never needs them.
    mutable std::optional<GiNaC::exmap> same_;
    const GiNaC::exmap& same() const;
    std::set<std::string> reported_unsettled_;   // modes-logic-unsettled, once per definition
    bool definition_loop_ = false;               // the definitions have a loop no pre() breaks
    std::vector<int> mode_vars_;                 // flat variable indices, declaration order
    std::vector<int> implicit_;                  // atomic relations used directly in selection
    std::set<int> relevant_;                     // discrete variables the modes depend on
    bool failed_ = false;

    void collect(const ConditionPtr& c, std::set<int>& vars, bool selection);
    // Whether a definition reads a relation over continuous quantities
    // (directly, through condition symbols or other definitions).
    bool reads_continuous_relation(const Condition& c, int depth) const;
    bool reads_continuous_relation(const ex& e, int depth) const;
    // A discrete variable the modes depend on, with what its definition reads.
    void collect_variable(int v, std::set<int>& vars);
    // The discrete variables and conditions an expression reads.
    void collect_expr(const ex& e, std::set<int>& vars, bool selection);
    // A relation over continuous quantities: registered as atomic, once per
    // selection of the if-expressions on mode variables in its sides.
    void collect_relation(const ConditionPtr& c, std::set<int>& vars, bool selection);
    // Between events pre(v) = v.
    bool eval(const Condition& c, const State& s) const { return logic_.truth(c, s, s); }
    ex substitute_discrete(const ex& e, const State& s) const { return logic_.substitute(e, s, s); }
    // A when-guard as state s reads it: the discrete variables of the
    // explored state by their values; a discrete variable outside it (a
    // period counter, whose value changes at events without changing the
    // mode) stays a symbol, with pre(v) read as v (equal between events),
    // for the simulation to evaluate with its current value.
    ex guard_in_state(const ex& g, const State& s) const;
    // The event iteration from t (new relations and when-assignments) with
    // the left limits `before`; false (reported once) when it does not settle.
    bool settle(State& t, const State& before);
    std::vector<std::int64_t> mode_values(const State& s) const;
    std::string mode_id(const std::vector<std::int64_t>& values) const;
    bool guard_of(const Condition& c, bool becoming, ex& g, SourceRange where, bool report);
    // Whether guard_of combines several relations' guards (and/or).
    bool compound(const Condition& c) const;
    // Adds to `out` the discrete variables that `e` reads (directly or
    // through pre()).
    void discrete_reads(const ex& e, std::set<int>& out) const;
    // Whether a when-condition reads discrete values (a mode variable, a
    // pre(), a Boolean defined by an equation): its guard may then differ
    // from mode to mode.
    bool reads_discrete(const Condition& c) const;
    // Whether a when-condition is a discrete event condition: relations
    // (combined by and/or/not) over discrete variables that decide no mode
    // and are defined by no equation (change(k) is k <> pre(k)). Such a
    // condition changes only at events, in the event iteration, and is left
    // to the simulation (ModeSet::discrete_triggers).
    bool discrete_event(const Condition& c) const;
    // The condition as state s decides it: discrete variables and their
    // pre() (equal between events) by their values, relations between
    // discrete quantities by their truth, Booleans defined by equations by
    // their definitions; relations over continuous quantities kept. Folded,
    // so that `if up then x > 1.5 else x < 0.5` becomes one relation.
    ConditionPtr specialize(const ConditionPtr& c, const State& s, int depth) const;
    State initial_state();
    // A guard in time (and parameters) only is a time event; any other a state event.
    Transition::Trigger trigger_of(const ex& g) const {
        for (GiNaC::const_preorder_iterator it = g.preorder_begin(); it != g.preorder_end(); ++it) {
            if (!GiNaC::is_a<GiNaC::symbol>(*it) || GiNaC::ex_to<GiNaC::symbol>(*it) == flat_.symbols.time()) continue;
            auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
            if (!m || m->role != SymbolTable::Meaning::Role::Variable ||
                flat_.variables[static_cast<std::size_t>(m->index)].variability != Variability::Parameter)
                return Transition::Trigger::State;
        }
        return Transition::Trigger::Time;
    }
    Mode build_mode(const State& s, const std::vector<std::int64_t>& values) const;
    void add_contact_modes(ModeSet& set, const std::vector<State>& state_of,
                           std::map<std::vector<std::int64_t>, int>& mode_index) const;
    bool guard_is_equation(const Mode& m, const ex& guard) const;
    // Residuals with same_ substituted and expanded (guard_is_equation).
    mutable std::map<ex, ex, GiNaC::ex_is_less> rewritten_;
    // The transition template of relation k becoming `becoming` (guard,
    // its text, trigger, source), computed once: the same from every state.
    const std::optional<Transition>& relation_crossing(std::size_t k, bool becoming);
    bool falls_with_time(const ex& g) const;
    // The other relations whose lhs - rhs is +-1 times relation k's: (j, factor).
    const std::vector<std::pair<std::size_t, int>>& same_function(std::size_t k);
    std::vector<std::vector<std::pair<std::size_t, int>>> same_function_;
    std::map<std::pair<std::size_t, bool>, std::optional<Transition>> crossings_;
    std::vector<std::string> definition_text_;  // canonical text of each relation definition
    // The switching clusters (clusters.h) and each one's local modes,
    // explored with only the cluster's relations and when-clauses.
    struct LocalWhen {
        std::size_t when;
        std::size_t trigger;
    };
    bool settle_silently(State& t, const State& before) const;
    // Guards of when-clauses are the same from every state: computed once;
    // a condition that reads discrete values and is no single relation as
    // written (if up then x > 1.5 else x < 0.5, a latched Boolean) gets its
    // guard in each state from the condition as that state decides it.
    struct WhenGuard {
        std::size_t when;
        std::size_t trigger;
        ex g;
        bool ok;
        bool per_state = false;
        SourceRange range;
    };
    std::vector<WhenGuard> when_guards_;
    std::set<std::pair<std::size_t, std::size_t>> reported_triggers_;
    // The atomic relations each relation as written was registered as (one
    // per selection of the if-expressions in its sides).
    std::map<const Condition*, std::vector<int>> registered_as_;
    // State s with relation k crossed, before the event iteration: relations
    // on the same function that complement it cross with it where no
    // valuation lies between; none when the valuation holds at no point.
    std::optional<State> cross(const State& s, std::size_t k);
    using Visit = std::function<void(const State& t, Transition tr, bool has_resets)>;
    void successors(const State& s, const std::vector<std::size_t>& relations, const std::vector<std::size_t>& whens,
                    const Visit& visit);
    // `s` with the discrete assignments of when-clause `fw` applied (those
    // of the relevant variables), evaluated in `s`.
    State after_assignments(const FlatWhen& fw, const State& s) const;  // unsettled logic is reported by the enumeration
    void find_clusters(ModeSet& set, const State& init, const std::vector<LocalWhen>& whens);
    std::size_t explore_cluster(const State& init, const std::vector<std::size_t>& relations,
                                const std::vector<LocalWhen>& whens, const std::vector<int>& variables,
                                bool& complete);
    // ---- exploration by independent groups (a model of many switches) ----
    // A group: atomic relations, discrete variables of the state and
    // when-guards that read or write one another (definitions, when-clauses,
    // relations bounding one quantity). A crossing or a when-clause of one
    // group changes only its own part of the state, and the event iteration
    // settles only its own definitions, so the reachable states are the
    // product of each group's reachable part, explored alone.
    struct DiscreteGroup {
        std::vector<std::size_t> relations;
        std::vector<int> variables;
        std::vector<std::size_t> whens;  // indices into when_guards_
    };
    std::vector<DiscreteGroup> discrete_groups() const;
    // The state atoms a condition or an expression reads (relations as k,
    // discrete variables as n_relations + v), appended to `out`.
    void atoms_of(const Condition& c, std::vector<std::size_t>& out, int depth = 0) const;
    void atoms_of(const ex& e, std::vector<std::size_t>& out, int depth) const;
    // One group explored alone from `init`: its local modes (the values of
    // the mode variables with the other groups' parts as they start), a
    // state of each, and its transitions between them.
    struct LocalExploration {
        std::vector<State> mode_state;
        std::map<std::vector<std::int64_t>, int> mode_index;
        struct Edge {
            int from, to;
            Transition tr;
        };
        std::vector<Edge> edges;
        std::size_t states = 0;
        bool complete = true;
    };
    LocalExploration explore_group(const State& init, const DiscreteGroup& group);
    // Explores the groups alone and, when the product of their states is
    // above ModeLimits::compose_above, builds the modes and transitions
    // from the groups' (true) instead of the exploration of the whole state.
    bool explore_by_groups(ModeSet& set, const State& init, const std::function<int(const State&)>& mode_of);
    // Flat equations by the symbols they mention (for guard_is_equation),
    // built on first use: a model with no guard never builds it (on the RC
    // ladder of 100,000 cells it was a tenth of the modes stage).
    const std::map<ex, std::vector<int>, GiNaC::ex_is_less>& equations_with() const;
    mutable std::optional<std::map<ex, std::vector<int>, GiNaC::ex_is_less>> equations_with_;
};

}  // namespace modeaudit::modes_detail
