// Unit tests of the flatten stage: parameters, modifiers, arrays, functions,
// when-clauses, diagnostics. Expressions are compared semantically
// ((a - b).expand().is_zero()), never by printed form.
#include <gtest/gtest.h>

#include <cmath>

#include "flatten/flattener.h"
#include "simulation/simulation.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;
using GiNaC::ex;

bool same(const ex& a, const ex& b) { return (a - b).expand().is_zero(); }

// The residual of the only equation mentioning `marker` (a symbol).
ex residual_with(const FrontEnd& fe, const ex& marker) {
    ex found;
    int n = 0;
    for (const FlatEquation& e : fe.flat().equations)
        if (e.residual().has(marker)) {
            found = e.residual();
            ++n;
        }
    EXPECT_EQ(n, 1) << "equations with " << marker;
    return found;
}

TEST(Flatten, EvaluatesParametersExactly) {
    FrontEnd fe("model M parameter Real c = 0.9; parameter Real k = 2*c; Real x(start = 1);\n"
                "equation der(x) = -k*x; end M;", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    ex r = residual_with(fe, fe.der("x"));
    EXPECT_TRUE(same(r, fe.der("x") + GiNaC::numeric(9, 5) * fe.var("x")));
    EXPECT_TRUE(same(*fe.flat().variables[fe.flat().find_variable("k")].value, GiNaC::numeric(9, 5)));
}

TEST(Flatten, EvaluateFalseKeepsTheParameterSymbolic) {
    FrontEnd fe("model M parameter Real c = 0.9 annotation(Evaluate = false); Real x;\n"
                "equation der(x) = -c*x; end M;", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    ex r = residual_with(fe, fe.der("x"));
    EXPECT_TRUE(same(r, fe.der("x") + fe.var("c") * fe.var("x")));
    EXPECT_TRUE(same(*fe.flat().variables[fe.flat().find_variable("c")].value, GiNaC::numeric(9, 10)));
}

TEST(Flatten, ParameterWithoutValueButRangeIsAnUnknownConstant) {
    FrontEnd fe("model M parameter Real e(min = 0, max = 1); Real x; equation der(x) = -e*x; end M;", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const FlatVariable& e = fe.flat().variables[fe.flat().find_variable("e")];
    EXPECT_TRUE(e.unknown_constant);
    EXPECT_TRUE(same(*e.max, 1));
    EXPECT_TRUE(residual_with(fe, fe.der("x")).has(fe.var("e")));
}

TEST(Flatten, ExtendsWithModifiersAndNestedModifiers) {
    FrontEnd fe(R"(
      model Base parameter Real a = 1; Real x(start = 0); equation der(x) = -a*x; end Base;
      model Derived extends Base(a = 3, x(start = 2)); end Derived;
      model Top Derived d(x(fixed = true)); Derived e(a = 5); end Top;)", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const FlatVariable& dx = fe.flat().variables[fe.flat().find_variable("d.x")];
    EXPECT_TRUE(same(*dx.start, 2));
    EXPECT_TRUE(dx.fixed);
    EXPECT_TRUE(same(residual_with(fe, fe.der("d.x")), fe.der("d.x") + 3 * fe.var("d.x")));
    EXPECT_TRUE(same(residual_with(fe, fe.der("e.x")), fe.der("e.x") + 5 * fe.var("e.x")));
}

TEST(Flatten, ShortTypeDefinitionsCarryAttributes) {
    FrontEnd fe(R"(
      type Voltage = Real(unit = "V", start = 1);
      model M Voltage v(start = 2); Voltage w; equation der(v) = -v; der(w) = -w; end M;)", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const FlatVariable& v = fe.flat().variables[fe.flat().find_variable("v")];
    const FlatVariable& w = fe.flat().variables[fe.flat().find_variable("w")];
    ASSERT_TRUE(v.unit);
    EXPECT_EQ(*v.unit, "V");
    EXPECT_TRUE(same(*v.start, 2));  // the declaration's modifier wins over the type's
    EXPECT_TRUE(same(*w.start, 1));
}

TEST(Flatten, ArraysAndForLoopsExpand) {
    FrontEnd fe(R"(
      model M parameter Integer n = 3; Real x[n](each start = 1); Real total;
      equation
        for i in 1:n loop der(x[i]) = -i*x[i]; end for;
        total = sum(x);
      end M;)", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_GE(fe.flat().find_variable("x[3]"), 0);
    EXPECT_LT(fe.flat().find_variable("x[4]"), 0);
    EXPECT_TRUE(same(residual_with(fe, fe.der("x[2]")), fe.der("x[2]") + 2 * fe.var("x[2]")));
    EXPECT_TRUE(same(*fe.flat().variables[fe.flat().find_variable("x[3]")].start, 1));
    EXPECT_TRUE(same(residual_with(fe, fe.var("total")),
                     fe.var("total") - fe.var("x[1]") - fe.var("x[2]") - fe.var("x[3]")));
}

TEST(Flatten, ArrayBindingsGoElementwise) {
    FrontEnd fe("model M parameter Real p[2] = {3, 4}; Real q[2](start = {1, 2});\n"
                "equation der(q) = -p .* q; end M;", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_TRUE(same(*fe.flat().variables[fe.flat().find_variable("q[2]")].start, 2));
    EXPECT_TRUE(same(residual_with(fe, fe.der("q[2]")), fe.der("q[2]") + 4 * fe.var("q[2]")));
}

TEST(Flatten, SmallFunctionsAreInlined) {
    FrontEnd fe(R"(
      function sq input Real u; output Real y; algorithm y := u*u; end sq;
      function scaled input Real u; input Real k = 2; output Real y;
        protected Real t;
        algorithm t := sq(u); y := k*t;
      end scaled;
      model M Real x; equation der(x) = -scaled(x); end M;)", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    ex x = fe.var("x");
    EXPECT_TRUE(same(residual_with(fe, fe.der("x")), fe.der("x") + 2 * x * x));
}

TEST(Flatten, DerOfAnExpressionIsTheTotalDerivative) {
    FrontEnd fe("model M Real x, y; equation der(x*y) = 1; y = x; end M;", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    // y is an alias of x after alias elimination: der(x*x) = 2*x*der(x).
    ASSERT_EQ(fe.flat().equations.size(), 1u);
    EXPECT_TRUE(same(fe.flat().equations[0].residual(), 2 * fe.var("x") * fe.der("x") - 1));
}

TEST(Flatten, IfEquationWithParameterConditionIsResolvedStatically) {
    FrontEnd fe(R"(
      model M parameter Boolean fast = true; Real x;
      equation if fast then der(x) = -10*x; else der(x) = -x; end if; end M;)", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    ASSERT_EQ(fe.flat().equations.size(), 1u);
    EXPECT_TRUE(fe.flat().equations[0].active_when.empty());
    EXPECT_TRUE(same(fe.flat().equations[0].residual(), fe.der("x") + 10 * fe.var("x")));
    EXPECT_TRUE(fe.flat().if_equations.empty());
}

TEST(Flatten, WhenClauseCollectsResetsAssignmentsAndRestartConstraints) {
    FrontEnd fe(R"(
      model M parameter Real e = 0.5; Real x(start = 1), v; Boolean hit(start = false);
      equation
        der(x) = v; der(v) = -9.81;
        when x <= 0 then
          hit = true;
          v = -e*pre(v);
        end when;
      end M;)", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    ASSERT_EQ(fe.flat().whens.size(), 1u);
    const FlatWhen& w = fe.flat().whens[0];
    ASSERT_EQ(w.triggers.size(), 1u);
    EXPECT_EQ(canonical(fe.flat(), *w.triggers[0]), "x <= 0");
    ASSERT_EQ(w.actions.size(), 2u);
    EXPECT_EQ(w.actions[0].kind, WhenAction::Kind::AssignDiscrete);
    EXPECT_EQ(w.actions[1].kind, WhenAction::Kind::RestartConstraint);
    EXPECT_TRUE(same(w.actions[1].lhs - w.actions[1].rhs, fe.var("v") + GiNaC::numeric(1, 2) * fe.pre("v")));
    EXPECT_TRUE(fe.has("flatten-restart-constraint"));
}

TEST(Flatten, ReinitValueUsesTheLeftLimits) {
    FrontEnd fe("model M Real h(start = 1), v; equation der(h) = v; der(v) = -1;\n"
                "algorithm when h <= 0 then reinit(v, -0.5*v); end when; end M;", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const WhenAction& a = fe.flat().whens.at(0).actions.at(0);
    EXPECT_EQ(a.kind, WhenAction::Kind::Reinit);
    EXPECT_TRUE(same(a.value, -GiNaC::numeric(1, 2) * fe.pre("v")));
}

TEST(Flatten, UnconnectedInsideFlowIsZeroAndConnectionsBalance) {
    FrontEnd fe(R"(
      connector P Real v; flow Real i; end P;
      model Two P a, b; Real w; equation w = a.v - b.v; a.i + b.i = 0; w = 2*a.i; end Two;
      model Sub "an outside connector joined to an inside one" P port; Two t; equation connect(port, t.a); end Sub;
      model Top Sub s; Two r; equation connect(s.port, r.a); end Top;)", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const FlatModel& f = fe.flat();
    // s.t.b, r.b are inside connectors left unconnected: zero flow.
    int zero_flows = 0, balances = 0;
    for (const FlatEquation& e : f.equations) {
        if (e.origin.rfind("unconnected flow", 0) == 0) ++zero_flows;
        if (e.origin.rfind("flow balance", 0) == 0) ++balances;
    }
    EXPECT_EQ(zero_flows, 2);
    // Inside Sub: t.a.i - port.i = 0 (outside counted negative); in Top:
    // s.port.i + r.a.i = 0. Both are alias equations, so no balance is left.
    EXPECT_EQ(balances, 0);
    // The aliases say so: t.a.i = port.i and r.a.i = -port.i.
    auto sign_of = [&](const std::string& a, const std::string& b) {
        int va = f.find_variable(a), vb = f.find_variable(b);
        int ra = va, sa = 1, rb = vb, sb = 1;
        for (const auto& al : f.aliases) {
            if (al.variable == va) ra = al.representative, sa = al.sign;
            if (al.variable == vb) rb = al.representative, sb = al.sign;
        }
        EXPECT_EQ(ra, rb) << a << " and " << b << " are not aliases";
        return sa * sb;
    };
    EXPECT_EQ(sign_of("s.t.a.i", "s.port.i"), 1);
    EXPECT_EQ(sign_of("r.a.i", "s.port.i"), -1);
    EXPECT_EQ(sign_of("r.a.v", "s.t.a.v"), 1);
}

TEST(Flatten, InStreamOfTwoConnectedPortsIsTheOtherStream) {
    FrontEnd fe(R"(
      connector F Real p; flow Real m; stream Real h; end F;
      model Source F port; parameter Real h0 = 5; equation port.h = h0; port.m = -1; end Source;
      model Sink F port; Real hin; equation port.p = 1; port.h = 0; hin = inStream(port.h); end Sink;
      model Top Source a; Sink b; equation connect(a.port, b.port); end Top;)", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    // hin = inStream(b.port.h) = a.port.h: alias elimination joins them.
    EXPECT_TRUE(same(fe.value("b.hin"), fe.value("a.port.h")));
    EXPECT_FALSE(same(fe.value("b.hin"), fe.value("b.port.h")));
}

TEST(Flatten, ParameterCycleIsDiagnosed) {
    FrontEnd fe("model M\n  parameter Real a = b;\n  parameter Real b = 2*a;\n  Real x;\nequation\n  der(x) = a;\nend M;",
                "flatten");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_TRUE(fe.has("flatten-parameter-cycle")) << fe.diagnostics();
}

TEST(Flatten, UndefinedNameHasItsLocation) {
    FrontEnd fe("model M\n  Real x;\nequation\n  der(x) = -k*x;\nend M;", "flatten");
    ASSERT_EQ(fe.state.sink.size(), 1u) << fe.diagnostics();
    const Diagnostic& d = fe.state.sink.all()[0];
    EXPECT_EQ(d.rule, "flatten-undefined-name");
    EXPECT_EQ(d.range.begin.line, 4u);
    EXPECT_EQ(d.range.begin.column, 13u);
}

TEST(Flatten, ModelSelectionByNameAndDefault) {
    const char* text = "model A Real x; equation der(x) = 1; end A;\nmodel B Real y; equation der(y) = 2; end B;";
    FrontEnd last(text, "flatten");
    ASSERT_TRUE(last.state.flat);
    EXPECT_EQ(last.flat().name, "B");
    FrontEnd named(text, "flatten", "A");
    ASSERT_TRUE(named.state.flat);
    EXPECT_EQ(named.flat().name, "A");
    FrontEnd missing(text, "flatten", "C");
    EXPECT_TRUE(missing.has("flatten-undefined-name"));
}

TEST(Flatten, DeclaredInvariantsAndSuppressionsAreRead) {
    FrontEnd fe(R"(
      model M Real x(start = 1); Real E = x^2 annotation(__ModeAudit(rate = -2*x^2, atEvents = "nonincreasing"));
      equation der(x) = -x;
      annotation(__ModeAudit(suppress = {"modes-unbalanced"}), experiment(StopTime = 2.5));
      end M;)", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const FlatVariable& e = fe.flat().variables[fe.flat().find_variable("E")];
    ASSERT_TRUE(e.invariant.has_value());
    EXPECT_EQ(e.invariant->at_events, "nonincreasing");
    EXPECT_TRUE(same(*e.invariant->rate, -2 * GiNaC::pow(fe.var("x"), 2)));
    EXPECT_EQ(fe.flat().suppress, std::vector<std::string>{"modes-unbalanced"});
    EXPECT_DOUBLE_EQ(*fe.flat().stop_time, 2.5);
}

TEST(Flatten, StopTimeMustBePositiveAndWithinTheLargestStopTime) {
    // The same bounds as --stop-time: (0, 1e9]. Beyond 1e9 the time's
    // rounding step is no longer small against event location's tolerance.
    for (const char* bad : {"0", "-5", "1e12", "1e400"}) {
        FrontEnd fe(std::string("model M Real x(start = 1); equation der(x) = -x; annotation(experiment(StopTime = ") +
                        bad + ")); end M;",
                    "flatten");
        EXPECT_FALSE(fe.state.flat) << bad;
        // 1e400 is no double at all: the lexer refuses the literal itself.
        const char* rule = std::string(bad) == "1e400" ? "parse-syntax-error" : "flatten-type-mismatch";
        EXPECT_TRUE(fe.has(rule)) << bad << ": " << fe.diagnostics();
    }
    FrontEnd most("model M Real x(start = 1); equation der(x) = -x; annotation(experiment(StopTime = 1e9)); end M;",
                  "flatten");
    ASSERT_TRUE(most.state.flat) << most.diagnostics();
    EXPECT_DOUBLE_EQ(*most.flat().stop_time, 1e9);
}

TEST(Flatten, CanonicalPrintingDoesNotDependOnDeclarationOrder) {
    FrontEnd a("model M Real x, y; equation der(x) = y + 2*x; y = sin(x); end M;", "flatten");
    FrontEnd b("model M Real y, x; equation der(x) = 2*x + y; y = sin(x); end M;", "flatten");
    ASSERT_TRUE(a.state.flat && b.state.flat);
    std::ostringstream da, db;
    // Variables print in declaration order, equations canonically.
    EXPECT_EQ(canonical(a.flat().equations[0].residual()), canonical(b.flat().equations[0].residual()));
}

// semiLinear(x, k+, k-) is k+ x for x >= 0 and k- x below, element-wise
// over arrays; arguments of other shapes are refused.
TEST(Flatten, SemiLinearIsItsIfExpression) {
    FrontEnd fe(R"(model SL
  Real y1, y2, y3, y4[2];
equation
  y1 = semiLinear(-2, 3, 5);
  y2 = semiLinear(2, 3, 5);
  y3 = semiLinear(0, 3, 5);
  y4 = semiLinear({1, -1}, 3, {5, 7});
end SL;)",
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    std::vector<std::string> got;
    for (const auto& eq : fe.flat().equations) got.push_back(canonical(eq.residual()));
    EXPECT_EQ(got, (std::vector<std::string>{"y1 + 10", "y2 - 6", "y3", "y4[1] - 3", "y4[2] + 7"}));
    FrontEnd bad("model SL2 Real y[2]; equation y = semiLinear({1, -1}, {1, 2, 3}, 5); end SL2;", "flatten");
    EXPECT_TRUE(bad.has("flatten-type-mismatch")) << bad.diagnostics();
}

// The MSL Pulse's idiom: an initial algorithm counts the periods already
// passed at t = 0 (integer() is floor: -1 for a start at 0.3) and a Real
// assigned alone in a when-equation (`T_start = time`) is a discrete Real,
// whose start the initial algorithm gives. The clause fires at 0.3 and 1.6:
// count = 1, T_start = 1.6 at t = 2; y is the pulse of width 0.65.
TEST(Flatten, APulseCountsItsPeriodsFromAnInitialAlgorithm) {
    FrontEnd fe(R"(model Pulse
  parameter Real startTime = 0.3;
  parameter Real period = 1.3;
  Real T_start;
  Integer count;
  Real y;
  Real x(start = 0, fixed = true);
initial algorithm
  count := integer((time - startTime)/period);
  T_start := startTime + count*period;
equation
  when time >= (pre(count) + 1)*period + startTime then
    count = pre(count) + 1;
    T_start = time;
  end when;
  y = if time < startTime then 0 else if time < T_start + 0.65 then 1 else 0;
  der(x) = y;
  annotation(experiment(StopTime = 2));
end Pulse;)",
                "simulation");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_FALSE(fe.has("flatten-restart-constraint")) << fe.diagnostics();
    const FlatVariable& count = fe.flat().variables[static_cast<std::size_t>(fe.flat().find_variable("count"))];
    const FlatVariable& start = fe.flat().variables[static_cast<std::size_t>(fe.flat().find_variable("T_start"))];
    EXPECT_EQ(start.variability, Variability::Discrete);
    ASSERT_TRUE(count.start && start.start);
    EXPECT_EQ(canonical(*count.start), "-1");
    EXPECT_EQ(canonical(*start.start), "-1");
    EXPECT_TRUE(fe.flat().initial_equations.empty());
    ASSERT_TRUE(fe.state.simulation) << fe.diagnostics();
    EXPECT_EQ(fe.state.simulation->final_values.at("count"), 1);
    EXPECT_NEAR(fe.state.simulation->final_values.at("T_start"), 1.6, 1e-9);
    // x integrates the pulse: on over [0.3, 0.95) and [1.6, 2].
    EXPECT_NEAR(fe.state.simulation->final_values.at("x"), 0.65 + 0.4, 1e-6);
}

// A Real assigned in a when-statement and differentiated nowhere is a
// discrete Real too (the sequential assignments read each other); a
// declared discrete Real takes its start from an initial equation.
TEST(Flatten, WhenStatementsAssignDiscreteRealsAndInitialEquationsStartThem) {
    FrontEnd fe(R"(model W
  Real x;
  Real y1, y3;
  discrete Real c;
initial equation
  c = 1;
algorithm
  when x > 1 then
    y1 := 2*x;
    y3 := y1 + 1;
  end when;
equation
  x = 2*time;
  when time >= 0.5 then
    c = pre(c) + 1;
  end when;
  annotation(experiment(StopTime = 1));
end W;)",
                "simulation");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_FALSE(fe.has("flatten-continuous-assigned-in-when")) << fe.diagnostics();
    const FlatVariable& c = fe.flat().variables[static_cast<std::size_t>(fe.flat().find_variable("c"))];
    ASSERT_TRUE(c.start);
    EXPECT_EQ(canonical(*c.start), "1");
    ASSERT_TRUE(fe.state.simulation) << fe.diagnostics();
    const SimulationResult& r = *fe.state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    EXPECT_NEAR(r.final_values.at("y1"), 2, 1e-9);  // x = 1 at t = 0.5
    EXPECT_NEAR(r.final_values.at("y3"), 3, 1e-9);
    EXPECT_NEAR(r.final_values.at("c"), 2, 1e-12);
}

// A variable alone on the left of a when-equation that is differentiated
// somewhere stays a restart constraint (extension 1).
TEST(Flatten, AWhenEquationOnAStateIsARestartConstraint) {
    FrontEnd fe(R"(model R
  Real v(start = 1, fixed = true);
equation
  der(v) = -1;
  when v < 0 then
    v = -0.5*pre(v);
  end when;
end R;)",
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_TRUE(fe.has("flatten-restart-constraint")) << fe.diagnostics();
    const FlatVariable& v = fe.flat().variables[static_cast<std::size_t>(fe.flat().find_variable("v"))];
    EXPECT_EQ(v.variability, Variability::Continuous);
    ASSERT_EQ(fe.flat().whens.size(), 1u);
    EXPECT_EQ(fe.flat().whens[0].actions[0].kind, WhenAction::Kind::RestartConstraint);
    // The same through an alias of the state (a scaled one): still a state.
    FrontEnd alias(R"(model R
  Real v(start = 1, fixed = true);
  Real w;
equation
  1000*w = 1000*v;
  der(v) = -1;
  when v < 0 then
    w = -0.5*pre(w);
  end when;
end R;)",
                   "flatten");
    ASSERT_TRUE(alias.state.flat) << alias.diagnostics();
    EXPECT_TRUE(alias.has("flatten-restart-constraint")) << alias.diagnostics();
    const FlatVariable& w = alias.flat().variables[static_cast<std::size_t>(alias.flat().find_variable("w"))];
    EXPECT_EQ(w.variability, Variability::Continuous);
}

// If-statements in a model's algorithm with conditions known when
// flattening: the first branch whose condition holds runs, later conditions
// are not evaluated (an assert in them would fail), none holding keeps the
// earlier assignment; a condition on variables is refused with the rewrite.
TEST(Flatten, AnAlgorithmsIfStatementRunsTheBranchItsParametersSelect) {
    FrontEnd fe(R"(model IfAlg
  parameter Integer i = 5;
  Real x, y;
algorithm
  x := 1;
  if i > 10 then
    x := 3;
  elseif i < 20 then
    x := 4;
  elseif 1/(i - 5) > 0 then
    x := 5;
  end if;
  y := 2;
  if i == 7 then
    y := 9;
  end if;
end IfAlg;)",
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    std::map<std::string, std::string> eq;
    for (const FlatEquation& e : fe.flat().equations) eq[canonical(e.lhs)] = canonical(e.rhs);
    EXPECT_EQ(eq["x"], "4");
    EXPECT_EQ(eq["y"], "2");
    FrontEnd bad(R"(model IfAlg
  Real x(start = 1, fixed = true), y;
equation
  der(x) = -x;
algorithm
  y := 0;
  if x > 0.5 then
    y := 1;
  end if;
end IfAlg;)",
                 "flatten");
    EXPECT_FALSE(bad.state.flat);
    EXPECT_NE(bad.diagnostics().find("this one depends on variables"), std::string::npos) << bad.diagnostics();
}

// Enumeration literals are distinct and not named like the type's
// attributes (Modelica 3.6, 4.9.5.1); a conditional component is used only
// in connect equations (4.4.5): in an equation, an algorithm, a binding or
// a modifier it is an error at the use.
TEST(Flatten, EnumerationLiteralsAndConditionalComponentsAreUsedAsTheLanguageAllows) {
    FrontEnd dup("model E1\n  type E = enumeration(one, two, one);\n  parameter E e = E.two;\nend E1;", "flatten");
    EXPECT_NE(dup.diagnostics().find("lists the literal 'one' twice"), std::string::npos) << dup.diagnostics();
    FrontEnd attr("model E2\n  type E = enumeration(low, max);\n  parameter E e = E.low;\nend E2;", "flatten");
    EXPECT_NE(attr.diagnostics().find("has a literal named 'max'"), std::string::npos) << attr.diagnostics();
    FrontEnd ok("model E3\n  type E = enumeration(low, high);\n  parameter E e = E.high;\nend E3;", "flatten");
    EXPECT_TRUE(ok.state.flat) << ok.diagnostics();
    const char* uses[] = {
        "model C\n  Real x if true;\nequation\n  x = 2;\nend C;",
        "model C\n  Real x = 2 if true;\n  Real y = x;\nend C;",
        "model C\n  model A\n    Real y = 1;\n  end A;\n  Real x = 3 if true;\n  A a(y = x);\nend C;",
    };
    for (const char* text : uses) {
        FrontEnd fe(text, "flatten");
        EXPECT_FALSE(fe.state.flat) << text;
        EXPECT_NE(fe.diagnostics().find("'x' is a conditional component: it may be used only in connect equations"),
                  std::string::npos)
            << fe.diagnostics();
    }
    FrontEnd connected(R"(model C2
  connector P
    Real v;
    flow Real i;
  end P;
  parameter Boolean use = true;
  P p if use;
  P q;
equation
  connect(p, q);
  q.v = 1;
end C2;)",
                       "flatten");
    EXPECT_TRUE(connected.state.flat) << connected.diagnostics();
}

// Asserts inside when-clauses are checked when their clause fires (they
// were never checked: a silent pass); `if terminal() then assert(...)` is
// `when terminal()`, in equations and algorithms; AssertionLevel.warning
// makes a warning.
TEST(Flatten, AssertsInWhenClausesAreCheckedWhenTheyFire) {
    FrontEnd fe(R"(model A
  Real x(start = 0, fixed = true);
  Integer n(start = 0, fixed = true);
equation
  der(x) = 1;
  when x > 0.25 then
    n = pre(n) + 1;
    assert(n == 1, "one crossing");
    assert(x > 0.3, "checked at the crossing", AssertionLevel.warning);
  end when;
  if terminal() then
    assert(x < 0.5, "x ends below 0.5");
  end if;
algorithm
  if terminal() then
    assert(x > 0.9, "x ends above 0.9");
  end if;
  annotation(experiment(StopTime = 1));
end A;)",
                "simulation");
    ASSERT_TRUE(fe.state.simulation) << fe.diagnostics();
    std::vector<std::string> got;
    for (const Diagnostic& d : fe.state.sink.all())
        if (d.rule == "sim-assert-violated")
            got.push_back(std::string(d.severity == Severity::warning ? "warning: " : "error: ") + d.message);
    ASSERT_EQ(got.size(), 2u) << fe.diagnostics();
    EXPECT_NE(got[0].find("warning: assert \"checked at the crossing\" is violated at t = 0.25"), std::string::npos)
        << got[0];
    EXPECT_NE(got[1].find("error: assert \"x ends below 0.5\" is violated at t = 1"), std::string::npos) << got[1];
}

// der() takes Real expressions only (3.7.4: an Integer constant has no
// derivative), a Real parameter's is 0; sample()'s start is a parameter
// expression (3.7.5).
TEST(Flatten, DerTakesRealsAndSampleStartsAtAParameter) {
    FrontEnd integer("model D\n  constant Integer n = 1;\n  Real a = der(n);\nend D;", "flatten");
    EXPECT_FALSE(integer.state.flat);
    EXPECT_NE(integer.diagnostics().find("3:12: error: der() takes a Real expression; 'n' is an Integer"),
              std::string::npos)
        << integer.diagnostics();
    FrontEnd real("model D\n  parameter Real p = 2;\n  Real a = der(p);\nend D;", "flatten");
    ASSERT_TRUE(real.state.flat) << real.diagnostics();
    FrontEnd moving("model S\n  Integer i(start = 0, fixed = true);\nequation\n  when sample(time, 0.1) then\n"
                    "    i = pre(i) + 1;\n  end when;\nend S;",
                    "flatten");
    EXPECT_FALSE(moving.state.flat);
    EXPECT_NE(moving.diagnostics().find("the start of sample() must be a parameter expression"), std::string::npos)
        << moving.diagnostics();
    FrontEnd fixed("model S\n  parameter Real t0 = 0.2;\n  Integer i(start = 0, fixed = true);\nequation\n"
                   "  when sample(t0, 0.1) then\n    i = pre(i) + 1;\n  end when;\nend S;",
                   "flatten");
    EXPECT_TRUE(fixed.state.flat) << fixed.diagnostics();
}

// An enumeration type as an array dimension (`x[E]`) and as a for-range
// (`for e in E`, its literals in order); a literal subscripts the array.
TEST(Flatten, AnEnumerationTypeGivesADimensionAndARange) {
    FrontEnd fe(R"(model En
  type E = enumeration(low, mid, high);
  parameter Real w[E] = {1, 2, 3};
  Real x[E];
equation
  for e in E loop
    x[e] = 10*w[e] + Integer(e);
  end for;
end En;)",
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    std::map<std::string, std::string> eq;
    for (const FlatEquation& e : fe.flat().equations) eq[canonical(e.lhs)] = canonical(e.rhs);
    ASSERT_EQ(eq.size(), 3u);
    EXPECT_EQ(eq["x[1]"], "11");
    EXPECT_EQ(eq["x[2]"], "22");
    EXPECT_EQ(eq["x[3]"], "33");
}

// A parameter with fixed = false computed in an initial algorithm from
// parameters (the MSL's SimpleFriction): its value is the assignment's, the
// run uses it (x(1) = exp(-6)); a value that is not known from parameters is
// refused with the parameter's name.
TEST(Flatten, AnInitialAlgorithmComputesAParameterWithFixedFalse) {
    FrontEnd fe(R"(model PF
  parameter Real a = 2;
  parameter Real k(fixed = false);
  Real x(start = 1, fixed = true);
initial algorithm
  k := a;
  k := k*3;
equation
  der(x) = -k*x;
  annotation(experiment(StopTime = 1));
end PF;)",
                "simulation");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const FlatVariable& k = fe.flat().variables[static_cast<std::size_t>(fe.flat().find_variable("k"))];
    ASSERT_TRUE(k.value);
    EXPECT_EQ(canonical(*k.value), "6");
    ASSERT_TRUE(fe.state.simulation) << fe.diagnostics();
    EXPECT_NEAR(fe.state.simulation->final_values.at("x"), std::exp(-6.0), 1e-9);
    FrontEnd bad(R"(model PF
  parameter Real k(fixed = false);
  Real x(start = 1, fixed = true);
initial algorithm
  k := x;
equation
  der(x) = -k*x;
end PF;)",
                 "flatten");
    EXPECT_TRUE(bad.has("flatten-unsupported-construct")) << bad.diagnostics();
    EXPECT_NE(bad.diagnostics().find("assigns the parameter 'k' (fixed = false)"), std::string::npos) << bad.diagnostics();
    // Its start value already used by the equations before the initial
    // algorithm: refused, not replaced behind the equations' back.
    FrontEnd used(R"(model PF
  parameter Real k(fixed = false, start = 1);
  Real x(start = 1, fixed = true);
equation
  der(x) = -k*x;
initial algorithm
  k := 6;
end PF;)",
                  "flatten");
    EXPECT_TRUE(used.has("flatten-unsupported-construct")) << used.diagnostics();
    EXPECT_NE(used.diagnostics().find("already has the value 1 from its start value"), std::string::npos)
        << used.diagnostics();
}

// A condition taken literally (noEvent) made of order relations, not, and
// and or chooses its branch by value: no condition symbol (no mode); a
// Boolean variable inside noEvent still makes one.
TEST(Flatten, ALiteralConditionSelectsWithoutAMode) {
    FrontEnd fe(R"(model L
  Real x, y, z, w;
equation
  z = if noEvent(x > 0 and not y >= 1) then 1 else 2;
  w = noEvent(if x <= 0 or y < 1 then 3 else 4);
  x = time; y = time;
end L;)",
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_TRUE(fe.flat().conditions.empty());
    const ex x = fe.flat().symbols.variable(fe.flat().find_variable("x"));
    const ex y = fe.flat().symbols.variable(fe.flat().find_variable("y"));
    auto at = [&](std::size_t eq, double xv, double yv) {
        GiNaC::exmap m{{x, GiNaC::numeric(xv)}, {y, GiNaC::numeric(yv)}};
        return canonical(fe.flat().equations[eq].residual().subs(m));
    };
    EXPECT_EQ(at(0, 1, 0), "z - 1");
    EXPECT_EQ(at(0, 1, 1), "z - 2");  // y >= 1 at equality
    EXPECT_EQ(at(0, 0, 0), "z - 2");  // x > 0 fails at 0
    EXPECT_EQ(at(1, 0, 5), "w - 3");  // x <= 0 at equality
    EXPECT_EQ(at(1, 1, 0.5), "w - 3");
    EXPECT_EQ(at(1, 1, 1), "w - 4");
    EXPECT_EQ(canonical(fe.flat().equations[0].residual()),
              "-(if noEvent(x > 0) then (if noEvent(y - 1 >= 0) then 2 else 1) else 2) + z");
    FrontEnd boolean("model B Real z; Boolean b = time > 0.5; equation z = if noEvent(b) then 1 else 2; end B;",
                     "flatten");
    ASSERT_TRUE(boolean.state.flat) << boolean.diagnostics();
    EXPECT_FALSE(boolean.flat().conditions.empty());
}

// (x - cos(t))^2 and (cos(t) - x)^2 are one expression; which of the two
// GiNaC keeps depends on its term order, which varies between runs (its
// hashes are seeded by type_info addresses), so the printer chooses the sign
// of an even power's base (corpus/good/unstable_forced_band.mo printed its
// guard both ways).
TEST(Flatten, AnEvenPowerOfASumPrintsOneSignOfItsBase) {
    // Within one process GiNaC makes the two forms one; held (unevaluated),
    // each keeps its own sign, as in two runs.
    GiNaC::symbol x("x"), t("time");
    const ex a = GiNaC::power(x - GiNaC::cos(t), 2).hold(), b = GiNaC::power(GiNaC::cos(t) - x, 2).hold();
    EXPECT_EQ(canonical(a), canonical(b));
    EXPECT_EQ(canonical(a), "(cos(time) - x)^2");
    EXPECT_EQ(canonical(GiNaC::power(-x - t, 4).hold()), "(time + x)^4");
    // An odd power keeps its sign.
    EXPECT_EQ(canonical(GiNaC::power(x - t, 3).hold()), "(-time + x)^3");
}

// (g - c)*i and -(c - g)*i likewise (the MSL's HeatingMOSInverter printed
// its loss power both ways in two runs): a sum among a product's factors,
// or an integer power of one, prints the sign of its base that does not lead
// with a minus, the product's sign turned to match.
TEST(Flatten, ASumInAProductPrintsOneSignOfItsBase) {
    GiNaC::symbol c("c"), g("g"), i("i");
    const ex a = GiNaC::mul(GiNaC::exvector{-1, c - g, i}).hold(), b = GiNaC::mul(GiNaC::exvector{g - c, i}).hold();
    EXPECT_EQ(canonical(a), canonical(b));
    EXPECT_EQ(canonical(a), "-(c - g)*i");
    // Odd powers turn the product's sign, even ones do not.
    EXPECT_EQ(canonical(GiNaC::mul(GiNaC::exvector{GiNaC::power(g - c, 3), i}).hold()), "-(c - g)^3*i");
    EXPECT_EQ(canonical(GiNaC::mul(GiNaC::exvector{GiNaC::power(g - c, 2), i}).hold()), "(c - g)^2*i");
    EXPECT_EQ(canonical(GiNaC::mul(GiNaC::exvector{GiNaC::power(g - c, -1), i}).hold()), "-i/(c - g)");
}

}  // namespace
}  // namespace modeaudit
