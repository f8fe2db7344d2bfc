// Benchmark: the simulation of a model analysed in independent parts
// (pipeline/factorised.h, simulation/composition.h) against the same model
// hand-coded directly on CVODE, at the same tolerances.
//
// The model: n switching cells (corpus/generators switch_cells, default
// n = 200: 2^200 global modes), cell k two capacitors (C1 = 1e-3 with 4 V,
// C2 = 3e-3 with 0 V) joined by an ideal switch that closes at
// t = k/(n + 1), one after another; each closing is an impulsive restart
// (the charge is shared: both at 1 V).
//
// Ours: the static stages (parse..verification) once, then each part
// simulated with its own derived restarts, as the pipeline's simulation
// stage does, composed; timed with the parts' modes compiled in the run
// (the pipeline's cost) and with them already compiled (the integration
// part: CompiledModes reused, as the sensitivity rerun does).
//
// Hand-coded: the whole model as one ODE of 2n states on CVODE BDF, the way
// a modeller writes it: the open cell's C1 v1' = -i, C2 v2' = i with i = 0,
// the closed cell's index-reduced (C1 + C2) v' = 0 with v1 = v2; n root
// functions time - k/(n + 1) (CVODE's root finding); at a root the fired
// cells' charge shared (v = (C1 v1 + C2 v2) / (C1 + C2)) and CVODE
// restarted. Twice: with the dense linear solver, and with the band
// solver (the cells are decoupled: bandwidth 1), the faster of which is
// the reference.
//
// Checks (exit 1 on failure): n events, each impulsive; the final values
// of ours and of the hand code agree to 1e-6; and the integration part
// takes at most 2 times the hand-coded run (issue 20). Times are the
// fastest of `repeat` runs (argument 2, default 5).
#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <fmt/format.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "generators/generators.h"
#include "bench/fastest_run.h"
#include "pipeline/pipeline.h"
#include "simulation/composition.h"
#include "simulation/derived_restart.h"

namespace {

using namespace modeaudit;

constexpr double kRtol = 1e-12, kAtol = 1e-14;
constexpr double kC1 = 1e-3, kC2 = 3e-3;

// ---- hand-coded on CVODE ------------------------------------------------------

struct Cells {
    int n = 0;
    std::vector<char> closed;
};

// y = (v1[1], v2[1], v1[2], v2[2], ...)
int cells_rhs(realtype, N_Vector, N_Vector ydot, void* user) {
    const Cells& c = *static_cast<Cells*>(user);
    double* d = N_VGetArrayPointer(ydot);
    for (int k = 0; k < c.n; ++k) {
        if (c.closed[static_cast<std::size_t>(k)]) {
            // v1 = v2 = v, the switch current eliminated: (C1 + C2) v' = 0.
            d[2 * k] = d[2 * k + 1] = 0;
        } else {
            const double i = 0;  // the open switch
            d[2 * k] = -i / kC1;
            d[2 * k + 1] = i / kC2;
        }
    }
    return 0;
}

int cells_root(realtype t, N_Vector, realtype* g, void* user) {
    const Cells& c = *static_cast<Cells*>(user);
    for (int k = 0; k < c.n; ++k) g[k] = t - static_cast<double>(k + 1) / (c.n + 1);
    return 0;
}

struct HandResult {
    std::vector<double> events;
    long steps = 0;
    std::vector<double> final_state;
};

HandResult hand_cells(int n, bool band) {
    HandResult r;
    Cells cells;
    cells.n = n;
    cells.closed.assign(static_cast<std::size_t>(n), 0);
    const auto size = static_cast<sunindextype>(2 * n);
    SUNContext ctx = nullptr;
    SUNContext_Create(nullptr, &ctx);
    N_Vector y = N_VNew_Serial(size, ctx);
    for (int k = 0; k < n; ++k) {
        NV_Ith_S(y, 2 * k) = 4;
        NV_Ith_S(y, 2 * k + 1) = 0;
    }
    void* mem = CVodeCreate(CV_BDF, ctx);
    CVodeInit(mem, cells_rhs, 0, y);
    CVodeSetUserData(mem, &cells);
    CVodeSStolerances(mem, kRtol, kAtol);
    SUNMatrix A = band ? SUNBandMatrix(size, 1, 1, ctx) : SUNDenseMatrix(size, size, ctx);
    SUNLinearSolver LS = band ? SUNLinSol_Band(y, A, ctx) : SUNLinSol_Dense(y, A, ctx);
    CVodeSetLinearSolver(mem, LS, A);
    CVodeRootInit(mem, n, cells_root);
    std::vector<int> direction(static_cast<std::size_t>(n), 1), fired(static_cast<std::size_t>(n), 0);
    CVodeSetRootDirection(mem, direction.data());
    const double stop = 1;
    CVodeSetStopTime(mem, stop);
    realtype t = 0;
    while (t < stop) {
        const int flag = CVode(mem, stop, y, &t, CV_NORMAL);
        if (flag < 0) throw std::runtime_error("hand-coded cells: CVODE failed");
        if (flag != CV_ROOT_RETURN) continue;
        CVodeGetRootInfo(mem, fired.data());
        for (int k = 0; k < n; ++k) {
            if (!fired[static_cast<std::size_t>(k)] || cells.closed[static_cast<std::size_t>(k)]) continue;
            cells.closed[static_cast<std::size_t>(k)] = 1;
            const double v = (kC1 * NV_Ith_S(y, 2 * k) + kC2 * NV_Ith_S(y, 2 * k + 1)) / (kC1 + kC2);
            NV_Ith_S(y, 2 * k) = NV_Ith_S(y, 2 * k + 1) = v;
            r.events.push_back(t);
        }
        long steps = 0;
        CVodeGetNumSteps(mem, &steps);  // CVodeReInit resets the count
        r.steps += steps;
        CVodeReInit(mem, t, y);
    }
    long steps = 0;
    CVodeGetNumSteps(mem, &steps);
    r.steps += steps;
    r.final_state.assign(N_VGetArrayPointer(y), N_VGetArrayPointer(y) + size);
    CVodeFree(&mem);
    SUNLinSolFree(LS);
    SUNMatDestroy(A);
    N_VDestroy(y);
    SUNContext_Free(&ctx);
    return r;
}

// ---- ours -----------------------------------------------------------------------

// Each part simulated with its own restarts and compiled modes, composed.
struct Ours {
    std::vector<RestartFunction> restarts;
    std::vector<std::unique_ptr<CompiledModes>> compiled;

    explicit Ours(const PipelineState& s) {
        for (const auto& part : s.parts) {
            restarts.push_back(derived_restart(*part->structure, *part->restarts, ModeChangeOptions{}, Z3Limits{}));
            compiled.push_back(std::make_unique<CompiledModes>());
        }
    }
    SimulationResult run(const PipelineState& s) {
        SimulationOptions o;
        o.rtol = kRtol;
        o.atol = kAtol;
        std::vector<SimulationResult> runs;
        for (std::size_t k = 0; k < s.parts.size(); ++k) {
            const PipelineState& p = *s.parts[k];
            runs.push_back(simulate(*p.flat, *p.modes, *p.structure, o, restarts[k], compiled[k].get()));
        }
        std::vector<const SimulationResult*> results;
        for (const SimulationResult& r : runs) results.push_back(&r);
        return compose_simulations(results).result;
    }
};

using bench::fastest_seconds;

}  // namespace

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 200;
    const int repeat = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    PipelineState s;
    s.file = s.sources.add("cells.mo", generators::switch_cells(n));
    RunOptions options;
    options.progress = false;
    const auto t0 = std::chrono::steady_clock::now();
    run_pipeline(s, options, "verification");
    const double static_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s.parts.size() != static_cast<std::size_t>(n)) {
        fmt::print(stderr, "expected {} independent parts, got {}\n", n, s.parts.size());
        return 1;
    }

    // With compilation: fresh caches each time.
    SimulationResult ours;
    const double with_compile = fastest_seconds(
        [&] {
            Ours fresh(s);
            ours = fresh.run(s);
        },
        repeat);
    Ours warm(s);
    warm.run(s);
    const double integration = fastest_seconds([&] { ours = warm.run(s); }, repeat);
    HandResult dense, band;
    const double hand_dense = fastest_seconds([&] { dense = hand_cells(n, false); }, repeat);
    const double hand_band = fastest_seconds([&] { band = hand_cells(n, true); }, repeat);
    const double hand = std::min(hand_dense, hand_band);

    bool ok = true;
    long steps = 0;
    for (const SegmentRecord& sg : ours.segments) steps += sg.steps;
    std::size_t impulsive = 0;
    for (const EventRecord& e : ours.events) impulsive += e.verdict == "impulsive" ? 1 : 0;
    fmt::print("simulation of n = {} independent switching cells (2^{} global modes), to t = 1:\n", n, n);
    fmt::print("  static stages (parse..verification): {:.3f} s\n", static_seconds);
    fmt::print("  ours: {} events ({} impulsive), {} segments, {} steps; stopped because {}\n", ours.events.size(),
               impulsive, ours.segments.size(), steps, stop_reason_name(ours.stopped_because));
    fmt::print("  hand-coded: {} events, {} steps\n", band.events.size(), band.steps);
    if (ours.events.size() != static_cast<std::size_t>(n) || impulsive != ours.events.size() ||
        band.events.size() != ours.events.size() || ours.stopped_because != StopReason::StopTime) {
        fmt::print("  MISMATCH: events\n");
        ok = false;
    }
    double worst = 0;
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < 2; ++j) {
            const std::string name = fmt::format("v{}[{}]", j + 1, k + 1);
            auto it = ours.final_values.find(name);
            const double hv = band.final_state[static_cast<std::size_t>(2 * k + j)];
            const double d = it == ours.final_values.end() ? HUGE_VAL : std::abs(it->second - hv);
            worst = std::max({worst, d, std::abs(dense.final_state[static_cast<std::size_t>(2 * k + j)] - hv)});
        }
    fmt::print("  final values: largest difference {:.3g} (bound 1e-6)\n", worst);
    if (!(worst <= 1e-6)) ok = false;
    const double ratio = integration / hand;
    fmt::print("  time: ours {:.4f} s with compilation, {:.4f} s integration (modes compiled); hand-coded {:.4f} s "
               "dense, {:.4f} s band\n",
               with_compile, integration, hand_dense, hand_band);
    fmt::print("  ratio integration / hand-coded = {:.2f} (bound 2); with compilation {:.2f}\n", ratio,
               with_compile / hand);
    if (!(ratio <= 2)) ok = false;
    return ok ? 0 : 1;
}
