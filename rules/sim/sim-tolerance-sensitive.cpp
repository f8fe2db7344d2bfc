// Rule sim-tolerance-sensitive: the reference simulation is repeated at
// tolerances ten times tighter (seed 000, 4.4: a result that moves with the
// tolerance is not a reference). The finding is given when the two runs take
// other events (another mode, number of events or end), or when an event
// time or a final value moves by more than kFactor times the reference's
// relative tolerance: an event time against max(1, stop time), a final value
// against max(1, |value|). Over the corpus the largest such movement is 140
// rtol (a final value of corpus/good/discrete/stick_slip_mode.mo), so the
// factor leaves a margin of about 70 for models that are merely long or
// stiff; a forced unstable system (corpus/good/unstable_forced_band.mo)
// moves by 10^10 rtol.
#include <fmt/format.h>

#include <algorithm>

#include "rule_checks.h"

namespace modeaudit {

namespace {
constexpr double kFactor = 1e4;
}

void check_sim_tolerance_sensitive(const FlatModel& flat, const SimulationResult& r, double stop_time,
                                   const ToleranceComparison& tighter, double rtol, DiagnosticSink& sink) {
    (void)r;
    const double tight_rtol = rtol / 10;
    const std::vector<std::string> notes = {
        "a reference must not depend on the integrator's tolerance: either the model is ill-conditioned (an "
        "unstable solution, a guard that only just crosses, a fast mode the tolerance does not resolve) or the "
        "tolerance is too loose for it",
        fmt::format("compare `modeaudit simulate --rtol {:g}` with the default; if the model is meant to be "
                    "sensitive, suppress the finding with annotation(__ModeAudit(suppress = "
                    "{{\"sim-tolerance-sensitive\"}}))",
                    tight_rtol)};
    if (!tighter.same_events) {
        sink.report(rule::sim_tolerance_sensitive, flat.range,
                    fmt::format("the reference simulation (rtol {:g}) and its rerun at rtol {:g} take different "
                                "events: {}",
                                rtol, tight_rtol, tighter.first_difference),
                    notes);
        return;
    }
    const double bound = kFactor * rtol;
    const double horizon = std::max(1.0, std::abs(stop_time));
    if (tighter.max_event_shift > bound * horizon) {
        sink.report(rule::sim_tolerance_sensitive, flat.range,
                    fmt::format("the reference simulation's event times move by up to {:.3g} s when the tolerance is "
                                "tightened from rtol {:g} to {:g}, more than {:g} rtol times the horizon",
                                tighter.max_event_shift, rtol, tight_rtol, kFactor),
                    notes);
        return;
    }
    if (tighter.max_relative_final_difference > bound)
        sink.report(rule::sim_tolerance_sensitive, flat.range,
                    fmt::format("the reference simulation's final value of {} moves by {:.3g} relative when the "
                                "tolerance is tightened from rtol {:g} to {:g}, more than {:g} rtol",
                                tighter.worst_final, tighter.max_relative_final_difference, rtol, tight_rtol, kFactor),
                    notes);
}

}  // namespace modeaudit
