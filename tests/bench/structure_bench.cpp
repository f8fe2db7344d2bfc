// Benchmark: the Sigma-method (assignment + offsets) and the
// Dulmage-Mendelsohn decomposition on generated sparse signature matrices of
// n and 10n equations: chains of pendulum-like index-3 blocks coupled to the
// next block, and the pattern of an RC ladder (a tridiagonal algebraic
// network with one capacitor state per cell). Each measurement runs in a
// fresh process; the ratio t(10n)/t(n) must stay within 15 (n log n), and the
// peak memory is reported. Not a timed test: ctest label bench.
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <tuple>
#include <vector>

#include "structure/dulmage_mendelsohn.h"
#include "structure/sigma_method.h"

namespace {

using modeaudit::SignatureMatrix;

SignatureMatrix from_entries(int n, std::vector<std::tuple<int, int, int>>& e) {
    SignatureMatrix s;
    s.rows = s.cols = n;
    s.entries.resize(static_cast<std::size_t>(n));
    for (auto [i, j, sg] : e) s.entries[static_cast<std::size_t>(i)].push_back({j, sg});
    for (auto& row : s.entries)
        std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.col < b.col; });
    return s;
}

// Pendulum blocks (x, y, lambda), x'' + lambda x = lambda_next, y'' + lambda y + g = 0, x^2 + y^2 = 1.
SignatureMatrix pendulum_chain(int equations) {
    int blocks = equations / 3;
    std::vector<std::tuple<int, int, int>> e;
    for (int k = 0; k < blocks; ++k) {
        int r = 3 * k;
        e.insert(e.end(), {{r, r, 2}, {r, r + 2, 0}, {r + 1, r + 1, 2}, {r + 1, r + 2, 0}, {r + 2, r, 0}, {r + 2, r + 1, 0}});
        if (k + 1 < blocks) e.emplace_back(r, r + 5, 0);
    }
    return from_entries(3 * blocks, e);
}

// RC ladder cell k: node voltage u_k, resistor current i_k, capacitor voltage v_k (a state):
//   i_k * R = u_{k-1} - u_k;  C * v_k' = i_k - i_{k+1};  u_k = v_k.
SignatureMatrix rc_ladder(int equations) {
    int cells = equations / 3;
    std::vector<std::tuple<int, int, int>> e;
    for (int k = 0; k < cells; ++k) {
        int r = 3 * k, u = 3 * k, i = 3 * k + 1, v = 3 * k + 2;
        e.emplace_back(r, i, 0);
        e.emplace_back(r, u, 0);
        if (k > 0) e.emplace_back(r, u - 3, 0);
        e.emplace_back(r + 1, v, 1);
        e.emplace_back(r + 1, i, 0);
        if (k + 1 < cells) e.emplace_back(r + 1, i + 3, 0);
        e.emplace_back(r + 2, u, 0);
        e.emplace_back(r + 2, v, 0);
    }
    return from_entries(3 * cells, e);
}

struct Sample {
    double seconds;
    double peak_mib;
    int index;
    long dof;
};

Sample measure(const std::function<SignatureMatrix(int)>& gen, int n) {
    int fds[2];
    if (pipe(fds) != 0) std::exit(2);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        SignatureMatrix s = gen(n);
        auto t0 = std::chrono::steady_clock::now();
        modeaudit::DulmageMendelsohn dm = modeaudit::dulmage_mendelsohn(s);
        auto tm = std::chrono::steady_clock::now();
        modeaudit::SigmaResult r = modeaudit::sigma_method(s);
        auto t1 = std::chrono::steady_clock::now();
        if (std::getenv("MODEAUDIT_BENCH_SPLIT"))
            fmt::print(stderr, "    (n = {}: DM {:.4f} s, Sigma {:.4f} s)\n", n,
                       std::chrono::duration<double>(tm - t0).count(), std::chrono::duration<double>(t1 - tm).count());
        if (!dm.perfect() || !r.well_posed || modeaudit::check_offsets(s, r)) _exit(3);
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        Sample out{std::chrono::duration<double>(t1 - t0).count(), static_cast<double>(ru.ru_maxrss) / 1024.0, r.index,
                   r.dof};
        if (write(fds[1], &out, sizeof out) != sizeof out) _exit(2);
        _exit(0);
    }
    close(fds[1]);
    Sample out{};
    ssize_t got = read(fds[0], &out, sizeof out);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got != sizeof out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fmt::print(stderr, "measurement at n = {} failed\n", n);
        std::exit(2);
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    int n = argc > 1 ? std::atoi(argv[1]) : 10000;
    const double bound = 15;
    bool ok = true;
    for (auto& [name, gen] : std::vector<std::pair<const char*, std::function<SignatureMatrix(int)>>>{
             {"pendulum chain", pendulum_chain}, {"RC ladder pattern", rc_ladder}}) {
        // The fastest of three runs of each size: the small size takes tens
        // of milliseconds, where one other process on the machine moved a
        // single measurement (and the ratio) past the bound.
        auto best = [&](int size) {
            Sample b = measure(gen, size);
            for (int k = 0; k < 2; ++k)
                if (Sample t = measure(gen, size); t.seconds < b.seconds) b = t;
            return b;
        };
        Sample small = best(n), big = best(10 * n);
        double ratio = big.seconds / std::max(small.seconds, 1e-9);
        fmt::print("Sigma-method + Dulmage-Mendelsohn, {}:\n", name);
        fmt::print("  n = {:7}: {:8.4f} s, index {}, dof {}, peak RSS {:.0f} MiB\n", n, small.seconds, small.index,
                   small.dof, small.peak_mib);
        fmt::print("  n = {:7}: {:8.4f} s, index {}, dof {}, peak RSS {:.0f} MiB\n", 10 * n, big.seconds, big.index,
                   big.dof, big.peak_mib);
        fmt::print("  ratio t(10n)/t(n) = {:.2f} (bound {}), growth exponent {:.2f}\n", ratio, bound, std::log10(ratio));
        ok = ok && ratio <= bound;
    }
    return ok ? 0 : 1;
}
