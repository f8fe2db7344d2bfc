// The simulation follows discrete variables defined by equations
// (modes/discrete_logic.h) at events: a hysteresis written as a pre()
// latch, in the library's law form, as an if-expression on pre(), and with
// when-clauses gives the same events, and all match the closed form
// (piecewise linear: x moves at rate 1 between 0.5 and 1.5 after a first
// rise from 0, so the events are at t = 1.5, 2.5, 3.5, 4.5 exactly). The
// friction state machine with an Integer mode switches at the closed-form
// instants.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>

#include "simulation/simulation.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

std::unique_ptr<testing::FrontEnd> simulated(const std::string& rel, const std::string& model = "") {
    std::ifstream in(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/" + rel);
    std::ostringstream s;
    s << in.rdbuf();
    auto fe = std::make_unique<testing::FrontEnd>(s.str(), "simulation", model);
    EXPECT_TRUE(fe->state.simulation) << rel << ": " << fe->diagnostics();
    return fe;
}

// The instants of the event records (one per instant: a cascade's steps
// share it, and so do the two hystereses of hysteresis_if_pre.mo, which
// switch together).
std::vector<double> instants(const SimulationResult& r) {
    std::vector<double> out;
    for (const EventRecord& e : r.events)
        if (out.empty() || e.time != out.back()) out.push_back(e.time);
    return out;
}

TEST(DiscreteLogicSimulation, HysteresisAsLatchLawIfPreAndWhenClausesGiveTheSameEvents) {
    const std::vector<double> closed_form = {1.5, 2.5, 3.5, 4.5};
    auto when = simulated("good/discrete/hysteresis_when.mo");
    ASSERT_TRUE(when->state.simulation);
    const std::vector<double> reference = instants(*when->state.simulation);
    ASSERT_EQ(reference.size(), closed_form.size());
    for (std::size_t k = 0; k < reference.size(); ++k) EXPECT_NEAR(reference[k], closed_form[k], 1e-9) << k;
    const std::pair<const char*, const char*> variants[] = {{"good/discrete/hysteresis_latch.mo", ""},
                                                            {"good/discrete/hysteresis_law.mo", "HysteresisLaw.Loop"},
                                                            {"good/discrete/hysteresis_if_pre.mo", ""}};
    for (const auto& [rel, model] : variants) {
        auto fe = simulated(rel, model);
        ASSERT_TRUE(fe->state.simulation);
        const SimulationResult& r = *fe->state.simulation;
        EXPECT_EQ(r.stopped_because, StopReason::StopTime) << rel << (r.messages.empty() ? "" : r.messages.back());
        EXPECT_FALSE(r.chattering) << rel;
        const std::vector<double> got = instants(r);
        ASSERT_EQ(got.size(), reference.size()) << rel;
        for (std::size_t k = 0; k < got.size(); ++k) {
            EXPECT_NEAR(got[k], reference[k], 1e-9) << rel << " event " << k;
            EXPECT_NEAR(got[k], closed_form[k], 1e-9) << rel << " event " << k;
        }
    }
}

// A latch whose Boolean has no start value starts from pre(y) = false
// (corpus/good/discrete/latch_without_start.mo): x falls first from 1, so
// y rises at t = 0.5 and x(4.8) = 0.8 (it would be 1.2 had y started true).
TEST(DiscreteLogicSimulation, LatchWithoutStartValueStartsFromFalse) {
    auto fe = simulated("good/discrete/latch_without_start.mo");
    ASSERT_TRUE(fe->state.simulation);
    const SimulationResult& r = *fe->state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.back());
    EXPECT_FALSE(r.chattering);
    const std::vector<double> got = instants(r);
    const std::vector<double> closed_form{0.5, 1.5, 2.5, 3.5, 4.5};
    ASSERT_EQ(got.size(), closed_form.size());
    for (std::size_t k = 0; k < got.size(); ++k) EXPECT_NEAR(got[k], closed_form[k], 1e-9) << k;
    ASSERT_FALSE(r.events.empty());
    EXPECT_NE(r.events.front().to_id.find("y=true"), std::string::npos) << r.events.front().to_id;
    EXPECT_NEAR(r.final_values.at("x"), 0.8, 1e-9);
}

// v(t) after sliding forward from rest at t0 = pi/6 under u = 2 sin t with
// sliding friction 0.5 (unit mass): 2 (cos t0 - cos t) - 0.5 (t - t0).
double forward_velocity(double t) {
    const double t0 = std::numbers::pi / 6;
    return 2 * (std::cos(t0) - std::cos(t)) - 0.5 * (t - t0);
}

TEST(DiscreteLogicSimulation, FrictionModeStartsAtTheStaticLimitAndReversesWhereTheVelocityVanishes) {
    auto fe = simulated("good/discrete/stick_slip_mode.mo");
    ASSERT_TRUE(fe->state.simulation);
    const SimulationResult& r = *fe->state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.back());
    ASSERT_GE(r.events.size(), 3u);
    // u = 2 sin t reaches F0 = 1 at pi/6: the start flag, and at once v > 0 makes the mode Forward.
    EXPECT_NEAR(r.events[0].time, std::numbers::pi / 6, 1e-9);
    EXPECT_EQ(r.events[0].to_id, "startForward=true,startBackward=false,mode=0");
    EXPECT_NEAR(r.events[1].time, std::numbers::pi / 6, 1e-9);
    EXPECT_EQ(r.events[1].to_id, "startForward=false,startBackward=false,mode=1");
    // The velocity returns to 0 where u < -F0: the block starts backward at
    // the same instant (the event iteration through Stuck).
    double lo = 4, hi = 5;
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        (forward_velocity(mid) > 0 ? lo : hi) = mid;
    }
    EXPECT_LT(2 * std::sin(lo), -1);
    EXPECT_NEAR(r.events[2].time, lo, 1e-8);
    EXPECT_EQ(r.events[2].to_id, "startForward=false,startBackward=false,mode=-1");
}

// change(k) of a counter, and a relation on it, are decided in the event
// iteration (ModeSet::discrete_triggers), not by enumerating the counter's
// values as modes: each tick moves k and fires the change(k) clause in the
// same step; k >= 3 fires once, at the third tick.
TEST(DiscreteLogicSimulation, ChangeOfACounterFiresAtEachTick) {
    auto fe = simulated("good/discrete/counter_change.mo");
    ASSERT_TRUE(fe->state.simulation);
    EXPECT_TRUE(fe->state.modes->complete);
    EXPECT_EQ(fe->state.modes->modes.size(), 1u);
    EXPECT_EQ(fe->state.modes->discrete_triggers.size(), 2u);
    const SimulationResult& r = *fe->state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.back());
    const std::vector<double> got = instants(r);
    ASSERT_EQ(got.size(), 6u);
    for (std::size_t k = 0; k < got.size(); ++k) EXPECT_NEAR(got[k], 0.1 * static_cast<double>(k), 1e-12) << k;
    EXPECT_EQ(r.final_values.at("k"), 6);
    EXPECT_EQ(r.final_values.at("m"), 12);
    EXPECT_NEAR(r.final_values.at("xk"), 0.5, 1e-9);
    EXPECT_NEAR(r.final_values.at("reached"), 0.2, 1e-12);
    EXPECT_NEAR(r.final_values.at("x"), 0.55, 1e-9);
    // Each tick's event names the clock and the change it caused; the third
    // also the counter's threshold.
    ASSERT_EQ(r.events.size(), 6u);
    EXPECT_EQ(r.events[0].guards, (std::vector<std::string>{"sample(0, 0.1)", "k <> pre(k)"}));
    EXPECT_EQ(r.events[2].guards.size(), 3u);
    EXPECT_EQ(r.events[3].guards.size(), 2u);
}

// An Integer defined by an equation and read by nothing that decides a
// mode (the Compliance suite's `Integer x; x = 3;`, a nested for-loop of
// Integer equations) has its defined value from the start: it kept its
// start value 0 before, and an assert on it failed at t = 0.
TEST(DiscreteLogicSimulation, AnIntegerDefinedByAnEquationHoldsItsValueFromTheStart) {
    testing::FrontEnd fe(R"(model I
  Integer x[2];
  Integer y;
  Real z(start = 0, fixed = true);
equation
  for i in 1:2 loop
    x[i] = 2*i;
  end for;
  y = x[1] + x[2];
  assert(y == 6, "y is the sum");
  der(z) = y;
end I;)",
                "simulation");
    ASSERT_TRUE(fe.state.simulation) << fe.diagnostics();
    EXPECT_FALSE(fe.has("sim-assert-violated")) << fe.diagnostics();
    const SimulationResult& r = *fe.state.simulation;
    EXPECT_EQ(r.final_values.at("x[1]"), 2);
    EXPECT_EQ(r.final_values.at("x[2]"), 4);
    EXPECT_EQ(r.final_values.at("y"), 6);
    EXPECT_NEAR(r.final_values.at("z"), 6, 1e-9);
}

}  // namespace
}  // namespace modeaudit
