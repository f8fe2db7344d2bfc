// Nonlinear impulses (issue 17, item 5): powers of impulsive variables are
// tropical (axiom 111: lambda^k of an order-o variable has order k*o). A
// cubic contact law f = lambda^3 with f an impulse of order 1 needs lambda
// of order 1/3; the integer offsets would give lambda order 1 and a restart
// row -lambda_r^3 = 0 that is singular at its only solution. The verdict is
// unsupported, naming the equation and the order; laws with a constant
// factor or a state factor stay impulsive of integer order.
#include <gtest/gtest.h>

#include <cmath>

#include "restart/restart.h"
#include "restart/verdict.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

// A mass falling onto a stop x = 0 through the force law `law` (in f and
// lambda; the law is on line 10). The restart systems are solved below at
// the left limits x- = 0, v- = -2.
std::string stop_with_law(const std::string& law) {
    return R"(
model Stop
  parameter Real m = 1, g = 9.81;
  Real x(start = 1, fixed = true), v(start = 0, fixed = true), f;
  Real lambda(start = 1);
  Boolean contact(start = false);
equation
  der(x) = v;
  m*der(v) = f - m*g;
  )" + law + R"(;
  if contact then x = 0; else lambda = 0; end if;
  when x <= 0 then contact = true; end when;
end Stop;)";
}

struct Analysed {
    explicit Analysed(const std::string& law) : fe(stop_with_law(law), "restart") {}
    testing::FrontEnd fe;
    const TransitionStudy& study() const { return fe.state.mode_change->transitions.at(0); }
    const Route& direct() const { return study().routes.at(0); }
    // The direct route's array of height K and its rescaling.
    const ModeChangeArray& array(int k) const {
        return direct().arrays.at(static_cast<std::size_t>(k - direct().first_height));
    }
    const RescalingResult& rescaling(int k) const {
        return *fe.state.rescaling->arrays.at(0).at(0).at(static_cast<std::size_t>(k - direct().first_height)).result;
    }
    const TransitionRestart& restart() const { return fe.state.restarts->transitions.at(0); }
    int variable(const ModeChangeArray& a, const std::string& name) const {
        for (std::size_t j = 0; j < a.variables.size(); ++j)
            if (a.symbol(a.variables[j]).get_name() == name) return static_cast<int>(j);
        ADD_FAILURE() << "no array variable " << name;
        return 0;
    }
};

TEST(NonlinearImpulse, CubicLawNeedsLambdaOfOrderOneThird) {
    Analysed m("f = lambda^3");
    ASSERT_TRUE(m.fe.state.rescaling) << m.fe.diagnostics();
    const ModeChangeArray& a = m.array(1);
    EXPECT_TRUE(has_dependent_powers(a));
    const RescalingResult& r = m.rescaling(1);
    ASSERT_TRUE(r.fractional.has_value());
    const FractionalOffsets& f = *r.fractional;
    EXPECT_EQ(f.mu.at(static_cast<std::size_t>(m.variable(a, "lambda"))), GiNaC::numeric(1, 3));
    EXPECT_EQ(f.mu.at(static_cast<std::size_t>(m.variable(a, "f"))), GiNaC::numeric(1));
    EXPECT_EQ(f.mu.at(static_cast<std::size_t>(m.variable(a, "lambda@1"))), GiNaC::numeric(0));
    EXPECT_EQ(f.variable, m.variable(a, "lambda"));
    EXPECT_EQ(f.power, 3);
    EXPECT_EQ(a.equations.at(static_cast<std::size_t>(f.equation)).name, "e2");
    // The integer least offsets exist, but give lambda order 1: its cube
    // (order 3) leads e2 alone.
    ASSERT_TRUE(r.solved);
    EXPECT_EQ(r.mu.at(static_cast<std::size_t>(m.variable(a, "lambda"))), 1);
}

// The integer offsets' restart passes the structural Rule 1, but its row
// -lambda_r^3 = 0 holds only at lambda_r = 0, where its gradient vanishes.
TEST(NonlinearImpulse, IntegerOffsetsOfTheCubicLawGiveASingularRestartRow) {
    Analysed m("f = lambda^3");
    ArrayInput in = route_input(m.fe.flat(), m.direct(), m.study());
    RestartSystem s = procedure1(in, m.array(1), m.rescaling(1));
    EXPECT_TRUE(s.rule1) << s.rule1_note;
    ASSERT_GE(s.singular_row, 0);
    EXPECT_EQ(s.singular_unknown, "lambda_r");
    const GiNaC::ex& row = s.equations.at(static_cast<std::size_t>(s.singular_row));
    for (const GiNaC::symbol& u : s.unknowns)
        if (u.get_name() == "lambda_r") {
            EXPECT_TRUE(GiNaC::expand(row + GiNaC::pow(u, 3)).is_zero()) << row;
        } else {
            EXPECT_FALSE(row.has(u)) << row;
        }
}

// With eps = delta^3 the fractional offsets are integers in delta: the
// restart derived with them is regular, v+ = 0 and lambda_r = (-v-)^(1/3).
// (What modeaudit would report as a fractional-order restart; it reports
// unsupported instead, since the rest of the tool counts integer orders.)
TEST(NonlinearImpulse, FractionalOffsetsGiveARegularRestartInTheRootOfEps) {
    Analysed m("f = lambda^3");
    ArrayInput in = route_input(m.fe.flat(), m.direct(), m.study());
    RestartSystem s = procedure1_fractional(in, m.array(1), *m.rescaling(1).fractional);
    EXPECT_TRUE(s.rule1) << s.rule1_note;
    EXPECT_LT(s.singular_row, 0);
    EXPECT_EQ(s.impulse_orders.at("lambda"), 1);  // 1/3 in units of 1/3
    EXPECT_EQ(s.impulse_orders.at("f"), 3);
    // At v- = -2: v+ = 0, der(v)_r = f_r = 2 = lambda_r^3; after the
    // impact f@1 = 9.81 = lambda@1^3. (Newton in solve_restart starts the
    // auxiliaries at 0, where the cubes have no slope; the solution is
    // checked here directly.)
    ASSERT_TRUE(s.left_limits.count("der(x)"));
    GiNaC::exmap at{{s.left_limits.at("der(x)"), -2}};
    const std::map<std::string, GiNaC::ex> value{{"der(x)+", 0},
                                                 {"der(x,2)_r", 2},
                                                 {"f_r", 2},
                                                 {"lambda_r", GiNaC::pow(2, GiNaC::numeric(1, 3))},
                                                 {"der(x,2)@1", 0},
                                                 {"f@1", GiNaC::numeric(981, 100)},
                                                 {"lambda@1", GiNaC::pow(GiNaC::numeric(981, 100), GiNaC::numeric(1, 3))}};
    ASSERT_EQ(s.unknowns.size(), value.size());
    ASSERT_EQ(s.equations.size(), value.size());
    for (const GiNaC::symbol& u : s.unknowns) at[u] = value.at(u.get_name());
    GiNaC::matrix jac(static_cast<unsigned>(s.equations.size()), static_cast<unsigned>(s.unknowns.size()));
    for (std::size_t i = 0; i < s.equations.size(); ++i) {
        GiNaC::ex residual = GiNaC::evalf(s.equations[i].subs(at));
        ASSERT_TRUE(GiNaC::is_a<GiNaC::numeric>(residual)) << residual;
        EXPECT_NEAR(GiNaC::ex_to<GiNaC::numeric>(residual).to_double(), 0.0, 1e-12) << s.equations[i];
        for (std::size_t j = 0; j < s.unknowns.size(); ++j)
            jac(static_cast<unsigned>(i), static_cast<unsigned>(j)) = s.equations[i].diff(s.unknowns[j]).subs(at);
    }
    GiNaC::ex det = GiNaC::evalf(jac.determinant());
    ASSERT_TRUE(GiNaC::is_a<GiNaC::numeric>(det)) << det;
    EXPECT_GT(std::abs(GiNaC::ex_to<GiNaC::numeric>(det).to_double()), 1.0) << det;
}

TEST(NonlinearImpulse, CubicLawIsUnsupportedNamingTheEquationAndTheOrder) {
    Analysed m("f = lambda^3");
    const TransitionRestart& r = m.restart();
    EXPECT_EQ(r.verdict, Verdict::Unsupported);
    EXPECT_FALSE(r.system.has_value());
    EXPECT_TRUE(r.impulse_orders.empty());
    EXPECT_EQ(r.height, 1);
    EXPECT_NE(r.nonlinear.find("lambda would need impulse order 1/3 in f = lambda^3"), std::string::npos)
        << r.nonlinear;
    EXPECT_NE(r.nonlinear.find("integer impulse orders only"), std::string::npos) << r.nonlinear;
    EXPECT_EQ(r.nonlinear_range.begin.line, 10u);
    EXPECT_TRUE(m.fe.has("restart-unsupported-nonlinear"));
    EXPECT_FALSE(m.fe.has("restart-impulsive"));
}

// For an impulse the large terms lead (axiom 111 takes the max): of
// lambda + lambda^3 the cube leads, so the order is 1/3 as for lambda^3.
TEST(NonlinearImpulse, TheHighestPowerLeadsAnImpulse) {
    Analysed m("f = lambda + lambda^3");
    const TransitionRestart& r = m.restart();
    EXPECT_EQ(r.verdict, Verdict::Unsupported);
    EXPECT_NE(r.nonlinear.find("lambda would need impulse order 1/3"), std::string::npos) << r.nonlinear;
    EXPECT_NE(r.nonlinear.find("lambda^3 leads at order 1"), std::string::npos) << r.nonlinear;
}

TEST(NonlinearImpulse, SquareLawNeedsOrderOneHalf) {
    Analysed m("f = lambda^2");
    const TransitionRestart& r = m.restart();
    EXPECT_EQ(r.verdict, Verdict::Unsupported);
    EXPECT_NE(r.nonlinear.find("lambda would need impulse order 1/2 in f = lambda^2"), std::string::npos)
        << r.nonlinear;
}

// A cubic law in the other direction, lambda = f^3 (f = lambda^(1/3) in
// effect): lambda is of order 3, an integer; the restart is regular and
// impulsive.
TEST(NonlinearImpulse, AnIntegerMultipleOfAnOrderIsSupported) {
    Analysed m("lambda = f^3");
    const TransitionRestart& r = m.restart();
    EXPECT_EQ(r.verdict, Verdict::Impulsive) << r.explanation;
    EXPECT_EQ(r.impulse_orders.at("f"), 1);
    EXPECT_EQ(r.impulse_orders.at("lambda"), 3);
    EXPECT_FALSE(m.rescaling(1).fractional.has_value());
}

// Constant and state factors do not change an order: integer order 1, a
// regular restart, and no power of a dependent variable to solve over the
// rationals.
TEST(NonlinearImpulse, LinearLawsWithConstantOrStateFactorsStayImpulsiveOfOrderOne) {
    for (const char* law : {"f = 3*lambda", "f = lambda*(1 + x^2)"}) {
        Analysed m(law);
        const TransitionRestart& r = m.restart();
        EXPECT_EQ(r.verdict, Verdict::Impulsive) << law << ": " << r.explanation;
        // f = 3*lambda makes lambda a constant multiple of f, which the
        // canonical preprocessing resolves (an alias up to a factor): its
        // order is f's then, and it may not be listed on its own.
        if (r.impulse_orders.count("lambda")) EXPECT_EQ(r.impulse_orders.at("lambda"), 1) << law;
        EXPECT_EQ(r.impulse_orders.at("f"), 1) << law;
        EXPECT_FALSE(has_dependent_powers(m.array(1))) << law;
        EXPECT_FALSE(m.rescaling(1).fractional.has_value()) << law;
        ASSERT_TRUE(r.system) << law;
        std::map<std::string, double> left;
        for (const auto& [name, sym] : r.system->left_limits) left[name] = name == "der(x)" ? -2.0 : 0.0;
        RestartSolution sol = solve_restart(m.fe.flat(), *r.system, left, 0.0);
        ASSERT_TRUE(sol.solved) << law << ": " << sol.message;
        EXPECT_NEAR(sol.values.at("der(x)+"), 0.0, 1e-12) << law;
        EXPECT_TRUE(sol.locally_unique) << law;
    }
}

// The cup-and-ball array has powers of dependent variables (der(x)@1^2 in
// the twice differentiated rope constraint): the rational least offsets are
// computed and agree with the integer ones.
TEST(NonlinearImpulse, CupAndBallRationalOffsetsAreTheIntegerOnes) {
    auto fe = testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/cup_and_ball.mo", "restart");
    ASSERT_TRUE(fe->state.rescaling) << fe->diagnostics();
    const Route& direct = fe->state.mode_change->transitions.at(0).routes.at(0);
    const auto& arrays = fe->state.rescaling->arrays.at(0).at(0);
    bool powers = false;
    for (std::size_t h = 0; h < arrays.size(); ++h) {
        if (!direct.arrays[h].matched) continue;
        powers = powers || has_dependent_powers(direct.arrays[h]);
        ASSERT_TRUE(arrays[h].result);
        EXPECT_FALSE(arrays[h].result->fractional.has_value()) << "K = " << direct.arrays[h].height;
    }
    EXPECT_TRUE(powers);
    EXPECT_EQ(fe->state.restarts->transitions.at(0).verdict, Verdict::Impulsive);
}

}  // namespace
}  // namespace modeaudit
