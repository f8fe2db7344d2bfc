// The modes stage: mode variables, reachable modes, each mode's active
// system, and the transitions between modes.
//
// Input: the FlatModel of the flatten stage. A mode variable is a Boolean or
// Integer discrete variable on which equation selection depends (directly or
// through a condition symbol), or a relation used directly as a condition
// (input-language.md, "Modes and mode changes"). A mode is one valuation of
// the mode variables. Modes are explored lazily from the initial valuation
// through the transitions (breadth first, in a fixed order), so a model with
// many independent switches only costs the modes actually reachable, up to a
// limit (`modes-limit-reached`).
//
// Discrete variables defined by equations (a latch `y = pre(y) and x < 1.5
// or x < 0.5`, an Integer `mode = if ... then Forward else ...`, a Boolean
// connection) are part of the explored state and settle by Modelica's event
// iteration at every transition (discrete_logic.h), so each mode's guards
// follow from the logic with pre() fixed to the mode's values; relation
// values that hold at no point together are not explored
// (relation_consistency.h). A logic that does not settle is
// `modes-logic-unsettled`.
//
// For each mode the stage selects the active equations (if-branches by the
// valuation, `mode_if` folded), and for each transition it records the
// guard function, its crossing direction, whether it is a state or a time
// event, the target mode, supplied resets and restart constraints.
#pragma once

#include <ginac/ginac.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/diagnostics.h"
#include "flatten/flat_model.h"
#include "modes/clusters.h"

namespace modeaudit {

struct ModeVariable {
    std::string name;          // variable name, or the relation's text for an implicit one
    int variable = -1;         // flat variable index; -1 for an implicit relation
    int condition = -1;        // implicit relation: its condition index
    BaseType type = BaseType::Boolean;
    std::int64_t initial = 0;  // its value in the initial mode
};

struct ModeEquation {
    int equation = -1;         // index into FlatModel::equations
    GiNaC::ex residual;        // lhs - rhs with this mode's branches selected
};

struct Mode {
    std::string id;                    // "taut=false" / "on1=true,on2=false" / "" (single mode)
    std::vector<std::int64_t> values;  // per mode variable
    std::vector<ModeEquation> equations;
    std::vector<int> unknowns;         // continuous (non-parameter, non-discrete) variables
    std::vector<int> asserts;          // indices into FlatModel::asserts active in this mode
    // Not reachable as a long mode: the contact mode of a guard, used only
    // transiently during an impact with restart constraints (a cascade).
    bool transient_only = false;
};

struct Transition {
    int from = -1, to = -1;            // mode indices
    enum class Trigger { State, Time } trigger = Trigger::State;
    GiNaC::ex guard;                   // g: the event fires when g crosses zero upwards
    std::string guard_text;            // canonical text of g
    int when_clause = -1;              // FlatModel::whens index, or -1 for a relation definition
    int trigger_index = -1;            // index into that clause's FlatWhen::triggers
    // The trigger is sample(start, interval): the guard is time - start for
    // the first instant; the simulation moves it on by the interval each
    // time it fires (simulation.h).
    bool sampled = false;
    // The trigger combines relations with `and`/`or`: g is the min/max of
    // their guards, so g = 0 at the event says only that one of them is at
    // zero; it is no root fact of the mode-change array.
    bool compound = false;
    int relation_definition = -1;      // FlatModel::relation_definitions index
    int priority = 0;                  // elsewhen order within its chain
    std::vector<WhenAction> resets;            // reinit actions (supplied resets)
    std::vector<WhenAction> restart_constraints;
    // With restart constraints and a state guard g: the mode (other than
    // the source) in which g = 0 is an equation, the contact mode an impact
    // passes through (seed 001, section 9); -1 when there is none.
    int contact_mode = -1;
    SourceRange range;
    // A combined transition (several transitions of `from` that fire at one
    // instant, taken as one for their joint target; built by the
    // modes stage for guards that coincide (guards_coincide), modes/simultaneous.h,
    // and the simulation's derived restart, simulation/combined_restart.h): the
    // guards of the others. Their root facts hold as well as this one's.
    // Empty for a single transition.
    struct Guard {
        GiNaC::ex guard;
        std::string guard_text;
        Trigger trigger = Trigger::State;
        bool compound = false;
    };
    std::vector<Guard> simultaneous;
    // The transitions combined (indices into ModeSet::transitions, the
    // first one's guard is this one's); empty for a single transition.
    std::vector<int> parts;
};

struct ModeSet {
    std::vector<ModeVariable> mode_variables;
    std::vector<Mode> modes;                 // modes[0] is the initial mode
    std::vector<Transition> transitions;     // ordered by (from, clause order)
    // When-clause triggers that read only discrete variables which decide no
    // mode (change(k) of a counter, k >= 3), in clauses that only assign such
    // variables: (FlatModel::whens index, trigger index). They are neither
    // transitions nor part of the explored state (the counter's values would
    // be enumerated without end); the simulation evaluates them in the event
    // iteration, after the assignments of each restart step
    // (simulation/driver_discrete.cpp, fire_discrete_triggers).
    std::vector<std::pair<int, int>> discrete_triggers;
    bool complete = true;                    // false when the exploration limit was hit
    // The independent groups of the discrete state the modes were composed
    // from (ModeLimits::compose_above); 0 when the whole state was explored.
    std::size_t composed_groups = 0;
    // Groups of transitions whose guards coincide but whose combined
    // transition could not be formed (modes/simultaneous.h), with the reason.
    std::vector<std::string> simultaneous_notes;
    // The switching clusters (modes/clusters.h): mode variables that
    // interact, with each cluster's local modes explored on its own.
    std::vector<SwitchingCluster> clusters;
    // The number of global modes the clusters' local modes combine to (their
    // product; the modes enumerated when there are no clusters).
    double global_mode_count() const;
    // The modes that are not transient only (the modes the model can stay in).
    std::size_t long_mode_count() const;
};

struct ModeLimits {
    std::size_t max_modes = 4096;
    // Expand only states fewer than this many switches from the initial
    // one (-1: no bound). For benchmarks of the transition analysis, which
    // need the initial mode and its neighbours only.
    int max_depth = -1;
    // A model whose discrete state falls into independent groups (switches
    // that read and write nothing of each other's) has each group explored
    // alone; when the product of the groups' states is above this, the modes
    // and transitions are composed from the groups' instead of exploring
    // the whole state (whose states are that product). 0: always compose.
    std::size_t compose_above = 4096;
    // A model whose switching parts are independent (modes/model_partition.h)
    // is analysed part by part when the product of the parts' modes is above
    // this or max_modes, whichever is smaller (pipeline/factorised.h): the
    // parts' analyses are the whole one's restricted to them, and cost their
    // sum instead of the product (12 cells: 4096 global modes, check 1.7 s
    // and simulate 12 s whole, 0.01 s and 0.05 s in parts). Below it the
    // global modes are enumerated, which reviewers read more easily.
    std::size_t factorise_above = 256;
    bool progress = false;  // a progress line on stderr while exploring (only on a terminal)
};

ModeSet enumerate_modes(const FlatModel& flat, DiagnosticSink& sink, const ModeLimits& limits = {});

// Position of flat equation `equation` in the mode's equations (which are
// in flat order), or -1 when it is not active there.
int equation_position(const Mode& mode, int equation);

// Canonical dump for `--dump-after=modes`.
void dump_modes(const FlatModel& flat, const ModeSet& modes, std::ostream& out);

}  // namespace modeaudit
