// Rule verify-impact-law-missing: the model does not say what an impact does
// (seed 000, 5.3). Two forms: a restart constraint whose coefficient is a
// parameter with bounds but no value (the law is incomplete; at a
// simulated event the range its bounds allow is shown), and a continuous
// restart without reset after which the new mode leaves its admissible set
// at once.
#include <fmt/format.h>

#include "rule_checks.h"

namespace modeaudit {

void check_impact_law_missing(const FlatModel& flat, const ModeSet& modes, const VerificationResult& v,
                              VerificationPhase phase, DiagnosticSink& sink) {
    (void)flat;
    if (phase == VerificationPhase::Static) {
        for (const TransitionVerification& t : v.transitions) {
            if (!t.impact_law.incomplete) continue;
            const Transition& tr = modes.transitions[static_cast<std::size_t>(t.transition)];
            sink.report(rule::verify_impact_law_missing, tr.range, t.impact_law.message,
                        {fmt::format("transition {} -> {}", modes.modes[static_cast<std::size_t>(tr.from)].id,
                                     modes.modes[static_cast<std::size_t>(tr.to)].id),
                         "give the coefficient a value (a restitution coefficient from measurement), or state the "
                         "capture or rebound law; `modeaudit simulate` and `report` show the range it leaves open"});
        }
        return;
    }
    for (const EventVerification& e : v.events) {
        const Transition& tr = modes.transitions[static_cast<std::size_t>(e.transition)];
        if (e.missing_impact_law)
            sink.report(rule::verify_impact_law_missing, tr.range,
                        fmt::format("no impact law at t = {:.12g}: {}", e.time, e.missing_note),
                        {"add a reset (reinit) or a restart constraint that says what happens at the impact"});
    }
}

}  // namespace modeaudit
