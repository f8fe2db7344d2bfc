// The restart stage end to end on the seed models (seed 000, 5.1-5.3; seed
// 001, section 2, section 9 and Appendix D.2): each transition's verdict,
// and the restart values at the seed's left limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "restart/verdict.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

std::unique_ptr<testing::FrontEnd> run(const std::string& rel) {
    auto fe = testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/" + rel, "restart");
    EXPECT_TRUE(fe->state.restarts) << fe->diagnostics();
    return fe;
}

const TransitionRestart& only(const testing::FrontEnd& fe, std::size_t k = 0) {
    return fe.state.restarts->transitions.at(k);
}

// Left limits by restart-system name: positions and velocities of the
// first-order cup-and-ball (velocities are der(x), der(y) there).
std::map<std::string, double> cup_left(double x, double y, double vx, double vy) {
    return {{"x", x}, {"y", y}, {"der(x)", vx}, {"der(y)", vy}};
}

TEST(Verdict, CupAndBallCaptureIsImpulsiveWithTheSeedRestart) {
    auto fe = run("good/cup_and_ball.mo");
    const TransitionRestart& r = only(*fe);
    EXPECT_EQ(r.verdict, Verdict::Impulsive);
    EXPECT_EQ(r.height, 1);
    EXPECT_EQ(r.impulse_orders.at("lambda"), 1);
    ASSERT_TRUE(r.system);
    RestartSolution s = solve_restart(fe->flat(), *r.system, cup_left(0.6, -0.8, 2, -1), 0.0);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_NEAR(s.values.at("der(x)+"), 0.8, 1e-12);
    EXPECT_NEAR(s.values.at("der(y)+"), 0.6, 1e-12);
    EXPECT_NEAR(s.values.at("lambda_r"), 2.0, 1e-12);
    EXPECT_NEAR(s.values.at("lambda@1"), 8.848, 1e-12);
    // Existence, local uniqueness and conditioning at the solution.
    EXPECT_LT(s.residual, 1e-12);
    EXPECT_TRUE(s.locally_unique);
    EXPECT_GT(s.condition, 1.0);
    EXPECT_LT(s.condition, 1e3);
    // q+ = q-: the positions are carried over, stated in the restart text.
    EXPECT_NE(std::find(r.restart.begin(), r.restart.end(), "x+ = pre(x)"), r.restart.end());
    // A standard tool carries v- and violates the tangency condition.
    ASSERT_EQ(r.standard_tool.violates.size(), 1u);
    EXPECT_EQ(r.standard_tool.violates[0], "2*vx*x + 2*vy*y = 0");
}

// The restart system is equivalent to v+ - v- + alpha*q- = 0, q-.v+ = 0,
// q+ = q- (seed 000, 5.2): checked at random left limits on the circle,
// against the closed form alpha = q-.v- / |q-|^2.
TEST(Verdict, CupAndBallRestartMatchesTheClosedFormAtRandomLeftLimits) {
    auto fe = run("good/cup_and_ball.mo");
    const TransitionRestart& r = only(*fe);
    ASSERT_TRUE(r.system);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> angle(-3.0, 3.0), speed(-3.0, 3.0);
    for (int k = 0; k < 10; ++k) {
        double th = angle(rng), x = std::sin(th), y = -std::cos(th), vx = speed(rng), vy = speed(rng);
        RestartSolution s = solve_restart(fe->flat(), *r.system, cup_left(x, y, vx, vy), 0.0);
        ASSERT_TRUE(s.solved) << s.message;
        double alpha = x * vx + y * vy;
        EXPECT_NEAR(s.values.at("der(x)+"), vx - alpha * x, 1e-9);
        EXPECT_NEAR(s.values.at("der(y)+"), vy - alpha * y, 1e-9);
        EXPECT_NEAR(s.values.at("lambda_r"), alpha, 1e-9);
        EXPECT_NEAR(x * s.values.at("der(x)+") + y * s.values.at("der(y)+"), 0.0, 1e-9);
    }
}

// Seed 000, 5.3: a rebound with e = 0.5 in free flight passes through the
// transient taut mode; v+ = (0.2, 1.4), radial component -1.
TEST(Verdict, RestitutionInFreeFlightGivesTheSeedRebound) {
    auto fe = run("good/cup_and_ball_restitution_free.mo");
    const TransitionRestart& r = only(*fe);
    EXPECT_EQ(r.verdict, Verdict::Impulsive);
    EXPECT_NE(r.route_text.find("through the transient mode taut=true"), std::string::npos) << r.route_text;
    ASSERT_TRUE(r.system);
    RestartSolution s = solve_restart(fe->flat(), *r.system, cup_left(0.6, -0.8, 2, -1), 0.0);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_NEAR(s.values.at("der(x)+"), 0.2, 1e-12);
    EXPECT_NEAR(s.values.at("der(y)+"), 1.4, 1e-12);
    EXPECT_NEAR(0.6 * s.values.at("der(x)+") - 0.8 * s.values.at("der(y)+"), -1.0, 1e-12);
}

// The same law with the taut mode as target contradicts its tangency; the
// free mode is named as the admissible continuation, with the same v+.
TEST(Verdict, RestitutionIntoTheTautModeIsInconsistentAndNamesFreeFlight) {
    auto fe = run("flawed/cup_and_ball_restitution_taut.mo");
    ASSERT_EQ(fe->state.restarts->transitions.size(), 1u);  // no taut -> taut self-transition
    const TransitionRestart& r = only(*fe);
    EXPECT_EQ(r.verdict, Verdict::Inconsistent);
    bool has_t = false, has_tangency = false;
    for (const std::string& c : r.conflict) {
        has_t = has_t || c.rfind("T1@1", 0) == 0;
        has_tangency = has_tangency || c.find("2*vx@1*x@1 + 2*vy@1*y@1") != std::string::npos;
    }
    EXPECT_TRUE(has_t);
    EXPECT_TRUE(has_tangency);
    ASSERT_EQ(r.continuations, std::vector<std::string>{"taut=false"});
    ASSERT_TRUE(r.continuation_system);
    RestartSolution s = solve_restart(fe->flat(), *r.continuation_system, cup_left(0.6, -0.8, 2, -1), 0.0);
    ASSERT_TRUE(s.solved) << s.message;
    EXPECT_NEAR(s.values.at("der(x)+"), 0.2, 1e-12);
    EXPECT_NEAR(s.values.at("der(y)+"), 1.4, 1e-12);
    EXPECT_TRUE(fe->has("restart-inconsistent"));
}

// Seed 000, 5.3 / seed 001, D.2: a time command; no good rescaling;
// Corollary 1: positions determined, velocities not; no restart invented.
TEST(Verdict, TimeCommandedTighteningIsUndetermined) {
    auto fe = run("flawed/cup_and_ball_time_command.mo");
    const TransitionRestart& r = only(*fe);
    EXPECT_EQ(r.verdict, Verdict::Undetermined);
    EXPECT_EQ(r.height, 2);
    EXPECT_EQ(r.undetermined, (std::vector<std::string>{"vx", "vy"}));
    EXPECT_EQ(r.determined, (std::vector<std::string>{"x", "y"}));
    EXPECT_FALSE(r.system.has_value());
    EXPECT_TRUE(r.restart.empty());
}

// Seed 000, 5.1: every diode switch of RLDC2 is continuous; the second
// diode's turn-on follows from the root fact u2 = v1 - v2 = 0.
TEST(Verdict, Rldc2SwitchesAreContinuous) {
    auto fe = run("good/rldc2.mo");
    ASSERT_EQ(fe->state.restarts->transitions.size(), 8u);
    for (const TransitionRestart& r : fe->state.restarts->transitions) {
        EXPECT_EQ(r.verdict, Verdict::Continuous) << r.explanation;
        EXPECT_TRUE(r.impulse_orders.empty());
    }
    bool seed_switch = false;
    for (const TransitionRestart& r : fe->state.restarts->transitions) {
        const Transition& t = fe->modes().transitions[static_cast<std::size_t>(r.transition)];
        if (fe->modes().modes[static_cast<std::size_t>(t.from)].id == "off1=false,off2=true" &&
            fe->modes().modes[static_cast<std::size_t>(t.to)].id == "off1=false,off2=false") {
            seed_switch = true;
            EXPECT_NE(r.explanation.find("root fact v1 - v2 = 0"), std::string::npos) << r.explanation;
        }
    }
    EXPECT_TRUE(seed_switch);
}

TEST(Verdict, BouncingBallResetIsSupplied) {
    auto fe = run("good/bouncing_ball.mo");
    const TransitionRestart& r = only(*fe);
    EXPECT_EQ(r.verdict, Verdict::Supplied);
    EXPECT_EQ(r.restart.at(0), "velocity+ = -9*pre(velocity)/10");
    EXPECT_TRUE(r.conditions.empty());
}

TEST(Verdict, ImpulseInsideSinhIsUnsupportedAndNamesTheEquation) {
    auto fe = run("flawed/restart/impulse_in_sinh.mo");
    const TransitionRestart& r = only(*fe);
    EXPECT_EQ(r.verdict, Verdict::Unsupported);
    EXPECT_NE(r.nonlinear.find("sinh(lambda)"), std::string::npos) << r.nonlinear;
    EXPECT_EQ(r.nonlinear_range.begin.line, 21u);
}

// The touched part: a model of two independent ball-on-rope systems; the
// capture of one builds its array over that one's equations only, and
// gives the same restart as the single model.
TEST(Verdict, IndependentSubsystemsAreAnalysedOnTheTouchedPartOnly) {
    const char* two = R"(
model TwoCups
  parameter Real L = 1, g = 9.81;
  Real x1(start = 0.4, fixed = true), y1(start = -0.74905, fixed = true);
  Real vx1(start = 2, fixed = true), vy1(start = -0.019, fixed = true), lambda1;
  Real x2(start = 0.4, fixed = true), y2(start = -0.74905, fixed = true);
  Real vx2(start = 2, fixed = true), vy2(start = -0.019, fixed = true), lambda2;
  Boolean taut1(start = false), taut2(start = false);
equation
  der(x1) = vx1; der(y1) = vy1; der(vx1) = -lambda1*x1; der(vy1) = -lambda1*y1 - g;
  der(x2) = vx2; der(y2) = vy2; der(vx2) = -lambda2*x2; der(vy2) = -lambda2*y2 - g;
  if taut1 then x1^2 + y1^2 = L^2; else lambda1 = 0; end if;
  if taut2 then x2^2 + y2^2 = L^2; else lambda2 = 0; end if;
  when x1^2 + y1^2 >= L^2 then taut1 = true; end when;
  when x2^2 + y2^2 >= L^2 then taut2 = true; end when;
end TwoCups;)";
    testing::FrontEnd fe(two, "restart");
    ASSERT_TRUE(fe.state.restarts) << fe.diagnostics();
    ASSERT_FALSE(fe.state.mode_change->transitions.empty());
    for (const TransitionStudy& st : fe.state.mode_change->transitions) {
        EXPECT_EQ(st.routes[0].part_equations, 5u);
        EXPECT_EQ(st.routes[0].whole_equations, 10u);
    }
    for (const TransitionRestart& r : fe.state.restarts->transitions) {
        EXPECT_EQ(r.verdict, Verdict::Impulsive);
        ASSERT_TRUE(r.system);
        std::map<std::string, double> left;
        for (const auto& [base, sym] : r.system->left_limits) {
            bool velocity = base.rfind("der(", 0) == 0;
            bool is_x = base.find('x') != std::string::npos;
            left[base] = velocity ? (is_x ? 2.0 : -1.0) : (is_x ? 0.6 : -0.8);
        }
        RestartSolution s = solve_restart(fe.flat(), *r.system, left, 0.0);
        ASSERT_TRUE(s.solved) << s.message;
        int checked = 0;
        for (const auto& [name, value] : s.values)
            if (name.rfind("der(x", 0) == 0 && name.back() == '+') {
                EXPECT_NEAR(value, 0.8, 1e-12) << name;
                ++checked;
            }
        EXPECT_EQ(checked, 1);
    }
}

}  // namespace
}  // namespace modeaudit
