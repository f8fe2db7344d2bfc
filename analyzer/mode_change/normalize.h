// First-order formulations normalized for the mode-change array (part of the
// mode_change stage).
//
// The reconstruction of the paper's array (paper notes 4.2-4.3) is verified
// on second-order models (x'' + lambda x = 0). Written in first order,
// der(x) = vx makes der(x) and vx two variables with two Euler chains, and
// the chain closure then holds one redundant identity per such pair, so no
// matching covers the enabled equations. An equation der(x) = v common to
// both modes says v is der(x): substituting v -> der(x) (and der(v, k) ->
// der(x, k+1)) in both modes gives the second-order form; the restart value
// of v is then that of der(x).
#pragma once

#include <map>

#include "flatten/flat_model.h"
#include "mode_change/mode_change_array.h"
#include "modes/modes.h"
#include "structure/structure.h"

namespace modeaudit {

struct NormalizedTransition {
    Mode previous, next;
    ModeStructure previous_structure, next_structure;
    std::map<int, int> velocity_of;  // eliminated variable v -> x with v = der(x)
    // A cascade's transient mode, normalized with the same substitution.
    bool has_transient = false;
    Mode transient;
    ModeStructure transient_structure;
};

// An alias der(x) = v is used when it is common to both modes (and present
// in the transient mode, if one is given).
NormalizedTransition normalize_first_order(const FlatModel& flat, const Mode& previous, const Mode& next,
                                           const Mode* transient = nullptr);

// The array input of transition t over the normalized modes.
ArrayInput array_input(const FlatModel& flat, const NormalizedTransition& n, const Transition& t);

}  // namespace modeaudit
