// The quantities a review report plots beside the states, evaluated at the
// simulation's recorded samples (used by `modeaudit report`).
//
// The simulation records the states at each accepted step (Sample,
// simulation.h). For the report's plots this evaluates, at the same
// samples and with the mode of the sample's segment compiled again
// (sim::ModeSystem, as the driver compiles it):
//   - the solved variables of the mode (its leading variables that are not
//     derivatives): declared quantities such as an energy E, multipliers
//     such as the rope's lambda, algebraic currents and voltages;
//   - guard(N): the guard of transition N (1-based, the check document's
//     order), in the modes it leaves from;
//   - margin(N): the margin of assert N (1-based, in source order) in the
//     modes where it is active (lhs - rhs of its relation, >= 0 holds);
//   - residual(consistency): the largest residual of the mode's
//     consistency conditions (F_UP), in the modes that have them.
// A quantity not defined in a sample's mode, or not evaluable there (a
// mode with discrete parameters, whose values the samples do not record;
// a Newton solve that does not converge), is NaN: the plot leaves a gap.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "flatten/flat_model.h"
#include "modes/modes.h"
#include "simulation/simulation.h"
#include "structure/structure.h"

namespace modeaudit::cli {

struct SampledQuantities {
    std::vector<std::string> columns;                // in order: solved variables, guards, margins, residual
    std::map<std::string, std::string> descriptions;  // guard(N), margin(N), residual(...): what they are
    std::vector<std::vector<double>> rows;           // parallel to SimulationResult::samples
};

SampledQuantities sample_quantities(const FlatModel& flat, const ModeSet& modes, const StructureResult& structures,
                                    const SimulationResult& result);

}  // namespace modeaudit::cli
