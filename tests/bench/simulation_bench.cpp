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
//     q'' = -lambda q - (0, g), lambda = (v.v - g y) / L^2, once as is and
//     once with a closed-form projection onto the constraints after each
//     step, as the driver projects (the like-for-like ratio).
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

#include "bench/fastest_run.h"
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
    std::vector<long> segment_steps;  // steps between events
    std::vector<double> final_state;
};

// ---- hand-coded on CVODE ------------------------------------------------------

// One hand-coded run, the way a modeller would write it: CVODE BDF with the
// dense solver, one root function in one direction (CVODE's own root
// finding), from y0 at t = 0 to `stop`; at each root `event` changes the
// state and the model's data and says whether root finding stays on, and
// CVODE restarts from there.
HandResult hand_run(const char* name, std::vector<double> y0, CVRhsFn rhs, CVRootFn root, int direction, void* user,
                    double stop, const std::function<bool(N_Vector)>& event, CVProjFn projection = nullptr) {
    HandResult r;
    const auto n = static_cast<sunindextype>(y0.size());
    SUNContext ctx = nullptr;
    SUNContext_Create(nullptr, &ctx);
    N_Vector y = N_VNew_Serial(n, ctx);
    for (sunindextype i = 0; i < n; ++i) NV_Ith_S(y, i) = y0[static_cast<std::size_t>(i)];
    void* mem = CVodeCreate(CV_BDF, ctx);
    CVodeInit(mem, rhs, 0, y);
    CVodeSetUserData(mem, user);
    CVodeSStolerances(mem, kRtol, kAtol);
    SUNMatrix A = SUNDenseMatrix(n, n, ctx);
    SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
    CVodeSetLinearSolver(mem, LS, A);
    if (projection) CVodeSetProjFn(mem, projection);
    CVodeRootInit(mem, 1, root);
    CVodeSetRootDirection(mem, &direction);
    CVodeSetStopTime(mem, stop);
    realtype t = 0;
    bool roots = true;
    while (t < stop) {
        const int flag = CVode(mem, stop, y, &t, CV_NORMAL);
        if (flag < 0) throw std::runtime_error(fmt::format("hand-coded {}: CVODE failed", name));
        if (flag == CV_ROOT_RETURN && roots) {
            r.events.push_back(t);
            if (!event(y)) {
                CVodeRootInit(mem, 0, nullptr);
                roots = false;
            }
            long steps = 0;
            CVodeGetNumSteps(mem, &steps);  // CVodeReInit resets the count
            r.steps += steps;
            r.segment_steps.push_back(steps);
            CVodeReInit(mem, t, y);
            if (r.events.size() > 1000) break;
        }
    }
    long steps = 0;
    CVodeGetNumSteps(mem, &steps);
    r.steps += steps;
    r.segment_steps.push_back(steps);
    r.final_state.assign(N_VGetArrayPointer(y), N_VGetArrayPointer(y) + n);
    CVodeFree(&mem);
    SUNLinSolFree(LS);
    SUNMatDestroy(A);
    N_VDestroy(y);
    SUNContext_Free(&ctx);
    return r;
}

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
    Ball b;
    return hand_run("ball", {1, 10}, ball_rhs, ball_root, -1, &b, stop, [&](N_Vector y) {
        NV_Ith_S(y, 1) = -b.c * NV_Ith_S(y, 1);
        return true;
    });
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

// The projection a modeller adds to the index-1 reduction so that the
// motion stays on the rope's constraints x^2 + y^2 = L^2 and x vx + y vy = 0,
// as the driver's projection onto F_UP does: the position scaled onto the
// circle, the velocity made tangent, and CVODE's error estimate projected
// onto the constraints' tangent space, err -= G^T (G G^T)^-1 G err with
// G = [[2x, 2y, 0, 0], [vx, vy, x, y]]. Free flight has no constraint.
int rope_projection(realtype, N_Vector yv, N_Vector corr, realtype, N_Vector err, void* user) {
    const Rope& p = *static_cast<Rope*>(user);
    const double* y = N_VGetArrayPointer(yv);
    double* c = N_VGetArrayPointer(corr);
    if (!p.taut) {
        for (int i = 0; i < 4; ++i) c[i] = 0;
        return 0;
    }
    const double r = std::hypot(y[0], y[1]), x = y[0] * p.L / r, yy = y[1] * p.L / r;
    const double a = (x * y[2] + yy * y[3]) / (p.L * p.L), vx = y[2] - a * x, vy = y[3] - a * yy;
    c[0] = x - y[0];
    c[1] = yy - y[1];
    c[2] = vx - y[2];
    c[3] = vy - y[3];
    if (err) {
        double* e = N_VGetArrayPointer(err);
        const double G[2][4] = {{2 * x, 2 * yy, 0, 0}, {vx, vy, x, yy}};
        double Ge[2] = {0, 0}, M[2][2] = {{0, 0}, {0, 0}};
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 4; ++j) {
                Ge[i] += G[i][j] * e[j];
                for (int k = 0; k < 2; ++k) M[i][k] += G[i][j] * G[k][j];
            }
        const double det = M[0][0] * M[1][1] - M[0][1] * M[1][0];
        const double l0 = (M[1][1] * Ge[0] - M[0][1] * Ge[1]) / det, l1 = (M[0][0] * Ge[1] - M[1][0] * Ge[0]) / det;
        for (int j = 0; j < 4; ++j) e[j] -= G[0][j] * l0 + G[1][j] * l1;
    }
    return 0;
}

// The capture (inelastic restart onto the circle), then taut motion with
// root finding off; `project` adds rope_projection.
HandResult hand_rope(double stop, bool project = false) {
    Rope p;
    return hand_run("rope", {0.4, -0.74905, 2, -0.019}, rope_rhs, rope_root, 1, &p, stop, [&](N_Vector y) {
        const double x = NV_Ith_S(y, 0), yy = NV_Ith_S(y, 1);
        const double a = (x * NV_Ith_S(y, 2) + yy * NV_Ith_S(y, 3)) / (p.L * p.L);
        NV_Ith_S(y, 2) -= a * x;
        NV_Ith_S(y, 3) -= a * yy;
        p.taut = true;
        return false;
    }, project ? rope_projection : nullptr);
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

// The valve switches at each root; the root function follows the mode.
HandResult hand_tank(double stop) {
    Tank p;
    return hand_run("tank", {0.1}, tank_rhs, tank_root, 1, &p, stop, [&](N_Vector) {
        p.filling = !p.filling;
        return true;
    });
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

using bench::fastest_seconds;

long steps_of(const SimulationResult& r) {
    long s = 0;
    for (const SegmentRecord& seg : r.segments) s += seg.steps;
    return s;
}

// "26 + 111": the steps of each segment between events (the first and
// last three of a longer run).
std::string split(const std::vector<long>& steps) {
    std::string s;
    for (std::size_t k = 0; k < steps.size(); ++k) {
        if (steps.size() > 6 && k == 3) {
            s += " + ...";
            k = steps.size() - 4;
            continue;
        }
        s += (s.empty() ? "" : " + ") + std::to_string(steps[k]);
    }
    return s;
}

// Times one corpus model against its hand-coded run: t_ours with the modes
// already compiled (CompiledModes reused, as the pipeline's sensitivity
// rerun does), t_first a run that compiles them, t_hand the hand-coded
// run; prints the comparison and returns whether the events agree. `ours`
// receives the driver's result.
bool bench_model(const char* label, const std::string& path, double stop, int repeat,
                 const std::function<RestartFunction(const StructureResult&)>& restart,
                 const std::function<HandResult()>& hand_coded, SimulationResult& ours, HandResult& hand) {
    auto m = load(path);
    SimulationOptions o;
    o.rtol = kRtol;
    o.atol = kAtol;
    o.stop_time = stop;
    const RestartFunction r = restart(*m->state.structure);
    const FlatModel& flat = *m->state.flat;
    const ModeSet& modes = *m->state.modes;
    const StructureResult& st = *m->state.structure;
    const double t_first = fastest_seconds([&] { ours = simulate(flat, modes, st, o, r); }, repeat);
    CompiledModes compiled;
    const double t_ours = fastest_seconds([&] { ours = simulate(flat, modes, st, o, r, &compiled); }, repeat);
    const double t_hand = fastest_seconds([&] { hand = hand_coded(); }, repeat);
    bool ok = ours.events.size() == hand.events.size();
    double worst = 0;
    for (std::size_t k = 0; ok && k < hand.events.size(); ++k)
        worst = std::max(worst, std::fabs(ours.events[k].time - hand.events[k]));
    ok = ok && worst <= 1e-8;
    std::vector<long> segment_steps;
    for (const SegmentRecord& seg : ours.segments) segment_steps.push_back(seg.steps);
    fmt::print("{}: driver {} events, {} steps ({}), {:.3g} ms per run ({:.3g} ms compiling the modes too); hand-coded "
               "CVODE {} events, {} steps ({}), {:.3g} ms per run; time ratio driver/hand {:.2f} ({:.2f} with "
               "compilation); max event-time difference {:.2e}{}\n",
               label, ours.events.size(), steps_of(ours), split(segment_steps), 1e3 * t_ours, 1e3 * t_first,
               hand.events.size(), hand.steps, split(hand.segment_steps), 1e3 * t_hand, t_ours / t_hand, t_first / t_hand, worst, ok ? "" : "  MISMATCH");
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
        SimulationResult ours;
        HandResult hand;
        if (only.empty() || only == "ball")
            ok = bench_model("bouncing ball to t = 20", corpus + "bouncing_ball.mo", 20, repeat, supplied_restart,
                             [] { return hand_ball(20); }, ours, hand) &&
                 ok;
        if (only.empty() || only == "tank")
            ok = bench_model("tank with an implicit level to t = 10", corpus + "tank_level_switch.mo", 10, repeat,
                             supplied_restart, [] { return hand_tank(10); }, ours, hand) &&
                 ok;
        if (only.empty() || only == "rope") {
            ok = bench_model("ball on a rope to t = 0.2", corpus + "cup_and_ball.mo", 0.2, repeat,
                             [](const StructureResult&) { return rope_capture(); }, [] { return hand_rope(0.2); },
                             ours, hand) &&
                 ok;
            const double theta_ours = std::atan2(ours.final_values.at("x"), -ours.final_values.at("y"));
            const double theta_hand = std::atan2(hand.final_state.at(0), -hand.final_state.at(1));
            fmt::print("ball on a rope: theta(0.2) driver {:.12f}, hand-coded {:.12f}, seed 0.712977020833\n",
                       theta_ours, theta_hand);
            // Like for like: the driver projects onto the rope's constraints
            // after every step (F_UP), which the plain index-1 hand code does
            // not; the same hand code with a closed-form projection.
            ok = bench_model("ball on a rope to t = 0.2, the hand code projecting too", corpus + "cup_and_ball.mo", 0.2,
                             repeat, [](const StructureResult&) { return rope_capture(); },
                             [] { return hand_rope(0.2, true); }, ours, hand) &&
                 ok;
        }
    } catch (const std::exception& e) {
        fmt::print(stderr, "simulation bench: {}\n", e.what());
        return 1;
    }
    return ok ? 0 : 1;
}
