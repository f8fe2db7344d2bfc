// Simultaneous transitions (modes stage): several transitions of one mode
// that fire at one instant and lead together to their combined target.
//
// The simulation meets them at run time (event_instant.cpp: every guard
// that fires within the event location tolerance); the static stages study
// the ones the model's text already decides: transitions of a mode whose
// guards are the same function of the states, time and parameters (two
// when-clauses on `time >= 0.1`, two relations on one surface) fire
// together wherever they fire, so their combined transition is added to the
// mode set and studied like any other (mode change, rescaling, restart,
// verification), and the individual transitions stay listed as well (a
// conservative over-approximation of what can happen).
#pragma once

#include <string>
#include <vector>

#include "flatten/flat_model.h"
#include "modes/modes.h"

namespace modeaudit {

// The mode reached when all `fired` transitions of mode `from` apply at
// once: their mode-variable changes combined; -1 (and `why`) when two of
// them set a mode variable to different values or the mode was not explored.
int combined_target(const ModeSet& modes, int from, const std::vector<const Transition*>& fired, std::string& why);

// The transitions `fired` (indices into modes.transitions, all from one
// mode, at least one) taken as one, to mode `target`: the first one's guard
// and place, the others' guards in Transition::simultaneous, the union of
// their resets and restart constraints (a clause counts once), the fired
// indices in Transition::parts.
Transition combine_transitions(const ModeSet& modes, const std::vector<int>& fired, int target);

// Appends to modes.transitions the combined transition of every group of
// two or more transitions of one mode whose guards coincide identically
// (neither compound nor sampled; the difference of the guards, parameters
// replaced by their values, expands to zero), when the group's combined
// target exists and differs from each member's own target. Groups whose
// target cannot be formed are listed in `skipped` with the reason.
void add_coinciding_transitions(const FlatModel& flat, ModeSet& modes, std::vector<std::string>& skipped);

}  // namespace modeaudit
