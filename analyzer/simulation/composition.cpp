#include "simulation/composition.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>
#include <tuple>

namespace modeaudit {

namespace {

// The part whose end decides the composed run's: a resource limit first,
// else the earliest end short of the stop time (the first such part at a
// tie), else none (-1: every part reached the stop time).
int deciding_part(std::span<const SimulationResult* const> parts) {
    int decider = -1;
    for (std::size_t k = 0; k < parts.size(); ++k)
        if (!parts[k]->limit.empty()) return static_cast<int>(k);
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const SimulationResult& r = *parts[k];
        if (r.stopped_because == StopReason::StopTime) continue;
        if (decider < 0 || r.end_time < parts[static_cast<std::size_t>(decider)]->end_time)
            decider = static_cast<int>(k);
    }
    return decider;
}

}  // namespace

ComposedSimulation compose_simulations(std::span<const SimulationResult* const> parts) {
    ComposedSimulation c;
    SimulationResult& out = c.result;
    if (parts.empty()) return c;

    const int decider = deciding_part(parts);
    if (decider >= 0) {
        const SimulationResult& d = *parts[static_cast<std::size_t>(decider)];
        out.stopped_because = d.stopped_because;
        out.zeno_time = d.zeno_time;
        out.chattering = d.chattering;
        out.chattering_cycle = d.chattering_cycle;
        out.chattering_operator = d.chattering_operator;
        out.limit = d.limit;
        out.limit_option = d.limit_option;
    } else {
        out.stopped_because = StopReason::StopTime;
    }
    out.end_time = parts.front()->end_time;
    for (const SimulationResult* r : parts) out.end_time = std::min(out.end_time, r->end_time);

    // Events by time, parts in order at equal times, each part's own order
    // kept (a cascade's steps share one time).
    std::vector<std::tuple<double, std::size_t, std::size_t>> order;
    for (std::size_t k = 0; k < parts.size(); ++k)
        for (std::size_t i = 0; i < parts[k]->events.size(); ++i) order.emplace_back(parts[k]->events[i].time, k, i);
    std::stable_sort(order.begin(), order.end());
    int instant = -1;
    std::pair<std::size_t, int> last_instant{parts.size(), -1};  // (part, its instant)
    for (const auto& [time, k, i] : order) {
        EventRecord e = parts[k]->events[i];
        if (std::pair<std::size_t, int>{k, e.instant} != last_instant) ++instant;
        last_instant = {k, e.instant};
        e.instant = instant;
        e.from = e.to = -1;
        out.events.push_back(std::move(e));
        c.event_origin.emplace_back(k, i);
    }

    std::vector<std::string> final_modes, initial_modes;
    std::set<std::string> said;
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const SimulationResult& r = *parts[k];
        const std::size_t first_segment = out.segments.size();
        for (SegmentRecord sg : r.segments) {
            sg.part = static_cast<int>(k);
            out.segments.push_back(std::move(sg));
        }
        for (Sample s : r.samples) {
            s.segment += first_segment;
            out.samples.push_back(std::move(s));
        }
        for (const auto& [name, v] : r.final_values) out.final_values[name] = v;
        if (!r.final_mode.empty()) final_modes.push_back(r.final_mode);
        if (!r.initial_modes.empty()) initial_modes.push_back(r.initial_modes.back());
        // A message every part gives alike (a refused option) is said once.
        for (const std::string& m : r.messages)
            if (said.insert(m).second) out.messages.push_back(m);
        for (auto g : r.grazes) out.grazes.push_back(std::move(g));
        for (auto a : r.event_asserts) out.event_asserts.push_back(std::move(a));
        for (auto s : r.searches_gave_up) out.searches_gave_up.push_back(std::move(s));
        // A part's initial event iteration is its own sequence of local
        // modes; the composed run lists its initial global mode alone.
        if (r.initial_modes.size() > 1)
            out.messages.push_back(fmt::format("initial event iteration of {}: {}", r.initial_modes.back(),
                                               fmt::join(r.initial_modes, " -> ")));
    }
    out.final_mode = fmt::format("{}", fmt::join(final_modes, ","));
    if (!initial_modes.empty()) out.initial_modes = {fmt::format("{}", fmt::join(initial_modes, ","))};
    return c;
}

ToleranceComparison compose_comparisons(std::span<const ToleranceComparison> parts) {
    ToleranceComparison c;
    c.same_events = true;
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const ToleranceComparison& p = parts[k];
        c.same_events = c.same_events && p.same_events;
        if (c.first_difference.empty() && !p.first_difference.empty())
            c.first_difference = fmt::format("part {}: {}", k + 1, p.first_difference);
        c.max_event_shift = std::max(c.max_event_shift, p.max_event_shift);
        c.max_final_difference = std::max(c.max_final_difference, p.max_final_difference);
        if (p.max_relative_final_difference > c.max_relative_final_difference) {
            c.max_relative_final_difference = p.max_relative_final_difference;
            c.worst_final = p.worst_final;
        }
    }
    return c;
}

}  // namespace modeaudit
