// Rule restart-impulsive: the derived restart is impulsive. The model is
// not wrong, but a standard Modelica tool keeps the states continuous at
// this event and so starts the new mode off its consistency conditions
// (seed 000, 4.2); the finding says which conditions and what the restart
// the physics requires is.
#include <fmt/ranges.h>

#include "restart/common.h"
#include "rule_checks.h"

namespace modeaudit {

void check_restart_impulsive(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r,
                             DiagnosticSink& sink) {
    (void)flat;
    for (const TransitionRestart& tr : r.transitions) {
        if (tr.verdict != Verdict::Impulsive) continue;
        const Transition& t = modes.transitions[static_cast<std::size_t>(tr.transition)];
        std::vector<std::string> orders;
        for (const auto& [n, mu] : tr.impulse_orders) orders.push_back(fmt::format("{} of order {}", n, mu));
        std::vector<std::string> notes{restart_rules::transition_note(modes, t), "route: " + tr.route_text};
        for (const std::string& l : tr.restart) notes.push_back("restart: " + l);
        if (!tr.standard_tool.violates.empty())
            notes.push_back(fmt::format("a standard Modelica tool {}, which violates {}", tr.standard_tool.action,
                                        fmt::join(tr.standard_tool.violates, " and ")));
        sink.report(rule::restart_impulsive, t.range,
                    fmt::format("mode change {} -> {} needs an impulsive restart ({}){}",
                                modes.modes[static_cast<std::size_t>(t.from)].id,
                                modes.modes[static_cast<std::size_t>(t.to)].id, fmt::join(orders, ", "),
                                tr.route_text.rfind("through", 0) == 0 ? " " + tr.route_text : ""),
                    notes);
    }
}

}  // namespace modeaudit
