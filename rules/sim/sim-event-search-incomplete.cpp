// Rule sim-event-search-incomplete: the guaranteed search for a guard's
// crossing (or an assert's violation) along a simulated step stopped at its
// work limit (analyzer/simulation/event_detection.h, max_enclosures): the
// interval enclosures could not decide the sign of the guard over the step,
// so a crossing there may have been missed. The run goes on; the guarantee
// that every event was located is lost there, and the report says so
// instead of "no findings". One finding per guard (or assert) and mode,
// naming the first interval given up and how many were.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "rule_checks.h"

namespace modeaudit {

void check_sim_event_search_incomplete(const FlatModel& flat, const SimulationResult& r, DiagnosticSink& sink) {
    struct Group {
        const SimulationResult::SearchGaveUp* first = nullptr;
        std::size_t count = 0;
        double last_end = 0;
    };
    std::map<std::tuple<bool, std::string, std::string>, Group> groups;
    std::vector<std::tuple<bool, std::string, std::string>> order;
    for (const SimulationResult::SearchGaveUp& g : r.searches_gave_up) {
        auto key = std::make_tuple(g.assert_search, g.what, g.mode_id);
        Group& gr = groups[key];
        if (!gr.first) {
            gr.first = &g;
            order.push_back(key);
        }
        ++gr.count;
        gr.last_end = std::max(gr.last_end, g.t1);
    }
    for (const auto& key : order) {
        const Group& gr = groups[key];
        const SimulationResult::SearchGaveUp& g = *gr.first;
        SourceRange at = g.range;
        if (g.assert_search && g.assert_index >= 0 && static_cast<std::size_t>(g.assert_index) < flat.asserts.size())
            at = flat.asserts[static_cast<std::size_t>(g.assert_index)].range;
        if (!at.valid()) at = flat.range;
        const std::string what = g.assert_search ? fmt::format("the search for violations of assert \"{}\"", g.what)
                                                 : fmt::format("the event search for the guard {}", g.what);
        std::vector<std::string> notes;
        if (gr.count > 1)
            notes.push_back(fmt::format("it gave up on {} steps in all, the last ending at t = {:.12g}", gr.count,
                                        gr.last_end));
        notes.push_back(g.assert_search
                            ? "a violation of the assert in that interval may have been missed"
                            : "a crossing of the guard in that interval may have been missed: an event may be lost");
        sink.report(rule::sim_event_search_incomplete, at,
                    fmt::format("{}{} gave up in [{:.12g}, {:.12g}] (work limit): the interval "
                                "enclosures could not decide its sign there",
                                what, g.mode_id.empty() ? std::string() : " in mode '" + g.mode_id + "'", g.t0, g.t1),
                    std::move(notes));
    }
}

}  // namespace modeaudit
