// Benchmark: the transition analysis (mode_change, rescaling and restart
// stages) on generated models with n independent diode switches
// (corpus/generators diode_cells), n and 10n. Each transition's array is
// built over the part of the system its switch touches (the paper's
// decomposition remark), so the work per transition must not grow with n:
// the ratio t(10n)/t(n) must stay within 15 (n log n). The modes explored
// are the initial mode and its n neighbours (ModeLimits::max_depth = 1):
// the n transitions out of the initial mode are measured; the modes and
// per-mode structure stages are not part of the measurement. Each size runs in
// a fresh process. Not a timed test: ctest label bench.
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>

#include "generators/generators.h"
#include "pipeline/pipeline.h"

namespace {

using namespace modeaudit;

struct Measure {
    double seconds = 0;
    double transitions = 0;
    double continuous = 0;
};

Measure measure_in_child(int n) {
    int fd[2];
    if (pipe(fd) != 0) std::exit(2);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        PipelineState s;
        s.file = s.sources.add("cells.mo", generators::diode_cells(n));
        RunOptions o;
        o.modes.max_modes = static_cast<std::size_t>(n) + 1;
        o.modes.max_depth = 1;
        run_pipeline(s, o, "modes");
        StructureResult none;  // the transition analysis checks the touched parts itself
        auto t0 = std::chrono::steady_clock::now();
        ModeChangeResult mc = study_transitions(*s.flat, *s.modes, none);
        RescalingStageResult rs = rescale_transitions(*s.flat, mc);
        RestartStageResult rr = derive_restarts(*s.flat, *s.modes, mc, rs);
        auto t1 = std::chrono::steady_clock::now();
        Measure m;
        m.seconds = std::chrono::duration<double>(t1 - t0).count();
        m.transitions = static_cast<double>(rr.transitions.size());
        for (const TransitionRestart& r : rr.transitions) m.continuous += r.verdict == Verdict::Continuous ? 1 : 0;
        if (write(fd[1], &m, sizeof m) != sizeof m) _exit(2);
        _exit(0);
    }
    close(fd[1]);
    Measure m;
    ssize_t got = read(fd[0], &m, sizeof m);
    int status = 0;
    waitpid(pid, &status, 0);
    close(fd[0]);
    if (got != sizeof m || !WIFEXITED(status) || WEXITSTATUS(status) != 0) std::exit(2);
    return m;
}

}  // namespace

int main(int argc, char** argv) {
    int n = argc > 1 ? std::atoi(argv[1]) : 100;
    double bound = 15;
    Measure small = measure_in_child(n), big = measure_in_child(10 * n);
    double ratio = big.seconds / small.seconds;
    double per_small = small.seconds / small.transitions, per_big = big.seconds / big.transitions;
    fmt::print("transition analysis, independent diode cells (mode_change + rescaling + restart):\n");
    fmt::print("  n = {:5}: {:8.3f} s for {:.0f} transitions ({:.0f} continuous), {:.2f} ms each\n", n, small.seconds,
               small.transitions, small.continuous, 1e3 * per_small);
    fmt::print("  n = {:5}: {:8.3f} s for {:.0f} transitions ({:.0f} continuous), {:.2f} ms each\n", 10 * n,
               big.seconds, big.transitions, big.continuous, 1e3 * per_big);
    fmt::print("  ratio t(10n)/t(n) = {:.2f} (bound {}), growth exponent {:.2f}; per-transition ratio {:.2f}\n", ratio,
               bound, std::log10(ratio), per_big / per_small);
    bool all_continuous = small.continuous == small.transitions && big.continuous == big.transitions;
    if (!all_continuous) fmt::print("  error: a diode switch of an independent cell was not continuous\n");
    return ratio <= bound && all_continuous ? 0 : 1;
}
