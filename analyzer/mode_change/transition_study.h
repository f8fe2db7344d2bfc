// The mode_change stage: for every transition between reachable modes, the
// part of the system the switch touches, the routes a restart can take,
// and the mode-change arrays of each route at every height to be searched
// (seed 001, sections 4-5 and 9; paper notes 4, 5.9, 7 and 10).
//
// The touched part (the paper's decomposition remark). Equations of the
// previous mode P, the new mode N (and a transient mode C) are joined by
// the variables they share (Boost.Graph connected components). The
// components that hold an equation of one mode and not the other, a
// variable of the guard, of a restart constraint or of a reset, are the
// part the switch touches; the rest is common to both modes, decoupled,
// and continues continuously. Each array is built over the touched part
// only, so a model with n independent switches costs n small arrays, not
// n arrays of the whole model.
//
// Routes. The direct route P -> N. When the transition carries restart
// constraints (input-language extension 1, the set T of seed 001 section
// 9) two more kinds: a cascade P -> C -> N through the guard's contact
// mode C (the mode in which the guard's zero set g = 0 is an equation,
// e.g. the taut rope during an impact), and alternative targets N' != N
// (direct or through C), which the restart stage uses to name the
// admissible continuation when the stated target contradicts T.
//
// Heights (Theorem 2 of seed 001; how K_* and K^* are computed is missing
// from the seed, paper notes 5.9). Operationally: K^* is the least height
// at which the route's array without restart constraints has a perfect
// matching of its enabled equations and dependent variables, searched up
// to the cap max_v d^-_v + max_f c_f + 1; a good solution is searched at
// heights 0..K^* (with T included). For a cascade, the heights are
// 1..K^*(P -> C): the transient instants are those of the impact itself.
// Searching further finds spurious matchings (the restitution into the
// taut mode matches at K = 3; paper notes 10 lists the same for the
// input-driven cup-and-ball at K = 4), which Theorem 2.2 excludes.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "flatten/flat_model.h"
#include "mode_change/mode_change_array.h"
#include "mode_change/normalize.h"
#include "modes/modes.h"
#include "structure/structure.h"

namespace modeaudit {

struct Route {
    enum class Kind { Direct, Cascade } kind = Kind::Direct;
    int target = -1;             // mode index of the new (long) mode
    int transient = -1;          // Cascade: mode index of the transient mode C
    bool alternative = false;    // a target other than the transition's own
    NormalizedTransition normalized;  // the touched part of the modes, first-order aliases eliminated
    std::size_t part_equations = 0, whole_equations = 0;  // of the new mode: touched / all
    int base_height = -1;        // K^*: -1 when no height up to the cap matches
    int first_height = 0;        // the height of arrays[0]
    std::vector<ModeChangeArray> arrays;  // heights first_height, first_height + 1, ...
    std::string note;            // why the route has no arrays, when it has none
    // The route's content (touched equations, guard, constraints): routes
    // with the same key have the same arrays, offsets and restart, so a
    // model with many copies of one switch analyses it once.
    std::string key;

    std::string describe(const ModeSet& modes) const;  // "direct to taut=true", "through taut=true to taut=false"
};

struct TransitionStudy {
    int transition = -1;         // index into ModeSet::transitions
    Transition with_constraints; // the transition itself (routes point into it)
    std::vector<Route> routes;   // the direct route first
    std::string skipped;         // set when a mode is not regular: no arrays were built
};

struct ModeChangeResult {
    std::vector<TransitionStudy> transitions;  // parallel to ModeSet::transitions
};

struct ModeChangeOptions {
    int max_height = 8;          // hard cap on the height search, beyond the Theorem 2 cap
    std::size_t max_alternatives = 16;
    bool progress = false;
};

ModeChangeResult study_transitions(const FlatModel& flat, const ModeSet& modes, const StructureResult& structure,
                                   const ModeChangeOptions& options = {});

// The study of one transition (for tests and benchmarks).
TransitionStudy study_transition(const FlatModel& flat, const ModeSet& modes, const StructureResult& structure,
                                 int transition, const ModeChangeOptions& options = {});

// The array input of `route` (pointers into the route and the study).
ArrayInput route_input(const FlatModel& flat, const Route& route, const TransitionStudy& study);

void dump_mode_change(const FlatModel& flat, const ModeSet& modes, const ModeChangeResult& r, std::ostream& out);

}  // namespace modeaudit
