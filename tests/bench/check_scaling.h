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
#include <optional>
#include <string>
#include <vector>

#include "flatten/expression_limits.h"
#include "pipeline/pipeline.h"

namespace modeaudit::bench {

struct CheckMeasure {
    bool finished = false;
    double seconds = 0;      // wall, all stages
    double cpu_seconds = 0;  // CPU time of the child (all stages): user + system
    // The user part (the analyzer's own instructions) and the system part
    // (the kernel's, mostly backing pages touched for the first time: in a
    // virtual machine a page the host has not backed yet can cost 10-25 us,
    // so this part grows with the memory touched: see first_touch_seconds).
    double user_seconds = 0;
    double system_seconds = 0;
    double page_faults = 0;  // minor faults: pages touched first, or again after the allocator gave them back
    double peak_mib = 0;
    double modes = 0;        // modes the modes stage reports (global or per cluster: see the caller)
    std::array<double, 10> stage_seconds{};       // CPU, parse .. verification, in table order
    std::array<double, 10> stage_user_seconds{};  // the user part of each
};

// CPU time used so far by this process, user and system parts.
struct CpuTimes {
    double user = 0, system = 0;
    double total() const { return user + system; }
};
inline CpuTimes cpu_now() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
    return {seconds(ru.ru_utime), seconds(ru.ru_stime)};
}

// Runs `f` (returning a trivially copyable T) in a fresh child process and
// returns its result: each measurement starts from the same allocator and
// library state. nullopt when the child failed or ran past `limit_seconds`
// (0: no limit; SIGALRM ends it).
template <class T, class F>
std::optional<T> in_child(unsigned limit_seconds, F f) {
    int fd[2];
    if (pipe(fd) != 0) return std::nullopt;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        if (limit_seconds) alarm(limit_seconds);
        const T result = f();
        if (write(fd[1], &result, sizeof result) != sizeof result) _exit(2);
        _exit(0);
    }
    close(fd[1]);
    T result{};
    const bool got = read(fd[0], &result, sizeof result) == sizeof result;
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
    return result;
}

// `configure` adjusts the options; `count` reads the measured size from the
// state (e.g. the number of modes). Stops the child after `limit_seconds`
// (then not finished).
template <class Configure, class Count>
CheckMeasure measure_check(const std::string& text, const std::string& name, unsigned limit_seconds,
                           Configure configure, Count count) {
    return in_child<CheckMeasure>(limit_seconds, [&] {
        PipelineState s;
        s.file = s.sources.add(name, text);
        RunOptions o;
        configure(o);
        CheckMeasure m;
        // The stages of the table one by one (as run_pipeline does), each
        // timed in CPU seconds: the machine may be shared, wall times vary.
        ExpressionLimitScope expression_limit(o.max_expression_terms);
        const CpuTimes c0 = cpu_now();
        const auto t0 = std::chrono::steady_clock::now();
        std::size_t k = 0;
        bool ok = true;
        for (const Stage& st : stages()) {
            const CpuTimes s0 = cpu_now();
            ok = st.run(s, o) == StageOutcome::Ok;
            const CpuTimes s1 = cpu_now();
            if (k < m.stage_seconds.size()) {
                m.stage_seconds[k] = s1.total() - s0.total();
                m.stage_user_seconds[k] = s1.user - s0.user;
            }
            ++k;
            if (!ok || st.name == "verification") break;
        }
        const auto t1 = std::chrono::steady_clock::now();
        m.finished = ok;
        if (!m.finished)
            for (const Diagnostic& d : s.sink.all()) fmt::print(stderr, "{}", format_diagnostic(d, s.sources));
        m.seconds = std::chrono::duration<double>(t1 - t0).count();
        const CpuTimes c1 = cpu_now();
        m.cpu_seconds = c1.total() - c0.total();
        m.user_seconds = c1.user - c0.user;
        m.system_seconds = c1.system - c0.system;
        if (m.finished) m.modes = count(s);
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        m.peak_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;
        m.page_faults = static_cast<double>(ru.ru_minflt);
        return m;
    }).value_or(CheckMeasure{});
}

// The machine's cost of touching `mib` MiB of fresh memory once (one byte
// per page), in CPU seconds of a fresh child process; -1 if the child
// failed. On bare metal this grows linearly with `mib`; in a virtual
// machine whose host backs guest pages lazily it grows faster once the
// pages recently used by the guest are spent.
inline double first_touch_seconds(double mib) {
    return in_child<double>(0, [&] {
        const std::size_t bytes = static_cast<std::size_t>(mib * 1024.0 * 1024.0);
        const CpuTimes c0 = cpu_now();
        auto* p = static_cast<volatile char*>(std::malloc(bytes));
        if (!p) return -1.0;
        for (std::size_t k = 0; k < bytes; k += 4096) p[k] = 1;
        return cpu_now().total() - c0.total();
    }).value_or(-1.0);
}

inline constexpr std::array<const char*, 8> kCheckStages{"parse",     "flatten",   "modes",   "structure",
                                                          "mode_change", "rescaling", "restart", "verification"};

inline void print_check(int n, const CheckMeasure& m) {
    if (!m.finished) {
        fmt::print("  n = {:6}: not finished within the limit\n", n);
        return;
    }
    fmt::print("  n = {:6}: {:8.3f} s wall, {:8.3f} s CPU ({:.3f} user, {:.3f} system), peak RSS {:.0f} MiB, "
               "{:.0f} pages touched, {} modes\n",
               n, m.seconds, m.cpu_seconds, m.user_seconds, m.system_seconds, m.peak_mib, m.page_faults, m.modes);
    std::string parts = "CPU s: ", user = "user s: ";
    for (std::size_t k = 0; k < kCheckStages.size(); ++k) {
        parts += fmt::format("{} {:.3f}  ", kCheckStages[k], m.stage_seconds[k]);
        user += fmt::format("{} {:.3f}  ", kCheckStages[k], m.stage_user_seconds[k]);
    }
    fmt::print("            {}\n            {}\n", parts, user);
}

}  // namespace modeaudit::bench
