// Rule restart-position-jump: the only good solution of the mode-change
// array moves a position (a variable whose derivative is a state of the
// previous mode) at once; its derivative is impulsive, so the force behind
// it is of order 2 or more. No finite impulse moves a position: the restart
// is not given (the simulation stops), and the missing law is named (issue
// 17, item 4; seed 000, 5.3: a constraint imposed by a command needs a
// reeling or compliance law).
#include <fmt/ranges.h>

#include "restart/common.h"
#include "rule_checks.h"

namespace modeaudit {

void check_restart_position_jump(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r,
                                 DiagnosticSink& sink) {
    (void)flat;
    for (const TransitionRestart& tr : r.transitions) {
        if (tr.verdict != Verdict::Undetermined || tr.position_jump.empty()) continue;
        const Transition& t = modes.transitions[static_cast<std::size_t>(tr.transition)];
        std::vector<std::string> orders;
        for (const auto& [n, mu] : tr.impulse_orders) orders.push_back(fmt::format("{} of order {}", n, mu));
        std::vector<std::string> notes{restart_rules::transition_note(modes, t)};
        if (!tr.standard_tool.violates.empty())
            notes.push_back(fmt::format("the new mode requires {} at once", fmt::join(tr.standard_tool.violates, " and ")));
        if (!orders.empty())
            notes.push_back(fmt::format("the mode-change array (K = {}) reaches it only with {}", tr.height,
                                        fmt::join(orders, ", ")));
        notes.push_back(
            "add the law that brings the position there: reeling (the constraint reached over time, e.g. a target "
            "that moves from the position at the event), compliance (a stiff spring and damper instead of the rigid "
            "constraint), or a supplied reset (reinit of the position and its velocity in the when clause)");
        sink.report(rule::restart_position_jump, t.range,
                    fmt::format("restart moves the position {} at once: no finite impulse moves a position",
                                fmt::join(tr.position_jump, ", ")),
                    notes);
    }
}

}  // namespace modeaudit
