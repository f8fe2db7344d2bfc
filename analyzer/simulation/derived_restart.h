// The restart the simulation applies at an event: the restart stage's
// verdict for the transition that fired (restart/verdict.h). Supplied and
// symbolically continuous restarts go through supplied_restart (reinit,
// else the states carried and the new mode's consistency checked);
// impulsive and array-derived continuous ones solve the restart system of
// Procedure 1 at the left limits; undetermined, inconsistent and
// unsupported ones stop the run with the verdict's explanation: no restart
// is invented.
//
// Simultaneous events (several transitions fire at one instant): the
// restart is that of the combined transition to their joint target,
// derived on demand with the static stages' functions and cached
// (combined_restart.h), never one clause's restart alone. Its verdict is
// the event's; its message says it was a combined transition and of which
// guards. `mode_change` and `z3` are the limits of those stages (the
// pipeline passes its RunOptions' own).
#pragma once

#include "mode_change/transition_study.h"
#include "rescaling/rescaling.h"
#include "restart/verdict.h"
#include "simulation/simulation.h"

namespace modeaudit {

RestartFunction derived_restart(const StructureResult& structures, const RestartStageResult& restarts,
                                const ModeChangeOptions& mode_change, const Z3Limits& z3);

}  // namespace modeaudit
