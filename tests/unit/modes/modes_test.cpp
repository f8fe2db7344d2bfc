// Unit tests of the modes stage: mode variables, reachable modes, active
// equations with branches selected, transitions with guards, directions and
// triggers, and the exploration limit.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "flatten/flattener.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;
using GiNaC::ex;

bool same(const ex& a, const ex& b) { return (a - b).expand().is_zero(); }

const char* kCup = R"(
model CupAndBall
  parameter Real L = 1; parameter Real g = 9.81;
  Real x(start = 0.4), y(start = -0.74905), vx(start = 2), vy(start = -0.019), lambda;
  Boolean taut(start = false);
equation
  der(x) = vx; der(y) = vy; der(vx) = -lambda*x; der(vy) = -lambda*y - g;
  if taut then x^2 + y^2 = L^2; assert(lambda >= 0, "tension"); else lambda = 0; end if;
  when x^2 + y^2 >= L^2 then taut = true; end when;
end CupAndBall;)";

TEST(Modes, CupAndBallHasTwoModesAndTheCaptureTransition) {
    FrontEnd fe(kCup);
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    ASSERT_EQ(ms.mode_variables.size(), 1u);
    EXPECT_EQ(ms.mode_variables[0].name, "taut");
    ASSERT_EQ(ms.modes.size(), 2u);
    EXPECT_EQ(ms.modes[0].id, "taut=false");
    EXPECT_EQ(ms.modes[1].id, "taut=true");
    for (const Mode& m : ms.modes) {
        EXPECT_EQ(m.equations.size(), 5u);
        EXPECT_EQ(m.unknowns.size(), 5u);
    }
    EXPECT_TRUE(ms.modes[0].asserts.empty());
    EXPECT_EQ(ms.modes[1].asserts.size(), 1u);
    ASSERT_EQ(ms.transitions.size(), 1u);
    const Transition& t = ms.transitions[0];
    EXPECT_EQ(t.from, 0);
    EXPECT_EQ(t.to, 1);
    EXPECT_EQ(t.trigger, Transition::Trigger::State);
    EXPECT_TRUE(same(t.guard, fe.var("x") * fe.var("x") + fe.var("y") * fe.var("y") - 1));
    // The taut mode holds the circle, the free one lambda = 0.
    bool circle = false;
    for (const ModeEquation& e : ms.modes[1].equations)
        circle = circle || same(e.residual, pow(fe.var("x"), 2) + pow(fe.var("y"), 2) - 1);
    EXPECT_TRUE(circle);
}

TEST(Modes, TimeCommandIsATimeEvent) {
    std::string text = kCup;
    text.replace(text.find("when x^2 + y^2 >= L^2"), std::string("when x^2 + y^2 >= L^2").size(), "when time >= 0.1");
    FrontEnd fe(text);
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    ASSERT_EQ(fe.modes().transitions.size(), 1u);
    EXPECT_EQ(fe.modes().transitions[0].trigger, Transition::Trigger::Time);
    EXPECT_EQ(fe.modes().transitions[0].guard_text, "time - 0.1");
}

// A relation read at the start values divides by a variable that has none
// (the MSL's heating diode: v/vt_t > 15 with vt_t = k T/q computed, its
// start 0): the relation is undecided at the start, not an internal error
// ("power::eval(): division by zero", exit 3).
TEST(Modes, ARelationDividingByAVariableWithoutStartIsUndecidedAtTheStart) {
    FrontEnd fe(R"(
model Exponential
  Real T(start = 300, fixed = true);
  Real vt;
  Real v;
  Real id;
equation
  der(T) = 1;
  vt = T/11600;
  v = sin(time);
  id = if v/vt > 15 then (v/vt - 14)*exp(15) else exp(v/vt);
end Exponential;)");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    EXPECT_EQ(fe.modes().modes.size(), 2u);
    EXPECT_FALSE(fe.has("internal-error")) << fe.diagnostics();
}

TEST(Modes, MslDiodeWithZeroRonGivesUEqualsZeroOrUEqualsS) {
    FrontEnd fe(R"(
      model D parameter Real Ron = 0, Goff = 0; Real s(start = 1), u, i, q(start = 0);
        Boolean off;
      equation
        off = s < 0;
        u = s*(if off then 1 else Ron);
        i = s*(if off then Goff else 1);
        der(q) = i; u + i = 1 - q;
      end D;)");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const Mode& on = fe.mode("off=false");
    const Mode& off = fe.mode("off=true");
    auto has = [&](const Mode& m, const ex& r) {
        for (const ModeEquation& e : m.equations)
            if (same(e.residual, r) || same(e.residual, -r)) return true;
        return false;
    };
    EXPECT_TRUE(has(on, fe.var("u")));
    EXPECT_TRUE(has(on, fe.var("i") - fe.var("s")));
    EXPECT_TRUE(has(off, fe.var("u") - fe.var("s")));
    EXPECT_TRUE(has(off, fe.var("i")));
    // Conducting initially (s = 1): turning off when s falls below 0, guard -s.
    EXPECT_EQ(fe.modes().modes[0].id, "off=false");
    bool found = false;
    for (const Transition& t : fe.modes().transitions)
        if (t.from == 0) {
            EXPECT_TRUE(same(t.guard, -fe.var("s")));
            found = true;
        }
    EXPECT_TRUE(found);
}

TEST(Modes, ElsewhenKeepsItsPriorityAndSelfLoopsCarryResets) {
    FrontEnd fe(R"(
      model B Real h(start = 1), v(start = 0); Integer n(start = 0);
      equation der(h) = v; der(v) = -9.81;
      algorithm
        when h <= 0 then reinit(v, -0.9*v);
        elsewhen h >= 2 then reinit(v, 0);
        end when;
      end B;)");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    ASSERT_EQ(fe.modes().modes.size(), 1u);
    ASSERT_EQ(fe.modes().transitions.size(), 2u);
    EXPECT_EQ(fe.modes().transitions[0].priority, 0);
    EXPECT_EQ(fe.modes().transitions[1].priority, 1);
    EXPECT_EQ(fe.modes().transitions[0].from, fe.modes().transitions[0].to);
    ASSERT_EQ(fe.modes().transitions[0].resets.size(), 1u);
}

TEST(Modes, UnbalancedModeIsNamed) {
    FrontEnd fe(R"(
      model U Real x(start = 1), y; Boolean on(start = true);
      equation der(x) = -x;
        if on then y = x; else y = 2*x; x = 0; end if;
        when x < 0.5 then on = false; end when;
      end U;)");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    EXPECT_TRUE(fe.has("modes-unbalanced"));
    EXPECT_TRUE(fe.has("flatten-unbalanced-if"));
    EXPECT_NE(fe.diagnostics().find("mode on=false has 3 equations for 2 unknowns"), std::string::npos)
        << fe.diagnostics();
}

TEST(Modes, ExplorationStopsAtTheLimitAndSaysSo) {
    // 12 switches coupled by a sum (one cluster): 4096 reachable modes.
    std::string text = "model Many\n";
    for (int k = 1; k <= 12; ++k) text += fmt::format("  Real x{0}(start = 1); Boolean b{0}(start = false);\n", k);
    text += "  Real total;\nequation\n  total = x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9 + x10 + x11 + x12;\n";
    for (int k = 1; k <= 12; ++k)
        text += fmt::format("  if b{0} then der(x{0}) = -1; else der(x{0}) = 1; end if;\n"
                            "  when x{0} > 2 then b{0} = true; end when;\n",
                            k);
    text += "end Many;\n";
    PipelineState state;
    state.file = state.sources.add("many.mo", text);
    RunOptions options;
    options.modes.max_modes = 100;
    run_pipeline(state, options, "modes");
    ASSERT_TRUE(state.modes);
    EXPECT_FALSE(state.modes->complete);
    EXPECT_EQ(state.modes->modes.size(), 100u);
    bool reported = false;
    for (const Diagnostic& d : state.sink.all()) reported = reported || d.rule == "modes-limit-reached";
    EXPECT_TRUE(reported);
}

TEST(Modes, IntegerModeVariableSelectsEquations) {
    FrontEnd fe(R"(
      model G Real x(start = 0); Integer gear(start = 1);
      equation
        if gear == 1 then der(x) = 1; elseif gear == 2 then der(x) = 2; else der(x) = 0; end if;
        when x > 1 then gear = mod(pre(gear), 3) + 1; end when;
      end G;)");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    ASSERT_GE(fe.modes().modes.size(), 3u);
    EXPECT_EQ(fe.modes().modes[0].id, "gear=1");
    EXPECT_EQ(fe.modes().modes[1].id, "gear=2");
}

}  // namespace
}  // namespace modeaudit

namespace modeaudit {
namespace {

// A relation on time alone, `time < T`, becomes false once and never true
// again (time runs forward): its mode before T leads to the mode after T
// and no transition leads back; `time < 0` (a source that starts at 0)
// is false from the start, so it adds no mode.
TEST(Modes, ARelationOnTimeAloneChangesOnceForward) {
    FrontEnd fe(R"(
model StepOnce
  parameter Real T = 1;
  Real x(start = 0, fixed = true);
equation
  der(x) = (if time < T then 1 else -1) + (if time < 0 then 0 else 2);
end StepOnce;)");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    ASSERT_EQ(ms.modes.size(), 2u);
    EXPECT_EQ(ms.modes[0].id, "(time < 1)=true,(time < 0)=false");
    EXPECT_EQ(ms.modes[1].id, "(time < 1)=false,(time < 0)=false");
    ASSERT_EQ(ms.transitions.size(), 1u);
    EXPECT_EQ(ms.transitions[0].from, 0);
    EXPECT_EQ(ms.transitions[0].to, 1);
    EXPECT_EQ(ms.transitions[0].guard_text, "time - 1");  // T is evaluated
    EXPECT_EQ(ms.transitions[0].trigger, Transition::Trigger::Time);
}

}  // namespace
}  // namespace modeaudit

namespace modeaudit {
namespace {

// Discrete variables defined by relations that select no equation are mode
// variables: their changes are events. `time >= 0.5` and `time < 0.5` are
// one function crossing once: flipped alone, either would give a valuation
// that holds at no time, so they cross together (while `v > 0` and `v < 0`,
// both false at v = 0, keep crossing one at a time).
TEST(Modes, OutputsOfComplementaryRelationsChangeTogetherAtOneEvent) {
    FrontEnd fe(R"(
model Outputs
  Boolean on;
  Integer level;
  Real x(start = 0, fixed = true);
equation
  on = time >= 0.5;
  level = if time < 0.5 then 2 else 3;
  der(x) = 1;
end Outputs;)");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    ASSERT_EQ(ms.modes.size(), 2u);
    EXPECT_EQ(ms.modes[0].id, "on=false,level=2");
    EXPECT_EQ(ms.modes[1].id, "on=true,level=3");
    ASSERT_EQ(ms.transitions.size(), 1u);
    EXPECT_EQ(ms.transitions[0].guard_text, "time - 0.5");
}

}  // namespace
}  // namespace modeaudit
