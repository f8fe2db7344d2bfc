// The switching clusters as JSON (the `switching_clusters` member of the
// check output, present only when the mode variables form more than one
// cluster, so that single-cluster output is unchanged): the number of
// global modes their local modes combine to, and per cluster its mode
// variables, local modes and whether its exploration was complete.
#pragma once

#include "common/json_output.h"
#include "modes/modes.h"

namespace modeaudit {

// Null when there is at most one cluster.
Json clusters_to_json(const ModeSet& modes);

}  // namespace modeaudit
