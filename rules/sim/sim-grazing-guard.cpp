// Rule sim-grazing-guard: a guard of the reference simulation came to zero
// without crossing it (a tangency, g = -(x - a)^2 at x = a). The event
// search fires only on crossings (analyzer/simulation/event_detection.h),
// so no event happened there; the finding names the instant, so a grazing
// contact is never passed over in silence.
#include <fmt/format.h>

#include "rule_checks.h"

namespace modeaudit {

void check_sim_grazing_guard(const FlatModel& flat, const SimulationResult& r, DiagnosticSink& sink) {
    (void)flat;
    for (const SimulationResult::Graze& g : r.grazes)
        sink.report(rule::sim_grazing_guard, g.range,
                    fmt::format("the guard {}{} touches zero at t = {:.12g} without crossing it (grazing): no event "
                                "fired there",
                                g.guard, g.mode_id.empty() ? std::string() : " of mode '" + g.mode_id + "'", g.time),
                    {"a condition with >= or <= holds at that single instant only; a small change of the model or "
                     "its parameters makes the guard cross (an event) or miss (none)",
                     "if the event must happen at the touch, write the condition so that it crosses there; if it "
                     "must not, separate the guard from zero"});
}

}  // namespace modeaudit
