// The simulation of a model analysed in independent parts (pipeline/
// factorised.h): the parts' runs composed into the whole model's.
//
// The parts share no variable, no equation, no guard and no when-clause
// (modes/model_partition.h), so the whole model's flow in a global mode is
// the product of the parts' flows in their local modes, and a part's
// restart changes only its own states: the whole model's trajectory
// restricted to a part is that part's own simulation. Each part is
// therefore simulated alone (its own integrator, events and restarts,
// compiling only the local modes it enters) and the runs are composed
// here; no global mode is ever built. The pipeline runs every part to the
// same stop time, and when one part ends early (Zeno, an inadmissible or
// undetermined restart, a solver failure), the whole run ends there: the
// parts that ran further are run again to that time before composing.
//
// The composed result, in the terms of SimulationResult:
//   - events: every part's, ordered by time (parts in order at equal
//     times); each keeps its part's local mode ids (from_id/to_id name only
//     that part's mode variables) and has no global mode index (from = to =
//     -1). Instants are numbered anew; a part's cascade stays one instant,
//     and events of different parts at one time are separate instants;
//   - segments and samples: each part's in turn, SegmentRecord::part naming
//     the part (samples are therefore ordered by part, then time);
//   - final values: the union; final mode: the parts' final modes joined
//     with "," (the global mode's id); initial modes: the parts' initial
//     modes joined likewise, one entry (a part whose initial event
//     iteration entered several local modes says so in a message);
//   - stop reason: the stop time when every part reached it, else that of
//     the part that ended first (its Zeno estimate and chattering with it);
//     a resource limit in any part is the composed run's.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "simulation/simulation.h"

namespace modeaudit {

struct ComposedSimulation {
    SimulationResult result;
    // Each composed event's origin: (part, index in that part's events).
    std::vector<std::pair<std::size_t, std::size_t>> event_origin;
};

// `parts[k]` is part k's run (in the pipeline's part order).
ComposedSimulation compose_simulations(std::span<const SimulationResult* const> parts);

// The parts' tolerance comparisons as one: the same events when every part
// has them; the largest shifts and differences over the parts; the first
// part's difference, prefixed by "part k: ".
ToleranceComparison compose_comparisons(std::span<const ToleranceComparison> parts);

}  // namespace modeaudit
