// Unit tests of the discrete logic of the modes stage (modes/discrete_logic.h,
// modes/relation_consistency.h): the guards of a pre() latch follow from its
// equation with pre() fixed to the mode's value, Integer mode variables
// defined by equations, if-expressions on mode variables in relations and
// when-guards, Boolean connections, and the bound on the event iteration
// (modes-logic-unsettled).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "modes/relation_consistency.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;
using GiNaC::ex;

bool same(const ex& a, const ex& b) { return (a - b).expand().is_zero(); }

std::string corpus_text(const std::string& rel) {
    std::ifstream in(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/" + rel);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The guard of the one transition from mode `from` to mode `to`.
ex guard(const ModeSet& ms, const std::string& from, const std::string& to) {
    std::vector<const Transition*> found;
    for (const Transition& t : ms.transitions)
        if (ms.modes[static_cast<std::size_t>(t.from)].id == from && ms.modes[static_cast<std::size_t>(t.to)].id == to)
            found.push_back(&t);
    EXPECT_EQ(found.size(), 1u) << from << " -> " << to;
    return found.empty() ? ex(0) : found.front()->guard;
}

const char* kLatch = R"(
model Latch
  Real x(start = 0, fixed = true);
  Boolean y(start = false);
equation
  der(x) = if y then 1 else -1;
  y = pre(y) and x < 1.5 or x < 0.5;
end Latch;)";

TEST(DiscreteLogic, LatchGuardsFollowTheEquationWithPreFixedToTheMode) {
    FrontEnd fe(kLatch);
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    ASSERT_EQ(ms.modes.size(), 2u);
    EXPECT_EQ(ms.modes[0].id, "y=true");  // x = 0 < 0.5 at the start
    ASSERT_EQ(ms.transitions.size(), 2u);
    // y = true holds while x < 1.5: it is left when x reaches 1.5 ...
    EXPECT_TRUE(same(guard(ms, "y=true", "y=false"), fe.var("x") - ex(3) / 2));
    // ... and y = false while x >= 0.5: left when x falls below 0.5.
    EXPECT_TRUE(same(guard(ms, "y=false", "y=true"), ex(1) / 2 - fe.var("x")));
    EXPECT_TRUE(fe.state.sink.all().empty()) << fe.diagnostics();
}

// The same latch with one threshold read through a node variable
// (a + b = x, b = 0): the relations still bound one quantity, so the same
// two transitions and no others (found by the metamorphic tests: the
// combination x < 1.5 false, a < 0.5 true was explored).
TEST(DiscreteLogic, LatchThroughANodeVariableHasTheSameTransitions) {
    std::string text = kLatch;
    text.replace(text.find("or x < 0.5"), 10, "or a < 0.5");
    text.replace(text.find("  Boolean y"), 0, "  Real a, b;\n");
    text.replace(text.find("end Latch;"), 0, "  a + b = x;\n  b = 0;\n");
    FrontEnd fe(text);
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    ASSERT_EQ(ms.modes.size(), 2u);
    ASSERT_EQ(ms.transitions.size(), 2u);
    EXPECT_TRUE(same(guard(ms, "y=true", "y=false"), fe.var("x") - ex(3) / 2));
    EXPECT_TRUE(same(guard(ms, "y=false", "y=true"), ex(1) / 2 - fe.var("a")));
}

TEST(DiscreteLogic, LibraryHysteresisLawThroughABooleanConnectionIsCheckedWithItsTwoModes) {
    // As far as `check` goes: the law once made it run for minutes.
    FrontEnd fe(corpus_text("good/discrete/hysteresis_law.mo"), "verification", "HysteresisLaw.Loop");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    EXPECT_EQ(fe.result.last_stage, "verification") << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    ASSERT_EQ(ms.modes.size(), 2u);
    EXPECT_EQ(ms.modes[0].id, "h.y=false,s.on=false");
    ASSERT_EQ(ms.transitions.size(), 2u);
    EXPECT_TRUE(same(guard(ms, "h.y=false,s.on=false", "h.y=true,s.on=true"), fe.value("x") - ex(3) / 2));
    EXPECT_TRUE(same(guard(ms, "h.y=true,s.on=true", "h.y=false,s.on=false"), ex(1) / 2 - fe.value("x")));
    EXPECT_TRUE(fe.state.sink.all().empty()) << fe.diagnostics();
}

TEST(DiscreteLogic, IfExpressionOnPreAndInARelationSideGiveEachModeItsBranch) {
    FrontEnd fe(corpus_text("good/discrete/hysteresis_if_pre.mo"), "verification");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    EXPECT_EQ(ms.modes.size(), 4u);
    const ex x = fe.var("x"), w = fe.var("w");
    bool x_up = false, x_down = false, w_up = false, w_down = false;
    for (const Transition& t : ms.transitions) {
        x_up = x_up || same(t.guard, x - ex(3) / 2);
        x_down = x_down || same(t.guard, ex(1) / 2 - x);
        w_up = w_up || same(t.guard, w - ex(3) / 2);
        w_down = w_down || same(t.guard, ex(1) / 2 - w);
        // Never the other branch's threshold in the other direction.
        EXPECT_FALSE(same(t.guard, x - ex(1) / 2) || same(t.guard, ex(3) / 2 - x)) << t.guard_text;
        EXPECT_FALSE(same(t.guard, w - ex(1) / 2) || same(t.guard, ex(3) / 2 - w)) << t.guard_text;
    }
    EXPECT_TRUE(x_up && x_down && w_up && w_down);
    EXPECT_TRUE(fe.state.sink.all().empty()) << fe.diagnostics();
}

TEST(DiscreteLogic, WhenGuardWithAnIfExpressionOnAModeVariableReadsTheModesBranch) {
    FrontEnd fe(R"(
model WhenIf
  Real x(start = 0, fixed = true);
  Boolean up(start = true);
equation
  der(x) = if up then 1 else -1;
  when x > (if up then 1.5 else 0.5) then
    up = not pre(up);
  end when;
end WhenIf;)");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    ASSERT_EQ(ms.modes.size(), 2u);
    EXPECT_TRUE(same(guard(ms, "up=true", "up=false"), fe.var("x") - ex(3) / 2));
    EXPECT_TRUE(same(guard(ms, "up=false", "up=true"), fe.var("x") - ex(1) / 2));
}

TEST(DiscreteLogic, WhenConditionThatIsAnIfExpressionOnAModeVariableHasEachModesGuard) {
    FrontEnd fe(R"(
model WhenIfCondition
  Real x(start = 0, fixed = true);
  Boolean up(start = true);
equation
  der(x) = if up then 1 else -1;
  when if up then x > 1.5 else x < 0.5 then
    up = not pre(up);
  end when;
end WhenIfCondition;)");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    ASSERT_EQ(ms.modes.size(), 2u);
    EXPECT_TRUE(same(guard(ms, "up=true", "up=false"), fe.var("x") - ex(3) / 2));
    EXPECT_TRUE(same(guard(ms, "up=false", "up=true"), ex(1) / 2 - fe.var("x")));
    EXPECT_TRUE(fe.state.sink.all().empty()) << fe.diagnostics();
}

TEST(DiscreteLogic, WhenOnALatchedBooleanFiresWhereTheLatchRises) {
    FrontEnd fe(R"(
model CountLatch
  Real x(start = 0, fixed = true);
  Boolean y(start = false);
  Boolean hold(start = false);
equation
  der(x) = if y then 1 else -1;
  y = pre(y) and x < 1.5 or x < 0.5;
  when y then
    hold = not pre(hold);
  end when;
end CountLatch;)");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    EXPECT_TRUE(fe.state.sink.all().empty()) << fe.diagnostics();
    // y rises only from y = false, where its equation reads x < 0.5.
    bool found = false;
    for (const Transition& t : fe.modes().transitions)
        if (t.when_clause >= 0) {
            EXPECT_TRUE(same(t.guard, ex(1) / 2 - fe.var("x"))) << t.guard_text;
            found = true;
        }
    EXPECT_TRUE(found);
}

const char* kLevels = R"(
model Levels
  constant Integer Low = 0, Mid = 1, High = 2;
  Real x(start = 0, fixed = true);
  Integer level(start = Low);
equation
  der(x) = if level == High then -2 else if level == Mid then 1 else 2;
  level = if x > 2 then High else if pre(level) == High and x > 1 then High else if x > 0.5 then Mid else Low;
end Levels;)";

TEST(DiscreteLogic, IntegerModeVariableDefinedByAnEquationIsExplored) {
    FrontEnd fe(kLevels);
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    ASSERT_EQ(ms.mode_variables.size(), 1u);  // the relations select no equation themselves
    EXPECT_EQ(ms.mode_variables[0].name, "level");
    EXPECT_EQ(ms.mode_variables[0].type, BaseType::Integer);
    ASSERT_EQ(ms.modes.size(), 3u);
    EXPECT_EQ(ms.modes[0].id, "level=0");
    const ex x = fe.var("x");
    EXPECT_TRUE(same(guard(ms, "level=0", "level=1"), x - ex(1) / 2));
    EXPECT_TRUE(same(guard(ms, "level=1", "level=2"), x - 2));
    // High is held down to x = 1 by pre(level) == High.
    EXPECT_TRUE(same(guard(ms, "level=2", "level=1"), 1 - x));
    EXPECT_TRUE(same(guard(ms, "level=1", "level=0"), ex(1) / 2 - x));
    EXPECT_EQ(ms.transitions.size(), 4u);
    // Each mode's equation has its branch selected.
    for (const Mode& m : ms.modes) {
        ASSERT_EQ(m.equations.size(), 1u);
        const ex rate = m.id == "level=2" ? ex(-2) : m.id == "level=1" ? ex(1) : ex(2);
        EXPECT_TRUE(same(m.equations[0].residual, fe.der("x") - rate)) << m.id;
    }
}

TEST(DiscreteLogic, FrictionStateMachineReachesItsFiveModes) {
    auto fe = FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/discrete/stick_slip_mode.mo",
                                  "verification");
    ASSERT_TRUE(fe->state.modes) << fe->diagnostics();
    std::set<std::string> ids;
    for (const Mode& m : fe->modes().modes) ids.insert(m.id);
    EXPECT_EQ(ids, (std::set<std::string>{"startForward=false,startBackward=false,mode=0",
                                          "startForward=true,startBackward=false,mode=0",
                                          "startForward=false,startBackward=true,mode=0",
                                          "startForward=false,startBackward=false,mode=1",
                                          "startForward=false,startBackward=false,mode=-1"}));
    EXPECT_TRUE(fe->state.sink.all().empty()) << fe->diagnostics();
}

TEST(DiscreteLogic, IntegerDefinedByAContinuousQuantityIsRefusedWithTheReason) {
    FrontEnd fe(R"(
model Counts
  Real x(start = 0, fixed = true);
  Integer n;
equation
  der(x) = 1;
  n = if x > 1 then integer(x) else 0;
end Counts;)");
    EXPECT_FALSE(fe.state.modes);
    EXPECT_NE(fe.diagnostics().find("reads the continuous quantity"), std::string::npos) << fe.diagnostics();
}

TEST(DiscreteLogic, AToggleThatNeverSettlesIsReportedAndTheExplorationTerminates) {
    FrontEnd fe(R"(
model Toggle
  Real x(start = 0, fixed = true);
  Boolean y(start = false);
equation
  der(x) = if y then 1 else 2;
  y = not pre(y) or x > 1;
end Toggle;)");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    std::size_t reported = 0;
    for (const Diagnostic& d : fe.state.sink.all()) {
        EXPECT_EQ(d.rule, "modes-logic-unsettled");
        reported += d.rule == "modes-logic-unsettled";
        EXPECT_NE(d.message.find("y=false -> y=true -> y=false"), std::string::npos) << d.message;
    }
    EXPECT_EQ(reported, 1u);  // once per definition
}

TEST(DiscreteLogic, DefinitionsInALoopWithoutPreAreReportedOnce) {
    FrontEnd fe(R"(
model Loop
  Real x(start = 0, fixed = true);
  Boolean a, b;
equation
  der(x) = if a then 1 else 2;
  a = not b and x > 1;
  b = a or x > 2;
end Loop;)");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    ASSERT_EQ(fe.state.sink.all().size(), 1u) << fe.diagnostics();
    EXPECT_NE(fe.state.sink.all()[0].message.find("a -> b -> a"), std::string::npos);
}

TEST(RelationConsistency, ThresholdsOnOneQuantityExcludeImpossibleCombinations) {
    FrontEnd fe(kLatch);
    const ex x = fe.var("x");
    auto rel = [](Condition::RelOp op, const ex& l, const ex& r) {
        auto c = std::make_shared<Condition>();
        c->kind = Condition::Kind::Relation;
        c->op = op;
        c->lhs = l;
        c->rhs = r;
        return ConditionPtr(c);
    };
    using Op = Condition::RelOp;
    // x < 1/2, x < 3/2, 1 > x (written the other way round), x >= 3/2.
    RelationConsistency rc({rel(Op::Lt, x, ex(1) / 2), rel(Op::Lt, x, ex(3) / 2), rel(Op::Gt, 1, x),
                            rel(Op::Ge, x, ex(3) / 2)});
    EXPECT_TRUE(rc.possible({1, 1, 1, 0}));   // x < 1/2
    EXPECT_TRUE(rc.possible({0, 1, 1, 0}));   // 1/2 <= x < 1
    EXPECT_TRUE(rc.possible({0, 1, 0, 0}));   // 1 <= x < 3/2
    EXPECT_TRUE(rc.possible({0, 0, 0, 1}));   // x >= 3/2
    EXPECT_FALSE(rc.possible({1, 0, 1, 1}));  // x < 1/2 and x >= 3/2
    EXPECT_FALSE(rc.possible({0, 1, 1, 1}));  // x < 3/2 and x >= 3/2
    EXPECT_FALSE(rc.possible({0, 0, 0, 0}));  // x >= 3/2 and not x >= 3/2
    EXPECT_FALSE(rc.possible({1, 1, 0, 0}));  // x < 1/2 and x >= 1
    // x > 0 and x < 0 both false: x = 0 exactly (a stuck velocity).
    RelationConsistency zero({rel(Op::Gt, x, 0), rel(Op::Lt, x, 0)});
    EXPECT_TRUE(zero.possible({0, 0}));
    EXPECT_FALSE(zero.possible({1, 1}));
}

}  // namespace
}  // namespace modeaudit
