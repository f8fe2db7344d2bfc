// Rule sim-zeno: the event times of the reference simulation accumulate
// (their spacings shrink geometrically, seed 004's bouncing ball); the run
// stops near the estimated accumulation time instead of grinding on. The
// same rule, with its own messages, reports chattering: a guard crossing
// again as soon as time advances after a switch (a relay without
// hysteresis), or the event iteration cycling through modes at one instant.
#include <fmt/format.h>

#include "rule_checks.h"

namespace modeaudit {

void check_sim_zeno(const FlatModel& flat, const SimulationResult& r, DiagnosticSink& sink) {
    if (r.stopped_because != StopReason::Zeno) return;
    const double t = r.zeno_time.value_or(r.end_time);
    std::string message, note;
    if (r.chattering && !r.chattering_cycle.empty()) {
        message = fmt::format("the modes chatter: at t = {:.12g} the event iteration cycles through the modes {} "
                              "without time advancing (each restart makes a guard of the new mode fire, both modes' "
                              "flows pointing across the switching surface)",
                              t, r.chattering_cycle);
        note = "the model needs the motion on the switching surface (a sliding mode with its own equations), "
               "or hysteresis between the guards";
    } else if (r.chattering && !r.chattering_operator.empty()) {
        message = fmt::format("an event-generating operator chatters: at t = {:.12g} {} is at its switching point "
                              "and the flows on both sides point across it (a sliding motion, not an accumulation "
                              "of events)",
                              t, r.chattering_operator);
        note = "the model needs the motion at the switching point (a sliding mode with its own equations), "
               "hysteresis, or noEvent() if the integrator may step across it";
    } else if (r.chattering) {
        message = fmt::format("the modes chatter: right after the event at t = {:.12g} the new mode's guard is "
                              "already crossing the same switching surface (a sliding motion, not an accumulation "
                              "of events)",
                              t);
        note = "the model needs the motion on the switching surface (a sliding mode with its own equations), "
               "or hysteresis between the two guards";
    } else {
        message = fmt::format("event times accumulate: {} events, accumulation estimated at t = {:.12g}",
                              r.events.size(), t);
        note = "the model needs a law for what happens at the accumulation point (the ball comes to rest), "
               "or a shorter stop time";
    }
    sink.report(rule::sim_zeno, flat.range, message, {note});
}

}  // namespace modeaudit
