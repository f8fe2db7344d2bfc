// The reference simulation against the seeds' numbers (acceptance-numbers.md):
// the rope's capture (seed 000, 5.2), RLDC2's second diode (5.1), the
// bouncing ball's impacts and Zeno accumulation and FilterBlock1 (seed 004),
// plus inline models for narrow guard windows, tangency and guards and
// asserts on implicitly defined variables.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "mode_change/mode_change_array.h"
#include "mode_change/normalize.h"
#include "rescaling/rescaling.h"
#include "restart/continuous.h"
#include "restart/restart.h"
#include "simulation/integrator.h"
#include "simulation/mode_system.h"
#include "simulation/simulation.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

std::unique_ptr<testing::FrontEnd> corpus(const std::string& name) {
    auto fe = testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/" + name, "structure");
    EXPECT_TRUE(fe->state.structure) << fe->diagnostics();
    return fe;
}

int mode_index(const testing::FrontEnd& fe, const std::string& id) {
    for (std::size_t k = 0; k < fe.modes().modes.size(); ++k)
        if (fe.modes().modes[k].id == id) return static_cast<int>(k);
    ADD_FAILURE() << "no mode " << id;
    return -1;
}

// theta from the downward vertical: q = L (sin theta, -cos theta).
double theta(const std::map<std::string, double>& v) { return std::atan2(v.at("x"), -v.at("y")); }
double omega(const std::map<std::string, double>& v) {
    return v.at("x") * v.at("vy") - v.at("y") * v.at("vx");  // L = 1
}

// The capture restart derived as in the mode_change unit test: normalized
// first-order modes, the array at K = 1, the Z3 rescaling, Procedure 1.
RestartFunction cup_capture(const testing::FrontEnd& fe) {
    return [&fe](const RestartRequest& r) {
        RestartAnswer a;
        NormalizedTransition nt = normalize_first_order(fe.flat(), fe.modes().modes[static_cast<std::size_t>(r.from)],
                                                        fe.modes().modes[static_cast<std::size_t>(r.to)]);
        ArrayInput in = array_input(fe.flat(), nt, r.transition);
        ModeChangeArray arr = build_mode_change_array(in, 1);
        RescalingResult res = solve_rescaling(arr, restart_variables(in, arr));
        if (!arr.matched || !res.solved) {
            a.verdict = "undetermined";
            return a;
        }
        RestartSystem s = procedure1(in, arr, res);
        std::map<std::string, double> left{{"x", r.left_limits.at("x")},
                                           {"y", r.left_limits.at("y")},
                                           {"der(x)", r.left_limits.at("der(x)")},
                                           {"der(y)", r.left_limits.at("der(y)")}};
        RestartSolution sol = solve_restart(fe.flat(), s, left, r.time);
        if (!sol.solved) {
            a.verdict = "undetermined";
            a.message = sol.message;
            return a;
        }
        const double vx = sol.values.at("der(x)+"), vy = sol.values.at("der(y)+");
        a.values = {{"x", left.at("x")}, {"y", left.at("y")}, {"der(x)", vx}, {"der(y)", vy}, {"vx", vx}, {"vy", vy}};
        a.ok = true;
        a.verdict = "impulsive";
        return a;
    };
}

const AssertRecord* find_assert(const SegmentRecord& s, const std::string& message_part) {
    for (const AssertRecord& a : s.asserts)
        if (a.message.find(message_part) != std::string::npos) return &a;
    return nullptr;
}

TEST(Simulation, CupAndBallFreeFlightEventCaptureAndTautMotion) {
    auto fe = corpus("cup_and_ball.mo");
    SimulationOptions o;
    o.stop_time = 0.2;
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, o, cup_capture(*fe));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    ASSERT_EQ(r.events.size(), 1u);
    const EventRecord& e = r.events[0];
    EXPECT_NEAR(e.time, 0.1, 1e-10);
    EXPECT_EQ(e.from_id, "taut=false");
    EXPECT_EQ(e.to_id, "taut=true");
    EXPECT_EQ(e.verdict, "impulsive");
    EXPECT_NEAR(e.before.at("x"), 0.6, 1e-9);
    EXPECT_NEAR(e.before.at("y"), -0.8, 1e-9);
    EXPECT_NEAR(e.before.at("vx"), 2.0, 1e-9);
    EXPECT_NEAR(e.before.at("vy"), -1.0, 1e-9);
    EXPECT_NEAR(e.after.at("vx"), 0.8, 1e-9);
    EXPECT_NEAR(e.after.at("vy"), 0.6, 1e-9);
    EXPECT_NEAR(e.after.at("lambda"), 8.848, 1e-8);
    // 0.1 s of taut motion after the capture (seed 000, 5.2).
    EXPECT_NEAR(theta(r.final_values), 0.712977020833, 1e-8);
    EXPECT_NEAR(omega(r.final_values), 0.380685005685, 1e-8);
    ASSERT_EQ(r.segments.size(), 2u);
    const AssertRecord* tension = find_assert(r.segments[1], "push");
    ASSERT_NE(tension, nullptr);
    EXPECT_FALSE(tension->violated);
    EXPECT_GT(tension->min_margin, 0);
    EXPECT_LT(r.segments[1].max_drift, 1e-12);
}

TEST(Simulation, TautModeFromTheCaptureStateMatchesTheSeed) {
    auto fe = corpus("cup_and_ball.mo");
    SimulationOptions o;
    o.start_mode = mode_index(*fe, "taut=true");
    o.stop_time = 0.1;
    // der(x) and der(y) are states of the taut mode too; they follow from
    // the consistency conditions der(x) = vx, der(y) = vy.
    o.initial_values = {{"x", 0.6}, {"y", -0.8}, {"vx", 0.8}, {"vy", 0.6}};
    o.record_steps = true;
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, o, supplied_restart(*fe->state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    EXPECT_TRUE(r.events.empty());
    EXPECT_NEAR(theta(r.final_values), 0.712977020833, 1e-8);
    EXPECT_NEAR(omega(r.final_values), 0.380685005685, 1e-8);
    ASSERT_EQ(r.segments.size(), 1u);
    const SegmentRecord& s = r.segments[0];
    const AssertRecord* tension = find_assert(s, "push");
    ASSERT_NE(tension, nullptr);
    EXPECT_FALSE(tension->violated);
    EXPECT_GT(tension->min_margin, 7.5);  // lambda falls from 8.848 to 7.565 as the ball rises
    // Projection keeps the rope length: the residual after each step is at
    // rounding level, below what the integrator left before projecting.
    EXPECT_LT(s.max_drift, 1e-13);
    EXPECT_GT(s.max_drift_before_projection, s.max_drift);
    EXPECT_GT(r.samples.size(), 10u);

    o.project = false;
    SimulationResult unprojected = simulate(fe->flat(), fe->modes(), *fe->state.structure, o,
                                            supplied_restart(*fe->state.structure));
    ASSERT_EQ(unprojected.stopped_because, StopReason::StopTime);
    EXPECT_GT(unprojected.segments[0].max_drift, s.max_drift);
}

// The taut mode's states are x, der(x), y, der(y), vx, vy with the
// consistency conditions der(x) = vx and der(y) = vy: four are integrated,
// the other two are their copies, and the results still name all six.
TEST(Simulation, AliasStatesAreIntegratedOnceAndReportedAsCopies) {
    auto fe = corpus("cup_and_ball.mo");
    const int taut = mode_index(*fe, "taut=true");
    sim::ModeSystem sys(fe->flat(), fe->modes(), taut, fe->state.structure->modes.at(static_cast<std::size_t>(taut)));
    EXPECT_EQ(sys.state_names(), (std::vector<std::string>{"x", "y", "vx", "vy"}));
    EXPECT_EQ(sys.all_state_names(), (std::vector<std::string>{"x", "der(x)", "y", "der(y)", "vx", "vy"}));
    const double x[4] = {0.6, -0.8, 0.8, 0.6};
    double all[6];
    sys.expand(x, all);
    EXPECT_EQ(all[1], 0.8);  // der(x) = vx
    EXPECT_EQ(all[3], 0.6);  // der(y) = vy
    EXPECT_LT(sys.constraint_residual(0, x), 1e-15);
    double xdot[4], y[7] = {};
    ASSERT_TRUE(sys.solve_leading(0, x, y));
    sys.state_derivative(x, y, xdot);
    EXPECT_EQ(xdot[0], 0.8);  // d/dt x is der(x), the copy of vx
    EXPECT_EQ(xdot[1], 0.6);
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, {}, cup_capture(*fe));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    EXPECT_EQ(r.segments.back().state_names, sys.all_state_names());
    EXPECT_EQ(r.final_values.at("der(x)"), r.final_values.at("vx"));
    EXPECT_EQ(r.events.at(0).after.at("der(y)"), r.events.at(0).after.at("vy"));
}

// The interpolant read from CVODE's Nordsieck array (Integrator::
// interpolant) against CVODE's own interpolation (CVodeGetDky through
// states_at) inside every step of the taut rope, where the order climbs to
// 5: the two routes agree to rounding.
TEST(Simulation, InterpolantAgreesWithCvodesOwnInterpolationInsideEveryStep) {
    auto fe = corpus("cup_and_ball.mo");
    const int taut = mode_index(*fe, "taut=true");
    sim::ModeSystem sys(fe->flat(), fe->modes(), taut, fe->state.structure->modes.at(static_cast<std::size_t>(taut)));
    sim::Integrator integ(sys, {});
    const std::vector<double> x0{0.6, -0.8, 0.8, 0.6};
    std::vector<double> y0(sys.leading_count(), 0.0);
    ASSERT_TRUE(sys.solve_leading(0, x0.data(), y0.data()));
    integ.start(0, x0, y0, 0.3);
    int max_degree = 0, steps = 0;
    std::vector<double> from_poly(4), from_cvode;
    std::string error;
    while (integ.time() < 0.3) {
        ASSERT_TRUE(integ.step(error)) << error;
        ++steps;
        const sim::StatePolynomial& p = integ.interpolant();
        max_degree = std::max(max_degree, p.degree);
        for (double f : {0.0, 0.25, 0.5, 0.75, 1.0}) {
            const double t = p.t0 + f * (p.t1 - p.t0);
            p.value(t, from_poly.data());
            ASSERT_TRUE(integ.states_at(t, from_cvode));
            for (std::size_t i = 0; i < 4; ++i)
                EXPECT_NEAR(from_poly[i], from_cvode[i], 1e-13 * (1 + std::fabs(from_cvode[i]))) << "step " << steps;
        }
    }
    EXPECT_TRUE(integ.reads_nordsieck());
    EXPECT_GE(max_degree, 4);
    EXPECT_GT(steps, 20);
}

// A resource limit ends the run as limit-exceeded, naming the limit: not a
// solver failure, which would blame the model.
TEST(Simulation, AResourceLimitStopsTheRunAsLimitExceeded) {
    auto fe = corpus("bouncing_ball.mo");
    SimulationOptions o;
    o.stop_time = 5;
    o.max_steps = 3;
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, o, supplied_restart(*fe->state.structure));
    EXPECT_EQ(r.stopped_because, StopReason::LimitExceeded);
    EXPECT_EQ(stop_reason_name(r.stopped_because), "limit-exceeded");
    EXPECT_EQ(r.limit, "simulation steps");
    EXPECT_EQ(r.limit_option, "--max-steps");
    EXPECT_LT(r.end_time, 5);
}

TEST(Simulation, TautModeFromInconsistentValuesIsAClearFailure) {
    auto fe = corpus("cup_and_ball.mo");
    SimulationOptions o;
    o.start_mode = mode_index(*fe, "taut=true");
    o.stop_time = 0.1;
    o.initial_values = {{"x", 0.6}, {"y", -0.8}, {"vx", 2}, {"vy", -1}, {"der(x)", 2}, {"der(y)", -1}};
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, o, supplied_restart(*fe->state.structure));
    EXPECT_EQ(r.stopped_because, StopReason::SolverFailure);
    ASSERT_FALSE(r.messages.empty());
    EXPECT_NE(r.messages[0].find("violate the consistency conditions"), std::string::npos) << r.messages[0];
    o.initial_values = {{"z", 1}};
    EXPECT_THROW(simulate(fe->flat(), fe->modes(), *fe->state.structure, o, supplied_restart(*fe->state.structure)),
                 std::invalid_argument);
}

// From the bottom with speed 5 the ball rises until the tension
// lambda = v.v - g y = 25 - 2g - 3g y (energy conservation) reaches zero at
// y = (25 - 2g)/(3g) = 0.183, above the horizontal and below the height
// where the speed would vanish (0.274): the assert "the rope can pull but
// not push" is violated there, located on the interpolant.
TEST(Simulation, TensionAssertViolationIsLocated) {
    auto fe = corpus("cup_and_ball.mo");
    SimulationOptions o;
    o.start_mode = mode_index(*fe, "taut=true");
    o.stop_time = 1.0;
    o.initial_values = {{"x", 0.0}, {"y", -1.0}, {"vx", 5.0}, {"vy", 0.0}};
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, o, supplied_restart(*fe->state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    const AssertRecord* tension = find_assert(r.segments.at(0), "push");
    ASSERT_NE(tension, nullptr);
    ASSERT_TRUE(tension->violated);
    EXPECT_LT(tension->value, 0);
    EXPECT_GT(tension->value, -1e-6);
    EXPECT_LT(tension->min_margin, 0);
    // Stopped at the reported time, the ball is where lambda = 0.
    o.stop_time = tension->time;
    SimulationResult at = simulate(fe->flat(), fe->modes(), *fe->state.structure, o, supplied_restart(*fe->state.structure));
    const double g = 9.81;
    EXPECT_NEAR(at.final_values.at("y"), (25 - 2 * g) / (3 * g), 1e-7);
    EXPECT_NEAR(at.final_values.at("lambda"), 0.0, 1e-6);
}

// Without a derived restart the capture is undetermined: carrying the
// velocity into the taut mode violates tangency (seed 000, 4.2).
TEST(Simulation, CupAndBallWithContinuityOnlyStopsUndetermined) {
    auto fe = corpus("cup_and_ball.mo");
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, {}, supplied_restart(*fe->state.structure));
    EXPECT_EQ(r.stopped_because, StopReason::UndeterminedRestart);
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_NEAR(r.events[0].time, 0.1, 1e-10);
    EXPECT_NE(r.events[0].message.find("violate"), std::string::npos) << r.events[0].message;
}

TEST(Simulation, Rldc2SecondDiodeEventAndContinuousRestart) {
    auto fe = corpus("rldc2.mo");
    const double t_event = 0.055317579971;
    SimulationOptions o;
    o.stop_time = t_event + 0.001;
    const StructureResult& st = *fe->state.structure;
    RestartFunction continuous = [&](const RestartRequest& r) {
        ContinuousRestart c = continuous_restart(r.flat, st.modes[static_cast<std::size_t>(r.from)],
                                                 st.modes[static_cast<std::size_t>(r.to)], r.left_limits, r.time);
        RestartAnswer a;
        a.ok = c.consistent;
        a.values = c.values;
        a.verdict = c.consistent ? "continuous" : "undetermined";
        a.message = c.message;
        return a;
    };
    SimulationResult r = simulate(fe->flat(), fe->modes(), st, o, continuous);
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    ASSERT_EQ(r.events.size(), 1u);
    const EventRecord& e = r.events[0];
    EXPECT_NEAR(e.time, t_event, 1e-9);
    EXPECT_EQ(e.from_id, "off1=false,off2=true");
    EXPECT_EQ(e.to_id, "off1=false,off2=false");
    EXPECT_NEAR(e.before.at("v1"), 0.7, 1e-9);
    EXPECT_NEAR(e.before.at("v2"), 0.7, 1e-9);
    EXPECT_NEAR(e.before.at("j1"), -0.088645906588, 1e-9);
    EXPECT_NEAR(e.before.at("j2"), -0.154950677682, 1e-9);
    EXPECT_NEAR(e.before.at("i1"), 0.243596584270, 1e-9);
    EXPECT_NEAR(e.before.at("i2"), 0.0, 1e-12);
    EXPECT_NEAR(e.after.at("i1"), 0.097438633708, 1e-9);
    EXPECT_NEAR(e.after.at("i2"), 0.146157950562, 1e-9);
    EXPECT_NEAR(r.final_values.at("V"), 0.700967203954, 1e-8);
    EXPECT_NEAR(r.final_values.at("j1") + r.final_values.at("j2"), -0.240011099724, 1e-8);
    EXPECT_EQ(r.final_mode, "off1=false,off2=false");

    // supplied_restart (continuity, no resets) takes the same route.
    SimulationResult s = simulate(fe->flat(), fe->modes(), st, o, supplied_restart(st));
    ASSERT_EQ(s.events.size(), 1u);
    EXPECT_EQ(s.events[0].verdict, "continuous");
    EXPECT_NEAR(s.final_values.at("V"), 0.700967203954, 1e-8);
}

// Seed 004: impacts at t1 = (10 + sqrt(100 + 2g))/g, then flights of
// 2 c v_k / g with v_k = c^(k-1) sqrt(100 + 2g).
std::vector<double> bouncing_ball_impacts(double until) {
    const double g = 9.81, c = 0.9, v1 = std::sqrt(100 + 2 * g);
    std::vector<double> t{(10 + v1) / g};
    double v = v1;
    while (true) {
        v *= c;
        const double next = t.back() + 2 * v / g;
        if (next > until) break;
        t.push_back(next);
    }
    return t;
}

TEST(Simulation, BouncingBallImpactsFollowTheClosedForm) {
    auto fe = corpus("bouncing_ball.mo");
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, {}, supplied_restart(*fe->state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    EXPECT_DOUBLE_EQ(r.end_time, 20.0);
    const std::vector<double> expected = bouncing_ball_impacts(20.0);
    ASSERT_EQ(r.events.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        EXPECT_NEAR(r.events[k].time, expected[k], 1e-8) << "impact " << k;
        EXPECT_EQ(r.events[k].verdict, "reinit");
        EXPECT_NEAR(r.events[k].after.at("velocity"), -0.9 * r.events[k].before.at("velocity"), 1e-12);
    }
}

// Each flight is a segment of the same mode, integrated by the same
// integrator: its largest step is its own (it carried the earlier, longer
// flights' maximum over, as did the drift before projection). The flights
// shrink by the restitution 0.9, and so do their steps (the last step of a
// flight ends past the impact, so a step may be longer than its flight).
TEST(Simulation, SegmentMaximaArePerSegment) {
    auto fe = corpus("bouncing_ball.mo");
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, {}, supplied_restart(*fe->state.structure));
    ASSERT_GT(r.segments.size(), 5u);
    for (std::size_t k = 2; k < r.segments.size(); ++k)
        EXPECT_LT(r.segments[k].max_step, r.segments[1].max_step) << k;
}

TEST(Simulation, BouncingBallLongRunStopsAsZenoNearTheAccumulationTime) {
    auto fe = corpus("bouncing_ball.mo");
    SimulationOptions o;
    o.stop_time = 30;
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, o, supplied_restart(*fe->state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::Zeno) << (r.messages.empty() ? "" : r.messages.front());
    const double g = 9.81, c = 0.9, v1 = std::sqrt(100 + 2 * g);
    const double accumulation = (10 + v1) / g + 2 * c * v1 / g / (1 - c);
    ASSERT_TRUE(r.zeno_time.has_value());
    EXPECT_NEAR(*r.zeno_time, accumulation, 1e-6);
    EXPECT_LT(r.end_time, accumulation);
    const std::vector<double> expected = bouncing_ball_impacts(r.end_time + 1e-9);
    ASSERT_EQ(r.events.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_NEAR(r.events[k].time, expected[k], 1e-8) << k;
}

// An Integer counter assigned in the when-clause selects no equations: the
// simulation tracks it from event to event (it was silently dropped).
TEST(Simulation, ImpactCounterIsTrackedAcrossEvents) {
    auto fe = corpus("bouncing_ball_counter.mo");
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, {}, supplied_restart(*fe->state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    const std::vector<double> expected = bouncing_ball_impacts(20.0);
    ASSERT_EQ(r.events.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        EXPECT_NEAR(r.events[k].time, expected[k], 1e-8) << "impact " << k;
        EXPECT_EQ(r.events[k].before.at("bounces"), static_cast<double>(k));
        EXPECT_EQ(r.events[k].after.at("bounces"), static_cast<double>(k + 1));
    }
    EXPECT_EQ(r.final_values.at("bounces"), static_cast<double>(expected.size()));
}

// A reset that reads a discrete variable its own clause assigns sees the new
// value (the clause's statements in order; pre(k) is the left limit): after
// the k-th arrival at x = 1 the speed is k + 1, so the arrivals are at
// t_k = 1 + 1/2 + ... + 1/k, and n (reading pre(k)) lags k by one.
TEST(Simulation, ResetReadsTheDiscreteValueItsClauseAssigns) {
    testing::FrontEnd fe(R"(
model Kicks
  Real x(start = 0, fixed = true);
  Real v(start = 1, fixed = true);
  Real n(start = 0, fixed = true);
  Integer k(start = 0);
equation
  der(x) = v;
  der(v) = 0;
  der(n) = 0;
algorithm
  when x >= 1 then
    k := pre(k) + 1;
    reinit(x, 0);
    reinit(v, k + 1);
    reinit(n, pre(k));
  end when;
  annotation(experiment(StopTime = 2.5));
end Kicks;)",
                         "structure");
    ASSERT_TRUE(fe.state.structure) << fe.diagnostics();
    SimulationResult r = simulate(fe.flat(), fe.modes(), *fe.state.structure, {}, supplied_restart(*fe.state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    double t = 0;
    std::size_t k = 0;
    for (; t + 1.0 / static_cast<double>(k + 1) <= 2.5; ++k) t += 1.0 / static_cast<double>(k + 1);
    ASSERT_EQ(r.events.size(), k);  // 1, 1.5, 1.8333, 2.0833
    t = 0;
    for (std::size_t e = 0; e < k; ++e) {
        t += 1.0 / static_cast<double>(e + 1);
        EXPECT_NEAR(r.events[e].time, t, 1e-9) << e;
        EXPECT_EQ(r.events[e].after.at("k"), static_cast<double>(e + 1));
        EXPECT_NEAR(r.events[e].after.at("v"), static_cast<double>(e + 2), 1e-12);
        EXPECT_NEAR(r.events[e].after.at("n"), static_cast<double>(e), 1e-12);
    }
}

// sample(0, T): time events at 0, T, 2T, ... (the one at the start time
// too), the held output u_k = 1 - x_k and x_{k+1} = u_k + (x_k - u_k) e^-T.
TEST(Simulation, SampledControllerHoldsItsOutputBetweenSamples) {
    auto fe = corpus("sample_and_hold.mo");
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, {}, supplied_restart(*fe->state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    ASSERT_EQ(r.events.size(), 10u);
    const double h = std::exp(-0.1);
    double x = 1, u = 0;
    for (std::size_t k = 0; k < 10; ++k) {
        const EventRecord& e = r.events[k];
        EXPECT_NEAR(e.time, 0.1 * static_cast<double>(k), 1e-12) << "sample " << k;
        EXPECT_NEAR(e.before.at("x"), x, 1e-9) << "sample " << k;
        EXPECT_NEAR(e.before.at("u"), u, 1e-9) << "sample " << k;
        u = 1 - x;
        EXPECT_NEAR(e.after.at("u"), 1 - e.before.at("x"), 1e-15) << "sample " << k;
        EXPECT_EQ(e.after.at("samples"), static_cast<double>(k + 1));
        x = u + (x - u) * h;
    }
    EXPECT_NEAR(r.final_values.at("x"), 0.56054474084392, 1e-9);
    EXPECT_NEAR(r.final_values.at("u"), 0.42522338827072, 1e-9);
    EXPECT_EQ(r.final_values.at("samples"), 10.0);
}

// Two clocks, one with an offset, and a later start time: the first
// instants are those at or after the start; instants the clocks share fire
// as one event.
TEST(Simulation, SampleClocksWithOffsetsFireTogetherWhereTheyMeet) {
    testing::FrontEnd fe(R"(
model TwoClocks
  Real x(start = 0, fixed = true);
  discrete Real a(start = 0);
  discrete Real b(start = -1);
equation
  der(x) = 1;
  when sample(0.05, 0.1) then
    a = pre(a) + 1;
  end when;
  when sample(0, 0.25) then
    b = x;
  end when;
  annotation(experiment(StopTime = 1));
end TwoClocks;)",
                         "structure");
    ASSERT_TRUE(fe.state.structure) << fe.diagnostics();
    SimulationOptions o;
    o.start_time = 0.3;
    SimulationResult r = simulate(fe.flat(), fe.modes(), *fe.state.structure, o, supplied_restart(*fe.state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    const std::vector<double> expected{0.35, 0.45, 0.5, 0.55, 0.65, 0.75, 0.85, 0.95};
    ASSERT_EQ(r.events.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        EXPECT_NEAR(r.events[k].time, expected[k], 1e-12) << k;
        EXPECT_EQ(r.events[k].guards.size(), expected[k] == 0.75 ? 2u : 1u) << k;
    }
    EXPECT_NEAR(r.events[2].after.at("b"), 0.2, 1e-12);  // x = t - 0.3
    EXPECT_NEAR(r.events[5].after.at("b"), 0.45, 1e-12);
    EXPECT_EQ(r.final_values.at("a"), 7.0);
    EXPECT_NEAR(r.final_values.at("b"), 0.45, 1e-12);
}

TEST(Simulation, FilterBlock1InitialAlgorithmKeepsYAtOne) {
    auto fe = corpus("filter_block1.mo");
    // The initial algorithm is in the flat model as the initial equation x = u.
    ASSERT_EQ(fe->flat().initial_equations.size(), 1u);
    EXPECT_EQ(fe->flat().initial_equations[0].origin, "initial algorithm");
    SimulationOptions o;
    o.record_steps = true;
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, o, supplied_restart(*fe->state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    EXPECT_DOUBLE_EQ(r.end_time, 10.0);
    ASSERT_GT(r.samples.size(), 1u);
    for (const Sample& s : r.samples) EXPECT_NEAR(s.states.at(0), 1.0, 1e-12) << "t = " << s.time;
    EXPECT_NEAR(r.final_values.at("y"), 1.0, 1e-12);
    EXPECT_NEAR(r.final_values.at("der(x)"), 0.0, 1e-12);
}

// The narrow windows of the guard and assert tests below: der(x) = 1, so
// x is time, and sin(50 x) > 0.99999 holds only in windows of width
// 2 acos(0.99999)/50 = 1.8e-4 s, once every 2 pi/50 = 0.126 s, far
// narrower than the integrator's steps.
const double kWindowHalfWidth = std::acos(0.99999) / 50;
double window_start(int k) { return (std::numbers::pi / 2 + 2 * std::numbers::pi * k) / 50 - kWindowHalfWidth; }

// Each window up to t = 2 is one event, in order, n counting them, though
// the steps are far longer.
void expect_narrow_windows(const SimulationResult& r) {
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    std::size_t count = 0;
    while (window_start(static_cast<int>(count)) <= 2) ++count;
    ASSERT_EQ(r.events.size(), count);
    for (std::size_t k = 0; k < count; ++k) {
        EXPECT_NEAR(r.events[k].time, window_start(static_cast<int>(k)), 1e-9) << "window " << k;
        EXPECT_NEAR(r.events[k].after.at("n"), static_cast<double>(k + 1), 1e-12);
    }
    double longest = 0;
    for (const SegmentRecord& s : r.segments) longest = std::max(longest, s.max_step);
    EXPECT_GT(longest, 40 * kWindowHalfWidth) << "the steps should be much longer than the windows";
}

// An assert "... below its limit" that fails on the windows: the first
// violation is found between steps and located at the first window's start.
void expect_first_dip_located(const SimulationResult& r) {
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    ASSERT_EQ(r.segments.size(), 1u);
    const AssertRecord* a = find_assert(r.segments[0], "below its limit");
    ASSERT_NE(a, nullptr);
    EXPECT_TRUE(a->unsupported.empty()) << a->unsupported;
    EXPECT_TRUE(a->violated);
    EXPECT_NEAR(a->time, window_start(0), 1e-9);
    EXPECT_LE(a->value, 0);
    EXPECT_GT(a->value, -1e-9);
    EXPECT_GT(r.segments[0].max_step, 40 * kWindowHalfWidth) << "the steps should be much longer than the windows";
}

void expect_no_dip(const SimulationResult& r) {
    ASSERT_EQ(r.segments.size(), 1u);
    const AssertRecord* a = find_assert(r.segments[0], "below its limit");
    ASSERT_NE(a, nullptr);
    EXPECT_FALSE(a->violated);
}

// A guard true only on the windows: each window is one event, in order.
TEST(Simulation, NarrowGuardWindowsAreEachDetectedInOrder) {
    testing::FrontEnd fe(R"(
model Windows
  Real x(start = 0, fixed = true);
  Real n(start = 0, fixed = true);
equation
  der(x) = 1;
  der(n) = 0;
  when sin(50*x) > 0.99999 then
    reinit(n, pre(n) + 1);
  end when;
  annotation(experiment(StopTime = 2));
end Windows;)",
                         "structure");
    ASSERT_TRUE(fe.state.structure) << fe.diagnostics();
    SimulationResult r = simulate(fe.flat(), fe.modes(), *fe.state.structure, {}, supplied_restart(*fe.state.structure));
    expect_narrow_windows(r);
}

// The same narrow windows as the guard test, as an admissibility condition:
// sin(50 x) < 0.99999 fails only on windows of 1.8e-4 s, far narrower than
// the steps, so checking the accepted steps alone misses them; the search on
// the interpolant finds the first one and locates its start.
TEST(Simulation, AssertViolatedOnlyBetweenStepsIsFoundAndLocated) {
    const char* model = R"(
model Dip
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  assert(sin(50*x) < LIMIT, "the signal stays below its limit");
  annotation(experiment(StopTime = 1));
end Dip;)";
    auto run = [&](const std::string& limit) {
        std::string text = model;
        text.replace(text.find("LIMIT"), 5, limit);
        testing::FrontEnd fe(text, "structure");
        EXPECT_TRUE(fe.state.structure) << fe.diagnostics();
        return simulate(fe.flat(), fe.modes(), *fe.state.structure, {}, supplied_restart(*fe.state.structure));
    };
    expect_first_dip_located(run("0.99999"));
    // Near miss: the limit is never reached.
    expect_no_dip(run("1.00001"));
}

TEST(Simulation, ToleranceComparisonOfTwoRuns) {
    auto run = [](StopReason why, std::vector<std::pair<double, int>> events, double x) {
        SimulationResult r;
        r.stopped_because = why;
        for (const auto& [t, to] : events) {
            EventRecord e;
            e.time = t;
            e.to = to;
            r.events.push_back(e);
        }
        r.final_values = {{"x", x}, {"only_here", 5.0}};
        return r;
    };
    const SimulationResult a = run(StopReason::StopTime, {{0.1, 1}, {0.5, 0}}, 2.0);
    ToleranceComparison same = compare_tolerances(a, run(StopReason::StopTime, {{0.1 + 3e-9, 1}, {0.5 - 1e-8, 0}}, 2.5));
    EXPECT_TRUE(same.same_events);
    EXPECT_NEAR(same.max_event_shift, 1e-8, 1e-15);
    EXPECT_NEAR(same.max_final_difference, 0.5, 1e-15);
    SimulationResult b = run(StopReason::StopTime, {{0.1, 1}, {0.5, 0}}, 2.0);
    b.final_values.erase("only_here");
    ToleranceComparison identical = compare_tolerances(a, b);
    EXPECT_TRUE(identical.same_events);
    EXPECT_EQ(identical.max_event_shift, 0);
    EXPECT_EQ(identical.max_final_difference, 0);
    EXPECT_FALSE(compare_tolerances(a, run(StopReason::StopTime, {{0.1, 1}}, 2.0)).same_events);       // one event fewer
    EXPECT_FALSE(compare_tolerances(a, run(StopReason::StopTime, {{0.1, 1}, {0.5, 2}}, 2.0)).same_events);  // another mode
    EXPECT_FALSE(compare_tolerances(a, run(StopReason::Zeno, {{0.1, 1}, {0.5, 0}}, 2.0)).same_events);  // another stop
    ToleranceComparison fewer = compare_tolerances(a, run(StopReason::StopTime, {{0.2, 1}}, 2.0));
    EXPECT_NEAR(fewer.max_event_shift, 0.1, 1e-15);  // over the events both have
    EXPECT_EQ(fewer.first_difference, "2 events against 1");
    // What differs first is named; the relative final difference is taken
    // against max(1, |v|), and whose it is.
    EXPECT_EQ(same.first_difference, "");
    EXPECT_NEAR(same.max_relative_final_difference, 0.25, 1e-15);  // 0.5 / 2
    EXPECT_EQ(same.worst_final, "x");
    EXPECT_EQ(compare_tolerances(a, run(StopReason::StopTime, {{0.1, 1}, {0.5, 2}}, 2.0)).first_difference,
              "event 2: at t = 0.5 to mode '' against t = 0.5 to mode ''");
    EXPECT_EQ(compare_tolerances(a, run(StopReason::Zeno, {{0.1, 1}, {0.5, 0}}, 2.0)).first_difference,
              "the run stopped because stop-time against zeno");
    const SimulationResult small = run(StopReason::StopTime, {}, 0.25);
    EXPECT_NEAR(compare_tolerances(small, run(StopReason::StopTime, {}, 0.5)).max_relative_final_difference, 0.25,
                1e-15);  // |v| < 1: against 1
}

// Compiled modes reused by a second simulation give the same result, and a
// cache of another model is refused.
TEST(Simulation, CompiledModesAreReusedAcrossRuns) {
    auto fe = corpus("bouncing_ball.mo");
    CompiledModes compiled;
    const RestartFunction restart = supplied_restart(*fe->state.structure);
    SimulationResult first = simulate(fe->flat(), fe->modes(), *fe->state.structure, {}, restart, &compiled);
    EXPECT_EQ(compiled.compiled(), fe->modes().modes.size());
    SimulationResult again = simulate(fe->flat(), fe->modes(), *fe->state.structure, {}, restart, &compiled);
    SimulationResult fresh = simulate(fe->flat(), fe->modes(), *fe->state.structure, {}, restart);
    ASSERT_EQ(again.events.size(), first.events.size());
    ASSERT_EQ(fresh.events.size(), first.events.size());
    for (std::size_t k = 0; k < first.events.size(); ++k) {
        EXPECT_EQ(again.events[k].time, first.events[k].time);
        EXPECT_EQ(fresh.events[k].time, first.events[k].time);
    }
    EXPECT_EQ(again.final_values, first.final_values);
    auto other = corpus("filter_block1.mo");
    EXPECT_THROW(simulate(other->flat(), other->modes(), *other->state.structure, {},
                          supplied_restart(*other->state.structure), &compiled),
                 std::invalid_argument);
}

// A relay without hysteresis: at x = 1 the mode switches to der(x) = -1,
// whose guard x < 1 is zero there and crosses at once. Reported as
// chattering (not silently slid through: x would end at -0.5), while the
// same relay with hysteresis switches back and forth at the expected times.
TEST(Simulation, RelayWithoutHysteresisChattersWithHysteresisItSwitches) {
    const char* model = R"(
model Relay
  Real x(start = 0.5, fixed = true);
  Boolean on(start = false);
equation
  der(x) = if on then -1 else 1;
  when x > 1 then
    on = true;
  end when;
  when x < LOW then
    on = false;
  end when;
  annotation(experiment(StopTime = 1.9));
end Relay;)";
    auto run = [&](const std::string& low) {
        std::string text = model;
        text.replace(text.find("LOW"), 3, low);
        testing::FrontEnd fe(text, "structure");
        EXPECT_TRUE(fe.state.structure) << fe.diagnostics();
        return simulate(fe.flat(), fe.modes(), *fe.state.structure, {}, supplied_restart(*fe.state.structure));
    };
    SimulationResult chatter = run("1");
    EXPECT_EQ(chatter.stopped_because, StopReason::Zeno);
    EXPECT_TRUE(chatter.chattering);
    // One instant: on at x = 1, at once off again (the guard x < 1 is at
    // zero with the flow across it); the clause x > 1 fired at this instant
    // already, so the iteration stops there, and the guard re-firing as soon
    // as time advances is the chattering.
    ASSERT_EQ(chatter.events.size(), 2u);
    for (std::size_t k = 0; k < chatter.events.size(); ++k) {
        EXPECT_NEAR(chatter.events[k].time, 0.5, 1e-10);
        EXPECT_EQ(chatter.events[k].instant, 0);
        EXPECT_EQ(chatter.events[k].step, static_cast<int>(k));
    }
    ASSERT_TRUE(chatter.zeno_time.has_value());
    EXPECT_NEAR(*chatter.zeno_time, 0.5, 1e-10);
    EXPECT_LT(chatter.end_time, 0.5 + 0.1);
    ASSERT_FALSE(chatter.messages.empty());
    EXPECT_NE(chatter.messages.back().find("chattering"), std::string::npos) << chatter.messages.back();
    EXPECT_NE(chatter.messages.back().find("right after the switch 'on=true' -> 'on=false'"), std::string::npos)
        << chatter.messages.back();

    SimulationResult hysteresis = run("0.5");
    EXPECT_EQ(hysteresis.stopped_because, StopReason::StopTime)
        << (hysteresis.messages.empty() ? "" : hysteresis.messages.front());
    EXPECT_FALSE(hysteresis.chattering);
    const std::vector<double> expected{0.5, 1.0, 1.5};
    ASSERT_EQ(hysteresis.events.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_NEAR(hysteresis.events[k].time, expected[k], 1e-10) << k;
    EXPECT_NEAR(hysteresis.final_values.at("x"), 0.6, 1e-10);
}

TEST(Simulation, TangentGuardIsNoEvent) {
    const char* model = R"(
model Touch
  Real x(start = 0, fixed = true);
  Real n(start = 0, fixed = true);
equation
  der(x) = 1;
  der(n) = 0;
  when LIFT - (x - 0.5)^2 >= 0 then
    reinit(n, pre(n) + 1);
  end when;
  annotation(experiment(StopTime = 1));
end Touch;)";
    auto run = [&](const std::string& lift) {
        std::string text = model;
        text.replace(text.find("LIFT"), 4, lift);
        testing::FrontEnd fe(text, "structure");
        EXPECT_TRUE(fe.state.structure) << fe.diagnostics();
        return simulate(fe.flat(), fe.modes(), *fe.state.structure, {}, supplied_restart(*fe.state.structure));
    };
    SimulationResult touch = run("0");
    EXPECT_EQ(touch.stopped_because, StopReason::StopTime);
    EXPECT_TRUE(touch.events.empty());
    // Not silent: the touch is recorded with its instant (sim-grazing-guard).
    ASSERT_EQ(touch.grazes.size(), 1u);
    EXPECT_NEAR(touch.grazes[0].time, 0.5, 1e-9);
    SimulationResult cross = run("1e-6");
    EXPECT_TRUE(cross.grazes.empty());
    ASSERT_EQ(cross.events.size(), 1u);
    EXPECT_NEAR(cross.events[0].time, 0.5 - 1e-3, 1e-9);
}

// A state with a start value and no `fixed = true` begins at its start
// value unless the consistency conditions move it (Modelica 3.6, 8.6: the
// start value is the guess); it began at 0, silently, when no condition
// named it. With a constraint y = 2 x the pair moves as little as it can.
TEST(Simulation, AStateThatIsNotFixedBeginsAtItsStartValue) {
    const char* model = R"(
model Decay
  Real x(start = 1);
  Real s;
  Boolean off(start = true);
equation
  der(x) = -x;
  off = time < 0.3;
  0 = if off then s else s - x;
  annotation(experiment(StopTime = 1));
end Decay;)";
    testing::FrontEnd fe(model, "structure");
    ASSERT_TRUE(fe.state.structure) << fe.diagnostics();
    SimulationResult r = simulate(fe.flat(), fe.modes(), *fe.state.structure, {}, supplied_restart(*fe.state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime);
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_NEAR(r.events[0].before.at("x"), std::exp(-0.3), 1e-7);
    EXPECT_NEAR(r.final_values.at("x"), std::exp(-1.0), 1e-7);
    EXPECT_NEAR(r.final_values.at("s"), std::exp(-1.0), 1e-7);
}

// F_DOWN with y1 = 1 + x^2 and y1*y2 = x: Newton's method on the whole
// system from the zero guess meets the singular Jacobian [[1, 0], [y2, y1]]
// = [[1, 0], [0, 0]]; solved in the block triangular order (y1 first) it
// is regular (leading_blocks.h). der(x) = -x/(1 + x^2), x(0) = 1 has the
// implicit solution ln x + x^2/2 = 1/2 - t.
TEST(Simulation, ALeadingSystemSingularAtTheGuessIsSolvedBlockByBlock) {
    const char* model = R"(
model Blocks
  Real x(start = 1, fixed = true);
  Real y1;
  Real y2;
equation
  der(x) = -y2;
  y1 = 1 + x^2;
  y1*y2 = x;
  annotation(experiment(StopTime = 1));
end Blocks;)";
    testing::FrontEnd fe(model, "structure");
    ASSERT_TRUE(fe.state.structure) << fe.diagnostics();
    SimulationResult r = simulate(fe.flat(), fe.modes(), *fe.state.structure, {}, supplied_restart(*fe.state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    double x = 0.5;
    for (int k = 0; k < 50; ++k) x -= (std::log(x) + x * x / 2 + 0.5) / (1 / x + x);
    EXPECT_NEAR(r.final_values.at("x"), x, 1e-7);
    EXPECT_NEAR(r.final_values.at("y1"), 1 + x * x, 1e-7);
    EXPECT_NEAR(r.final_values.at("y2"), x / (1 + x * x), 1e-7);
}

// corpus/good/implicit_sawtooth.mo: z is defined implicitly by
// z^3 + z = x (F_DOWN nonlinear in z), x = time between resets: z = 0.5 at
// x = 0.625, so the guard fires every 0.625 s and the reset starts the next
// rise.
TEST(Simulation, GuardOnAnImplicitlyDefinedVariableFiresWhereItCrosses) {
    auto fe = corpus("implicit_sawtooth.mo");
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, {}, supplied_restart(*fe->state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    ASSERT_EQ(r.events.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_NEAR(r.events[k].time, 0.625 * static_cast<double>(k + 1), 1e-9) << k;
        EXPECT_NEAR(r.events[k].before.at("z"), 0.5, 1e-9) << k;
        EXPECT_NEAR(r.events[k].after.at("x"), 0.0, 1e-12) << k;
    }
    EXPECT_NEAR(r.final_values.at("x"), 2 - 3 * 0.625, 1e-9);
}

// The narrow windows of NarrowGuardWindowsAreEachDetectedInOrder seen
// through an implicitly defined variable: z + z^3 = sin(50 x) is monotone
// in z, so z > z* (z* + z*^3 = 0.99999) holds exactly where sin(50 x) >
// 0.99999, on windows of 1.8e-4 s far narrower than the steps. The
// enclosures of z come from the Krawczyk operator; the event times must be
// those of the explicit guard.
double implicit_threshold(double level) {
    double z = 0.5;
    for (int it = 0; it < 60; ++it) z -= (z + z * z * z - level) / (1 + 3 * z * z);
    return z;
}

TEST(Simulation, NarrowWindowsOfAnImplicitlyDefinedVariableAreEachDetectedInOrder) {
    const std::string zs = fmt::format("{:.17g}", implicit_threshold(0.99999));
    testing::FrontEnd fe(R"(
model ImplicitWindows
  Real x(start = 0, fixed = true);
  Real n(start = 0, fixed = true);
  Real z(start = 0);
equation
  der(x) = 1;
  der(n) = 0;
  z + z^3 = sin(50*x);
  when z > )" + zs + R"( then
    reinit(n, pre(n) + 1);
  end when;
  annotation(experiment(StopTime = 2));
end ImplicitWindows;)",
                         "structure");
    ASSERT_TRUE(fe.state.structure) << fe.diagnostics();
    SimulationResult r = simulate(fe.flat(), fe.modes(), *fe.state.structure, {}, supplied_restart(*fe.state.structure));
    expect_narrow_windows(r);
}

// The same windows as an admissibility condition on z: the first violation
// is found between steps and located at the first window's start; with the
// threshold of 1.00001 (never reached) nothing is reported.
TEST(Simulation, AssertOnAnImplicitlyDefinedVariableIsSearchedBetweenSteps) {
    auto run = [&](double level) {
        const std::string zs = fmt::format("{:.17g}", implicit_threshold(level));
        testing::FrontEnd fe(R"(
model ImplicitDip
  Real x(start = 0, fixed = true);
  Real z(start = 0);
equation
  der(x) = 1;
  z + z^3 = sin(50*x);
  assert(z < )" + zs + R"(, "z stays below its limit");
  annotation(experiment(StopTime = 1));
end ImplicitDip;)",
                             "structure");
        EXPECT_TRUE(fe.state.structure) << fe.diagnostics();
        return simulate(fe.flat(), fe.modes(), *fe.state.structure, {}, supplied_restart(*fe.state.structure));
    };
    expect_first_dip_located(run(0.99999));
    expect_no_dip(run(1.00001));
}

// corpus/good/tank_level_switch.mo: the level h follows from the volume
// through V = A h + B h^3 (not solvable for h in closed form by the tool),
// and the valve switches at h = 1 and h = 0.5. With dV = (A + 3 B h^2) dh
// the times between switches are integrals in h with closed forms:
// filling, dV/dt = qin - k h, c = qin/k:
//   t = ((A + 3 B c^2) ln((c - h0)/(c - h1)) - 3 B ((h1^2 - h0^2)/2 + c (h1 - h0))) / k;
// draining from 1 to 0.5, dV/dt = -k h: t = (A ln 2 + 3 B (1 - 1/4)/2) / k.
TEST(Simulation, TankLevelSwitchOnAnImplicitLevelFollowsTheClosedForm) {
    auto fe = corpus("tank_level_switch.mo");
    SimulationResult r = simulate(fe->flat(), fe->modes(), *fe->state.structure, {}, supplied_restart(*fe->state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    const double A = 1, B = 0.5, qin = 0.8, k = 0.3, c = qin / k;
    auto fill = [&](double h0, double h1) {
        return ((A + 3 * B * c * c) * std::log((c - h0) / (c - h1)) - 3 * B * ((h1 * h1 - h0 * h0) / 2 + c * (h1 - h0))) / k;
    };
    double h0 = 0.1;  // h0 + 0.5 h0^3 = 0.1
    for (int it = 0; it < 60; ++it) h0 -= (h0 + B * h0 * h0 * h0 - 0.1) / (1 + 3 * B * h0 * h0);
    const double drain = (A * std::log(2.0) + 3 * B * 0.75 / 2) / k;
    const double t1 = fill(h0, 1), t2 = t1 + drain, t3 = t2 + fill(0.5, 1);
    ASSERT_EQ(r.events.size(), 3u);
    EXPECT_NEAR(r.events[0].time, t1, 1e-8);
    EXPECT_NEAR(r.events[1].time, t2, 1e-8);
    EXPECT_NEAR(r.events[2].time, t3, 1e-8);
    EXPECT_NEAR(r.events[0].before.at("h"), 1.0, 1e-9);
    EXPECT_NEAR(r.events[1].before.at("h"), 0.5, 1e-9);
    for (const SegmentRecord& s : r.segments)
        for (const AssertRecord& a : s.asserts) {
            EXPECT_TRUE(a.unsupported.empty()) << a.unsupported;
            EXPECT_FALSE(a.violated);
        }
}

}  // namespace
}  // namespace modeaudit
