// Rule restart-undetermined: no good rescaling of the mode-change array up
// to K^*; Corollary 1 of seed 001 (paper notes 5.8) names the restart values
// without a determining relation. No restart is invented (seed 000, 5.3).
#include <fmt/ranges.h>

#include "restart/common.h"
#include "rule_checks.h"

namespace modeaudit {

void check_restart_undetermined(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r,
                                DiagnosticSink& sink) {
    (void)flat;
    for (const TransitionRestart& tr : r.transitions) {
        if (tr.verdict != Verdict::Undetermined || !tr.position_jump.empty()) continue;  // restart-position-jump
        const Transition& t = modes.transitions[static_cast<std::size_t>(tr.transition)];
        std::vector<std::string> notes{restart_rules::transition_note(modes, t), tr.explanation};
        if (!tr.determined.empty())
            notes.push_back(fmt::format("determined by the mode-change array (K = {}): {}", tr.height,
                                        fmt::join(tr.determined, ", ")));
        notes.push_back("add the missing physical law at the event (an impact law as a restart constraint, a reinit, "
                        "or a compliant element), or make the event a state event whose guard implies the new constraint");
        std::string what = tr.undetermined.empty() ? std::string("the restart values")
                                                   : fmt::format("{}", fmt::join(tr.undetermined, ", "));
        sink.report(rule::restart_undetermined, t.range,
                    fmt::format("restart is undetermined: {} {} no determining relation at the event", what,
                                tr.undetermined.size() == 1 ? "has" : "have"),
                    notes);
    }
}

}  // namespace modeaudit
