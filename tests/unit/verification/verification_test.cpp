// The verification stage on the seed models (seed 000, 5.1-5.3): declared
// rates in every mode, jump laws on the restart systems and at the
// simulated events, discovered conserved quantities, admissibility at the
// restart, and the range an incomplete impact law leaves open.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "support/front_end.h"
#include "verification/verification.h"
#include "verification/verification_internal.h"

namespace modeaudit {
namespace {

std::unique_ptr<testing::FrontEnd> run(const std::string& rel, std::string_view until) {
    auto fe = testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/" + rel, until);
    EXPECT_TRUE(fe->state.verification) << fe->diagnostics();
    return fe;
}

const EventJump& jump(const EventVerification& e, const std::string& name) {
    for (const EventJump& j : e.jumps)
        if (j.invariant == name) return j;
    throw std::runtime_error("no jump of " + name);
}

TEST(Verification, RopeCaptureLosesTwoJoulesAndKeepsTheAngularMomentum) {
    auto fe = run("good/cup_and_ball.mo", "simulation");
    const VerificationResult& v = *fe->state.verification;
    // E = |v|^2/2 + g*y has rate 0 in both modes.
    ASSERT_EQ(v.rates.size(), 2u);
    for (const RateCheck& r : v.rates) EXPECT_EQ(r.status, CheckStatus::Holds) << r.note << r.residual;
    // Both energies fall at the capture, shown on the restart system.
    ASSERT_EQ(v.transitions.size(), 1u);
    const TransitionVerification& t = v.transitions[0];
    ASSERT_EQ(t.jumps.size(), 2u);
    for (const JumpCheck& j : t.jumps) EXPECT_EQ(j.status, CheckStatus::Holds) << j.invariant << ": " << j.note;
    // Discovered without a declaration: the angular momentum.
    ASSERT_EQ(t.discovered.size(), 1u);
    EXPECT_EQ(t.discovered[0], "vx*y - vy*x");
    // At the simulated event: 2.5 -> 0.5, loss m (q.v)^2 / (2 L^2) = 2.
    ASSERT_EQ(v.events.size(), 1u);
    const EventVerification& e = v.events[0];
    EXPECT_NEAR(e.time, 0.1, 1e-10);
    EXPECT_NEAR(jump(e, "K").before, 2.5, 1e-8);
    EXPECT_NEAR(jump(e, "K").after, 0.5, 1e-8);
    EXPECT_NEAR(jump(e, "E").jump, -2.0, 1e-8);
    // x*vy - y*vx = 1 before and after, from the simulated values.
    const EventRecord& ev = fe->state.simulation->events.at(0);
    auto value = [](const std::map<std::string, double>& m, const char* n) { return m.at(n); };
    std::map<std::string, double> after = ev.before;
    for (const auto& [n, x] : ev.after) after[n] = x;
    EXPECT_NEAR(value(ev.before, "x") * value(ev.before, "vy") - value(ev.before, "y") * value(ev.before, "vx"), 1.0, 1e-8);
    EXPECT_NEAR(value(after, "x") * value(after, "vy") - value(after, "y") * value(after, "vx"), 1.0, 1e-8);
    // lambda+ = 8.848 admits the taut mode.
    ASSERT_EQ(e.admissibility.size(), 1u);
    EXPECT_EQ(e.admissibility[0].status, CheckStatus::Holds);
    EXPECT_NEAR(e.admissibility[0].value, 8.848, 1e-8);
    EXPECT_FALSE(fe->has("verify-inadmissible-restart"));
}

TEST(Verification, Rldc2EnergyBalanceHoldsInEveryModeAndAcrossTheSwitch) {
    auto fe = run("good/rldc2.mo", "simulation");
    const VerificationResult& v = *fe->state.verification;
    ASSERT_EQ(v.rates.size(), 4u);
    for (const RateCheck& r : v.rates) EXPECT_EQ(r.status, CheckStatus::Holds) << r.note;
    ASSERT_EQ(v.transitions.size(), 8u);
    for (const TransitionVerification& t : v.transitions) {
        ASSERT_EQ(t.jumps.size(), 1u);
        EXPECT_EQ(t.jumps[0].status, CheckStatus::Holds);
        EXPECT_EQ(t.jumps[0].jump, "0");
        EXPECT_EQ(t.conserved, std::vector<std::string>{v.invariants[0].quantity_text});
    }
    ASSERT_GE(v.events.size(), 1u);
    EXPECT_NEAR(v.events[0].time, 0.055317579971, 1e-9);
    EXPECT_EQ(jump(v.events[0], "E").status, CheckStatus::Holds);
    EXPECT_NEAR(jump(v.events[0], "E").jump, 0.0, 1e-12);
}

TEST(Verification, AFlippedRateSignIsReportedWithItsResidual) {
    auto fe = run("flawed/verify/rldc2_rate_sign_flipped.mo", "verification");
    const VerificationResult& v = *fe->state.verification;
    ASSERT_EQ(v.rates.size(), 4u);
    for (const RateCheck& r : v.rates) {
        EXPECT_EQ(r.status, CheckStatus::Violated);
        EXPECT_LT(r.value, 0.0);  // -2*(R1 j1^2 + R2 j2^2) at a consistent point
        // The value is the residual at the point it names.
        double j1 = r.point.at("j1"), j2 = r.point.at("j2");
        EXPECT_NEAR(r.value, -20 * j1 * j1 - 30 * j2 * j2, 1e-9 * (1 + std::fabs(r.value)));
    }
    const Mode& m = fe->mode("off1=false,off2=true");
    for (const RateCheck& r : v.rates)
        if (r.mode == static_cast<int>(&m - &fe->modes().modes[0])) EXPECT_EQ(r.residual, "-20*j1^2 - 30*j2^2");
    EXPECT_TRUE(fe->has("verify-rate-violated"));
}

TEST(Verification, KineticEnergyDeclaredConservedFailsOnTheRestartSystem) {
    auto fe = run("flawed/verify/kinetic_energy_conserved.mo", "verification");
    const TransitionVerification& t = fe->state.verification->transitions.at(0);
    const JumpCheck* k = nullptr;
    for (const JumpCheck& j : t.jumps)
        if (j.invariant == "K") k = &j;
    ASSERT_TRUE(k);
    EXPECT_EQ(k->status, CheckStatus::Violated);
    EXPECT_TRUE(fe->has("verify-jump-violated"));
}

TEST(Verification, UnknownRestitutionLeavesAlphaBetweenTwoAndFour) {
    auto fe = run("flawed/verify/cup_and_ball_unknown_restitution.mo", "simulation");
    const VerificationResult& v = *fe->state.verification;
    EXPECT_TRUE(v.transitions.at(0).impact_law.incomplete);
    EXPECT_TRUE(fe->has("verify-impact-law-missing"));
    ASSERT_EQ(v.events.size(), 1u);
    ASSERT_EQ(v.events[0].ranges.size(), 1u) << v.events[0].range_note;
    const ImpulseRange& r = v.events[0].ranges[0];
    EXPECT_EQ(r.impulse, "lambda_r");
    EXPECT_NEAR(r.low, 2.0, 1e-9);
    EXPECT_NEAR(r.high, 4.0, 1e-9);
    // alpha = 2 (e = 0) is the capture, alpha = 4 (e = 1) the elastic rebound.
    EXPECT_EQ(r.low_mode, "taut=true");
    EXPECT_EQ(r.high_mode, "taut=false");
}

TEST(Verification, CaptureAboveThePivotIsInadmissibleAndNamesFreeFlight) {
    auto fe = run("flawed/verify/capture_above_pivot.mo", "simulation");
    const VerificationResult& v = *fe->state.verification;
    ASSERT_EQ(v.events.size(), 1u);
    ASSERT_EQ(v.events[0].admissibility.size(), 1u);
    EXPECT_EQ(v.events[0].admissibility[0].status, CheckStatus::Violated);
    EXPECT_NEAR(v.events[0].admissibility[0].value, 0.0784 - 7.848, 1e-8);
    EXPECT_EQ(v.events[0].alternatives, std::vector<std::string>{"taut=false"});
    EXPECT_TRUE(fe->has("verify-inadmissible-restart"));
    EXPECT_FALSE(fe->has("sim-assert-violated"));  // the same violation, reported once
}

TEST(Verification, ChargeAndAngularMomentumAreDiscovered) {
    auto caps = run("good/capacitors_switch.mo", "simulation");
    EXPECT_EQ(caps->state.verification->transitions.at(0).discovered, std::vector<std::string>{"v1 + 3*v2"});
    EXPECT_NEAR(jump(caps->state.verification->events.at(0), "W").before, 8e-3, 1e-12);
    EXPECT_NEAR(jump(caps->state.verification->events.at(0), "W").after, 2e-3, 1e-12);
    auto clutch = run("good/clutch.mo", "simulation");
    EXPECT_EQ(clutch->state.verification->transitions.at(0).discovered, std::vector<std::string>{"w2 + 2*w1"});
    EXPECT_NEAR(jump(clutch->state.verification->events.at(0), "T").jump, -3.0, 1e-9);
}

TEST(Verification, NoResetIntoTheFloorIsAMissingImpactLaw) {
    auto fe = run("flawed/verify/ball_through_floor.mo", "simulation");
    ASSERT_EQ(fe->state.verification->events.size(), 1u);
    EXPECT_TRUE(fe->state.verification->events[0].missing_impact_law);
    EXPECT_TRUE(fe->has("verify-impact-law-missing"));
    // The same fall with a reinit has an impact law.
    auto good = run("good/bouncing_ball.mo", "simulation");
    for (const EventVerification& e : good->state.verification->events) EXPECT_FALSE(e.missing_impact_law);
    EXPECT_FALSE(good->has("verify-impact-law-missing"));
}

TEST(Verification, SignAnalysisIsCertainOnlyWhereItShouldBe) {
    using verification_detail::sign_of;
    GiNaC::symbol x("x"), y("y");
    bool zero = false;
    EXPECT_EQ(sign_of(-GiNaC::pow(x + y, 2) / (2 * (x * x + y * y)), zero), -1);
    EXPECT_FALSE(zero);
    EXPECT_EQ(sign_of(x * x + 2 * x * y + y * y, zero), 1);   // (x + y)^2, by factoring
    EXPECT_EQ(sign_of(x * x - y * y, zero), 0);               // either sign
    EXPECT_EQ(sign_of(x - x, zero), 0);
    EXPECT_TRUE(zero);
    EXPECT_EQ(sign_of(x * y, zero), 0);
}

}  // namespace
}  // namespace modeaudit
