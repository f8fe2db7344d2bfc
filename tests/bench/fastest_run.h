// Benchmark support: the wall time of the fastest of several runs.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

namespace modeaudit::bench {

// The fastest of `repeat` runs: on a shared machine the other processes
// only ever add time, so the minimum is the stablest estimate of the cost
// (the mean moved the ratios by half their value under load).
inline double fastest_seconds(const std::function<void()>& f, int repeat) {
    double best = HUGE_VAL;
    for (int k = 0; k < repeat; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

}  // namespace modeaudit::bench
