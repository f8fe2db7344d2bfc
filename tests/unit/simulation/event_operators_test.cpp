// The event-generating operators in the simulation (simulation/
// event_operators.h): abs, sign, min, max, floor, ceil, integer, div, mod
// and rem keep their branch between events, an event fires at each kink or
// jump (located to 1e-9 against closed forms), none inside noEvent(); the
// corpus models of corpus/good/events/ with their stated numbers; abs(x)
// and its if-expression give the same trajectory and event times.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <numbers>
#include <string>
#include <vector>

#include "simulation/event_operators.h"
#include "simulation/simulation.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

std::unique_ptr<testing::FrontEnd> run_text(const std::string& text) {
    return std::make_unique<testing::FrontEnd>(text, "simulation");
}
std::unique_ptr<testing::FrontEnd> run_corpus(const std::string& name) {
    return testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/events/" + name,
                                        "simulation");
}
std::string first_message(const SimulationResult& r) { return r.messages.empty() ? "" : r.messages.front(); }

std::vector<double> event_times(const SimulationResult& r) {
    std::vector<double> t;
    for (const EventRecord& e : r.events) t.push_back(e.time);
    return t;
}

// The run reached its stop time with events at `expected` (one record per
// instant: the operators' events are continuous restarts in the same mode).
const SimulationResult& expect_run(const testing::FrontEnd& fe, const std::vector<double>& expected,
                                   double tol = 1e-9) {
    EXPECT_TRUE(fe.state.simulation) << fe.diagnostics();
    static const SimulationResult none;
    if (!fe.state.simulation) return none;
    const SimulationResult& r = *fe.state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << first_message(r);
    const std::vector<double> got = event_times(r);
    EXPECT_EQ(got.size(), expected.size()) << fmt::format("{}", fmt::join(got, ", "));
    for (std::size_t k = 0; k < got.size() && k < expected.size(); ++k) EXPECT_NEAR(got[k], expected[k], tol) << k;
    for (const EventRecord& e : r.events) {
        EXPECT_TRUE(e.operator_event);
        EXPECT_EQ(e.from, e.to);
        EXPECT_EQ(e.verdict, "continuous");
        for (const std::string& state : r.segments.front().state_names)
            EXPECT_EQ(e.after.at(state), e.before.at(state)) << state << " carries over";
    }
    return r;
}

std::string ramp_model(const std::string& rhs, double stop, const std::string& start = "0") {
    return fmt::format(R"(model M
  Real x(start = {}, fixed = true);
  Real y(start = 0, fixed = true);
equation
  der(x) = 1;
  der(y) = {};
  annotation(experiment(StopTime = {}));
end M;
)",
                       start, rhs, stop);
}

// ---- the branch arithmetic ----

TEST(EventOperators, ChoiceAndCrossingOfEachKind) {
    using K = sim::Branch::Kind;
    double p[3];
    sim::EventOperators::choose(K::Side, -0.25, p);
    EXPECT_EQ(p[0], -1);
    sim::EventOperators::cross(K::Side, false, p);
    EXPECT_EQ(p[0], 1);
    sim::EventOperators::choose(K::Floor, -1.5, p);
    EXPECT_EQ(p[0], -2);
    EXPECT_EQ(p[1], -2);
    EXPECT_EQ(p[2], -1);
    sim::EventOperators::cross(K::Floor, true, p);
    EXPECT_EQ(p[0], -1);
    sim::EventOperators::cross(K::Floor, false, p);
    EXPECT_EQ(p[0], -2);
    // Truncation: 0 holds on (-1, 1), a negative k on (k - 1, k].
    sim::EventOperators::choose(K::Trunc, -0.5, p);
    EXPECT_EQ(p[0], 0);
    EXPECT_EQ(p[1], -1);
    EXPECT_EQ(p[2], 1);
    sim::EventOperators::cross(K::Trunc, false, p);
    EXPECT_EQ(p[0], -1);
    EXPECT_EQ(p[1], -2);
    EXPECT_EQ(p[2], -1);
    sim::EventOperators::cross(K::Trunc, true, p);
    EXPECT_EQ(p[0], 0);
    sim::EventOperators::cross(K::Trunc, true, p);
    EXPECT_EQ(p[0], 1);
    EXPECT_EQ(p[1], 1);
    EXPECT_EQ(p[2], 2);
}

// ---- one test per operator, on a ramp x = time + x0 ----

// abs(x - 0.5) has its kink at t = 0.5: y(1) = 2 * 0.125.
TEST(EventOperators, AbsHasAnEventAtItsKink) {
    auto fe = run_text(ramp_model("abs(x - 0.5)", 1));
    const SimulationResult& r = expect_run(*fe, {0.5});
    EXPECT_NEAR(r.final_values.at("y"), 0.25, 1e-9);
}

// sign(x - 0.3): y(1) = -0.3 + 0.7 = 0.4.
TEST(EventOperators, SignHasAnEventAtItsJump) {
    auto fe = run_text(ramp_model("sign(x - 0.3)", 1));
    const SimulationResult& r = expect_run(*fe, {0.3});
    EXPECT_NEAR(r.final_values.at("y"), 0.4, 1e-9);
}

// min(x, 0.6) and max(x, 0.6) switch argument at t = 0.6:
// y(1) = 0.18 + 0.24 = 0.42 and 0.36 + 0.32 = 0.68.
TEST(EventOperators, MinAndMaxHaveAnEventWhereTheirArgumentsCross) {
    auto fe = run_text(ramp_model("min(x, 0.6)", 1));
    EXPECT_NEAR(expect_run(*fe, {0.6}).final_values.at("y"), 0.42, 1e-9);
    auto fe2 = run_text(ramp_model("max(x, 0.6)", 1));
    EXPECT_NEAR(expect_run(*fe2, {0.6}).final_values.at("y"), 0.68, 1e-9);
}

// floor(3 x): jumps at t = 1/3, 2/3 (and 1, the stop time itself, is no
// crossing); y(1) = (0 + 1 + 2)/3 = 1.
TEST(EventOperators, FloorHasAnEventAtEachJump) {
    auto fe = run_text(ramp_model("floor(3*x)", 1));
    EXPECT_NEAR(expect_run(*fe, {1.0 / 3, 2.0 / 3}).final_values.at("y"), 1, 1e-9);
}

// ceil(3 x - 0.5): jumps where 3 x - 0.5 is an integer, t = 1/6, 1/2, 5/6;
// it is 0 on [0, 1/6], 1 and 2 on the next thirds, 3 on (5/6, 1]:
// y(1) = 1/3 + 2/3 + 3/6 = 1.5.
TEST(EventOperators, CeilHasAnEventAtEachJump) {
    auto fe = run_text(ramp_model("ceil(3*x - 0.5)", 1));
    EXPECT_NEAR(expect_run(*fe, {1.0 / 6, 0.5, 5.0 / 6}).final_values.at("y"), 1.5, 1e-9);
}

// integer(x) from x(0) = -1.5: -2 until t = 0.5, -1 to 1.5, 0 to 2;
// y(2) = -1 - 1 + 0 = -2.
TEST(EventOperators, IntegerIsFloorWithEventsAtItsJumps) {
    auto fe = run_text(ramp_model("integer(x)", 2, "-1.5"));
    EXPECT_NEAR(expect_run(*fe, {0.5, 1.5}).final_values.at("y"), -2, 1e-9);
}

// div(x, 0.5) from x(0) = -1.2 truncates towards zero: the quotient goes
// from -2.4 to 1.6; it jumps at quotients -2 (t = 0.2), -1 (t = 0.7) and
// 1 (t = 1.7), not at 0 (t = 1.2); y(2) = -2*0.2 - 1*0.5 + 0 + 1*0.3 = -0.6.
TEST(EventOperators, DivTruncatesTowardsZeroWithNoEventAtZero) {
    auto fe = run_text(ramp_model("div(x, 0.5)", 2, "-1.2"));
    EXPECT_NEAR(expect_run(*fe, {0.2, 0.7, 1.7}).final_values.at("y"), -0.6, 1e-9);
}

// mod(x, 0.5) from x(0) = -0.2: a - floor(a/b) b jumps at x = 0, 0.5 (t =
// 0.2, 0.7); y(1) = (0.3^2 - 0.5^2... : the integral of the sawtooth:
// [-0.2, 0): x + 0.5 from 0.3 to 0.5 -> 0.08; [0, 0.5): 0.125; [0.5, 0.8):
// 0 .. 0.3 -> 0.045; y(1) = 0.25.
TEST(EventOperators, ModHasAnEventAtEachJump) {
    auto fe = run_text(ramp_model("mod(x, 0.5)", 1, "-0.2"));
    EXPECT_NEAR(expect_run(*fe, {0.2, 0.7}).final_values.at("y"), 0.25, 1e-9);
}

// rem(x, 0.5) from x(0) = -0.7: a - div(a, b) b, jumps where the quotient
// is a non-zero integer: x = -0.5 (t = 0.2) and x = 0.5 (t = 1.2), not at
// x = 0 (t = 0.7). rem is x + 0.5 on [-0.7, -0.5), x on (-0.5, 0.5), x - 0.5
// after: y(1.5) = (-0.2*0.2 - 0.02) + 0 ... = -0.06 + 0 + 0.045 = ... the
// integral of x over (-0.5, 0.5) is 0, of x + 0.5 over [-0.7, -0.5] is
// -0.02, of x - 0.5 over [0.5, 0.8] is 0.045: y(1.5) = 0.025.
TEST(EventOperators, RemHasAnEventAtEachJumpButNotAtZero) {
    auto fe = run_text(ramp_model("rem(x, 0.5)", 1.5, "-0.7"));
    EXPECT_NEAR(expect_run(*fe, {0.2, 1.2}).final_values.at("y"), 0.025, 1e-9);
}

// ---- noEvent ----

TEST(EventOperators, NoEventHasNoEvent) {
    for (const char* rhs : {"noEvent(abs(x - 0.5))", "noEvent(floor(3*x))", "noEvent(min(x, 0.6))",
                            "noEvent(sign(x - 0.3) + div(x, 0.25))"}) {
        auto fe = run_text(ramp_model(rhs, 1));
        ASSERT_TRUE(fe->state.simulation) << rhs << fe->diagnostics();
        EXPECT_TRUE(fe->state.simulation->events.empty()) << rhs;
    }
    // The same without noEvent has its events (the test can fail).
    auto fe = run_text(ramp_model("sign(x - 0.3) + div(x, 0.25)", 1));
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    EXPECT_EQ(fe->state.simulation->events.size(), 4u);  // 0.25, 0.3, 0.5, 0.75
}

// An if-expression whose relation is inside noEvent (or inside noEvent
// around the whole expression) makes no mode and no event: the tank drains
// by Torricelli's law to empty at t = 2 and stays there, and the sqrt of
// the slightly negative level integration leaves is never selected.
TEST(EventOperators, NoEventIfExpressionHasNoModeAndNoEvent) {
    std::ifstream in(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/events/noevent_tank.mo");
    std::stringstream text;
    text << in.rdbuf();
    const std::string model = text.str();
    auto fe = run_text(model);
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    EXPECT_EQ(fe->modes().modes.size(), 1u);
    const SimulationResult& r = *fe->state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << first_message(r);
    EXPECT_TRUE(r.events.empty());
    EXPECT_NEAR(r.final_values.at("h"), 0, 1e-9);
    EXPECT_EQ(r.final_values.at("q"), 0);
    EXPECT_EQ(r.final_values.at("q_outer"), 0);
    for (const char* stop : {"1", "1.5"}) {
        std::string shorter = model;
        shorter.replace(shorter.find("StopTime = 3"), 12, std::string("StopTime = ") + stop);
        auto part = run_text(shorter);
        ASSERT_TRUE(part->state.simulation) << part->diagnostics();
        const double t = std::stod(stop), h = (1 - t / 2) * (1 - t / 2);
        EXPECT_NEAR(part->state.simulation->final_values.at("h"), h, 1e-9) << stop;
        EXPECT_NEAR(part->state.simulation->final_values.at("q"), std::sqrt(h), 1e-9) << stop;
        EXPECT_EQ(part->state.simulation->final_values.at("q_outer"), part->state.simulation->final_values.at("q"));
    }
    // Without noEvent the same relation is a mode condition.
    std::string with_events = model;
    with_events.replace(with_events.rfind("q = if noEvent(h > 0)"), 21, "q = if h > 0");  // the equation, not the comment
    auto modes = run_text(with_events);
    ASSERT_TRUE(modes->state.modes) << modes->diagnostics();
    EXPECT_GT(modes->modes().modes.size(), 1u);
}

// A guard followed through a variable that F_DOWN defines implicitly (y +
// y^3 = ...) across a jump taken literally has no guaranteed enclosure (the
// Krawczyk test rests on the mean value theorem): the run says so instead of
// searching without the guarantee.
TEST(EventOperators, AGuardThroughAnImplicitLiteralJumpIsRefused) {
    // y defined implicitly by `y + y^3 = <rhs>`, a guard on y.
    auto model = [](const std::string& rhs) {
        return R"(model J
  Real x(start = 0, fixed = true);
  Real y(start = 0);
  Boolean hit(start = false);
equation
  der(x) = 1;
  y + y^3 = )" + rhs + R"(;
  when y > 1.2 then
    hit = true;
  end when;
  annotation(experiment(StopTime = 3));
end J;
)";
    };
    auto fe = run_text(model("x + (if noEvent(x > 0.5) then 1 else 0)"));
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    EXPECT_EQ(fe->state.simulation->stopped_because, StopReason::Unsupported);
    EXPECT_NE(first_message(*fe->state.simulation).find("through a jump taken literally"), std::string::npos)
        << first_message(*fe->state.simulation);
    // Without the jump the same guard is followed, and fires where y = 1.2.
    auto smooth = run_text(model("x"));
    ASSERT_TRUE(smooth->state.simulation) << smooth->diagnostics();
    ASSERT_EQ(smooth->state.simulation->events.size(), 1u) << first_message(*smooth->state.simulation);
    EXPECT_NEAR(smooth->state.simulation->events[0].time, 1.2 + 1.2 * 1.2 * 1.2, 1e-9);
}

// An assert on a Boolean that an equation defines by a relation and that
// selects no equation (so no mode variable holds it) reads the relation
// along the run: violated where x reaches 0.5, not at the start (it read
// false there before).
TEST(EventOperators, AnAssertOnARelationDefinedBooleanReadsTheRelation) {
    auto fe = run_text(R"(model A
  Real x(start = 0, fixed = true);
  Boolean b = x < 0.5;
equation
  der(x) = 1;
  assert(b, "x stays below 0.5");
end A;
)");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    ASSERT_EQ(r.segments.size(), 1u);
    ASSERT_EQ(r.segments[0].asserts.size(), 1u);
    EXPECT_TRUE(r.segments[0].asserts[0].violated);
    EXPECT_NEAR(r.segments[0].asserts[0].time, 0.5, 1e-9);
}

// Only what noEvent() wraps goes without events.
TEST(EventOperators, NoEventCoversOnlyItsArgument) {
    auto fe = run_text(ramp_model("noEvent(floor(3*x)) + abs(x - 0.5)", 1));
    expect_run(*fe, {0.5});
}

// smooth(p, e) keeps the events of e (event_operators.h).
TEST(EventOperators, SmoothKeepsTheEvents) {
    auto fe = run_text(ramp_model("smooth(0, abs(x - 0.5))", 1));
    EXPECT_NEAR(expect_run(*fe, {0.5}).final_values.at("y"), 0.25, 1e-9);
}

// ---- sliding: both sides' flows point across the surface ----

TEST(EventOperators, SignWithBothFlowsAcrossIsChattering) {
    auto fe = run_text(R"(model M
  Real x(start = 1, fixed = true);
equation
  der(x) = -sign(x);
  annotation(experiment(StopTime = 2));
end M;
)");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::Zeno) << first_message(r);
    EXPECT_TRUE(r.chattering);
    ASSERT_TRUE(r.zeno_time.has_value());
    EXPECT_NEAR(*r.zeno_time, 1, 1e-9);
    EXPECT_LE(r.events.size(), 1u);
}

// A choice at the start on the argument's zero: the flow decides the side
// (x starts at 0 and falls: abs(x) is -x from the start, no event).
TEST(EventOperators, BranchAtTheStartFollowsTheFlow) {
    auto fe = run_text(R"(model M
  Real x(start = 0, fixed = true);
  Real y(start = 0, fixed = true);
equation
  der(x) = -1;
  der(y) = abs(x) + floor(x);
  annotation(experiment(StopTime = 1.5));
end M;
)");
    // abs(x) = t; floor(x) = -1 on (0, 1], -2 after t = 1: y = t^2/2 - t - (t - 1).
    const SimulationResult& r = expect_run(*fe, {1.0});
    EXPECT_NEAR(r.final_values.at("y"), 1.125 - 1.5 - 0.5, 1e-9);
}

// ---- the corpus models' numbers ----

TEST(EventOperators, FloorHarmonicCorpusModel) {
    auto fe = run_corpus("floor_harmonic.mo");
    std::vector<double> h;
    double s = 0;
    for (int n = 1; n <= 6; ++n) h.push_back(s += 1.0 / n);
    const SimulationResult& r = expect_run(*fe, h);
    EXPECT_NEAR(r.final_values.at("x"), 6.35, 1e-9);
}

TEST(EventOperators, SignOscillatorCorpusModel) {
    auto fe = run_corpus("sign_oscillator.mo");
    const double s2 = std::numbers::sqrt2;
    const SimulationResult& r = expect_run(*fe, {s2, 3 * s2, 5 * s2, 7 * s2});
    const double dt = 10 - 7 * s2;
    EXPECT_NEAR(r.final_values.at("v"), s2 - dt, 1e-9);
    EXPECT_NEAR(r.final_values.at("x"), s2 * dt - dt * dt / 2, 1e-9);
    EXPECT_NEAR(r.final_values.at("e"), 1, 1e-9);
}

TEST(EventOperators, MinSaturationCorpusModel) {
    auto fe = run_corpus("min_saturation.mo");
    const SimulationResult& r = expect_run(*fe, {1});
    EXPECT_NEAR(r.final_values.at("x"), 2 - std::exp(-1.0), 1e-9);
    EXPECT_NEAR(r.final_values.at("y"), 2.5, 1e-9);
}

// semiLinear() is the if-expression it stands for, with its event where the
// flow reverses; inside noEvent the same values with no event.
TEST(EventOperators, SemiLinearReversalCorpusModel) {
    auto fe = run_corpus("semilinear_reversal.mo");
    const SimulationResult& r = expect_run(*fe, {M_PI, 2 * M_PI});
    EXPECT_NEAR(r.final_values.at("Q"), 5 - 2 * std::cos(7.0), 1e-9);
    EXPECT_NEAR(r.final_values.at("Q_quiet"), 5 - 2 * std::cos(7.0), 1e-8);
    for (const EventRecord& e : r.events) EXPECT_EQ(e.guards.size(), 1u) << "one of the two occurrences";
}

TEST(EventOperators, IntegerOperatorsCorpusModel) {
    auto fe = run_corpus("integer_operators.mo");
    const SimulationResult& r =
        expect_run(*fe, {0.2, 0.3, 0.5, 0.6, 0.75, 1, 1.1, 1.4, 1.5, 1.75, 1.8, 1.9});
    EXPECT_NEAR(r.final_values.at("c"), 5, 1e-9);
    EXPECT_NEAR(r.final_values.at("d"), 1.2, 1e-9);
    EXPECT_NEAR(r.final_values.at("m"), 0.6875, 1e-9);
    EXPECT_NEAR(r.final_values.at("i"), 1.5, 1e-9);
    EXPECT_NEAR(r.final_values.at("r"), 0, 1e-9);
}

// ---- terminal() ----

TEST(TerminalOperator, WhenTerminalFiresOnceAtTheStopTime) {
    auto fe = run_corpus("when_terminal.mo");
    const SimulationResult& r = expect_run(*fe, {0.5, 1});
    EXPECT_NEAR(r.final_values.at("xEnd"), 2.6, 1e-9);
    EXPECT_NEAR(r.final_values.at("y"), 1.1, 1e-9);
    for (const EventRecord& e : r.events) EXPECT_EQ(e.after.at("xEnd"), -1) << "not before the end";
}

// terminal() outside a when-condition stays refused, with a clear message.
TEST(TerminalOperator, TerminalElsewhereIsRefused) {
    testing::FrontEnd fe(R"(model M
  Real x(start = 0, fixed = true);
equation
  der(x) = if terminal() then 1 else 0;
end M;
)",
                         "flatten");
    EXPECT_TRUE(fe.has("flatten-unsupported-construct")) << fe.diagnostics();
    EXPECT_NE(fe.diagnostics().find("when-condition"), std::string::npos) << fe.diagnostics();
}

// ---- metamorphic: abs(x) and its if-expression ----

// x = sin(t) - 0.5 crosses zero at pi/6, 5pi/6, 13pi/6, 17pi/6: the abs()
// form has an operator event there, the if-expression form a mode change;
// both give the same event times and the same trajectory (compared at the
// stop times 0.5, 1, ..., 10).
TEST(EventOperators, AbsAndItsIfExpressionAgree) {
    auto model = [](const std::string& rhs, double stop) {
        return fmt::format(R"(model M
  Real x(start = -0.5, fixed = true);
  Real y(start = 0, fixed = true);
equation
  der(x) = cos(time);
  der(y) = {};
  annotation(experiment(StopTime = {}));
end M;
)",
                           rhs, stop);
    };
    const double pi = std::numbers::pi;
    const std::vector<double> zeros{pi / 6, 5 * pi / 6, 13 * pi / 6, 17 * pi / 6};
    for (int k = 1; k <= 20; ++k) {
        const double stop = 0.5 * k;
        auto a = run_text(model("abs(x)", stop));
        auto b = run_text(model("if x >= 0 then x else -x", stop));
        ASSERT_TRUE(a->state.simulation && b->state.simulation) << a->diagnostics() << b->diagnostics();
        const SimulationResult& ra = *a->state.simulation;
        const SimulationResult& rb = *b->state.simulation;
        EXPECT_EQ(ra.stopped_because, StopReason::StopTime) << first_message(ra);
        EXPECT_EQ(rb.stopped_because, StopReason::StopTime) << first_message(rb);
        std::vector<double> expected;
        for (double z : zeros)
            if (z < stop) expected.push_back(z);
        const std::vector<double> ta = event_times(ra), tb = event_times(rb);
        ASSERT_EQ(ta.size(), expected.size()) << stop;
        ASSERT_EQ(tb.size(), expected.size()) << stop;
        for (std::size_t i = 0; i < ta.size(); ++i) {
            EXPECT_NEAR(ta[i], expected[i], 1e-9);
            EXPECT_NEAR(ta[i], tb[i], 1e-10);
        }
        EXPECT_NEAR(ra.final_values.at("y"), rb.final_values.at("y"), 1e-9) << stop;
        EXPECT_NEAR(ra.final_values.at("x"), rb.final_values.at("x"), 1e-9) << stop;
    }
}

// ---- the static stages ----

// abs() in an equation makes no modes and no findings: the operators'
// events belong to the simulation alone.
TEST(EventOperators, StaticStagesSeeNoModesAndNoFindings) {
    testing::FrontEnd fe(R"(model M
  Real x(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
  Real e;
equation
  der(x) = v;
  der(v) = -sign(x) - 0.1*abs(v)*v + min(x, 0) - max(floor(x), 0);
  e = v^2/2 + abs(x) + noEvent(abs(x));
end M;
)",
                         "verification");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    EXPECT_EQ(fe.modes().modes.size(), 1u);
    EXPECT_TRUE(fe.modes().transitions.empty());
    EXPECT_EQ(fe.diagnostics(), "");
}

}  // namespace
}  // namespace modeaudit

namespace modeaudit {
namespace {

// A when-condition that reads an operator which jumps: `floor(x) > 2` with
// x = t is at most 0 on [0, 3) (0 on [2, 3), where the guard floor(x) - 2
// touches 0 and stays there) and jumps to 1 at t = 3. The guard is frozen
// with floor (event_operators.h, jumps_only) and the transition fires at
// floor's event at t = 3, in one instant with it (it was missed, with a
// warning that the search gave up, when floor was followed as a function).
// abs in a guard stays a continuous function: no event at its kink.
TEST(EventOperators, AGuardThatJumpsWithItsOperatorFiresAtTheOperatorsEvent) {
    auto fe = std::make_unique<testing::FrontEnd>(R"(model G
  Real x(start = 0, fixed = true);
  Integer n(start = 0, fixed = true);
  Integer m(start = 0, fixed = true);
equation
  der(x) = 1;
  when floor(x) > 2 then
    n = pre(n) + 1;
  end when;
  when abs(x - 1) > 1.5 then
    m = pre(m) + 1;
  end when;
  annotation(experiment(StopTime = 4));
end G;)",
                                                  "simulation");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << first_message(r);
    EXPECT_EQ(r.final_values.at("n"), 1);
    EXPECT_EQ(r.final_values.at("m"), 1);
    std::vector<std::string> what;
    for (const EventRecord& e : r.events)
        what.push_back(fmt::format("{:.9f} {}", e.time, e.guards.empty() ? "" : e.guards.front()));
    // floor's events at 1, 2, 3; abs(x - 1) > 1.5 crosses at x = 2.5; the
    // guard floor(x) - 2 fires at 3 with floor's event.
    EXPECT_EQ(fmt::format("{}", fmt::join(what, "; ")),
              "1.000000000 floor(x) jumps; 2.000000000 floor(x) jumps; 2.500000000 abs(x - 1) - 1.5; "
              "3.000000000 floor(x) jumps; 3.000000000 floor(x) - 2");
    for (const Diagnostic& d : fe->state.sink.all()) EXPECT_NE(d.rule, "sim-event-search-incomplete") << d.message;
}

}  // namespace
}  // namespace modeaudit
