// Shared by the check-scaling benchmarks: runs the `check` stages (parse up
// to verification) on a generated model in a fresh child process and
// reports the CPU time of each stage, the wall and CPU time of the whole
// check and the peak memory. A child
// that runs past a wall-time limit is stopped and counted as not finished
// (the measurement is then reported as such, not as a time).
#pragma once

#include <fmt/format.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "flatten/expression_limits.h"
#include "pipeline/pipeline.h"

namespace modeaudit::bench {

struct CheckMeasure {
    bool finished = false;
    double seconds = 0;      // wall, all stages
    double cpu_seconds = 0;  // CPU time of the child (all stages)
    double peak_mib = 0;
    double modes = 0;        // modes the modes stage reports (global or per cluster: see the caller)
    std::array<double, 10> stage_seconds{};  // parse .. verification, in table order
};

inline double cpu_now() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// `configure` adjusts the options; `count` reads the measured size from the
// state (e.g. the number of modes). Stops the child after `limit_seconds`.
template <class Configure, class Count>
CheckMeasure measure_check(const std::string& text, const std::string& name, unsigned limit_seconds,
                           Configure configure, Count count) {
    int fd[2];
    if (pipe(fd) != 0) std::exit(2);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        alarm(limit_seconds);  // SIGALRM ends the child: not finished
        PipelineState s;
        s.file = s.sources.add(name, text);
        RunOptions o;
        configure(o);
        CheckMeasure m;
        // The stages of the table one by one (as run_pipeline does), each
        // timed in CPU seconds: the machine may be shared, wall times vary.
        ExpressionLimitScope expression_limit(o.max_expression_terms);
        const double c0 = cpu_now();
        const auto t0 = std::chrono::steady_clock::now();
        std::size_t k = 0;
        bool ok = true;
        for (const Stage& st : stages()) {
            const double s0 = cpu_now();
            ok = st.run(s, o) == StageOutcome::Ok;
            if (k < m.stage_seconds.size()) m.stage_seconds[k] = cpu_now() - s0;
            ++k;
            if (!ok || st.name == "verification") break;
        }
        const auto t1 = std::chrono::steady_clock::now();
        m.finished = ok;
        if (!m.finished)
            for (const Diagnostic& d : s.sink.all()) fmt::print(stderr, "{}", format_diagnostic(d, s.sources));
        m.seconds = std::chrono::duration<double>(t1 - t0).count();
        m.cpu_seconds = cpu_now() - c0;
        if (m.finished) m.modes = count(s);
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        m.peak_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;
        if (write(fd[1], &m, sizeof m) != sizeof m) _exit(2);
        _exit(0);
    }
    close(fd[1]);
    CheckMeasure m;
    ssize_t got = read(fd[0], &m, sizeof m);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got != sizeof m || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return CheckMeasure{};
    return m;
}

inline constexpr std::array<const char*, 8> kCheckStages{"parse",     "flatten",   "modes",   "structure",
                                                          "mode_change", "rescaling", "restart", "verification"};

inline void print_check(int n, const CheckMeasure& m) {
    if (!m.finished) {
        fmt::print("  n = {:6}: not finished within the limit\n", n);
        return;
    }
    fmt::print("  n = {:6}: {:8.3f} s wall, {:8.3f} s CPU, peak RSS {:.0f} MiB, {} modes\n", n, m.seconds,
               m.cpu_seconds, m.peak_mib, m.modes);
    std::string parts = "CPU s: ";
    for (std::size_t k = 0; k < kCheckStages.size(); ++k)
        parts += fmt::format("{} {:.3f}  ", kCheckStages[k], m.stage_seconds[k]);
    fmt::print("            {}\n", parts);
}

}  // namespace modeaudit::bench
