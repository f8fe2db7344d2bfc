// Time at restarts: an explicit `time` in the equations a restart solves
// takes the event time, in the continuous restart (seed 000, 4.2), in the
// restart system of Procedure 1, in the simulation's derived restart and in
// the checks of the restart values at a simulated event. The closed forms:
// a constraint x = time (x = sin(time)) switched on at t gives x+ = t
// (sin(t)) and, by its derivative, der(x)+ = 1 (cos(t)).
#include <gtest/gtest.h>

#include <cmath>

#include "restart/continuous.h"
#include "restart/restart.h"
#include "restart/verdict.h"
#include "simulation/simulation.h"
#include "support/front_end.h"
#include "verification/verification.h"

namespace modeaudit {
namespace {

int mode_index(const ModeSet& modes, const std::string& id) {
    for (std::size_t k = 0; k < modes.modes.size(); ++k)
        if (modes.modes[k].id == id) return static_cast<int>(k);
    ADD_FAILURE() << "no mode " << id;
    return 0;
}

// x = time from the instant the clock y passes 0.5 (a state event, so the
// restart is the symbolically continuous one: x+ from the new mode's
// consistency condition x - time = 0).
const char* kStateTriggered = R"(
model StateTriggered
  Real x(start = 0), v;
  Real y(start = 0, fixed = true);
  Boolean locked(start = false);
equation
  der(y) = 1;
  if locked then
    x = time;
    v = der(x);
  else
    x = 0;
    v = 0;
  end if;
  when y > 0.5 then
    locked = true;
  end when;
end StateTriggered;
)";

TEST(TimeAtRestart, ContinuousRestartSolvesTheConstraintAtTheEventTime) {
    testing::FrontEnd fe(kStateTriggered, "structure");
    ASSERT_TRUE(fe.state.structure) << fe.diagnostics();
    const StructureResult& st = *fe.state.structure;
    const ModeStructure& free = st.modes.at(static_cast<std::size_t>(mode_index(fe.modes(), "locked=false")));
    const ModeStructure& locked = st.modes.at(static_cast<std::size_t>(mode_index(fe.modes(), "locked=true")));
    for (double t : {0.5, 0.7, 0.0}) {
        ContinuousRestart r = continuous_restart(fe.flat(), free, locked, {{"y", t}, {"x", 0.0}}, t);
        ASSERT_TRUE(r.consistent) << "t = " << t << ": " << r.message;
        EXPECT_NEAR(r.values.at("x"), t, 1e-12) << "t = " << t;
        EXPECT_NEAR(r.values.at("v"), 1.0, 1e-12) << "t = " << t;
        EXPECT_NEAR(r.values.at("y"), t, 0.0) << "the clock is carried over";
    }
}

// The corpus model switches x = sin(time) on at the time event t = 0.5; its
// restart system (Procedure 1) contains x+ - sin(time) = 0.
TEST(TimeAtRestart, RestartSystemIsSolvedAtTheEventTime) {
    auto fe = testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/constraint_follows_time.mo",
                                           "restart");
    ASSERT_TRUE(fe->state.restarts) << fe->diagnostics();
    ASSERT_EQ(fe->state.restarts->transitions.size(), 1u);
    const TransitionRestart& tr = fe->state.restarts->transitions[0];
    EXPECT_EQ(tr.verdict, Verdict::Continuous);
    ASSERT_TRUE(tr.system);
    std::map<std::string, double> left;
    for (const auto& [base, sym] : tr.system->left_limits) left[base] = base == "y" ? 0.5 : 0.0;
    for (double t : {0.5, 0.7}) {
        RestartSolution s = solve_restart(fe->flat(), *tr.system, left, t);
        ASSERT_TRUE(s.solved) << s.message;
        EXPECT_TRUE(s.locally_unique);
        EXPECT_NEAR(s.values.at("x+"), std::sin(t), 1e-12) << "t = " << t;
        EXPECT_NEAR(s.values.at("der(x)"), std::cos(t), 1e-12) << "t = " << t;
    }
}

// End to end: the simulation's derived restart passes the event time, and
// the event's verification checks the assert x <= time at it.
TEST(TimeAtRestart, SimulatedRestartAndItsChecksUseTheEventTime) {
    auto fe = testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/constraint_follows_time.mo",
                                           "simulation");
    ASSERT_TRUE(fe->state.simulation) << fe->diagnostics();
    const SimulationResult& r = *fe->state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.back());
    ASSERT_EQ(r.events.size(), 1u);
    const EventRecord& ev = r.events[0];
    EXPECT_NEAR(ev.time, 0.5, 1e-12);
    EXPECT_EQ(ev.verdict, "continuous");
    EXPECT_NEAR(ev.after.at("x"), std::sin(0.5), 1e-10);
    EXPECT_NEAR(ev.after.at("v"), std::cos(0.5), 1e-10);
    EXPECT_NEAR(r.final_values.at("x"), std::sin(1.0), 1e-7);
    ASSERT_TRUE(fe->state.verification);
    ASSERT_EQ(fe->state.verification->events.size(), 1u);
    const EventVerification& v = fe->state.verification->events[0];
    ASSERT_EQ(v.admissibility.size(), 1u);
    EXPECT_EQ(v.admissibility[0].status, CheckStatus::Holds);
    EXPECT_NEAR(v.admissibility[0].value, 0.5 - std::sin(0.5), 1e-10);
    EXPECT_FALSE(fe->has("sim-stopped-early")) << fe->diagnostics();
}

}  // namespace
}  // namespace modeaudit
