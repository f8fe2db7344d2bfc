// Benchmark: the `check` stages (parse to verification) on the RC ladder of
// corpus/generators at n and 10n cells (default 10,000 and 100,000; the
// flatten variable limit is raised for the large one). Reports per-stage
// times, their ratios, and peak memory; fails (exit 1) when the whole
// check, flatten or the structure stage grows more than 12 times in user
// CPU time (linear growth plus the n log n of sorted indices).
//
// User time, not user + system: the system part is the kernel backing the
// pages the check touches for the first time, and on a virtual machine
// whose host backs guest memory lazily that cost per page grows with the
// amount touched (measured here: 300 MiB 0.2 s, 3,000 MiB 17 s). The
// benchmark prints the system time, the pages touched, the CPU ratio and
// the machine's own cost of touching each size's peak memory (a plain
// loop over fresh pages), so that growth from the machine and growth from
// the analyzer are told apart. CPU times are compared, as the machine may
// be shared. Not a timed test: ctest label bench.
#include <cmath>

#include "bench/check_scaling.h"
#include "generators/generators.h"

int main(int argc, char** argv) {
    using namespace modeaudit;
    const int n = argc > 1 ? std::atoi(argv[1]) : 10000;
    const double bound = 12;
    auto configure = [](RunOptions& o) {
        o.flatten.max_variables = 100000000;
        o.progress = false;
    };
    auto count = [](const PipelineState& s) { return static_cast<double>(s.modes->modes.size()); };
    const bench::CheckMeasure small = bench::measure_check(generators::rc_ladder(n), "ladder.mo", 1800, configure, count);
    const bench::CheckMeasure big =
        bench::measure_check(generators::rc_ladder(10 * n), "ladder.mo", 1800, configure, count);
    fmt::print("check on the RC ladder (parse to verification):\n");
    bench::print_check(n, small);
    bench::print_check(10 * n, big);
    if (!small.finished || !big.finished) return 1;
    bool ok = true;
    auto ratio = [&](const char* what, double a, double b, bool bounded) {
        const double r = a > 0 ? b / a : 0;
        fmt::print("  {:18} ratio t(10n)/t(n) = {:6.2f}{}, growth exponent {:.2f}\n", what, r,
                   bounded ? fmt::format(" (bound {})", bound) : std::string(), r > 0 ? std::log10(r) : 0);
        if (bounded && r > bound) ok = false;
    };
    ratio("check (user)", small.user_seconds, big.user_seconds, true);
    for (std::size_t k = 1; k < bench::kCheckStages.size(); ++k) {
        const std::string stage = bench::kCheckStages[k];
        const bool bounded = stage == "flatten" || stage == "structure";
        if (small.stage_user_seconds[k] < 1e-3 && !bounded) continue;
        ratio(fmt::format("{} (user)", stage).c_str(), small.stage_user_seconds[k], big.stage_user_seconds[k],
              bounded);
    }
    ratio("check (CPU)", small.cpu_seconds, big.cpu_seconds, false);
    ratio("check (system)", small.system_seconds, big.system_seconds, false);
    fmt::print("  peak memory ratio {:.2f}, pages touched ratio {:.2f}\n", big.peak_mib / small.peak_mib,
               small.page_faults > 0 ? big.page_faults / small.page_faults : 0);
    // The machine alone: touching each size's peak memory once.
    const double touch_small = bench::first_touch_seconds(small.peak_mib);
    const double touch_big = bench::first_touch_seconds(big.peak_mib);
    fmt::print("  this machine touching fresh memory: {:.0f} MiB {:.3f} s, {:.0f} MiB {:.3f} s (ratio {:.1f})\n",
               small.peak_mib, touch_small, big.peak_mib, touch_big, touch_small > 0 ? touch_big / touch_small : 0);
    return ok ? 0 : 1;
}
