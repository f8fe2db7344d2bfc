// Canonical formulation of a transition's modes before the mode-change array
// (part of the mode_change stage; issue 17, item 1). The same preprocessing
// runs for every way a model can be written, so that the array, its facts
// and the verdict depend on the physics, not on the typing:
//
// 1. Velocity aliases. The reconstruction of the paper's array (paper notes
//    4.2-4.3) is verified on second-order models (x'' + lambda x = 0).
//    Written in first order, der(x) = vx makes der(x) and vx two variables
//    with two Euler chains, and the chain closure then holds one redundant
//    identity per such pair, so no matching covers the enabled equations. An
//    equation der(x) = v common to both modes says v is der(x): substituting
//    v -> der(x) (and der(v, k) -> der(x, k+1)) in both modes gives the
//    second-order form; the restart value of v is then that of der(x).
// 2. Trivial equations and linear definitions of algebraic variables. An
//    equation common to both modes (and to the transient mode of a cascade)
//    that is linear with constant coefficients and holds an algebraic
//    variable u (one that no equation of these modes differentiates) is
//    resolved for u, and u is substituted everywhere: `id = 0` removes id,
//    `isw + id = iL` then says isw is iL, `u = v1 - v2` puts v1 - v2 where
//    the switch equation said u. Global aliases a = +-b are already gone
//    (flatten/connections.h); what is left here are the definitions that
//    hold in the modes of this transition. Trivial equations (one variable)
//    go first, then definitions by increasing number of variables, so a
//    current split over a node reduces to the same form as the direct
//    writing. Variables named by restart constraints or resets, and the
//    carriers of declared invariants, keep their identity.
// 3. The same substitution is applied to the guards, so that a root fact
//    (Lemma 3 of seed 001) is recognised whatever variable the guard names
//    (`when v - vb >= 0` with v = der(x) is the root fact der(x) - vb = 0).
//
// An eliminated algebraic variable that the new mode's consistency
// conditions would have made a state (u in `u = 0`) gets its restart value
// from its definition (restart/restart.h), so every writing restarts the
// same states with the same values.
#pragma once

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "flatten/flat_model.h"
#include "mode_change/mode_change_array.h"
#include "modes/modes.h"
#include "structure/structure.h"

namespace modeaudit {

struct NormalizedTransition {
    Mode previous, next;
    ModeStructure previous_structure, next_structure;
    std::map<int, int> velocity_of;  // eliminated variable v -> x with v = der(x)
    // Those of them written negated: v = -der(x) (der(x) = -v).
    std::set<int> negated_velocity;
    // Algebraic variables resolved by a common equation: u -> its value in
    // the variables left (velocity aliases already substituted), in the
    // order they were resolved.
    std::vector<std::pair<int, GiNaC::ex>> resolved;
    // Those of them that are states of the new mode as written (u when the
    // new mode says u = 0): the restart gives them values too.
    std::vector<std::pair<int, GiNaC::ex>> resolved_states;
    // Every elimination at once (velocity aliases and resolved variables):
    // maps an expression over the flat model's symbols to the canonical
    // formulation's.
    GiNaC::exmap substitution;
    // A cascade's transient mode, normalized with the same substitution.
    bool has_transient = false;
    Mode transient;
    ModeStructure transient_structure;
};

// An alias der(x) = v is used when it is common to both modes (and present
// in the transient mode, if one is given); then the algebraic definitions
// of point 2 above. `transition`, when given, names the variables that keep
// their identity (restart constraints, resets).
NormalizedTransition normalize_first_order(const FlatModel& flat, const Mode& previous, const Mode& next,
                                           const Mode* transient = nullptr, const Transition* transition = nullptr);

// `e` in the canonical formulation of `n`.
GiNaC::ex canonical_form(const NormalizedTransition& n, const GiNaC::ex& e);

// The array input of transition t over the normalized modes.
ArrayInput array_input(const FlatModel& flat, const NormalizedTransition& n, const Transition& t);

}  // namespace modeaudit
