// Modes without states in the simulation (simulation/algebraic_segment.cpp):
// purely algebraic models and modes whose energy stores an ideal switch
// has removed are followed without integrating, their events located to
// 1e-9 against closed forms: the corpus models of corpus/good/algebraic/
// with their stated numbers, inline models for an implicitly defined
// leading variable (the Krawczyk route), an assert, an operator's event and
// a clock in such a mode, and the same model with and without an extra
// (decoupled) state, which takes the integrated route.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "simulation/mode_system.h"
#include "simulation/simulation.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

constexpr double kPi = std::numbers::pi;

std::unique_ptr<testing::FrontEnd> run_corpus(const std::string& name) {
    return testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/algebraic/" + name,
                                        "simulation");
}
std::unique_ptr<testing::FrontEnd> run_text(const std::string& text) {
    return std::make_unique<testing::FrontEnd>(text, "simulation");
}
std::string first_message(const SimulationResult& r) { return r.messages.empty() ? "" : r.messages.front(); }

// The run reached its stop time with its restart steps at `expected`.
const SimulationResult& expect_run(const testing::FrontEnd& fe, const std::vector<double>& expected,
                                   double tol = 1e-9) {
    EXPECT_TRUE(fe.state.simulation) << fe.diagnostics();
    static const SimulationResult none;
    if (!fe.state.simulation) return none;
    const SimulationResult& r = *fe.state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << first_message(r);
    std::vector<double> got;
    for (const EventRecord& e : r.events) got.push_back(e.time);
    EXPECT_EQ(got.size(), expected.size()) << fmt::format("{}", fmt::join(got, ", "));
    for (std::size_t k = 0; k < got.size() && k < expected.size(); ++k) EXPECT_NEAR(got[k], expected[k], tol) << k;
    return r;
}

long total_steps(const SimulationResult& r) {
    long n = 0;
    for (const SegmentRecord& s : r.segments) n += s.steps;
    return n;
}

// ---- the corpus models' numbers ----

TEST(AlgebraicMode, ThresholdSwitchIsPurelyAlgebraic) {
    auto fe = run_corpus("threshold_switch.mo");
    const SimulationResult& r = expect_run(*fe, {1.0 / 12, 5.0 / 12, 13.0 / 12});
    const double v = std::sin(2 * kPi * 1.2);
    EXPECT_NEAR(r.final_values.at("v"), v, 1e-12);
    EXPECT_NEAR(r.final_values.at("i"), v / 10, 1e-12);
    EXPECT_NEAR(r.final_values.at("p"), v * v / 10, 1e-12);
    ASSERT_EQ(r.segments.size(), 4u);
    for (const SegmentRecord& s : r.segments) {
        EXPECT_TRUE(s.algebraic) << s.mode_id;
        EXPECT_TRUE(s.state_names.empty());
        EXPECT_EQ(s.rhs_evaluations, 0);
        EXPECT_GT(s.steps, 0);
        EXPECT_LE(s.max_step, 1.2 / 500 + 1e-15);
    }
    // Every point of the grid of 500 intervals is solved once, and each
    // event's instant once more (none falls on a grid point here).
    EXPECT_EQ(total_steps(r), 500 + 3);
    // The rating's margin along the closed segment: 0.12 - V/R at the peak
    // (to the grid's resolution of the sine's top: 1 - cos(pi * 0.0024)).
    ASSERT_EQ(r.segments[1].asserts.size(), 1u);
    EXPECT_FALSE(r.segments[1].asserts[0].violated);
    EXPECT_NEAR(r.segments[1].asserts[0].min_margin, 0.02, 1e-5);
    // The restarts carry nothing over (no states) and are continuous.
    for (const EventRecord& e : r.events) EXPECT_EQ(e.verdict, "continuous");
    EXPECT_NEAR(r.events[0].after.at("i"), 0.05, 1e-9);
    EXPECT_NEAR(r.events[1].before.at("i"), 0.05, 1e-9);
    EXPECT_EQ(r.events[1].after.at("i"), 0);
}

TEST(AlgebraicMode, TankOverflowLeavesAndReentersAModeWithAState) {
    auto fe = run_corpus("tank_overflow.mo");
    const SimulationResult& r = expect_run(*fe, {kPi / 6, kPi / 2});
    EXPECT_NEAR(r.final_values.at("h"), 1 + (std::sin(6.0) - 1) / 4, 1e-9);
    EXPECT_NEAR(r.final_values.at("q"), std::cos(6.0), 1e-12);
    ASSERT_EQ(r.segments.size(), 3u);
    EXPECT_FALSE(r.segments[0].algebraic);
    EXPECT_TRUE(r.segments[1].algebraic);
    EXPECT_FALSE(r.segments[2].algebraic);
    EXPECT_EQ(r.segments[1].mode_id, "full=true");
    // The algebraic segment's exit is the pump's reversal, exactly.
    EXPECT_NEAR(r.events[1].time, kPi / 2, 1e-14);
    // Into the mode without states: the spill takes the whole pump flow.
    EXPECT_NEAR(r.events[0].after.at("spill"), std::cos(kPi / 6), 1e-9);
    // Out of it: the level continues from the crest (the left limit of the
    // solved h becomes the state's value).
    EXPECT_EQ(r.events[1].after.at("h"), 1.0);
    for (const EventRecord& e : r.events) EXPECT_EQ(e.verdict, "continuous");
}

TEST(AlgebraicMode, ZenerClampReleasesInACascadeThroughModesWithoutStates) {
    auto fe = run_corpus("zener_clamp.mo");
    const SimulationResult& r = expect_run(*fe, {std::log(2.0), 3, 3});
    EXPECT_NEAR(r.final_values.at("v"), 5 / std::numbers::e, 1e-9);
    EXPECT_NEAR(r.final_values.at("i"), -5 / std::numbers::e / 1000, 1e-12);
    ASSERT_EQ(r.events.size(), 3u);
    // One instant of two restarts: the source switches off, then the clamp
    // (its current now negative) releases.
    EXPECT_EQ(r.events[1].instant, r.events[2].instant);
    EXPECT_EQ(r.events[2].step, 1);
    EXPECT_EQ(r.events[2].to_id, "clamped=false,(time < 3)=false");
    EXPECT_NEAR(r.events[2].before.at("iz"), -0.005, 1e-12);
    EXPECT_EQ(r.events[2].after.at("v"), 5.0);
    EXPECT_TRUE(r.grazes.empty()) << "the time event on a grid point is a crossing, no touch";
}

// ---- inline models ----

// z^3 + z = 3 sin(t): F_DOWN is nonlinear in z, so the guard z - 1 is
// followed through the Krawczyk enclosure of z over time intervals
// (ImplicitFunction). z = 1 where 3 sin(t) = 2.
TEST(AlgebraicMode, ImplicitLeadingVariableGuardsAreLocated) {
    const char* text = R"(
model Cubic
  Real z(start = 0);
  Real excess "z above 1";
  Boolean high(start = false);
equation
  z^3 + z = 3*sin(time);
  high = z > 1;
  excess = if high then z - 1 else 0;
  annotation(experiment(StopTime = 3));
end Cubic;)";
    auto fe = run_text(text);
    const double t1 = std::asin(2.0 / 3);
    const SimulationResult& r = expect_run(*fe, {t1, kPi - t1});
    // z at the end: the real root of z^3 + z = 3 sin(3).
    const double z = r.final_values.at("z");
    EXPECT_NEAR(z * z * z + z, 3 * std::sin(3.0), 1e-12);
    ASSERT_TRUE(fe->state.structure);
    sim::ModeSystem sys(fe->flat(), fe->modes(), 0, fe->state.structure->modes[0]);
    EXPECT_EQ(sys.state_count(), 0u);
    ASSERT_EQ(sys.guards().size(), 1u);
    EXPECT_TRUE(sys.guards()[0].implicit);
}

// An assert in a mode without states is searched along time like a guard:
// its first violation is located, not only seen at an output point.
TEST(AlgebraicMode, AssertViolationIsLocated) {
    auto fe = run_text(R"(
model Rated
  Real v;
equation
  v = sin(time);
  assert(v < 0.9, "v stays below 0.9");
  annotation(experiment(StopTime = 2));
end Rated;)");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    ASSERT_EQ(r.segments.size(), 1u);
    ASSERT_EQ(r.segments[0].asserts.size(), 1u);
    const AssertRecord& a = r.segments[0].asserts[0];
    EXPECT_TRUE(a.violated);
    EXPECT_NEAR(a.time, std::asin(0.9), 1e-9);
}

// floor() of a function of time: each jump is an operator event, searched
// over the grid intervals. With StopTime 1 the grid's points fall on the
// jumps (k/4 = 125 k * 0.002): crossings, not touches; the last jump is the
// stop time itself, where no event fires.
TEST(AlgebraicMode, OperatorEventsFollowTime) {
    for (double stop : {1.1, 1.0}) {
        auto fe = run_text(fmt::format(R"(
model Stairs
  Real y;
equation
  y = floor(4*time);
  annotation(experiment(StopTime = {}));
end Stairs;)",
                                       stop));
        const SimulationResult& r = expect_run(*fe, stop > 1 ? std::vector<double>{0.25, 0.5, 0.75, 1}
                                                             : std::vector<double>{0.25, 0.5, 0.75});
        for (const EventRecord& e : r.events) EXPECT_TRUE(e.operator_event);
        EXPECT_EQ(r.final_values.at("y"), stop > 1 ? 4 : 3);
        EXPECT_TRUE(r.grazes.empty());
    }
}

// A sampled value held between the clock's instants in a model without
// states: the clock fires at the segment's start and every 0.25.
TEST(AlgebraicMode, ClockFiresInAModeWithoutStates) {
    auto fe = run_text(R"(
model Held
  discrete Real u(start = 0);
  Real y;
equation
  when sample(0, 0.25) then
    u = sin(time);
  end when;
  y = 2*u;
  annotation(experiment(StopTime = 0.9));
end Held;)");
    const SimulationResult& r = expect_run(*fe, {0, 0.25, 0.5, 0.75});
    EXPECT_NEAR(r.final_values.at("u"), std::sin(0.75), 1e-12);
    EXPECT_NEAR(r.final_values.at("y"), 2 * std::sin(0.75), 1e-12);
}

// The initial event iteration in a model without states: open(start =
// false) contradicts v < 0.5 at t = 0, so the run starts in open=true.
TEST(AlgebraicMode, InitialEventIterationChoosesTheMode) {
    auto fe = run_text(R"(
model Alg
  Real v;
  Real i;
  Boolean open(start = false);
equation
  v = sin(time);
  open = v < 0.5;
  i = if open then 0 else v/10;
  annotation(experiment(StopTime = 4));
end Alg;)");
    const SimulationResult& r = expect_run(*fe, {kPi / 6, 5 * kPi / 6});
    ASSERT_EQ(r.initial_modes.size(), 2u);
    EXPECT_EQ(r.initial_modes.back(), "open=true");
    EXPECT_NEAR(r.final_values.at("v"), std::sin(4.0), 1e-12);
    EXPECT_EQ(r.final_values.at("i"), 0);
}

// Two routes to one answer: the threshold switch alone (no states, not
// integrated) and with a decoupled state beside it (der(s) = 1, every mode
// integrated by CVODE, the guards searched on its interpolant) give the
// same events and values.
TEST(AlgebraicMode, SameEventsAsTheIntegratedRoute) {
    const std::string model = R"(
model Switch
  Real v;
  Real i;
  Boolean open(start = true);
  EXTRA
equation
  v = sin(3*time);
  open = v < 0.5;
  i = if open then 0 else v/10;
  DER
  annotation(experiment(StopTime = 4));
end Switch;)";
    auto make = [&](bool with_state) {
        std::string text = model;
        text.replace(text.find("EXTRA"), 5, with_state ? "Real s(start = 0, fixed = true);" : "");
        text.replace(text.find("DER"), 3, with_state ? "der(s) = 1;" : "");
        return run_text(text);
    };
    auto alone = make(false), beside = make(true);
    ASSERT_TRUE(alone->state.simulation && beside->state.simulation);
    const SimulationResult &a = *alone->state.simulation, &b = *beside->state.simulation;
    EXPECT_TRUE(a.segments.front().algebraic);
    EXPECT_FALSE(b.segments.front().algebraic);
    ASSERT_EQ(a.events.size(), b.events.size());
    ASSERT_EQ(a.events.size(), 4u);
    for (std::size_t k = 0; k < a.events.size(); ++k) {
        EXPECT_NEAR(a.events[k].time, b.events[k].time, 1e-9) << k;
        EXPECT_EQ(a.events[k].to_id, b.events[k].to_id);
    }
    // sin(3t) = 0.5: t = pi/18 + 2 pi k/3 and 5 pi/18 + 2 pi k/3.
    EXPECT_NEAR(a.events[0].time, kPi / 18, 1e-12);
    EXPECT_NEAR(a.events[3].time, 5 * kPi / 18 + 2 * kPi / 3, 1e-12);
    EXPECT_NEAR(a.final_values.at("i"), b.final_values.at("i"), 1e-9);
    EXPECT_NEAR(b.final_values.at("s"), 4, 1e-9);
}

}  // namespace
}  // namespace modeaudit
