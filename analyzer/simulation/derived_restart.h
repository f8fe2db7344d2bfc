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

// The magnitude of each first-order impulse of `tr`'s restart at the
// solution `sol` (RestartAnswer::impulses): a variable of impulse order 1
// is eps^-1 x_r at each instant of the mode-change array, whose Euler
// identities advance time by eps per instant, so its integral over the
// event is the sum of its x_r over the instants. Rescaled derivatives
// (der(vx)@k) are left out: their integral is the state's jump, reported
// beside. A quantity of order >= 2 at some instant (a Dirac derivative)
// has no finite magnitude and is left out too.
std::map<std::string, double> impulse_magnitudes(const TransitionRestart& tr, const RestartSolution& sol);

RestartFunction derived_restart(const StructureResult& structures, const RestartStageResult& restarts,
                                const ModeChangeOptions& mode_change, const Z3Limits& z3);

}  // namespace modeaudit
