// Dense LU of the simulation stage (simulation/dense.h): the solution of a
// well-conditioned system, a singular one refused, and the wall-time limit
// holding inside the elimination of a large system.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <vector>

#include "simulation/dense.h"

namespace modeaudit::sim {
namespace {

// A diagonally dominant n x n matrix with a known solution x = (1, 2, ...).
std::vector<double> dominant(std::size_t n, std::vector<double>& b) {
    std::vector<double> a(n * n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) a[i * n + j] = i == j ? 2.0 * static_cast<double>(n) : std::sin(static_cast<double>(i + 3 * j));
    b.assign(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) b[i] += a[i * n + j] * static_cast<double>(j + 1);
    return a;
}

TEST(DenseLu, SolvesAndRefusesASingularMatrix) {
    std::vector<double> b;
    const std::vector<double> a = dominant(40, b);
    DenseLu lu;
    ASSERT_TRUE(lu.factor(a.data(), 40));
    EXPECT_FALSE(lu.interrupted());
    lu.solve(b.data());
    for (std::size_t j = 0; j < 40; ++j) EXPECT_NEAR(b[j], static_cast<double>(j + 1), 1e-12) << j;
    const std::vector<double> singular{1, 2, 2, 4};
    EXPECT_FALSE(lu.factor(singular.data(), 2));
    EXPECT_FALSE(lu.interrupted());
}

TEST(DenseLu, ADeadlineThatHasPassedInterruptsTheElimination) {
    std::vector<double> b;
    const std::vector<double> a = dominant(300, b);
    DenseLu lu;
    const auto past = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    EXPECT_FALSE(lu.factor(a.data(), 300, past));
    EXPECT_TRUE(lu.interrupted());
    // The same matrix without a deadline, and with one in the future.
    EXPECT_TRUE(lu.factor(a.data(), 300));
    EXPECT_FALSE(lu.interrupted());
    EXPECT_TRUE(lu.factor(a.data(), 300, std::chrono::steady_clock::now() + std::chrono::hours(1)));
}

}  // namespace
}  // namespace modeaudit::sim
