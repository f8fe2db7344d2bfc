// Mode-change arrays (seed 001, section 5; paper notes sections 4.1-4.7).
//
// Part of the mode_change stage: this file builds the array of one
// transition at one height and its matching; transition_study.h chooses
// the transitions' parts, routes and heights.
//
// For a transition from mode P to mode N at height K, the array holds the
// completed new-mode equations f^(j), 0 <= j <= c_f, snapshot at instants
// 0..K (variables v^(m)@k), closed by chain Euler identities
// x = eps^-n * sum_i (-1)^i C(n,i) z@(-i) between variables of the same base
// variable and total degree m + k, for the derivative orders the modes'
// own equations use (issue 17: a derivative that only index reduction
// brings, der(u) of an algebraic u, gets no identity). Variables the
// previous mode fixes (Xprev: v^(m)@k with m + k < d^-_v) are data. Facts
// are removed: shifts of the canonical guard (root facts, Lemma 3, modulo
// constant factors), Euler identities among data only, every other row
// over data only that the previous mode and the root facts entail at the
// data (entailment.h), and a later copy f^(j)@k of a constraint that
// persists across the switch when its earlier copies f^(j)@(k-1),
// f^(j+1)@(k-1) (facts or enabled) and the Euler identities give it
// exactly (a second relation on the same variables would leave a row
// unmatched). The array's variables are those of its enabled rows. Tail equations (instant K), Euler identities and equations
// common to both modes are enabled, the others disabled. Restart
// constraints of the transition (input-language extension 1, the set T of
// seed 001 section 9) join the tail: pre(v) is the previous-mode value at
// instant 0, v the value at instant K. The enabled equations and the
// dependent variables must match perfectly (the strict reading).
//
// A cascade through a transient mode C (seed 001, section 9; paper notes
// 7.2): the head instants 0..K-1 hold C's completed equations instead of
// N's (enabled where common to P), the tail instant K the new long mode N.
// A copy at instant 0 of an equation common to P whose variables are all
// previous-mode data held on the previous trajectory: it is a fact.
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "flatten/flat_model.h"
#include "mode_change/entailment.h"
#include "modes/modes.h"
#include "structure/structure.h"

namespace modeaudit {

struct ArrayVariable {
    int variable = -1;  // flat variable index (an unknown of the new mode)
    int order = 0;      // derivative order m
    int instant = 0;    // k: the variable at t* + k*eps
    bool operator<(const ArrayVariable& o) const {
        return std::tie(variable, order, instant) < std::tie(o.variable, o.order, o.instant);
    }
    bool operator==(const ArrayVariable& o) const = default;
};

struct ArrayEquation {
    enum class Kind { Model, Euler } kind = Kind::Model;
    std::string name;     // "e3", "e5''@1", "E[der(vx)@0 -> vx@1]"
    GiNaC::ex residual;
    int row = -1;         // Model: new-mode row (index into Mode::equations); -1 for a restart constraint
    int order = 0;        // Model: j, how often the row is differentiated
    int instant = 0;      // Model: k
    bool fact = false;    // removed: a root fact or a definition of previous-mode data
    std::string fact_note;      // why it is a fact
    GiNaC::ex fact_residual;    // a checked fact: its residual at the data (eps = 0, left limits)
    bool enabled = false;
    bool common = false;  // Model: a copy of a row common to the previous mode
};

struct ModeChangeArray {
    int height = 0;                          // K (one height for the whole array)
    std::vector<ArrayEquation> equations;    // model copies then Euler identities, facts included (marked)
    std::vector<ArrayVariable> variables;    // every array variable, sorted
    std::vector<bool> dependent;             // parallel to variables: not fixed by the previous mode
    // A perfect matching of the enabled equations and the dependent
    // variables: equation index -> variable index; empty when none exists.
    std::map<int, int> matching;
    bool matched = false;
    std::string why_not_matched;             // which enabled equation or dependent variable is left over
    GiNaC::symbol eps{"eps"};

    const GiNaC::symbol& symbol(const ArrayVariable& v) const;
    std::map<ArrayVariable, GiNaC::symbol> symbols;  // instant-0 ones are the flat model's own symbols
};

struct ArrayInput {
    const FlatModel* flat = nullptr;
    const Mode* previous = nullptr;
    const ModeStructure* previous_structure = nullptr;
    const Mode* next = nullptr;
    const ModeStructure* next_structure = nullptr;
    const Transition* transition = nullptr;
    // Variables eliminated by normalize_first_order (v = der(x)); restart
    // constraints still name them.
    const std::map<int, int>* velocity_of = nullptr;
    // Those of them with v = -der(x); null: none.
    const std::set<int>* negated_velocity = nullptr;
    // The canonical formulation's substitution (normalize.h), applied to
    // the guards; null: none.
    const GiNaC::exmap* substitution = nullptr;
    // Variables it resolved that are states of the new mode as written,
    // with their values (normalize.h); null: none.
    const std::vector<std::pair<int, GiNaC::ex>>* resolved_states = nullptr;
    // A cascade: the transient mode whose equations fill the head instants.
    const Mode* transient = nullptr;
    const ModeStructure* transient_structure = nullptr;
};

ModeChangeArray build_mode_change_array(const ArrayInput& in, int height);

// The state guards g whose root fact g = 0 holds at transition t (Lemma 3
// of seed 001): its own and, for a combined transition, those of the
// others that fired with it (Transition::simultaneous). A time event's
// guard implies nothing on the state.
std::vector<GiNaC::ex> root_guards(const Transition& t);
// The same in the canonical formulation of the input's modes.
std::vector<GiNaC::ex> canonical_root_guards(const ArrayInput& in);

// Whether r = 0, an expression over the previous mode's quantities at the
// event (left limits, canonical formulation), follows from the previous
// mode's completed equations and the root facts (entailment.h). `used`
// names the equations combined.
struct EventEntailment {
    bool holds = false;
    std::vector<std::string> used;
};
EventEntailment holds_at_event(const ArrayInput& in, const GiNaC::ex& r);

// Whether array variable j is a restart variable: a dependent tail copy
// v^(m)@K of a state of the new mode (m < d_v).
bool is_restart_variable(const ArrayInput& in, const ModeChangeArray& a, std::size_t j);
// All of them, as indices into ModeChangeArray::variables.
std::vector<int> restart_variables(const ArrayInput& in, const ModeChangeArray& a);

}  // namespace modeaudit
