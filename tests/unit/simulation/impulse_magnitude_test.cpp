// The impulse each first-order Dirac term carries at a derived restart
// (simulation/derived_restart.h: RestartAnswer::impulses, the `impulses`
// member of a simulate event). References in closed form: a transferred
// momentum, a transferred charge, the rope's capture coefficient.
#include <gtest/gtest.h>

#include <cmath>

#include "simulation/derived_restart.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

std::unique_ptr<testing::FrontEnd> run(const std::string& name) {
    return testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/" + name, "simulation");
}

double impulse(const EventRecord& e, const std::string& name) {
    auto it = e.impulses.find(name);
    return it == e.impulses.end() ? std::nan("") : it->second;
}

// Unit masses, v0 = 2: ball 1 gives ball 2 its momentum (f12 = m v0),
// then ball 2 gives it to ball 3 (f23 = m v0).
TEST(ImpulseMagnitude, NewtonsCradleTransfersTheMomentumAtEachStep) {
    auto fe = run("newtons_cradle_restitution.mo");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    ASSERT_EQ(r.events.size(), 2u);
    EXPECT_NEAR(impulse(r.events[0], "f12"), 2.0, 1e-9);
    EXPECT_EQ(r.events[0].impulses.count("f23"), 0u);
    EXPECT_NEAR(impulse(r.events[1], "f23"), 2.0, 1e-9);
}

// Plastic chain, unit masses, v0 = 3 (v1 = v2 = 1.5, then all at 1):
// step 1 moves momentum 1.5 from ball 1 to ball 2; step 2 moves 1 to
// ball 3 through f23 and 0.5 from ball 1 to ball 2 through f12.
TEST(ImpulseMagnitude, PlasticChainImpulsesMatchTheMomentumChanges) {
    auto fe = run("plastic_chain.mo");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    ASSERT_EQ(r.events.size(), 2u);
    const double v0 = r.events[0].before.at("v1");
    EXPECT_NEAR(impulse(r.events[0], "f12"), v0 / 2, 1e-9);
    EXPECT_NEAR(impulse(r.events[1], "f12"), v0 / 2 - v0 / 3, 1e-9);
    EXPECT_NEAR(impulse(r.events[1], "f23"), v0 / 3, 1e-9);
}

// C1 = 1 mF at 4 V, C2 = 3 mF at 0 V: both end at 1 V, so the current's
// impulse is the charge C1 (4 - 1) = 3 mC.
TEST(ImpulseMagnitude, CapacitorSwitchImpulseIsTheTransferredCharge) {
    auto fe = run("capacitors_switch.mo");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_NEAR(impulse(r.events[0], "i"), 1e-3 * (4 - 1), 1e-12);
}

// The rope's capture: v+ = v- - alpha q with alpha = (q.v-)/L^2 = 2, and
// der(v) = -lambda q, so the integral of lambda over the event is alpha.
TEST(ImpulseMagnitude, RopeCaptureImpulseIsTheVelocityProjection) {
    auto fe = run("cup_and_ball.mo");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    ASSERT_GE(r.events.size(), 1u);
    const EventRecord& e = r.events[0];
    const double alpha = e.before.at("x") * e.before.at("vx") + e.before.at("y") * e.before.at("vy");
    EXPECT_NEAR(impulse(e, "lambda"), alpha, 1e-8);
    EXPECT_NEAR(alpha, 2.0, 1e-8);
}

// The sum over instants, the display names, and what is left out: rescaled
// derivatives and quantities of order 2 at some instant.
TEST(ImpulseMagnitude, SumsOverInstantsAndLeavesOutDerivativesAndHigherOrders) {
    TransitionRestart tr;
    tr.system.emplace();
    tr.system->impulse_orders = {{"f@1", 1}, {"f@2", 1}, {"der(v)@0", 1}, {"g@1", 1}, {"g@2", 2}};
    tr.display = {{"f@1_r", "force@1_r"}, {"f@2_r", "force@2_r"}};
    RestartSolution sol;
    sol.values = {{"f@1_r", 0.25}, {"f@2_r", 0.5}, {"der(v)@0_r", 3.0}, {"g@1_r", 1.0}, {"g@2_r", 1.0}};
    std::map<std::string, double> m = impulse_magnitudes(tr, sol);
    ASSERT_EQ(m.size(), 1u);
    EXPECT_DOUBLE_EQ(m.at("force"), 0.75);
    TransitionRestart none;
    EXPECT_TRUE(impulse_magnitudes(none, sol).empty());
}

}  // namespace
}  // namespace modeaudit
