// The key physics of the review report's first page, and the run's
// statistics (report stage).
//
// After the verdict, a reviewer needs the few numbers that say whether the
// model behaves physically: what each restart did (which states jumped and
// by how much: the effect of the impulse), how the declared and discovered
// quantities changed at each restart and whether they hold along the flow,
// how close each admissibility sign (an assert during a mode, a sign
// condition right after a restart) came to being violated, and how much the
// events and final values move when the simulation is rerun at a tighter
// tolerance. All of it is read from the check and simulation documents
// (output-contract.md); long lists are cut to their first rows with the
// count said, the JSON holding the rest.
#pragma once

#include <string>

#include "common/json_output.h"
#include "report/report.h"

namespace modeaudit {

// The "Key physics" section (Markdown, a level-2 heading first).
std::string key_physics_section(const ReportInput& in);

// One line with the run's totals (segments, steps, events, right-hand
// sides, Jacobians, the largest constraint drift); "" without segments.
std::string run_totals_line(const Json& simulation);

// The per-segment statistics table with a sentence before it (Markdown);
// "" without segments.
std::string run_statistics_table(const Json& simulation);

}  // namespace modeaudit
