// User functions: symbolic inlining per statement kind, the numeric
// evaluation of bodies whose control flow depends on the model (the
// interpreter and its call through GiNaC and the tape), bad input (no
// termination, recursion, division by zero), external Math functions, and
// abs at its kink.
#include <gtest/gtest.h>

#include <cmath>

#include "flatten/expression_builder.h"
#include "flatten/function_call.h"
#include "flatten/function_interpreter.h"
#include "simulation/simulation.h"
#include "simulation/tape.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;
using GiNaC::ex;

bool same(const ex& a, const ex& b) { return (a - b).expand().is_zero(); }

ex parameter(const FrontEnd& fe, const std::string& name) {
    return *fe.flat().variables[static_cast<std::size_t>(fe.flat().find_variable(name))].value;
}

// A model with one function `f` and parameter p = <call>.
std::string with_function(const std::string& function, const std::string& call) {
    return "model M\n" + function + "\n parameter Real p = " + call + ";\n Real x(start = 1);\nequation\n der(x) = -p*x;\nend M;";
}

TEST(Functions, AssignmentsAndDefaultInputsInline) {
    FrontEnd fe(with_function("function f input Real a; input Real b = 2*a; output Real y; protected Real t;\n"
                              "algorithm t := a + b; y := t*t; end f;",
                              "f(1.5)"),
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_TRUE(same(parameter(fe, "p"), GiNaC::numeric(81, 4)));
}

TEST(Functions, IfElseifElseStatementsWithDecidedConditions) {
    const std::string f =
        "function f input Real a; output Real y; algorithm if a < 0 then y := -1; elseif a < 1 then y := 0; else "
        "y := 1; end if; end f;";
    for (auto [arg, expect] : std::vector<std::pair<std::string, int>>{{"-3", -1}, {"0.5", 0}, {"7", 1}}) {
        FrontEnd fe(with_function(f, "f(" + arg + ")"), "flatten");
        ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
        EXPECT_TRUE(same(parameter(fe, "p"), expect)) << arg;
    }
}

// A recursive function's base case written as an if-expression ends the
// recursion as the if-statement form does (issue 46, flatten fuzzing): the
// branch after a condition that holds is not evaluated. It used to be, down
// to the 200-call limit, and the model was refused as unbounded recursion.
TEST(Functions, RecursionEndsAtAnIfExpressionBaseCaseAsAtAnIfStatement) {
    const std::string expression =
        "function f input Real n; output Real y; algorithm y := if n <= 0 then 1 else n*f(n - 1); end f;";
    const std::string statement =
        "function f input Real n; output Real y; algorithm if n <= 0 then y := 1; else y := n*f(n - 1); end if; "
        "end f;";
    for (const std::string& form : {expression, statement}) {
        FrontEnd fe(with_function(form, "f(5)"), "flatten");
        ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
        EXPECT_TRUE(same(parameter(fe, "p"), 120)) << form;
    }
    // elseif chains: a true condition ends the list, a false one drops its branch.
    FrontEnd fe(with_function("function f input Real n; output Real y; algorithm "
                              "y := if n > 3 then f(n - 1) elseif n > 1 then 10 + f(n - 1) else 100; end f;",
                              "f(6)"),
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_TRUE(same(parameter(fe, "p"), 120));  // f(6) = f(3) = 10 + f(2) = 20 + f(1) = 120
}

// A recursive call on numbers returns its value as a number: 40 levels,
// each wrapping the one below in 40 sin calls, used to leave a constant tree
// 1,600 deep (at 190 by 190, one 36,100 deep that the alias elimination
// took more than ten minutes to compare; corpus/good/
// function_recursion_base_case.mo is this model through the command line).
// Its value is checked against the same iteration in double precision.
TEST(Functions, DeepRecursionOnNumbersGivesANumberNotADeepTree) {
    std::string body = "f(n - 1)";
    for (int k = 0; k < 40; ++k) body = "sin(" + body + ")";
    FrontEnd fe(with_function("function f input Real n; output Real y; algorithm y := if n <= 0 then 1 else " + body +
                                  "; end f;",
                              "f(40)"),
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const ex p = parameter(fe, "p");
    ASSERT_TRUE(GiNaC::is_a<GiNaC::numeric>(p)) << p;
    double x = 1;
    for (int level = 0; level < 40; ++level)
        for (int k = 0; k < 40; ++k) x = std::sin(x);
    EXPECT_NEAR(GiNaC::ex_to<GiNaC::numeric>(p).to_double(), x, 1e-14);
    EXPECT_GT(x, 0.04);  // the iteration is not at its fixed point 0 yet
}

// Powers of exact numbers (not a function, but the same evaluation of
// values): small ones stay exact, one whose exact value would have more than
// 4096 bits is its double, one beyond a double's range is refused. The flatten
// fuzzer's 3.141 .^ 265358979 took 100 s and 2.3 GB to write out exactly.
TEST(Functions, LargeExactPowersAreDoublesOrRefused) {
    auto model = [](const std::string& value) {
        return "model M\n parameter Real p = " + value + ";\n Real x(start = 1);\nequation\n der(x) = -p*x;\nend M;";
    };
    FrontEnd exact(model("2^10 + (3/2)^3"), "flatten");
    ASSERT_TRUE(exact.state.flat) << exact.diagnostics();
    EXPECT_TRUE(same(parameter(exact, "p"), GiNaC::numeric(1024) + GiNaC::numeric(27, 8)));
    FrontEnd big(model("1.001^100000"), "flatten");
    ASSERT_TRUE(big.state.flat) << big.diagnostics();
    const ex p = parameter(big, "p");
    ASSERT_TRUE(GiNaC::is_a<GiNaC::numeric>(p)) << p;
    EXPECT_NEAR(GiNaC::ex_to<GiNaC::numeric>(p).to_double() / std::pow(1.001, 100000), 1, 1e-9);
    for (const char* huge : {"3.141^265358979", "3.141 .^ 265358979", "0.5^5000"}) {
        FrontEnd fe(model(huge), "flatten");
        EXPECT_TRUE(fe.has("flatten-invalid-value")) << huge << ": " << fe.diagnostics();
        EXPECT_NE(fe.diagnostics().find("IEEE double"), std::string::npos) << fe.diagnostics();
    }
}

TEST(Functions, ForWhileBreakAndReturn) {
    FrontEnd fe(with_function("function f input Integer n; output Real s; protected Integer i;\n"
                              "algorithm s := 0; for k in 1:n loop s := s + k; if k == 4 then break; end if; end for;\n"
                              "i := 0; while true loop i := i + 1; if i > 2 then return; end if; s := s + 100; end while;\n"
                              "s := -1; end f;",
                              "f(10)"),
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    // 1+2+3+4, then two passes of the while loop before the return.
    EXPECT_TRUE(same(parameter(fe, "p"), 210));
}

TEST(Functions, RecursionOnKnownValuesFolds) {
    FrontEnd fe(with_function("function f input Integer n; output Integer r; algorithm if n <= 1 then r := 1; else "
                              "r := n*f(n - 1); end if; end f;",
                              "f(6)"),
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_TRUE(same(parameter(fe, "p"), 720));
}

TEST(Functions, UnboundedRecursionIsAFinding) {
    FrontEnd fe(with_function("function f input Integer n; output Integer r; algorithm r := f(n + 1); end f;", "f(1)"),
                "flatten");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_NE(fe.diagnostics().find("nested deeper than 200"), std::string::npos) << fe.diagnostics();
}

TEST(Functions, EndlessLoopIsAFinding) {
    FrontEnd fe(with_function("function f input Real a; output Real y; algorithm y := a; while y > 0 loop y := y + 1; "
                              "end while; end f;",
                              "f(1)"),
                "flatten");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_NE(fe.diagnostics().find("does it terminate"), std::string::npos) << fe.diagnostics();
}

TEST(Functions, DivisionByZeroNamesTheCallAndItsArguments) {
    FrontEnd fe(with_function("function f input Real a; output Real y; protected Real d; algorithm d := a - 1; "
                              "y := 1/d; end f;",
                              "f(1)"),
                "flatten");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_NE(fe.diagnostics().find("division by zero"), std::string::npos) << fe.diagnostics();
    EXPECT_NE(fe.diagnostics().find("in the call f(1)"), std::string::npos) << fe.diagnostics();
}

TEST(Functions, BooleanFunctionInConditionAndAssert) {
    FrontEnd fe(R"(
      model M
        function compareReal
          input Real a; input Real b; input Real eps = 1e-10; output Boolean r;
        protected Real d;
        algorithm d := abs(a - b); r := d < eps or d < eps*abs(a);
        end compareReal;
        Real x(start = 0); Real y;
      equation
        der(x) = 1;
        y = if compareReal(x, 0.5, 0.1) then 1 else 0;
        assert(compareReal(2.0, 2.0), "equal");
      end M;)",
                "modes");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    // The relations of the body became the model's conditions.
    EXPECT_EQ(fe.flat().conditions.size(), 1u);
}

TEST(Functions, MultipleOutputsAndExtends) {
    FrontEnd fe(R"(
      model M
        function polar input Real x; input Real y; output Real r; output Real phi;
        algorithm r := sqrt(x^2 + y^2); phi := atan2(y, x); end polar;
        function base input Real u; output Real v; end base;
        function twice extends base; algorithm v := 2*u; end twice;
        Real x(start = 1); Real r, phi, w;
      equation
        der(x) = -x; (r, phi) = polar(x, 1); w = twice(x);
      end M;)",
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    bool found_r = false, found_w = false;
    for (const FlatEquation& e : fe.flat().equations) {
        if (same(e.residual(), fe.var("r") - GiNaC::sqrt(GiNaC::pow(fe.var("x"), 2) + 1)) ||
            same(e.residual(), -fe.var("r") + GiNaC::sqrt(GiNaC::pow(fe.var("x"), 2) + 1)))
            found_r = true;
        if (same(e.residual(), fe.var("w") - 2 * fe.var("x")) || same(e.residual(), 2 * fe.var("x") - fe.var("w")))
            found_w = true;
    }
    EXPECT_TRUE(found_r);
    EXPECT_TRUE(found_w);
}

TEST(Functions, ExternalMathFunctionIsTheBuiltinAndOthersAreRefused) {
    const std::string fns =
        "function mysin input Real u; output Real y; external \"builtin\" y = sin(u); end mysin;\n"
        "function other input Real u; output Real y; external \"C\" y = my_c_function(u); end other;\n";
    FrontEnd ok("model M " + fns + " Real x(start = 1); equation der(x) = -mysin(x); end M;", "flatten");
    ASSERT_TRUE(ok.state.flat) << ok.diagnostics();
    bool has_sin = false;
    for (const FlatEquation& e : ok.flat().equations) has_sin = has_sin || e.residual().has(GiNaC::sin(ok.var("x")));
    EXPECT_TRUE(has_sin);
    FrontEnd bad("model M " + fns + " Real x(start = 1); equation der(x) = -other(x); end M;", "flatten");
    EXPECT_FALSE(bad.state.flat);
    EXPECT_NE(bad.diagnostics().find("'other' calls external code"), std::string::npos) << bad.diagnostics();
}

// A while loop on the model's variables: a call of the compiled function.
const char* kNewton = R"(
  model M
    function newtonSqrt
      input Real a; output Real y;
    protected Real err;
    algorithm
      y := max(a, 1); err := 1;
      while err > 1e-12 loop y := 0.5*(y + a/y); err := abs(y*y - a); end while;
    end newtonSqrt;
    Real x(start = 1, fixed = true); Real y;
  equation
    der(x) = -newtonSqrt(x);
    y = newtonSqrt(x);
  end M;)";

TEST(Functions, LoopOnModelVariablesBecomesANumericCall) {
    FrontEnd fe(kNewton, "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    std::optional<CallInfo> call;
    for (const FlatEquation& e : fe.flat().equations)
        for (GiNaC::const_preorder_iterator it = e.residual().preorder_begin(); it != e.residual().preorder_end(); ++it)
            if (auto c = as_call(*it)) call = c;
    ASSERT_TRUE(call);
    EXPECT_NEAR(fn::call_function_output(call->function, 0, {2.0}), std::sqrt(2.0), 1e-12);
    // Through GiNaC: evaluation on numbers, and a derivative by central differences.
    const ex e = make_call(call->function, 0, {fe.var("x")});
    EXPECT_NEAR(GiNaC::ex_to<GiNaC::numeric>(e.subs(fe.var("x") == GiNaC::numeric(9, 4)).evalf()).to_double(), 1.5, 1e-12);
    const ex d = e.diff(GiNaC::ex_to<GiNaC::symbol>(fe.var("x")));
    EXPECT_NEAR(GiNaC::ex_to<GiNaC::numeric>(d.subs(fe.var("x") == 4).evalf()).to_double(), 0.25, 1e-6);
    // Through the tape, with points and intervals.
    const GiNaC::symbol xs = GiNaC::ex_to<GiNaC::symbol>(fe.var("x"));
    sim::Tape tape(std::vector<GiNaC::symbol>{xs}, std::vector<std::vector<ex>>{{e}});
    double in = 16, out = 0;
    tape.evaluate(&in, &out);
    EXPECT_NEAR(out, 4, 1e-12);
    sim::Interval iin(16, 16), iout;
    tape.evaluate(&iin, &iout);
    EXPECT_LE(iout.lower(), 4);
    EXPECT_GE(iout.upper(), 4);
}

TEST(Functions, NumericCallSimulates) {
    FrontEnd fe(kNewton, "structure");
    ASSERT_TRUE(fe.state.structure) << fe.diagnostics();
    SimulationOptions o;
    o.stop_time = 1;
    SimulationResult r = simulate(fe.flat(), fe.modes(), *fe.state.structure, o, supplied_restart(*fe.state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    // der(x) = -sqrt(x), x(0) = 1: x = (1 - t/2)^2.
    EXPECT_NEAR(r.final_values.at("x"), 0.25, 1e-6);
}

TEST(Functions, InterpreterLimitsAndErrors) {
    FrontEnd fe(R"(
      model M
        function spin input Real x; output Real y;
        algorithm y := x; while y > 0 loop y := y + 1; end while; end spin;
        function inv input Real x; output Real y;
        algorithm if x > 0.5 then y := 1; else y := 1/(x - 0.5); end if; end inv;
        function deep input Real x; output Real y;
        algorithm if x < -1e300 then y := 0; else y := deep(x - 1); end if; end deep;
        Real x(start = 1); Real a, b, c;
      equation
        der(x) = -1; a = spin(x); b = inv(x); c = deep(x);
      end M;)",
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    std::map<std::string, int> ids;
    for (const FlatEquation& e : fe.flat().equations)
        for (GiNaC::const_preorder_iterator it = e.residual().preorder_begin(); it != e.residual().preorder_end(); ++it)
            if (auto c = as_call(*it)) ids[fn::Registry::instance().get(c->function).name] = c->function;
    ASSERT_EQ(ids.size(), 3u);
    fn::InterpreterLimits small;
    small.max_iterations = 1000;
    try {
        fn::call_function(ids.at("spin"), {1.0}, small);
        ADD_FAILURE() << "no error";
    } catch (const fn::FunctionError& e) {
        EXPECT_EQ(e.kind, fn::FunctionError::Kind::IterationLimit);
    }
    try {
        fn::call_function(ids.at("inv"), {0.5});
        ADD_FAILURE() << "no error";
    } catch (const fn::FunctionError& e) {
        EXPECT_EQ(e.kind, fn::FunctionError::Kind::DivisionByZero);
        EXPECT_NE(std::string(e.what()).find("inv(0.5)"), std::string::npos) << e.what();
    }
    try {
        fn::call_function(ids.at("deep"), {1.0});
        ADD_FAILURE() << "no error";
    } catch (const fn::FunctionError& e) {
        EXPECT_EQ(e.kind, fn::FunctionError::Kind::RecursionDepth);
    }
    EXPECT_DOUBLE_EQ(fn::call_function_output(ids.at("inv"), 0, {0.0}), -2.0);
}

TEST(Functions, DivisionByZeroInASimulatedCallStopsTheRunWithTheArguments) {
    FrontEnd fe(R"(
      model M
        function inv input Real x; output Real y;
        algorithm if x > 0.5 then y := 1; else y := 1/(x - 0.5); end if; end inv;
        Real x(start = 1, fixed = true);
      equation der(x) = -inv(x);
      end M;)",
                "structure");
    ASSERT_TRUE(fe.state.structure) << fe.diagnostics();
    SimulationOptions o;
    o.stop_time = 1;
    SimulationResult r = simulate(fe.flat(), fe.modes(), *fe.state.structure, o, supplied_restart(*fe.state.structure));
    EXPECT_NE(r.stopped_because, StopReason::StopTime);
    ASSERT_FALSE(r.messages.empty());
    EXPECT_NE(r.messages.front().find("inv(0.5): division by zero"), std::string::npos) << r.messages.front();
}

TEST(EventOperators, AbsDerivativeIsSignAndDefinedAtTheKink) {
    GiNaC::symbol x("x");
    const ex d = ma_abs(x).diff(x);
    EXPECT_TRUE(d.is_equal(ma_sign(x)));
    EXPECT_TRUE(d.subs(x == 0).is_zero());
    EXPECT_TRUE(ex(ma_abs(GiNaC::numeric(-3, 2))).is_equal(GiNaC::numeric(3, 2)));
}

TEST(EventOperators, FloorCeilDivModRemOnTheTape) {
    GiNaC::symbol a("a"), b("b");
    sim::Tape tape(std::vector<GiNaC::symbol>{a, b},
                   std::vector<std::vector<ex>>{{ma_floor(a), ma_ceil(a), ma_div(a, b), ma_mod(a, b), ma_rem(a, b)}});
    double in[2] = {-7.5, 2}, out[5];
    tape.evaluate(in, out);
    EXPECT_EQ(out[0], -8);
    EXPECT_EQ(out[1], -7);
    EXPECT_EQ(out[2], -3);   // truncation towards zero
    EXPECT_EQ(out[3], 0.5);  // a - floor(a/b)*b
    EXPECT_EQ(out[4], -1.5); // a - div(a, b)*b
    sim::Interval iin[2] = {sim::Interval(2.25, 2.75), sim::Interval(2, 2)}, iout[5];
    tape.evaluate(iin, iout);
    EXPECT_EQ(iout[0].lower(), 2);
    EXPECT_EQ(iout[0].upper(), 2);
    EXPECT_LE(iout[3].lower(), 0.25);
    EXPECT_GE(iout[3].upper(), 0.75);
}

TEST(EventOperators, AbsAtItsKinkSimulatesWithoutInternalError) {
    FrontEnd fe("model M Real x(start = -1, fixed = true); Real v(start = 0, fixed = true);\n"
                "equation der(x) = 1; der(v) = abs(x) + sign(x) + floor(x) + mod(x, 0.75); end M;",
                "structure");
    ASSERT_TRUE(fe.state.structure) << fe.diagnostics();
    SimulationOptions o;
    o.stop_time = 1;
    SimulationResult r = simulate(fe.flat(), fe.modes(), *fe.state.structure, o, supplied_restart(*fe.state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    EXPECT_NEAR(r.final_values.at("x"), 0, 1e-9);
}

}  // namespace
}  // namespace modeaudit
