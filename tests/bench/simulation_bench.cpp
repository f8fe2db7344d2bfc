// Benchmark: the simulation driver (compiled tapes, CVODE BDF with the taped
// Jacobian, projection, interval event search on every step) against the
// same models hand-coded directly on CVODE with its own root finding
// (CVodeRootInit), at the same tolerances:
//   - the bouncing ball of seed 004 to t = 20 (about 20 impacts);
//   - the ball on a rope of seed 000, 5.2: free flight, capture at t = 0.1
//     (the closed-form inelastic restart v+ = v- - (q.v) q / L^2 in both
//     runs, so that the derivation of the restart, which the restart stage
//     owns, is not what is timed), then taut motion to t = 0.2. The hand
//     code integrates the taut mode as the usual index-1 reduction
//     q'' = -lambda q - (0, g), lambda = (v.v - g y) / L^2.
//   - the tank of corpus/good/tank_level_switch.mo to t = 10: its level h
//     follows from the volume V = A h + B h^3 (the driver follows the level
//     guards through the Krawczyk enclosure of h; the hand code solves h by
//     Newton's method in its right-hand side and root function).
// Prints the time ratio driver / hand-coded (fastest run of each) and the
// event counts and steps of both. It checks agreement of the event times (1e-8) and fails on a
// mismatch; times are reported, never asserted (tests/bench/README.md).
#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <fmt/format.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "pipeline/pipeline.h"
#include "simulation/simulation.h"

namespace {

using namespace modeaudit;

constexpr double kRtol = 1e-12, kAtol = 1e-14;

struct Model {
    PipelineState state;
};

std::unique_ptr<Model> load(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream s;
    s << in.rdbuf();
    auto m = std::make_unique<Model>();
    m->state.file = m->state.sources.add(path, s.str());
    run_pipeline(m->state, RunOptions{}, "structure");
    if (!m->state.structure) throw std::runtime_error("the front end failed on " + path);
    return m;
}

struct HandResult {
    std::vector<double> events;
    long steps = 0;
};

// ---- hand-coded on CVODE ------------------------------------------------------

struct Ball {
    double g = 9.81, c = 0.9;
};

int ball_rhs(realtype, N_Vector y, N_Vector ydot, void* user) {
    const Ball& b = *static_cast<Ball*>(user);
    NV_Ith_S(ydot, 0) = NV_Ith_S(y, 1);
    NV_Ith_S(ydot, 1) = -b.g;
    return 0;
}
int ball_root(realtype, N_Vector y, realtype* gout, void*) {
    gout[0] = NV_Ith_S(y, 0);
    return 0;
}

HandResult hand_ball(double stop) {
    HandResult r;
    Ball b;
    SUNContext ctx = nullptr;
    SUNContext_Create(nullptr, &ctx);
    N_Vector y = N_VNew_Serial(2, ctx);
    NV_Ith_S(y, 0) = 1;
    NV_Ith_S(y, 1) = 10;
    void* mem = CVodeCreate(CV_BDF, ctx);
    CVodeInit(mem, ball_rhs, 0, y);
    CVodeSetUserData(mem, &b);
    CVodeSStolerances(mem, kRtol, kAtol);
    SUNMatrix A = SUNDenseMatrix(2, 2, ctx);
    SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
    CVodeSetLinearSolver(mem, LS, A);
    CVodeRootInit(mem, 1, ball_root);
    int dir = -1;
    CVodeSetRootDirection(mem, &dir);
    CVodeSetStopTime(mem, stop);
    realtype t = 0;
    while (t < stop) {
        const int flag = CVode(mem, stop, y, &t, CV_NORMAL);
        if (flag < 0) throw std::runtime_error("hand-coded ball: CVODE failed");
        if (flag == CV_ROOT_RETURN) {
            r.events.push_back(t);
            NV_Ith_S(y, 1) = -b.c * NV_Ith_S(y, 1);
            long steps = 0;
            CVodeGetNumSteps(mem, &steps);  // CVodeReInit resets the count
            r.steps += steps;
            CVodeReInit(mem, t, y);
            if (r.events.size() > 1000) break;
        }
    }
    long steps = 0;
    CVodeGetNumSteps(mem, &steps);
    r.steps += steps;
    CVodeFree(&mem);
    SUNLinSolFree(LS);
    SUNMatDestroy(A);
    N_VDestroy(y);
    SUNContext_Free(&ctx);
    return r;
}

struct Rope {
    double g = 9.81, L = 1;
    bool taut = false;
};

int rope_rhs(realtype, N_Vector yv, N_Vector ydot, void* user) {
    const Rope& p = *static_cast<Rope*>(user);
    const double x = NV_Ith_S(yv, 0), y = NV_Ith_S(yv, 1), vx = NV_Ith_S(yv, 2), vy = NV_Ith_S(yv, 3);
    const double lambda = p.taut ? (vx * vx + vy * vy - p.g * y) / (p.L * p.L) : 0.0;
    NV_Ith_S(ydot, 0) = vx;
    NV_Ith_S(ydot, 1) = vy;
    NV_Ith_S(ydot, 2) = -lambda * x;
    NV_Ith_S(ydot, 3) = -lambda * y - p.g;
    return 0;
}
int rope_root(realtype, N_Vector yv, realtype* gout, void* user) {
    const Rope& p = *static_cast<Rope*>(user);
    const double x = NV_Ith_S(yv, 0), y = NV_Ith_S(yv, 1);
    gout[0] = x * x + y * y - p.L * p.L;
    return 0;
}

HandResult hand_rope(double stop, double& theta_end) {
    HandResult r;
    Rope p;
    SUNContext ctx = nullptr;
    SUNContext_Create(nullptr, &ctx);
    N_Vector y = N_VNew_Serial(4, ctx);
    NV_Ith_S(y, 0) = 0.4;
    NV_Ith_S(y, 1) = -0.74905;
    NV_Ith_S(y, 2) = 2;
    NV_Ith_S(y, 3) = -0.019;
    void* mem = CVodeCreate(CV_BDF, ctx);
    CVodeInit(mem, rope_rhs, 0, y);
    CVodeSetUserData(mem, &p);
    CVodeSStolerances(mem, kRtol, kAtol);
    SUNMatrix A = SUNDenseMatrix(4, 4, ctx);
    SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
    CVodeSetLinearSolver(mem, LS, A);
    CVodeRootInit(mem, 1, rope_root);
    int dir = 1;
    CVodeSetRootDirection(mem, &dir);
    CVodeSetStopTime(mem, stop);
    realtype t = 0;
    while (t < stop) {
        const int flag = CVode(mem, stop, y, &t, CV_NORMAL);
        if (flag < 0) throw std::runtime_error("hand-coded rope: CVODE failed");
        if (flag == CV_ROOT_RETURN && !p.taut) {
            r.events.push_back(t);
            const double x = NV_Ith_S(y, 0), yy = NV_Ith_S(y, 1);
            const double a = (x * NV_Ith_S(y, 2) + yy * NV_Ith_S(y, 3)) / (p.L * p.L);
            NV_Ith_S(y, 2) -= a * x;
            NV_Ith_S(y, 3) -= a * yy;
            p.taut = true;
            CVodeRootInit(mem, 0, nullptr);
            long steps = 0;
            CVodeGetNumSteps(mem, &steps);  // CVodeReInit resets the count
            r.steps += steps;
            CVodeReInit(mem, t, y);
        }
    }
    theta_end = std::atan2(NV_Ith_S(y, 0), -NV_Ith_S(y, 1));
    long steps = 0;
    CVodeGetNumSteps(mem, &steps);
    r.steps += steps;
    CVodeFree(&mem);
    SUNLinSolFree(LS);
    SUNMatDestroy(A);
    N_VDestroy(y);
    SUNContext_Free(&ctx);
    return r;
}

struct Tank {
    double A = 1, B = 0.5, qin = 0.8, k = 0.3;
    bool filling = true;
    double h = 0.1;  // Newton's warm start
    double level(double V) {
        for (int it = 0; it < 50; ++it) {
            const double step = (A * h + B * h * h * h - V) / (A + 3 * B * h * h);
            h -= step;
            if (std::fabs(step) <= 1e-15 * (1 + std::fabs(h))) break;
        }
        return h;
    }
};

int tank_rhs(realtype, N_Vector yv, N_Vector ydot, void* user) {
    Tank& p = *static_cast<Tank*>(user);
    const double h = p.level(NV_Ith_S(yv, 0));
    NV_Ith_S(ydot, 0) = (p.filling ? p.qin : 0.0) - p.k * h;
    return 0;
}
int tank_root(realtype, N_Vector yv, realtype* gout, void* user) {
    Tank& p = *static_cast<Tank*>(user);
    const double h = p.level(NV_Ith_S(yv, 0));
    gout[0] = p.filling ? h - 1 : 0.5 - h;
    return 0;
}

HandResult hand_tank(double stop) {
    HandResult r;
    Tank p;
    SUNContext ctx = nullptr;
    SUNContext_Create(nullptr, &ctx);
    N_Vector y = N_VNew_Serial(1, ctx);
    NV_Ith_S(y, 0) = 0.1;
    void* mem = CVodeCreate(CV_BDF, ctx);
    CVodeInit(mem, tank_rhs, 0, y);
    CVodeSetUserData(mem, &p);
    CVodeSStolerances(mem, kRtol, kAtol);
    SUNMatrix A = SUNDenseMatrix(1, 1, ctx);
    SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
    CVodeSetLinearSolver(mem, LS, A);
    CVodeRootInit(mem, 1, tank_root);
    int dir = 1;
    CVodeSetRootDirection(mem, &dir);
    CVodeSetStopTime(mem, stop);
    realtype t = 0;
    while (t < stop) {
        const int flag = CVode(mem, stop, y, &t, CV_NORMAL);
        if (flag < 0) throw std::runtime_error("hand-coded tank: CVODE failed");
        if (flag == CV_ROOT_RETURN) {
            r.events.push_back(t);
            p.filling = !p.filling;
            long steps = 0;
            CVodeGetNumSteps(mem, &steps);  // CVodeReInit resets the count
            r.steps += steps;
            CVodeReInit(mem, t, y);
            if (r.events.size() > 1000) break;
        }
    }
    long steps = 0;
    CVodeGetNumSteps(mem, &steps);
    r.steps += steps;
    CVodeFree(&mem);
    SUNLinSolFree(LS);
    SUNMatDestroy(A);
    N_VDestroy(y);
    SUNContext_Free(&ctx);
    return r;
}

// ---- the driver ----------------------------------------------------------------

RestartFunction rope_capture() {
    return [](const RestartRequest& r) {
        const auto& l = r.left_limits;
        const double x = l.at("x"), y = l.at("y"), vx = l.at("vx"), vy = l.at("vy");
        const double a = x * vx + y * vy;  // L = 1
        RestartAnswer ans;
        ans.ok = true;
        ans.verdict = "impulsive";
        ans.values = {{"x", x}, {"y", y}, {"vx", vx - a * x}, {"vy", vy - a * y}, {"der(x)", vx - a * x},
                      {"der(y)", vy - a * y}};
        return ans;
    };
}

// The fastest of `repeat` runs: on a shared machine the other processes
// only ever add time, so the minimum is the stablest estimate of the cost
// (the mean moved the ratios by half their value under load).
double seconds(const std::function<void()>& f, int repeat) {
    double best = HUGE_VAL;
    for (int k = 0; k < repeat; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

long steps_of(const SimulationResult& r) {
    long s = 0;
    for (const SegmentRecord& seg : r.segments) s += seg.steps;
    return s;
}

// t_ours: a run with the modes already compiled (CompiledModes reused, as
// the pipeline's sensitivity rerun does); t_first: a run that compiles them.
bool compare(const char* name, const SimulationResult& ours, const HandResult& hand, double t_ours, double t_first,
             double t_hand) {
    bool ok = ours.events.size() == hand.events.size();
    double worst = 0;
    for (std::size_t k = 0; ok && k < hand.events.size(); ++k)
        worst = std::max(worst, std::fabs(ours.events[k].time - hand.events[k]));
    ok = ok && worst <= 1e-8;
    fmt::print("{}: driver {} events, {} steps, {:.3g} ms per run ({:.3g} ms compiling the modes too); hand-coded CVODE "
               "{} events, {} steps, {:.3g} ms per run; time ratio driver/hand {:.2f} ({:.2f} with compilation); max "
               "event-time difference {:.2e}{}\n",
               name, ours.events.size(), steps_of(ours), 1e3 * t_ours, 1e3 * t_first, hand.events.size(), hand.steps,
               1e3 * t_hand, t_ours / t_hand, t_first / t_hand, worst, ok ? "" : "  MISMATCH");
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    const int repeat = argc > 1 ? std::max(1, std::atoi(argv[1])) : 50;
    // An optional second argument runs one model only ("ball", "rope" or
    // "tank"), for profiling.
    const std::string only = argc > 2 ? argv[2] : "";
    const std::string corpus = std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/";
    bool ok = true;
    try {
        if (only.empty() || only == "ball") {
            auto ball = load(corpus + "bouncing_ball.mo");
            SimulationOptions o;
            o.rtol = kRtol;
            o.atol = kAtol;
            o.stop_time = 20;
            const RestartFunction reinit = supplied_restart(*ball->state.structure);
            SimulationResult ours;
            const double t_first = seconds(
                [&] { ours = simulate(*ball->state.flat, *ball->state.modes, *ball->state.structure, o, reinit); }, repeat);
            CompiledModes ball_modes;
            const double t_ours = seconds(
                [&] {
                    ours = simulate(*ball->state.flat, *ball->state.modes, *ball->state.structure, o, reinit, &ball_modes);
                },
                repeat);
            HandResult hand;
            const double t_hand = seconds([&] { hand = hand_ball(20); }, repeat);
            ok = compare("bouncing ball to t = 20", ours, hand, t_ours, t_first, t_hand) && ok;
        }
        if (only.empty() || only == "tank") {
            auto tank = load(corpus + "tank_level_switch.mo");
            SimulationOptions o;
            o.rtol = kRtol;
            o.atol = kAtol;
            o.stop_time = 10;
            const RestartFunction carry = supplied_restart(*tank->state.structure);
            SimulationResult ours;
            const double t_first = seconds(
                [&] { ours = simulate(*tank->state.flat, *tank->state.modes, *tank->state.structure, o, carry); }, repeat);
            CompiledModes tank_modes;
            const double t_ours = seconds(
                [&] {
                    ours = simulate(*tank->state.flat, *tank->state.modes, *tank->state.structure, o, carry, &tank_modes);
                },
                repeat);
            HandResult hand;
            const double t_hand = seconds([&] { hand = hand_tank(10); }, repeat);
            ok = compare("tank with an implicit level to t = 10", ours, hand, t_ours, t_first, t_hand) && ok;
        }
        if (!only.empty() && only != "rope") return ok ? 0 : 1;
        SimulationOptions o;
        o.rtol = kRtol;
        o.atol = kAtol;

        auto rope = load(corpus + "cup_and_ball.mo");
        o.stop_time = 0.2;
        const RestartFunction capture = rope_capture();
        SimulationResult ours_rope;
        const double t_first_rope = seconds(
            [&] { ours_rope = simulate(*rope->state.flat, *rope->state.modes, *rope->state.structure, o, capture); },
            repeat);
        CompiledModes rope_modes;
        const double t_ours_rope = seconds(
            [&] {
                ours_rope =
                    simulate(*rope->state.flat, *rope->state.modes, *rope->state.structure, o, capture, &rope_modes);
            },
            repeat);
        HandResult hand_r;
        double theta_hand = 0;
        const double t_hand_rope = seconds([&] { hand_r = hand_rope(0.2, theta_hand); }, repeat);
        ok = compare("ball on a rope to t = 0.2", ours_rope, hand_r, t_ours_rope, t_first_rope, t_hand_rope) && ok;
        const double theta_ours = std::atan2(ours_rope.final_values.at("x"), -ours_rope.final_values.at("y"));
        fmt::print("ball on a rope: theta(0.2) driver {:.12f}, hand-coded {:.12f}, seed 0.712977020833\n", theta_ours,
                   theta_hand);
    } catch (const std::exception& e) {
        fmt::print(stderr, "simulation bench: {}\n", e.what());
        return 1;
    }
    return ok ? 0 : 1;
}
