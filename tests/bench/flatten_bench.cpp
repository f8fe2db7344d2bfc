// Benchmark: parse + flatten + modes of a generated RC ladder built with
// connect, at n and 10n cells. Reports the times, their ratio and the growth
// exponent, and the peak memory; fails (exit 1) when the ratio exceeds the
// bound for n log n growth (15 for x10). Not a timed test: ctest label bench.
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "generators/generators.h"
#include "pipeline/pipeline.h"

namespace {

double run_once(const std::string& text, std::size_t& equations) {
    using namespace modeaudit;
    auto t0 = std::chrono::steady_clock::now();
    PipelineState state;
    state.file = state.sources.add("ladder.mo", text);
    RunOptions options;
    PipelineResult r = run_pipeline(state, options, "modes");
    auto t1 = std::chrono::steady_clock::now();
    if (r.last_stage != "modes" || state.sink.has_errors()) {
        for (const Diagnostic& d : state.sink.all()) fmt::print(stderr, "{}", format_diagnostic(d, state.sources));
        std::exit(2);
    }
    equations = state.modes->modes.at(0).equations.size();
    return std::chrono::duration<double>(t1 - t0).count();
}

// Each measurement runs in a fresh child process, so that the small and the
// large model start from the same (cold) allocator and GiNaC state.
double median_time(int n, int repeats, std::size_t& equations) {
    std::string text = modeaudit::generators::rc_ladder(n);
    std::vector<double> t;
    for (int i = 0; i < repeats; ++i) {
        int fds[2];
        if (pipe(fds) != 0) std::exit(2);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            std::size_t eq = 0;
            double secs = run_once(text, eq);
            double msg[2] = {secs, static_cast<double>(eq)};
            if (write(fds[1], msg, sizeof msg) != sizeof msg) _exit(2);
            _exit(0);
        }
        close(fds[1]);
        double msg[2] = {0, 0};
        ssize_t got = read(fds[0], msg, sizeof msg);
        close(fds[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        if (got != sizeof msg || !WIFEXITED(status) || WEXITSTATUS(status) != 0) std::exit(2);
        t.push_back(msg[0]);
        equations = static_cast<std::size_t>(msg[1]);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    int n = argc > 1 ? std::atoi(argv[1]) : 1000;
    double bound = 15;
    std::size_t eq_small = 0, eq_big = 0;
    double small = median_time(n, 3, eq_small);
    double big = median_time(10 * n, 1, eq_big);
    rusage ru{};
    getrusage(RUSAGE_CHILDREN, &ru);
    double ratio = big / small;
    fmt::print("flatten RC ladder (parse + flatten + modes):\n");
    fmt::print("  n = {:6}: {:8.3f} s, {} equations after alias elimination\n", n, small, eq_small);
    fmt::print("  n = {:6}: {:8.3f} s, {} equations after alias elimination\n", 10 * n, big, eq_big);
    fmt::print("  ratio t(10n)/t(n) = {:.2f} (bound {}), growth exponent {:.2f}, peak RSS {:.0f} MiB\n", ratio,
               bound, std::log10(ratio), static_cast<double>(ru.ru_maxrss) / 1024.0);
    return ratio <= bound ? 0 : 1;
}
