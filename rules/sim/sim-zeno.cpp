// Rule sim-zeno: the event times of the reference simulation accumulate
// (their spacings shrink geometrically, seed 004's bouncing ball); the run
// stops near the estimated accumulation time instead of grinding on.
#include <fmt/format.h>

#include "rule_checks.h"

namespace modeaudit {

void check_sim_zeno(const FlatModel& flat, const SimulationResult& r, DiagnosticSink& sink) {
    if (r.stopped_because != StopReason::Zeno) return;
    sink.report(rule::sim_zeno, flat.range,
                fmt::format("event times accumulate: {} events, accumulation estimated at t = {:.12g}", r.events.size(),
                            r.zeno_time.value_or(r.end_time)),
                {"the model needs a law for what happens at the accumulation point (the ball comes to rest), "
                 "or a shorter stop time"});
}

}  // namespace modeaudit
