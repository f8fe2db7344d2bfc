// The mode-change array of the cup-and-ball capture (seed 001, section 2;
// paper notes 6.2-6.3), written in second-order form as in the paper, must
// have the sets the reconstruction gives (the sympy prototype in
// ../shared/reference/mode_change_prototype/cup.py prints the same):
//   K = 0: k1 is a fact; e1, e2, k1', k1'' enabled; no matching covers them;
//   K = 1: facts k1, k1@1 and the definitions x@1 = x + eps*der(x) (same
//   for y); k1', k1'' disabled; 8 dependent variables; a matching exists.
#include <gtest/gtest.h>

#include <set>

#include "flatten/flattener.h"
#include "mode_change/mode_change_array.h"
#include "rescaling/rescaling.h"
#include "mode_change/normalize.h"
#include "restart/restart.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

const char* kCupSecondOrder = R"(
model CupSecondOrder
  parameter Real L = 1, g = 9.81;
  Real x(start = 0.4), y(start = -0.74905), lambda;
  Boolean taut(start = false);
equation
  der(der(x)) + lambda*x = 0;
  der(der(y)) + lambda*y + g = 0;
  if taut then x^2 + y^2 = L^2; else lambda = 0; end if;
  when x^2 + y^2 >= L^2 then taut = true; end when;
end CupSecondOrder;)";

struct Fixture {
    testing::FrontEnd fe{kCupSecondOrder, "structure"};
    ArrayInput input() const {
        ArrayInput in;
        in.flat = &fe.flat();
        in.previous = &fe.modes().modes[0];
        in.previous_structure = &fe.state.structure->modes[0];
        in.next = &fe.modes().modes[1];
        in.next_structure = &fe.state.structure->modes[1];
        in.transition = &fe.modes().transitions.at(0);
        return in;
    }
};

std::set<std::string> names(const ModeChangeArray& a, bool fact, bool enabled) {
    std::set<std::string> out;
    for (const ArrayEquation& e : a.equations)
        if (e.fact == fact && (fact || e.enabled == enabled)) out.insert(e.name);
    return out;
}

TEST(ModeChangeArray, CupAndBallHeightZeroHasNoMatching) {
    Fixture f;
    ASSERT_TRUE(f.fe.state.structure) << f.fe.diagnostics();
    ASSERT_EQ(f.fe.modes().modes[1].id, "taut=true");
    ModeChangeArray a = build_mode_change_array(f.input(), 0);
    // rows: e1 = der(x,2) + lambda*x, e2 = ..., e3 = x^2 + y^2 - 1 (k1)
    EXPECT_EQ(names(a, true, false), (std::set<std::string>{"e3"}));
    EXPECT_EQ(names(a, false, true), (std::set<std::string>{"e1", "e2", "e3'", "e3''"}));
    EXPECT_FALSE(a.matched);
    EXPECT_NE(a.why_not_matched.find("cannot be matched"), std::string::npos) << a.why_not_matched;
}

TEST(ModeChangeArray, CupAndBallHeightOneMatchesLikeThePaper) {
    Fixture f;
    ModeChangeArray a = build_mode_change_array(f.input(), 1);
    EXPECT_EQ(names(a, true, false),
              (std::set<std::string>{"e3", "e3@1", "E[der(x) -> x@1]", "E[der(y) -> y@1]"}));
    EXPECT_EQ(names(a, false, false), (std::set<std::string>{"e3'", "e3''"}));
    EXPECT_EQ(names(a, false, true),
              (std::set<std::string>{"e1", "e1@1", "e2", "e2@1", "e3'@1", "e3''@1", "E[der(x,2) -> der(x)@1]",
                                     "E[der(y,2) -> der(y)@1]"}));
    std::set<std::string> dependent;
    for (std::size_t j = 0; j < a.variables.size(); ++j)
        if (a.dependent[j]) dependent.insert(a.symbol(a.variables[j]).get_name());
    EXPECT_EQ(dependent, (std::set<std::string>{"lambda", "lambda@1", "der(x)@1", "der(x,2)", "der(x,2)@1",
                                                "der(y)@1", "der(y,2)", "der(y,2)@1"}));
    ASSERT_TRUE(a.matched) << a.why_not_matched;
    // Every enabled equation and every dependent variable is matched, once.
    std::set<int> vars;
    for (const auto& [e, v] : a.matching) {
        EXPECT_FALSE(a.equations[static_cast<std::size_t>(e)].fact);
        EXPECT_TRUE(a.dependent[static_cast<std::size_t>(v)]);
        EXPECT_TRUE(vars.insert(v).second);
    }
    for (std::size_t i = 0; i < a.equations.size(); ++i)
        if (a.equations[i].enabled) EXPECT_TRUE(a.matching.count(static_cast<int>(i))) << a.equations[i].name;
    EXPECT_EQ(vars.size(), dependent.size());
}

}  // namespace
}  // namespace modeaudit

namespace modeaudit {
namespace {

TEST(Rescaling, CupAndBallOffsetsAreOneOnTheAccelerationsAndLambda) {
    Fixture f;
    ModeChangeArray a = build_mode_change_array(f.input(), 1);
    ASSERT_TRUE(a.matched);
    RescalingResult r = solve_rescaling(a, restart_variables(f.input(), a));
    ASSERT_TRUE(r.solved) << (r.core.empty() ? "" : r.core[0]);
    EXPECT_FALSE(r.recheck_failure.has_value()) << r.recheck_failure.value_or("");
    std::map<std::string, int> impulsive;
    for (std::size_t j = 0; j < a.variables.size(); ++j)
        if (r.mu[j] > 0) impulsive[a.symbol(a.variables[j]).get_name()] = r.mu[j];
    EXPECT_EQ(impulsive, (std::map<std::string, int>{{"der(x,2)", 1}, {"der(y,2)", 1}, {"lambda", 1}}));
    // Our own check rejects a perturbed answer.
    RescalingResult bad = r;
    for (std::size_t j = 0; j < a.variables.size(); ++j)
        if (a.symbol(a.variables[j]).get_name() == "lambda") bad.mu[j] = 0;
    EXPECT_TRUE(check_rescaling(a, restart_variables(f.input(), a), bad).has_value());
}

// Paper notes 6.7 / section 10: at K = 2 the cup-and-ball array has
// matchings, but only with impulsive restart velocities: not good. Z3 says
// unsat, and the core names the goodness condition (124).
TEST(Rescaling, CupAndBallHeightTwoIsNotGood) {
    Fixture f;
    ModeChangeArray a = build_mode_change_array(f.input(), 2);
    ASSERT_TRUE(a.matched) << a.why_not_matched;
    RescalingResult r = solve_rescaling(a, restart_variables(f.input(), a));
    EXPECT_FALSE(r.solved);
    bool names_goodness = false;
    for (const std::string& c : r.core) names_goodness = names_goodness || c.find("goodness (124)") != std::string::npos;
    EXPECT_TRUE(names_goodness);
}

TEST(Restart, CupAndBallCaptureGivesTheSeedNumbers) {
    Fixture f;
    ModeChangeArray a = build_mode_change_array(f.input(), 1);
    RescalingResult r = solve_rescaling(a, restart_variables(f.input(), a));
    ASSERT_TRUE(r.solved);
    RestartSystem s = procedure1(f.input(), a, r);
    EXPECT_TRUE(s.rule1) << s.rule1_note;
    EXPECT_EQ(s.impulse_orders.at("lambda"), 1);
    // Seed 000, section 5.2: q- = (0.6, -0.8), v- = (2, -1).
    RestartSolution sol =
        solve_restart(f.fe.flat(), s, {{"x", 0.6}, {"y", -0.8}, {"der(x)", 2.0}, {"der(y)", -1.0}}, 0.0);
    ASSERT_TRUE(sol.solved) << sol.message;
    EXPECT_NEAR(sol.values.at("der(x)+"), 0.8, 1e-12);
    EXPECT_NEAR(sol.values.at("der(y)+"), 0.6, 1e-12);
    EXPECT_NEAR(sol.values.at("lambda_r"), 2.0, 1e-12);   // alpha = q-.v-/L^2
    EXPECT_NEAR(sol.values.at("lambda@1"), 8.848, 1e-12);  // lambda+ = (v+.v+ - g y)/L^2
    // Angular momentum x*vy - y*vx = 1 before and after.
    EXPECT_NEAR(0.6 * sol.values.at("der(y)+") + 0.8 * sol.values.at("der(x)+"), 1.0, 1e-12);
}

}  // namespace
}  // namespace modeaudit

namespace modeaudit {
namespace {

// The corpus model is in first-order form (der(x) = vx): the same capture.
TEST(Restart, FirstOrderCupAndBallFromTheCorpusGivesTheSeedNumbers) {
    auto fe = testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/cup_and_ball.mo", "structure");
    ASSERT_TRUE(fe->state.structure) << fe->diagnostics();
    // der(x) = vx, der(y) = vy hold in both modes: normalized to second order.
    NormalizedTransition nt = normalize_first_order(fe->flat(), fe->modes().modes[0], fe->modes().modes[1]);
    ASSERT_EQ(nt.velocity_of.size(), 2u);
    EXPECT_EQ(nt.velocity_of.at(fe->flat().find_variable("vx")), fe->flat().find_variable("x"));
    EXPECT_EQ(nt.next_structure.sigma.index, 3);
    ArrayInput in = array_input(fe->flat(), nt, fe->modes().transitions.at(0));
    ModeChangeArray a0 = build_mode_change_array(in, 0);
    EXPECT_FALSE(a0.matched);
    ModeChangeArray a = build_mode_change_array(in, 1);
    ASSERT_TRUE(a.matched) << a.why_not_matched;
    RescalingResult r = solve_rescaling(a, restart_variables(in, a));
    ASSERT_TRUE(r.solved) << (r.core.empty() ? "" : r.core[0]);
    EXPECT_FALSE(r.recheck_failure.has_value());
    RestartSystem s = procedure1(in, a, r);
    EXPECT_TRUE(s.rule1) << s.rule1_note;
    ASSERT_TRUE(s.impulse_orders.count("lambda"));
    EXPECT_EQ(s.impulse_orders.at("lambda"), 1);
    // vx- = der(x)- = 2, vy- = der(y)- = -1.
    std::map<std::string, double> left{{"x", 0.6}, {"y", -0.8}, {"der(x)", 2.0}, {"der(y)", -1.0}};
    RestartSolution sol = solve_restart(fe->flat(), s, left, 0.0);
    ASSERT_TRUE(sol.solved) << sol.message;
    for (const char* n : {"der(x)+", "der(y)+", "lambda_r"}) ASSERT_TRUE(sol.values.count(n)) << n;
    // Positions are previous-mode data at the tail (x@1 = x + eps*der(x)): q+ = q-.
    EXPECT_FALSE(sol.values.count("x+"));
    EXPECT_NEAR(sol.values.at("der(x)+"), 0.8, 1e-12);  // vx+
    EXPECT_NEAR(sol.values.at("der(y)+"), 0.6, 1e-12);  // vy+
    EXPECT_NEAR(sol.values.at("lambda_r"), 2.0, 1e-12);
}

}  // namespace
}  // namespace modeaudit

#include "restart/continuous.h"

namespace modeaudit {
namespace {

// Seed 000, section 5.1: at t = 0.055317579971 the second diode starts
// conducting with v1 = v2 = 0.7, j1 = -0.088645906588, j2 = -0.154950677682.
// Capacitor voltages and inductor currents carry over; the diode currents
// jump to i1 = 0.097438633708, i2 = 0.146157950562.
TEST(Restart, Rldc2SecondDiodeSwitchIsContinuousWithTheSeedCurrents) {
    auto fe = testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/rldc2.mo", "structure");
    ASSERT_TRUE(fe->state.structure) << fe->diagnostics();
    int from = -1, to = -1;
    for (std::size_t k = 0; k < fe->modes().modes.size(); ++k) {
        if (fe->modes().modes[k].id == "off1=false,off2=true") from = static_cast<int>(k);
        if (fe->modes().modes[k].id == "off1=false,off2=false") to = static_cast<int>(k);
    }
    ASSERT_GE(from, 0);
    ASSERT_GE(to, 0);
    std::map<std::string, double> left{{"v1", 0.7}, {"v2", 0.7}, {"j1", -0.088645906588}, {"j2", -0.154950677682}};
    ContinuousRestart r = continuous_restart(fe->flat(), fe->state.structure->modes[static_cast<std::size_t>(from)],
                                             fe->state.structure->modes[static_cast<std::size_t>(to)], left,
                                             0.055317579971);
    ASSERT_TRUE(r.consistent) << r.message;
    EXPECT_NEAR(r.values.at("i1"), 0.097438633708, 1e-9);
    EXPECT_NEAR(r.values.at("i2"), 0.146157950562, 1e-9);
    EXPECT_NEAR(r.values.at("V"), 0.7, 1e-12);
    // With v1 != v2 the inherited values violate the new consistency condition v1 = v2.
    left["v1"] = 0.6;
    ContinuousRestart bad = continuous_restart(fe->flat(), fe->state.structure->modes[static_cast<std::size_t>(from)],
                                               fe->state.structure->modes[static_cast<std::size_t>(to)], left,
                                               0.055317579971);
    EXPECT_FALSE(bad.consistent);
    EXPECT_NE(bad.message.find("violate"), std::string::npos);
}

}  // namespace
}  // namespace modeaudit

namespace modeaudit {
namespace {

// Seed 000, section 5.3: with e = 0.5 the restitution law q.v+ = -e q-.v-
// contradicts the taut mode's tangency q.v+ = 0: with the restart constraint
// in the tail the enabled equations and dependent variables have no perfect
// matching at heights 0 to 2, while the same transition without it is
// matched at K = 1. (At K = 3 the array admits a matching and a rescaling
// that move the positions: the search over K must be bounded as Theorem 2
// of seed 001 says, K* = 1 for this array (paper notes 6.7); how to compute
// the bound is missing from the seed and still to be settled.)
TEST(ModeChangeArray, RestitutionIntoTheTautModeContradictsTangency) {
    auto fe = testing::FrontEnd::from_file(
        std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/flawed/cup_and_ball_restitution_taut.mo", "structure");
    ASSERT_TRUE(fe->state.structure) << fe->diagnostics();
    const Transition& t = fe->modes().transitions.at(0);
    ASSERT_EQ(t.restart_constraints.size(), 1u);
    NormalizedTransition nt = normalize_first_order(fe->flat(), fe->modes().modes[0], fe->modes().modes[1]);
    ArrayInput in = array_input(fe->flat(), nt, t);
    for (int K = 0; K <= 2; ++K) {
        ModeChangeArray a = build_mode_change_array(in, K);
        EXPECT_FALSE(a.matched) << "K = " << K;
        if (a.matched) {
            // A matching alone is not a restart: no good rescaling may exist.
            RescalingResult r = solve_rescaling(a, restart_variables(in, a));
            bool restartable = r.solved && procedure1(in, a, r).rule1;
            EXPECT_FALSE(restartable) << "K = " << K << " gives a restart despite the contradiction";
        }
        bool has_t = false;
        for (const ArrayEquation& e : a.equations)
            if (e.name.rfind("T1@", 0) == 0) {
                has_t = true;
                // pre(vx) became the previous-mode der(x)@0, vx the tail der(x)@K.
                EXPECT_TRUE(e.enabled);
            }
        EXPECT_TRUE(has_t);
    }
    Transition without = t;
    without.restart_constraints.clear();
    in.transition = &without;
    EXPECT_TRUE(build_mode_change_array(in, 1).matched);
}

}  // namespace
}  // namespace modeaudit

namespace modeaudit {
namespace {

// What a standard Modelica tool does at the capture (states continuous, no
// reinit): v = (2, -1) is carried into the taut mode, where the tangency
// condition q.v = 0 fails (q.v = 2): the continuous test says so, which is
// why the capture needs the impulsive restart above (seed 000, 4.2).
TEST(Restart, CarryingTheStatesIntoTheTautModeViolatesTangency) {
    auto fe = testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/cup_and_ball.mo", "structure");
    ASSERT_TRUE(fe->state.structure) << fe->diagnostics();
    std::map<std::string, double> left{{"x", 0.6}, {"y", -0.8}, {"vx", 2.0}, {"vy", -1.0}};
    ContinuousRestart r =
        continuous_restart(fe->flat(), fe->state.structure->modes[0], fe->state.structure->modes[1], left, 0.0);
    EXPECT_FALSE(r.consistent);
    EXPECT_NE(r.message.find("violate the new consistency conditions"), std::string::npos) << r.message;
    EXPECT_GT(r.residual, 0.1);
}

// Issue 17, item 2: the Euler closure relates only derivative orders the
// modes' own equations use. Written with the current split over a node and
// without the canonical formulation, the opened inductor's array has
// der(isw) and der(id) from the differentiated node equation, and no
// identity ties them to isw@1, id@1: the array matches at K = 1.
TEST(ModeChangeArray, AlgebraicCurrentsGetNoEulerIdentity) {
    auto fe = testing::FrontEnd::from_file(
        std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/inductor_switch_opens_node.mo", "structure");
    ASSERT_TRUE(fe->state.structure) << fe->diagnostics();
    ArrayInput in;
    in.flat = &fe->flat();
    in.previous = &fe->modes().modes[0];
    in.previous_structure = &fe->state.structure->modes[0];
    in.next = &fe->modes().modes[1];
    in.next_structure = &fe->state.structure->modes[1];
    in.transition = &fe->modes().transitions.at(0);
    ModeChangeArray a = build_mode_change_array(in, 1);
    bool der_isw = false;
    for (const ArrayEquation& e : a.equations) {
        EXPECT_EQ(e.name.find("E[der(isw)"), std::string::npos) << e.name;
        EXPECT_EQ(e.name.find("E[der(id)"), std::string::npos) << e.name;
        for (const ArrayVariable& v : a.variables)
            der_isw = der_isw || (v.order == 1 && v.instant == 0 && fe->flat().variables[static_cast<std::size_t>(v.variable)].name == "isw");
    }
    EXPECT_TRUE(der_isw);  // the differentiated node equation still has it
    EXPECT_TRUE(a.matched) << a.why_not_matched;
}

// Issue 17, items 1 and 3 on the array of the second contact (three bodies,
// the first contact persisting): the persisting constraint's position copy
// at instant 1 is a fact entailed at the data by the previous mode, its
// velocity copy follows from the earlier copies by the Euler identities, and
// the array matches at K = 1.
TEST(ModeChangeArray, PersistingContactCopiesAreFacts) {
    auto fe = testing::FrontEnd::from_file(
        std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/three_bodies_second_contact.mo", "structure");
    ASSERT_TRUE(fe->state.structure) << fe->diagnostics();
    const Transition* t = nullptr;
    for (const Transition& tr : fe->modes().transitions)
        if (fe->modes().modes[static_cast<std::size_t>(tr.from)].id == "c12=true,c23=false" &&
            fe->modes().modes[static_cast<std::size_t>(tr.to)].id == "c12=true,c23=true")
            t = &tr;
    ASSERT_NE(t, nullptr);
    NormalizedTransition nt = normalize_first_order(fe->flat(), fe->modes().modes[static_cast<std::size_t>(t->from)],
                                                    fe->modes().modes[static_cast<std::size_t>(t->to)], nullptr, t);
    ASSERT_EQ(nt.velocity_of.size(), 3u);
    ArrayInput in = array_input(fe->flat(), nt, *t);
    ModeChangeArray a = build_mode_change_array(in, 1);
    std::set<std::string> entailed, follows;
    for (const ArrayEquation& e : a.equations) {
        if (e.fact_note.rfind("entailed at the data", 0) == 0) {
            entailed.insert(canonical(e.residual));
            EXPECT_NE(e.fact_note.find("x1 - x2 = 0 (previous mode)"), std::string::npos) << e.fact_note;
        }
        if (e.fact_note.rfind("follows from", 0) == 0) follows.insert(canonical(e.residual));
    }
    EXPECT_EQ(entailed, (std::set<std::string>{"x1@1 - x2@1"}));
    EXPECT_EQ(follows, (std::set<std::string>{"der(x1)@1 - der(x2)@1"}));
    EXPECT_TRUE(a.matched) << a.why_not_matched;
}

// Issue 17, item 1: the guard v - vb of a velocity lock is rewritten with
// v = der(x), so its root fact removes the new constraint's copy at K = 0.
TEST(ModeChangeArray, RootFactIsRecognisedAfterVelocityNormalisation) {
    auto fe = testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/velocity_lock.mo",
                                           "structure");
    ASSERT_TRUE(fe->state.structure) << fe->diagnostics();
    const Transition& t = fe->modes().transitions.at(0);
    NormalizedTransition nt = normalize_first_order(fe->flat(), fe->modes().modes[0], fe->modes().modes[1], nullptr, &t);
    ArrayInput in = array_input(fe->flat(), nt, t);
    std::vector<GiNaC::ex> guards = canonical_root_guards(in);
    ASSERT_EQ(guards.size(), 1u);
    EXPECT_EQ(canonical(guards[0]), "der(x) - 1");
    ModeChangeArray a = build_mode_change_array(in, 0);
    bool root = false;
    for (const ArrayEquation& e : a.equations) root = root || e.fact_note == "a root fact";
    EXPECT_TRUE(root);
    EXPECT_TRUE(a.matched) << a.why_not_matched;
}

}  // namespace
}  // namespace modeaudit
