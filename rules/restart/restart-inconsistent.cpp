// Rule restart-inconsistent: the transition's restart constraints (the set
// T of seed 001, section 9) contradict the new mode: no route to the stated
// target has a good solution. The conflicting equations are the
// overdetermined part of the array; an alternative target that admits the
// constraints is named (seed 000, 5.3: the restitution law and the taut
// rope's tangency).
#include <fmt/ranges.h>

#include "restart/common.h"
#include "rule_checks.h"

namespace modeaudit {

void check_restart_inconsistent(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r,
                                DiagnosticSink& sink) {
    (void)flat;
    for (const TransitionRestart& tr : r.transitions) {
        if (tr.verdict != Verdict::Inconsistent) continue;
        const Transition& t = modes.transitions[static_cast<std::size_t>(tr.transition)];
        std::vector<std::string> notes{restart_rules::transition_note(modes, t)};
        for (const std::string& c : tr.conflict) notes.push_back("in conflict: " + c);
        if (!tr.continuations.empty())
            notes.push_back(fmt::format("admissible continuation: {} (the restart constraints hold there)",
                                        fmt::join(tr.continuations, ", ")));
        notes.push_back(tr.continuations.empty()
                            ? "remove the restart constraint or change the target mode so that they agree"
                            : "change the target of the when-clause to the admissible mode, or drop the constraint");
        sink.report(rule::restart_inconsistent, t.range,
                    fmt::format("the restart constraints contradict mode {}",
                                modes.modes[static_cast<std::size_t>(t.to)].id),
                    notes);
    }
}

}  // namespace modeaudit
