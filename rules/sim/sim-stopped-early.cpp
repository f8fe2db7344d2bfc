// Rule sim-stopped-early: the reference simulation ended before its stop
// time for a reason other than Zeno behaviour: an event whose restart is
// undetermined or inconsistent (no restart is invented), an inadmissible
// restart, a solver failure or an unsupported guard. A run stopped by a
// resource limit (events, steps, wall time) is limit-exceeded instead.
#include <fmt/format.h>

#include "rule_checks.h"

namespace modeaudit {

void check_sim_stopped_early(const FlatModel& flat, const SimulationResult& r, double stop_time, DiagnosticSink& sink) {
    if (r.stopped_because == StopReason::StopTime || r.stopped_because == StopReason::Zeno) return;
    std::vector<std::string> notes = r.messages;
    if (!r.events.empty()) {
        const EventRecord& e = r.events.back();
        notes.push_back(fmt::format("last event at t = {:.12g}: {} -> {} ({})", e.time, e.from_id, e.to_id, e.verdict));
    }
    if (!r.limit.empty()) {  // a resource limit, not a property of the model
        notes.push_back(fmt::format("the {} limit is set by {}; raise it if the run is meant to be this long", r.limit,
                                    r.limit_option));
        sink.report(rule::limit_exceeded, flat.range,
                    fmt::format("the reference simulation stopped at t = {:.12g}, before the stop time {:.12g}: "
                                "the {} limit was reached",
                                r.end_time, stop_time, r.limit),
                    notes);
        return;
    }
    sink.report(rule::sim_stopped_early, flat.range,
                fmt::format("the reference simulation stopped at t = {:.12g}, before the stop time {:.12g}: {}",
                            r.end_time, stop_time, stop_reason_name(r.stopped_because)),
                notes);
}

}  // namespace modeaudit
