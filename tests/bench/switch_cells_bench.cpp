// Benchmark: `check` (parse to verification) on n independent switching
// cells (corpus/generators switch_cells: two capacitors joined by a switch
// that closes at its own time), at n and 10n (default 100 and 1,000). With
// the switching clusters of the modes stage each cell is one small
// analysis: the whole check must grow at most 15 times (CPU time), and the
// peak memory is reported. A size that does not finish within the limit
// (default 600 s, second argument) fails the benchmark.
// `modeaudit_bench_switch_cells --series 2 4 6 8` instead prints the check
// time of each n given (the growth of the product of modes).
// Not a timed test: ctest label bench.
#include <cmath>
#include <cstring>

#include "bench/check_scaling.h"
#include "generators/generators.h"

namespace {

double count_modes(const modeaudit::PipelineState& s) {
    // The product of the clusters' local modes when the modes stage
    // factorised them, else the global modes enumerated.
    return s.modes->global_mode_count();
}

void configure(modeaudit::RunOptions& o) { o.progress = false; }

}  // namespace

int main(int argc, char** argv) {
    using namespace modeaudit;
    if (argc > 1 && std::strcmp(argv[1], "--series") == 0) {
        fmt::print("check on n independent switching cells:\n");
        for (int k = 2; k < argc; ++k) {
            const int n = std::atoi(argv[k]);
            bench::print_check(n, bench::measure_check(generators::switch_cells(n), "cells.mo", 600, configure,
                                                       count_modes));
        }
        return 0;
    }
    const int n = argc > 1 ? std::atoi(argv[1]) : 100;
    const unsigned limit = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 600;
    const double bound = 15;
    const bench::CheckMeasure small =
        bench::measure_check(generators::switch_cells(n), "cells.mo", limit, configure, count_modes);
    const bench::CheckMeasure big =
        bench::measure_check(generators::switch_cells(10 * n), "cells.mo", limit, configure, count_modes);
    fmt::print("check on n independent switching cells (parse to verification):\n");
    bench::print_check(n, small);
    bench::print_check(10 * n, big);
    if (!small.finished || !big.finished) return 1;
    const double ratio = big.cpu_seconds / small.cpu_seconds;
    fmt::print("  ratio CPU t(10n)/t(n) = {:.2f} (bound {}), growth exponent {:.2f}, memory ratio {:.2f}\n", ratio,
               bound, std::log10(ratio), big.peak_mib / small.peak_mib);
    return ratio <= bound ? 0 : 1;
}
