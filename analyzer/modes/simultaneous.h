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

// Whether guards `a` and `b` (parameters replaced by their values) fire
// together wherever they fire: their difference expands to zero, or one is a
// positive constant multiple of the other (one surface, crossed the same
// way), or both are time events a*time + b crossing the same way at
// instants within event location's tolerance (1e-10 relative,
// condition_semantics.h): `time - T1` and `time - T2` with T1 = 0.3 - 0.2 and
// T2 = 0.1 are one event at run time, so they are one statically too.
bool guards_coincide(const GiNaC::ex& a, const GiNaC::ex& b, const GiNaC::symbol& time);

// Appends to modes.transitions the combined transition of every group of
// two or more transitions of one mode whose guards coincide (neither
// compound nor sampled; guards_coincide), when the group's combined
// target exists and differs from each member's own target. Groups whose
// target cannot be formed are listed in `skipped` with the reason.
void add_coinciding_transitions(const FlatModel& flat, ModeSet& modes, std::vector<std::string>& skipped);

}  // namespace modeaudit
