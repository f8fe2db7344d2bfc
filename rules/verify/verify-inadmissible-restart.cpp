// Rule verify-inadmissible-restart: at a simulated event the restart lands
// outside the target mode's admissible set (one of its asserts fails at
// the restart values: a rope that would push, a diode current < 0;
// input-language.md, extension 3). When exactly one other mode is
// admissible there, it is named.
#include <fmt/format.h>

#include "rule_checks.h"

namespace modeaudit {

void check_restart_inadmissible(const FlatModel& flat, const ModeSet& modes, const VerificationResult& v,
                                DiagnosticSink& sink) {
    for (const EventVerification& e : v.events) {
        const Transition& t = modes.transitions[static_cast<std::size_t>(e.transition)];
        for (const EventAdmissibility& a : e.admissibility) {
            if (a.status != CheckStatus::Violated) continue;
            std::vector<std::string> notes{
                fmt::format("at t = {:.12g} the restart of {} -> {} gives margin {:.6g} for {}", e.time,
                            modes.modes[static_cast<std::size_t>(t.from)].id,
                            modes.modes[static_cast<std::size_t>(t.to)].id, a.value, a.condition)};
            if (e.alternatives.size() == 1)
                notes.push_back(fmt::format("mode {} is admissible at these values: the transition should lead there",
                                            e.alternatives[0]));
            else if (e.alternatives.empty())
                notes.push_back("no other mode is admissible at these values: the event needs another law");
            else {
                std::string list;
                for (const std::string& m : e.alternatives) list += (list.empty() ? "" : ", ") + m;
                notes.push_back("several modes are admissible at these values: " + list);
            }
            sink.report(rule::verify_inadmissible_restart, flat.asserts[static_cast<std::size_t>(a.assert_index)].range,
                        fmt::format("the restart into mode {} violates its admissibility condition \"{}\"",
                                    modes.modes[static_cast<std::size_t>(t.to)].id, a.message),
                        notes);
        }
    }
}

}  // namespace modeaudit
