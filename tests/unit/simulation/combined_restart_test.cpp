// Simultaneous events (simulation/combined_restart.h): transitions that fire
// at one instant restart with the combined transition to their joint
// target, derived by the static stages' functions, never with one clause's
// restart alone. References are closed forms: a clutch pair's momentum
// average (J1 w1 + J2 w2)/(J1 + J2), a plastic landing's v+ = 0 and the
// free-fall time sqrt(2 h0/g).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

#include "mode_change/mode_change_array.h"
#include "modes/simultaneous.h"
#include "simulation/combined_restart.h"
#include "simulation/derived_restart.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

std::unique_ptr<testing::FrontEnd> run(const std::string& name, std::string_view until) {
    return testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/" + name, until);
}

int mode_index(const ModeSet& modes, const std::string& id) {
    for (std::size_t k = 0; k < modes.modes.size(); ++k)
        if (modes.modes[k].id == id) return static_cast<int>(k);
    ADD_FAILURE() << "no mode " << id;
    return -1;
}

// The transitions out of the initial mode (the two that fire together).
std::vector<int> from_initial(const ModeSet& modes) {
    std::vector<int> out;
    for (std::size_t t = 0; t < modes.transitions.size(); ++t)
        if (modes.transitions[t].from == 0 && modes.transitions[t].parts.empty()) out.push_back(static_cast<int>(t));
    return out;
}

double param(const FlatModel& flat, const std::string& name) {
    for (const FlatVariable& v : flat.variables)
        if (v.name == name && v.value) return GiNaC::ex_to<GiNaC::numeric>(GiNaC::evalf(*v.value)).to_double();
    throw std::runtime_error("no parameter " + name);
}

TEST(CombinedRestart, TwoClutchesEngagingAtOneInstantEachKeepTheirMomentum) {
    auto fe = run("two_clutches_same_instant.mo", "simulation");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    EXPECT_NEAR(r.end_time, 0.2, 1e-12);
    ASSERT_EQ(r.events.size(), 1u);
    const EventRecord& ev = r.events[0];
    EXPECT_EQ(ev.guards.size(), 2u);
    EXPECT_EQ(ev.to_id, "engaged1=true,engaged2=true");
    EXPECT_EQ(ev.verdict, "impulsive");
    EXPECT_NE(ev.message.find("combined transition of 2 guards"), std::string::npos) << ev.message;
    EXPECT_NEAR(ev.time, 0.1, 1e-10);
    const FlatModel& flat = fe->flat();
    const double J1 = param(flat, "J1"), J2 = param(flat, "J2"), J3 = param(flat, "J3"), J4 = param(flat, "J4");
    // Each pair at its own momentum average, from the left limits (closed form).
    const double p1 = (J1 * ev.before.at("w1") + J2 * ev.before.at("w2")) / (J1 + J2);
    const double p2 = (J3 * ev.before.at("w3") + J4 * ev.before.at("w4")) / (J3 + J4);
    EXPECT_NEAR(p1, 2.0, 1e-10);  // (2*3 + 1*0)/3: the shafts turn freely before
    EXPECT_NEAR(p2, 3.5, 1e-10);  // (1*(-1) + 3*5)/4
    EXPECT_NEAR(ev.after.at("w1"), p1, 1e-10);
    EXPECT_NEAR(ev.after.at("w2"), p1, 1e-10);
    EXPECT_NEAR(ev.after.at("w3"), p2, 1e-10);
    EXPECT_NEAR(ev.after.at("w4"), p2, 1e-10);
    // No load: the engaged pairs keep turning at those speeds to the end.
    EXPECT_NEAR(r.final_values.at("w1"), p1, 1e-10);
    EXPECT_NEAR(r.final_values.at("w4"), p2, 1e-10);
    // The sensitivity rerun (same RestartFunction, cached combined restart) agrees.
    EXPECT_TRUE(fe->state.sensitivity.ran);
    EXPECT_TRUE(fe->state.sensitivity.same_events);
}

TEST(CombinedRestart, TwoBallsLandingAtOneInstantBothStop) {
    auto fe = run("two_balls_plastic_same_instant.mo", "simulation");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    EXPECT_NEAR(r.end_time, 0.6, 1e-12);
    ASSERT_EQ(r.events.size(), 1u);
    const EventRecord& ev = r.events[0];
    EXPECT_EQ(ev.guards.size(), 2u);
    EXPECT_EQ(ev.to_id, "landed1=true,landed2=true");
    EXPECT_EQ(ev.verdict, "impulsive");
    EXPECT_NE(ev.message.find("combined transition of 2 guards"), std::string::npos) << ev.message;
    const double g = param(fe->flat(), "g");
    // Free fall from h0 = 1 at rest: t = sqrt(2/g), v- = -sqrt(2 g).
    EXPECT_NEAR(ev.time, std::sqrt(2 / g), 1e-8);
    EXPECT_NEAR(ev.before.at("v1"), -std::sqrt(2 * g), 1e-6);
    EXPECT_NEAR(ev.before.at("v2"), -std::sqrt(2 * g), 1e-6);
    // Plastic: both stop at once.
    EXPECT_NEAR(ev.after.at("v1"), 0.0, 1e-10);
    EXPECT_NEAR(ev.after.at("v2"), 0.0, 1e-10);
    // At rest on the floors to the end, each floor carrying its ball's weight.
    EXPECT_NEAR(r.final_values.at("v1"), 0.0, 1e-10);
    EXPECT_NEAR(r.final_values.at("v2"), 0.0, 1e-10);
    EXPECT_NEAR(r.final_values.at("f1"), param(fe->flat(), "m1") * g, 1e-8);
    EXPECT_NEAR(r.final_values.at("f2"), param(fe->flat(), "m2") * g, 1e-8);
}

TEST(CombinedRestart, TheCombinedTransitionCarriesEveryGuardAndEveryClausesActions) {
    auto fe = run("two_balls_plastic_same_instant.mo", "structure");
    const ModeSet& modes = fe->modes();
    std::vector<int> fired = from_initial(modes);
    ASSERT_EQ(fired.size(), 2u);
    const int target = mode_index(modes, "landed1=true,landed2=true");
    Transition c = combine_transitions(modes, fired, target);
    EXPECT_EQ(c.from, 0);
    EXPECT_EQ(c.to, target);
    ASSERT_EQ(c.simultaneous.size(), 1u);
    const std::vector<GiNaC::ex> roots = root_guards(c);
    ASSERT_EQ(roots.size(), 2u);
    for (int t : fired) {
        const GiNaC::ex& g = modes.transitions[static_cast<std::size_t>(t)].guard;
        EXPECT_TRUE(std::any_of(roots.begin(), roots.end(), [&](const GiNaC::ex& r) { return r.is_equal(g); }))
            << g;
    }
    // A time event's guard is no root fact.
    auto clutches = run("two_clutches_same_instant.mo", "structure");
    std::vector<int> both = from_initial(clutches->modes());
    ASSERT_EQ(both.size(), 2u);
    EXPECT_TRUE(root_guards(combine_transitions(clutches->modes(), both,
                                                mode_index(clutches->modes(), "engaged1=true,engaged2=true")))
                    .empty());
}

TEST(CombinedRestart, CoincidingTimeEventsAreStudiedStaticallyAsOneTransition) {
    // Two when-clauses on time >= 0.1: the modes stage adds their combined
    // transition ff -> tt (modes/simultaneous.h), and the run's combined
    // event is attributed to it.
    auto clutches = run("two_clutches_same_instant.mo", "structure");
    const ModeSet& modes = clutches->modes();
    const int tt = mode_index(modes, "engaged1=true,engaged2=true");
    std::vector<int> combined;
    for (std::size_t t = 0; t < modes.transitions.size(); ++t)
        if (!modes.transitions[t].parts.empty()) combined.push_back(static_cast<int>(t));
    ASSERT_EQ(combined.size(), 1u);
    const Transition& c = modes.transitions[static_cast<std::size_t>(combined[0])];
    EXPECT_EQ(c.from, 0);
    EXPECT_EQ(c.to, tt);
    EXPECT_EQ(c.parts, from_initial(modes));
    ASSERT_EQ(c.simultaneous.size(), 1u);
    EXPECT_EQ(c.simultaneous[0].guard_text, c.guard_text);
    // Guards on different instants are not combined.
    auto balls = run("two_balls_plastic_same_instant.mo", "structure");
    for (const Transition& t : balls->modes().transitions) EXPECT_TRUE(t.parts.empty()) << t.guard_text;
}

TEST(CombinedRestart, GuardsCoincideOnOneSurfaceOrWithinEventTolerance) {
    const GiNaC::symbol t("time"), x("x");
    const double a = 0.3 - 0.2;  // 0.09999999999999998
    EXPECT_TRUE(guards_coincide(t - 0.1, t - 0.1, t));
    EXPECT_TRUE(guards_coincide(t - a, t - 0.1, t));                  // instants within 1e-10 relative
    EXPECT_TRUE(guards_coincide(2 * t - 0.2, t - 0.1, t));            // the same instant, scaled
    EXPECT_FALSE(guards_coincide(t - 0.1, t - 0.1000001, t));         // a microsecond apart: two events
    EXPECT_FALSE(guards_coincide(0.1 - t, t - 0.1, t));               // crossed the other way
    EXPECT_TRUE(guards_coincide(2 * x - 2, x - 1, t));                // one surface, the same direction
    EXPECT_FALSE(guards_coincide(1 - x, x - 1, t));
    EXPECT_FALSE(guards_coincide(x - 1, x - 1 - 1e-12, t));           // a state surface is not given a tolerance
}

TEST(CombinedRestart, TimeEventsThatCoincideNumericallyAreCombinedStatically) {
    // T1 = 0.333333333333333 (a third as typed) and T2 = 1/3 differ by
    // 3e-16, far below event location's tolerance: the run meets them as
    // one event, and the modes stage now combines them too (before, only
    // guards equal symbolically were).
    std::ifstream in(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/two_clutches_same_instant.mo");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto swap = [&](const std::string& from, const std::string& to) {
        const std::size_t p = text.find(from);
        ASSERT_NE(p, std::string::npos) << from;
        text.replace(p, from.size(), to);
    };
    swap("  when time >= 0.1 then\n    engaged1", "  when time >= T1 then\n    engaged1");
    swap("  when time >= 0.1 then\n    engaged2", "  when time >= T2 then\n    engaged2");
    swap("  parameter Real J1", "  parameter Real T1 = 0.333333333333333, T2 = 1/3;\n  parameter Real J1");
    testing::FrontEnd fe(text, "structure");
    std::size_t combined = 0;
    for (const Transition& t : fe.modes().transitions) combined += t.parts.empty() ? 0 : 1;
    EXPECT_EQ(combined, 1u) << fe.diagnostics();
}

TEST(CombinedRestart, BothRootFactsAreNeededForTheLandingsRestart) {
    auto fe = run("two_balls_plastic_same_instant.mo", "restart");
    ASSERT_TRUE(fe->state.restarts) << fe->diagnostics();
    const ModeSet& modes = fe->modes();
    std::vector<int> fired = from_initial(modes);
    const int target = mode_index(modes, "landed1=true,landed2=true");
    CombinedRestarts cache(*fe->state.structure, {}, {});
    auto c = cache.get(fe->flat(), modes, fired, target);
    EXPECT_EQ(c->restart.verdict, Verdict::Impulsive) << c->restart.explanation;
    EXPECT_EQ(c->restart.impulse_orders.at("f1"), 1);
    EXPECT_EQ(c->restart.impulse_orders.at("f2"), 1);
    EXPECT_EQ(c->restart.height, 1);
    ASSERT_TRUE(c->restart.system);
    // The velocities are restart values (v1+ = v2+ = 0), the heights carried.
    EXPECT_EQ(c->restart.system->restart_values.size(), 2u);
    EXPECT_EQ(c->restart.continuous_states, (std::vector<std::string>{"h1", "h2"}));
    // Cached by (P, N, fired set), in any order.
    std::vector<int> reversed(fired.rbegin(), fired.rend());
    EXPECT_EQ(cache.get(fe->flat(), modes, reversed, target).get(), c.get());
    EXPECT_EQ(cache.derived(), 1u);
    // With the first guard's root fact alone, h2 = 0 is not a fact: the
    // array needs height 2 and makes h2 jump onto the floor by an impulse
    // of order 2 (a position jump the landing does not have).
    Transition first_only = c->transition;
    first_only.simultaneous.clear();
    ModeSet with = modes;
    with.transitions.push_back(first_only);
    ModeChangeResult mc;
    mc.transitions.push_back(
        study_transition(fe->flat(), with, *fe->state.structure, static_cast<int>(with.transitions.size()) - 1));
    RescalingStageResult rs = rescale_transitions(fe->flat(), mc);
    TransitionRestart one = derive_restart(fe->flat(), with, mc.transitions[0], rs.arrays[0]);
    EXPECT_EQ(one.height, 2) << one.explanation;
    EXPECT_EQ(one.impulse_orders.at("f2"), 2) << one.explanation;
}

// The rope tightened by a time command (corpus/flawed/cup_and_ball_time_
// command.mo, undetermined) and a clutch engaging at the same instant: the
// combined transition is undetermined too, and the run stops there with
// that verdict and its explanation instead of applying the clutch's restart.
TEST(CombinedRestart, AnUndeterminedCombinedRestartStopsTheRun) {
    testing::FrontEnd fe(R"(
model RopeAndClutch
  parameter Real L = 1, g = 9.81, J1 = 2, J2 = 1;
  Real x(start = 0.5, fixed = true), y(start = 0.04905, fixed = true);
  Real vx(start = 0, fixed = true), vy(start = 0, fixed = true);
  Real lambda;
  Real w1(start = 3, fixed = true), w2(start = 0, fixed = true), tau;
  Boolean taut(start = false), engaged(start = false);
equation
  der(x) = vx;
  der(y) = vy;
  der(vx) = -lambda*x;
  der(vy) = -lambda*y - g;
  J1*der(w1) = -tau;
  J2*der(w2) = tau;
  if taut then
    x^2 + y^2 = L^2;
  else
    lambda = 0;
  end if;
  if engaged then
    w1 = w2;
  else
    tau = 0;
  end if;
  when time >= 0.1 then
    taut = true;
  end when;
  when time >= 0.1 then
    engaged = true;
  end when;
  annotation(experiment(StopTime = 0.2));
end RopeAndClutch;
)",
                         "simulation");
    ASSERT_TRUE(fe.state.simulation) << fe.diagnostics();
    const SimulationResult& r = *fe.state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::UndeterminedRestart);
    EXPECT_NEAR(r.end_time, 0.1, 1e-10);
    ASSERT_EQ(r.events.size(), 1u);
    const EventRecord& ev = r.events[0];
    EXPECT_EQ(ev.verdict, "undetermined");
    EXPECT_EQ(ev.message.rfind("combined transition of 2 guards (time - 0.1, time - 0.1): ", 0), 0u) << ev.message;
    EXPECT_NE(ev.message.find("triggered by time"), std::string::npos) << ev.message;
    EXPECT_TRUE(ev.after.empty());
}

}  // namespace
}  // namespace modeaudit
