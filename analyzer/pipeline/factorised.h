// The factorised analysis of models with many switches (issue 20): the
// model's independent switching parts (modes/model_partition.h) each
// analysed on its own, when together they have more global modes than
// ModeLimits::factorise_above (256) or the whole model's enumeration allows.
//
// Part of the pipeline, at the modes stage. The global modes of such a
// model are the tuples of its parts' modes, and a transition of one part
// changes nothing in the others (they share no variable), so each part's
// modes, structure, mode changes, restarts and verification are the whole
// model's, restricted to the part: n independent switching cells cost n
// small analyses instead of 2^n global modes.
#pragma once

#include "pipeline/pipeline.h"

namespace modeaudit {

// Splits the model and enumerates each part's modes. When the product of
// the parts' modes exceeds o.modes.factorise_above or o.modes.max_modes
// (where the whole enumeration would stop at its limit), keeps the parts in s.parts (their modes-stage
// findings in s.sink), sets s.modes to the clusters' summary and returns
// true; otherwise changes nothing and returns false (the model is then
// analysed whole, as a model with one part is).
bool factorise(PipelineState& s, const RunOptions& o);

// The simulation stage of a factorised model: each part simulated alone to
// the model's stop time (the parts share the wall-time and event limits),
// the parts that ran past an earlier part's early end run again to that
// end, then each part's sensitivity rerun, rules and event verification;
// the runs composed into s.simulation, s.sensitivity and
// s.composed_event_checks (simulation/composition.h).
void simulate_parts(PipelineState& s, const RunOptions& o);

}  // namespace modeaudit
