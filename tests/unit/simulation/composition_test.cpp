// Unit tests of the composition of independent parts' runs
// (simulation/composition.h): event order and instants, the deciding
// part's stop, segments and samples renumbered, messages said once, and
// the composed tolerance comparison.
#include <gtest/gtest.h>

#include "simulation/composition.h"

namespace modeaudit {
namespace {

EventRecord event(double t, int instant, const std::string& from, const std::string& to) {
    EventRecord e;
    e.time = t;
    e.instant = instant;
    e.from = 0;
    e.to = 1;
    e.from_id = from;
    e.to_id = to;
    return e;
}

SimulationResult run(double end, StopReason why, const std::string& final_mode) {
    SimulationResult r;
    r.end_time = end;
    r.stopped_because = why;
    r.final_mode = final_mode;
    r.initial_modes = {final_mode};
    return r;
}

TEST(Composition, EventsByTimeEachPartsInstantsKeptAndNoGlobalModeIndex) {
    SimulationResult a = run(1, StopReason::StopTime, "a=true");
    a.events = {event(0.2, 0, "a=false", "a=true"), event(0.5, 1, "a=true", "a=false"),
                event(0.5, 1, "a=false", "a=true")};  // a cascade at 0.5
    SimulationResult b = run(1, StopReason::StopTime, "b=false");
    b.events = {event(0.5, 0, "b=true", "b=false"), event(0.1, 1, "b=false", "b=true")};
    std::sort(b.events.begin(), b.events.end(), [](const auto& x, const auto& y) { return x.time < y.time; });
    const SimulationResult* parts[] = {&a, &b};
    const ComposedSimulation c = compose_simulations(parts);
    ASSERT_EQ(c.result.events.size(), 5u);
    std::vector<double> times;
    std::vector<int> instants;
    for (const EventRecord& e : c.result.events) {
        times.push_back(e.time);
        instants.push_back(e.instant);
        EXPECT_EQ(e.from, -1);
        EXPECT_EQ(e.to, -1);
    }
    EXPECT_EQ(times, (std::vector<double>{0.1, 0.2, 0.5, 0.5, 0.5}));
    // a's cascade at 0.5 is one instant; b's event at 0.5 another.
    EXPECT_EQ(instants, (std::vector<int>{0, 1, 2, 2, 3}));
    EXPECT_EQ(c.event_origin[2], (std::pair<std::size_t, std::size_t>{0, 1}));
    EXPECT_EQ(c.event_origin[4], (std::pair<std::size_t, std::size_t>{1, 1}));
    EXPECT_EQ(c.result.stopped_because, StopReason::StopTime);
    EXPECT_EQ(c.result.final_mode, "a=true,b=false");
    EXPECT_EQ(c.result.initial_modes, (std::vector<std::string>{"a=true,b=false"}));
}

TEST(Composition, ThePartThatEndedFirstDecidesALimitBeforeAll) {
    SimulationResult a = run(0.7, StopReason::Inadmissible, "a");
    SimulationResult b = run(0.4, StopReason::Zeno, "b");
    b.zeno_time = 0.41;
    SimulationResult c = run(0.4, StopReason::StopTime, "c");
    {
        const SimulationResult* parts[] = {&a, &b, &c};
        const SimulationResult r = compose_simulations(parts).result;
        EXPECT_EQ(r.stopped_because, StopReason::Zeno);
        EXPECT_EQ(r.zeno_time, 0.41);
        EXPECT_EQ(r.end_time, 0.4);
    }
    c.stopped_because = StopReason::LimitExceeded;
    c.limit = "simulation events";
    const SimulationResult* parts[] = {&a, &b, &c};
    const SimulationResult r = compose_simulations(parts).result;
    EXPECT_EQ(r.stopped_because, StopReason::LimitExceeded);
    EXPECT_EQ(r.limit, "simulation events");
}

TEST(Composition, SegmentsAndSamplesPartByPartAndMessagesOnce) {
    SimulationResult a = run(1, StopReason::StopTime, "a"), b = run(1, StopReason::StopTime, "b");
    a.segments.resize(2);
    b.segments.resize(1);
    a.samples = {{0.0, 0, {1.0}}, {1.0, 1, {2.0}}};
    b.samples = {{0.5, 0, {3.0}}};
    a.messages = {"the stop time 0 is not after the start time 0", "only a"};
    b.messages = {"the stop time 0 is not after the start time 0"};
    b.initial_modes = {"b0", "b"};
    const SimulationResult* parts[] = {&a, &b};
    const SimulationResult r = compose_simulations(parts).result;
    ASSERT_EQ(r.segments.size(), 3u);
    EXPECT_EQ(r.segments[1].part, 0);
    EXPECT_EQ(r.segments[2].part, 1);
    ASSERT_EQ(r.samples.size(), 3u);
    EXPECT_EQ(r.samples[2].segment, 2u);  // b's first segment
    EXPECT_EQ(r.samples[2].states, (std::vector<double>{3.0}));
    EXPECT_EQ(r.messages, (std::vector<std::string>{"the stop time 0 is not after the start time 0", "only a",
                                                    "initial event iteration of b: b0 -> b"}));
}

TEST(Composition, ComparisonsTakeTheWorstPart) {
    ToleranceComparison a, b;
    a.same_events = true;
    a.max_event_shift = 1e-9;
    a.max_relative_final_difference = 1e-8;
    a.worst_final = "x";
    b.same_events = false;
    b.first_difference = "3 events against 4";
    b.max_final_difference = 2e-7;
    b.max_relative_final_difference = 1e-7;
    b.worst_final = "y";
    const ToleranceComparison parts[] = {a, b};
    const ToleranceComparison c = compose_comparisons(parts);
    EXPECT_FALSE(c.same_events);
    EXPECT_EQ(c.first_difference, "part 2: 3 events against 4");
    EXPECT_EQ(c.max_event_shift, 1e-9);
    EXPECT_EQ(c.max_final_difference, 2e-7);
    EXPECT_EQ(c.worst_final, "y");
}

}  // namespace
}  // namespace modeaudit
