// The restart the simulation applies at an event: the restart stage's
// verdict for the transition that fired (restart/verdict.h). Supplied and
// symbolically continuous restarts go through supplied_restart (reinit,
// else the states carried and the new mode's consistency checked);
// impulsive and array-derived continuous ones solve the restart system of
// Procedure 1 at the left limits; undetermined, inconsistent and
// unsupported ones stop the run with the verdict's explanation: no restart
// is invented.
#pragma once

#include "restart/verdict.h"
#include "simulation/simulation.h"

namespace modeaudit {

RestartFunction derived_restart(const StructureResult& structures, const RestartStageResult& restarts);

}  // namespace modeaudit
