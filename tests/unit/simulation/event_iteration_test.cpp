// The event iteration (simulation/driver.h, event_instant.cpp): cascades of
// restarts at one instant, the initial event iteration over relation-defined
// switches, compound when-conditions, and asserts at a mode's exit. The
// references are closed forms (Newton's cradle exchanges velocities; a
// block lifting off moves as k/(6 m) (t - t1)^3) and the seed's RLDC2
// numbers (seed 000, section 5.1; acceptance-numbers.md).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "support/front_end.h"

namespace modeaudit {
namespace {

std::unique_ptr<testing::FrontEnd> run(const std::string& name) {
    return testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/" + name, "simulation");
}

std::string first_message(const SimulationResult& r) { return r.messages.empty() ? "" : r.messages.front(); }

// Both cradles: ball 1 (speed v0 = 2, gap d = 0.5) reaches ball 2 at
// t = 0.25; one instant of two restarts leaves (0, 0, v0); x3(1) = 1.5.
void expect_cradle(const SimulationResult& r, const std::string& verdict) {
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << first_message(r);
    EXPECT_NEAR(r.end_time, 1.0, 1e-12);
    ASSERT_EQ(r.events.size(), 2u);
    for (int k = 0; k < 2; ++k) {
        const EventRecord& e = r.events[static_cast<std::size_t>(k)];
        EXPECT_NEAR(e.time, 0.25, 1e-12) << k;
        EXPECT_EQ(e.instant, 0) << k;
        EXPECT_EQ(e.step, k);
        EXPECT_EQ(e.verdict, verdict) << k << ": " << e.message;
    }
    // Step 1: balls 1 and 2 exchange velocities; step 2: balls 2 and 3.
    EXPECT_NEAR(r.events[0].after.at("v1"), 0, 1e-12);
    EXPECT_NEAR(r.events[0].after.at("v2"), 2, 1e-12);
    EXPECT_NEAR(r.events[0].after.at("v3"), 0, 1e-12);
    EXPECT_NEAR(r.events[1].after.at("v1"), 0, 1e-12);
    EXPECT_NEAR(r.events[1].after.at("v2"), 0, 1e-12);
    EXPECT_NEAR(r.events[1].after.at("v3"), 2, 1e-12);
    EXPECT_NEAR(r.final_values.at("v3"), 2, 1e-12);
    EXPECT_NEAR(r.final_values.at("x3"), 1.5, 1e-10);
    EXPECT_NEAR(r.final_values.at("x1"), 0, 1e-10);
    EXPECT_NEAR(r.final_values.at("x2"), 0, 1e-10);
    EXPECT_FALSE(r.chattering);
}

TEST(EventIteration, NewtonsCradleWithReinitIsOneInstantOfTwoRestarts) {
    auto fe = run("newtons_cradle_reinit.mo");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    expect_cradle(*fe->state.simulation, "supplied");
}

TEST(EventIteration, NewtonsCradleWithRestartConstraintsConservesMomentumAtEachStep) {
    auto fe = run("newtons_cradle_restitution.mo");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    expect_cradle(r, "impulsive");
    for (const EventRecord& e : r.events) {
        const double before = e.before.at("v1") + e.before.at("v2") + e.before.at("v3");
        const double after = e.after.at("v1") + e.after.at("v2") + e.after.at("v3");
        EXPECT_NEAR(after, before, 1e-12);
    }
}

// Three equal masses, plastic: the first impact (t = d/v0 = 0.25) gives
// v1 = v2 = v0/2 and at once closes the second contact: all three at the
// momentum average v0/3 = 1 after one instant, to the stop time.
TEST(EventIteration, PlasticChainMovesWithTheMomentumAverageAfterOneInstant) {
    auto fe = run("plastic_chain.mo");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << first_message(r);
    ASSERT_EQ(r.events.size(), 2u);
    EXPECT_EQ(r.events[0].instant, r.events[1].instant);
    EXPECT_NEAR(r.events[0].time, 0.25, 1e-12);
    EXPECT_EQ(r.events[1].to_id, "c12=true,c23=true");
    EXPECT_NEAR(r.events[0].after.at("v1"), 1.5, 1e-10);
    EXPECT_NEAR(r.events[0].after.at("v2"), 1.5, 1e-10);
    for (const char* v : {"v1", "v2", "v3"}) {
        EXPECT_NEAR(r.events[1].after.at(v), 1.0, 1e-10) << v;
        EXPECT_NEAR(r.final_values.at(v), 1.0, 1e-10) << v;
    }
    EXPECT_NEAR(r.final_values.at("x3"), 0.75, 1e-9);  // v0/3 (T - d/v0)
}

// An `and` of two relations fires when the whole condition becomes true:
// y > 1.5 from t = 0.75, x > 1 from t = 1.
TEST(EventIteration, AndConditionFiresWhenTheLaterRelationBecomesTrue) {
    auto fe = run("and_trigger.mo");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << first_message(r);
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_NEAR(r.events[0].time, 1.0, 1e-12);
    ASSERT_EQ(r.events[0].guards.size(), 1u);
    EXPECT_EQ(r.events[0].guards[0], "min(x - 1, y - 1.5)");
}

// The library's diode idiom with off(start = true) on both diodes: both
// blocking has no consistent initial values, so the initial iteration tries
// the nearest modes and settles with D1 conducting, D2 blocking; then the
// seed's event and restart values.
TEST(EventIteration, DiodeIdiomInitializesByTheRelationsAndReproducesTheSeedEvent) {
    auto fe = run("rldc2_diode_idiom.mo");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << first_message(r);
    ASSERT_GE(r.initial_modes.size(), 2u);
    EXPECT_EQ(r.initial_modes.front(), "D1.off=true,D2.off=true");
    EXPECT_EQ(r.initial_modes.back(), "D1.off=false,D2.off=true");
    ASSERT_EQ(r.events.size(), 1u);
    const EventRecord& e = r.events[0];
    EXPECT_NEAR(e.time, 0.055317579971, 1e-9);
    EXPECT_EQ(e.to_id, "D1.off=false,D2.off=false");
    EXPECT_EQ(e.verdict, "continuous");
    EXPECT_NEAR(e.before.at("L1.i"), -0.088645906588, 1e-9);
    EXPECT_NEAR(e.before.at("L2.i"), -0.154950677682, 1e-9);
    // The diodes carry the capacitors' currents (in series).
    EXPECT_NEAR(e.before.at("C1.i"), 0.243596584270, 1e-9);
    EXPECT_NEAR(e.after.at("C1.i"), 0.097438633708, 1e-9);
    EXPECT_NEAR(e.after.at("C2.i"), 0.146157950562, 1e-9);
}

// The floor force reaches 0 exactly where the block lifts off: the assert
// f >= 0 holds there to round-off, which is no violation.
TEST(EventIteration, AssertHoldingWithEqualityAtTheModeExitIsNoViolation) {
    auto fe = run("lift_off.mo");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << first_message(r);
    const double m = 1, g = 9.81, k = 2.1, t1 = m * g / k;
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_NEAR(r.events[0].time, t1, 1e-10);
    ASSERT_FALSE(r.segments.empty());
    ASSERT_EQ(r.segments[0].asserts.size(), 1u);
    EXPECT_FALSE(r.segments[0].asserts[0].violated);
    EXPECT_LT(std::fabs(r.segments[0].asserts[0].min_margin), 1e-12);
    EXPECT_NEAR(r.final_values.at("x"), k / (6 * m) * std::pow(5 - t1, 3), 1e-9);
    for (const Diagnostic& d : fe->state.sink.all()) EXPECT_NE(d.rule, "sim-assert-violated") << d.message;
}

// A relation at its boundary at the start is decided by the flow. The
// library's diode idiom with s(start = 0) beside a sine source that starts
// at 0: s = 0, so the initial mode off = true holds to round-off, but the
// source drives s positive at once. The diode must conduct from t = 0 (an
// event at the start time), not block until the guard next crosses from
// below a period later. Metamorphic: the same circuit started in the
// conducting mode (corpus model, s(start = 1e-3)) gives the same later
// events and final values.
TEST(EventIteration, AGuardAtZeroAtTheStartFiresWhenTheFlowPointsOut) {
    std::ifstream in(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/halfwave_rectifier.mo");
    std::ostringstream text;
    text << in.rdbuf();
    const std::string conducting = text.str();
    std::string at_zero = conducting;
    const std::string from = "IdealDiode D(s(start = 1e-3))";
    ASSERT_NE(at_zero.find(from), std::string::npos);
    at_zero.replace(at_zero.find(from), from.size(), "IdealDiode D(s(start = 0), off(start = true))");
    testing::FrontEnd a(conducting, "simulation"), b(at_zero, "simulation");
    ASSERT_TRUE(a.state.simulation && b.state.simulation) << a.diagnostics() << b.diagnostics();
    const SimulationResult& ra = *a.state.simulation;
    const SimulationResult& rb = *b.state.simulation;
    EXPECT_EQ(rb.stopped_because, StopReason::StopTime) << first_message(rb);
    ASSERT_GE(rb.events.size(), 2u);
    EXPECT_EQ(rb.events[0].time, 0.0);
    EXPECT_EQ(rb.events[0].from_id, "D.off=true");
    EXPECT_EQ(rb.events[0].to_id, "D.off=false");
    ASSERT_EQ(rb.events.size(), ra.events.size() + 1);
    for (std::size_t k = 0; k < ra.events.size(); ++k) {
        EXPECT_NEAR(rb.events[k + 1].time, ra.events[k].time, 1e-9) << k;
        EXPECT_EQ(rb.events[k + 1].to_id, ra.events[k].to_id) << k;
    }
    EXPECT_NEAR(rb.final_values.at("C.v"), ra.final_values.at("C.v"), 1e-8);
}

}  // namespace
}  // namespace modeaudit
