// Rule restart-not-analysed: a transition from or to a mode whose
// structure is not regular has no mode-change array; the structure
// findings of that mode say why. One finding per event clause, with a note
// for each of its transitions.
#include <map>
#include <tuple>

#include "restart/common.h"
#include "rule_checks.h"

namespace modeaudit {

void check_restart_not_analysed(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r,
                                DiagnosticSink& sink) {
    (void)flat;
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::pair<SourceRange, std::vector<std::string>>>
        by_clause;
    for (const TransitionRestart& tr : r.transitions) {
        if (tr.verdict != Verdict::NotAnalysed) continue;
        const Transition& t = modes.transitions[static_cast<std::size_t>(tr.transition)];
        auto& [range, notes] = by_clause[{t.range.begin.file, t.range.begin.line, t.range.begin.column}];
        range = t.range;
        notes.push_back(restart_rules::transition_note(modes, t) + ": " + tr.explanation);
    }
    for (auto& [key, entry] : by_clause)
        sink.report(rule::restart_not_analysed, entry.first,
                    entry.second.size() == 1 ? "the restart of this transition is not analysed"
                                             : fmt::format("the restarts of {} transitions of this event are not analysed",
                                                           entry.second.size()),
                    entry.second);
}

}  // namespace modeaudit
