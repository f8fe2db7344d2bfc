// tests/unit/structure/numeric_test.cpp -- unit tests of the numerical kernels
// of the structure stage (analyzer/structure/numeric.h): exact rank with
// dependency coefficients, rank-revealing QR and its condition estimate, and
// the Newton / Gauss-Newton solver on GiNaC expressions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <set>

#include "structure/numeric.h"

#include <Eigen/SVD>

namespace modeaudit {
namespace {

using GiNaC::ex;
using GiNaC::numeric;
using GiNaC::symbol;
using NMatrix = std::vector<std::vector<numeric>>;

NMatrix ints(const std::vector<std::vector<long>>& m) {
    NMatrix out;
    for (const auto& row : m) {
        out.emplace_back();
        for (long v : row) out.back().emplace_back(v);
    }
    return out;
}

std::vector<std::vector<double>> to_double(const NMatrix& m) {
    std::vector<std::vector<double>> out;
    for (const auto& row : m) {
        out.emplace_back();
        for (const auto& v : row) out.back().push_back(v.to_double());
    }
    return out;
}

// Every reported combination must reproduce its row exactly, refer only to
// earlier rows that are themselves independent.
void expect_combinations_hold(const NMatrix& m, const ExactRank& r) {
    std::set<std::size_t> dependent;
    for (const auto& d : r.dependent) dependent.insert(d.row);
    EXPECT_EQ(r.rank + r.dependent.size(), m.size());
    for (const auto& d : r.dependent) {
        std::vector<numeric> sum(m[d.row].size(), numeric(0));
        for (const auto& [k, c] : d.combination) {
            EXPECT_LT(k, d.row);
            EXPECT_FALSE(dependent.count(k)) << "combination uses dependent row " << k;
            EXPECT_FALSE(c.is_zero());
            for (std::size_t j = 0; j < sum.size(); ++j) sum[j] += c * m[k][j];
        }
        for (std::size_t j = 0; j < sum.size(); ++j) EXPECT_EQ(sum[j], m[d.row][j]) << "row " << d.row;
    }
}

// ---------------------------------------------------------------------------
// exact_rank

TEST(ExactRank, TwoByTwoWithRowOneTwiceRowZero) {
    NMatrix m = ints({{1, 1}, {2, 2}});
    ExactRank r = exact_rank(m);
    EXPECT_EQ(r.rank, 1u);
    ASSERT_EQ(r.dependent.size(), 1u);
    EXPECT_EQ(r.dependent[0].row, 1u);
    ASSERT_EQ(r.dependent[0].combination.size(), 1u);
    EXPECT_EQ(r.dependent[0].combination[0].first, 0u);
    EXPECT_EQ(r.dependent[0].combination[0].second, numeric(2));
}

TEST(ExactRank, IdentityHasFullRank) {
    ExactRank r = exact_rank(ints({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}));
    EXPECT_EQ(r.rank, 3u);
    EXPECT_TRUE(r.dependent.empty());
}

TEST(ExactRank, RationalEntriesAreExact) {
    // Row 2 = 1/3 row 0 + 3/7 row 1 exactly; a float would leave a residue.
    numeric third(1, 3), q(3, 7);
    std::vector<numeric> r0{numeric(1), third, numeric(2, 5)};
    std::vector<numeric> r1{numeric(-1, 3), numeric(5), numeric(1, 11)};
    std::vector<numeric> r2;
    for (std::size_t j = 0; j < 3; ++j) r2.push_back(third * r0[j] + q * r1[j]);
    NMatrix m{r0, r1, r2};
    ExactRank r = exact_rank(m);
    EXPECT_EQ(r.rank, 2u);
    ASSERT_EQ(r.dependent.size(), 1u);
    EXPECT_EQ(r.dependent[0].row, 2u);
    ASSERT_EQ(r.dependent[0].combination.size(), 2u);
    EXPECT_EQ(r.dependent[0].combination[0], std::make_pair(std::size_t{0}, third));
    EXPECT_EQ(r.dependent[0].combination[1], std::make_pair(std::size_t{1}, q));
    expect_combinations_hold(m, r);
}

TEST(ExactRank, FourByThreeReportsTheRowThatIsACombination) {
    // Row 3 = row 0 - 2 row 2; rows 0..2 independent.
    NMatrix m = ints({{1, 2, 3}, {0, 1, 4}, {5, 6, 0}, {-9, -10, 3}});
    ExactRank r = exact_rank(m);
    EXPECT_EQ(r.rank, 3u);
    ASSERT_EQ(r.dependent.size(), 1u);
    EXPECT_EQ(r.dependent[0].row, 3u);
    ASSERT_EQ(r.dependent[0].combination.size(), 2u);
    EXPECT_EQ(r.dependent[0].combination[0], std::make_pair(std::size_t{0}, numeric(1)));
    EXPECT_EQ(r.dependent[0].combination[1], std::make_pair(std::size_t{2}, numeric(-2)));
    expect_combinations_hold(m, r);
}

TEST(ExactRank, ZeroRowsAndDuplicatesAreDependent) {
    NMatrix m = ints({{0, 0}, {3, 1}, {3, 1}, {0, 0}, {1, 0}});
    ExactRank r = exact_rank(m);
    EXPECT_EQ(r.rank, 2u);
    ASSERT_EQ(r.dependent.size(), 3u);
    EXPECT_EQ(r.dependent[0].row, 0u);
    EXPECT_TRUE(r.dependent[0].combination.empty());
    EXPECT_EQ(r.dependent[1].row, 2u);
    EXPECT_EQ(r.dependent[2].row, 3u);
    expect_combinations_hold(m, r);
}

TEST(ExactRank, EmptyMatrix) {
    EXPECT_EQ(exact_rank({}).rank, 0u);
    ExactRank r = exact_rank(NMatrix{{}, {}});
    EXPECT_EQ(r.rank, 0u);
    EXPECT_EQ(r.dependent.size(), 2u);
}

// ---------------------------------------------------------------------------
// float_rank

// Deterministic across standard libraries: mt19937's output sequence is fixed
// by the standard, unlike the distributions.
long small_int(std::mt19937& g, long lo, long hi) {
    return lo + static_cast<long>(g() % static_cast<std::uint32_t>(hi - lo + 1));
}

// rows x cols with `base` random rows and the rest integer combinations of
// them, in shuffled positions.
NMatrix planted(std::mt19937& g, std::size_t rows, std::size_t cols, std::size_t base) {
    NMatrix b;
    for (std::size_t i = 0; i < base; ++i) {
        b.emplace_back();
        for (std::size_t j = 0; j < cols; ++j) b.back().emplace_back(small_int(g, -5, 5));
    }
    NMatrix m = b;
    while (m.size() < rows) {
        std::vector<numeric> row(cols, numeric(0));
        for (std::size_t i = 0; i < base; ++i) {
            numeric c(small_int(g, -3, 3));
            for (std::size_t j = 0; j < cols; ++j) row[j] += c * b[i][j];
        }
        m.push_back(row);
    }
    for (std::size_t i = m.size(); i > 1; --i) std::swap(m[i - 1], m[g() % i]);
    return m;
}

// A matrix that falls into independent blocks (in shuffled rows and
// columns) is factored block by block: the rank and the dependent rows agree
// with the exact rank, and the condition with the SVD of the whole matrix
// (Eigen's BDCSVD, the route the single-block path takes).
TEST(FloatRank, IndependentBlocksAgreeWithTheWholeMatrix) {
    std::mt19937 g(20261203u);
    int deficient = 0, blocky = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const std::size_t nblocks = 2 + g() % 4;
        std::vector<NMatrix> parts;
        std::size_t rows = 0, cols = 0;
        for (std::size_t b = 0; b < nblocks; ++b) {
            std::size_t r = 1 + g() % 4, c = trial % 2 ? r : 1 + g() % 4;
            parts.push_back(planted(g, r, c, g() % 3 == 0 ? g() % (std::min(r, c) + 1) : std::min(r, c)));
            rows += r;
            cols += c;
        }
        NMatrix m(rows, std::vector<numeric>(cols, numeric(0)));
        std::size_t r0 = 0, c0 = 0;
        for (const NMatrix& p : parts) {
            for (std::size_t i = 0; i < p.size(); ++i)
                for (std::size_t j = 0; j < p[i].size(); ++j) m[r0 + i][c0 + j] = p[i][j];
            r0 += p.size();
            c0 += p.front().size();
        }
        for (std::size_t i = m.size(); i > 1; --i) std::swap(m[i - 1], m[g() % i]);
        for (std::size_t j = cols; j > 1; --j) {
            std::size_t k = g() % j;
            for (auto& row : m) std::swap(row[j - 1], row[k]);
        }
        ExactRank exact = exact_rank(m);
        const std::vector<std::vector<double>> a = to_double(m);
        FloatRank fr = float_rank(a);
        ASSERT_EQ(fr.rank, exact.rank) << "trial " << trial;
        ASSERT_EQ(fr.dependent_rows.size(), rows - exact.rank) << "trial " << trial;
        std::set<std::size_t> dep(fr.dependent_rows.begin(), fr.dependent_rows.end());
        NMatrix kept;
        for (std::size_t i = 0; i < rows; ++i)
            if (!dep.count(i)) kept.push_back(m[i]);
        EXPECT_EQ(exact_rank(kept).rank, kept.size()) << "trial " << trial;
        if (exact.rank < std::min(rows, cols)) {
            ++deficient;
            EXPECT_TRUE(std::isinf(fr.condition)) << "trial " << trial;
            continue;
        }
        ++blocky;
        Eigen::MatrixXd whole(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j)
                whole(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = a[i][j];
        Eigen::BDCSVD<Eigen::MatrixXd> svd(whole);
        const Eigen::VectorXd& sv = svd.singularValues();
        const double reference = sv(0) / sv(sv.size() - 1);
        EXPECT_NEAR(fr.condition / reference, 1.0, 1e-9) << "trial " << trial;
    }
    EXPECT_GT(deficient, 10);
    EXPECT_GT(blocky, 50);
}

TEST(FloatRank, AgreesWithExactRankOnPlantedDependencies) {
    std::mt19937 g(20240611u);
    int deficient = 0;
    for (int trial = 0; trial < 300; ++trial) {
        std::size_t rows = 1 + g() % 8, cols = 1 + g() % 8;
        std::size_t base = g() % (std::min(rows, cols) + 1);
        NMatrix m = planted(g, rows, cols, base);
        ExactRank exact = exact_rank(m);
        expect_combinations_hold(m, exact);
        FloatRank fr = float_rank(to_double(m));
        ASSERT_EQ(fr.rank, exact.rank) << "trial " << trial;
        ASSERT_EQ(fr.dependent_rows.size(), rows - exact.rank);
        EXPECT_TRUE(std::is_sorted(fr.dependent_rows.begin(), fr.dependent_rows.end()));
        // The rows float_rank keeps must really be independent.
        std::set<std::size_t> dep(fr.dependent_rows.begin(), fr.dependent_rows.end());
        NMatrix kept;
        for (std::size_t i = 0; i < rows; ++i)
            if (!dep.count(i)) kept.push_back(m[i]);
        EXPECT_EQ(exact_rank(kept).rank, fr.rank) << "trial " << trial;
        if (exact.rank < std::min(rows, cols)) {
            ++deficient;
            EXPECT_TRUE(std::isinf(fr.condition));
        } else {
            EXPECT_TRUE(std::isfinite(fr.condition));
            EXPECT_GE(fr.condition, 1.0 - 1e-12);
        }
    }
    EXPECT_GT(deficient, 50);  // the test really exercises dependent rows
}

TEST(FloatRank, ConditionOfDiagonal) {
    FloatRank r = float_rank({{1, 0}, {0, 1e-3}});
    EXPECT_EQ(r.rank, 2u);
    EXPECT_TRUE(r.dependent_rows.empty());
    EXPECT_NEAR(r.condition, 1e3, 1e3 * 1e-12);
}

TEST(FloatRank, ConditionIsTheTwoNormCondition) {
    // Singular values of [[1,2],[3,4]] are sqrt(15 +- sqrt(221)).
    FloatRank r = float_rank({{1, 2}, {3, 4}});
    double expected = std::sqrt((15 + std::sqrt(221.0)) / (15 - std::sqrt(221.0)));
    EXPECT_NEAR(r.condition, expected, expected * 1e-12);
    // Rotations are perfectly conditioned.
    double c = std::cos(0.3), s = std::sin(0.3);
    EXPECT_NEAR(float_rank({{c, -s}, {s, c}}).condition, 1.0, 1e-14);
}

TEST(FloatRank, ConditionOfHilbertMatrices) {
    // Reference values of cond_2(H_n): 524.0568 (n = 3), 4.766073e5 (n = 5),
    // 1.525758e10 (n = 8). The crude |R_00| / |R_nn| bound would be off by
    // a sizeable factor; the Jacobi SVD of R gets them to rounding.
    const std::pair<int, double> cases[] = {{3, 524.0567776}, {5, 476607.2502}, {8, 1.525757586e10}};
    for (const auto& [n, expected] : cases) {
        const auto size = static_cast<std::size_t>(n);
        std::vector<std::vector<double>> h(size, std::vector<double>(size));
        for (std::size_t i = 0; i < size; ++i)
            for (std::size_t j = 0; j < size; ++j) h[i][j] = 1.0 / static_cast<double>(i + j + 1);
        FloatRank r = float_rank(h, 1e-14);
        EXPECT_EQ(r.rank, static_cast<std::size_t>(n));
        EXPECT_NEAR(r.condition, expected, expected * 1e-6) << "n = " << n;
    }
}

TEST(FloatRank, SingularIsInfinite) {
    FloatRank r = float_rank({{1, 2, 3}, {2, 4, 6}, {0, 1, 1}});
    EXPECT_EQ(r.rank, 2u);
    EXPECT_TRUE(std::isinf(r.condition));
    EXPECT_EQ(r.dependent_rows.size(), 1u);
    EXPECT_TRUE(float_rank({{0, 0}, {0, 0}}).condition == std::numeric_limits<double>::infinity());
    EXPECT_EQ(float_rank({{0, 0}, {0, 0}}).rank, 0u);
}

TEST(FloatRank, ToleranceIsRelativeToTheLargestPivotOfTheEquilibratedMatrix) {
    // Scale-aware: a diagonal matrix has full rank whatever its scales (the
    // rule before equilibration called this rank 1, since 1e-11 < 1e-10 * 1).
    std::vector<std::vector<double>> m{{1, 0}, {0, 1e-11}};
    FloatRank r = float_rank(m);
    EXPECT_EQ(r.rank, 2u);
    EXPECT_TRUE(r.dependent_rows.empty());
    EXPECT_NEAR(r.condition, 1e11, 1e11 * 1e-12);  // the raw matrix
    EXPECT_LT(r.scaled_condition, 4.0);             // equilibrated by powers of two: near the identity
    EXPECT_EQ(float_rank({{1e-20, 0}, {0, 1e-31}}).rank, 2u);
    // The tolerance acts on the equilibrated matrix: [[1, 1], [1, 1 + d]]
    // has pivots 1 and about d (relative), whatever the scale of either row.
    for (double scale : {1.0, 1e-12, 1e12}) {
        std::vector<std::vector<double>> near{{1, 1}, {scale, scale * (1 + 1e-12)}};
        EXPECT_EQ(float_rank(near).rank, 1u) << "scale " << scale;
        EXPECT_EQ(float_rank(near, 1e-13).rank, 2u) << "scale " << scale;
    }
}

TEST(FloatRank, EntriesAtRoundingLevelOfTheLargestAreZero) {
    // 0.1 + 0.2 - 0.3 is 5.6e-17, not 0: an entry left by such a cancellation
    // must not become a pivot of order one after equilibration.
    double noise = 0.1 + 0.2 - 0.3;
    ASSERT_NE(noise, 0.0);
    FloatRank r = float_rank({{1, 2}, {noise, 0}});
    EXPECT_EQ(r.rank, 1u);
    EXPECT_EQ(r.dependent_rows, std::vector<std::size_t>{1});
}

TEST(FloatRank, BadlyScaledFullRankIsFullRank) {
    // A = D_r B D_c with B = [[2, 1, 0], [1, 3, 1], [0, 1, 4]] (well
    // conditioned) and scales over 24 orders of magnitude. The raw condition
    // is far beyond 1e10, so a rule on the raw pivots (|R_kk| > 1e-10 |R_00|)
    // calls it rank-deficient; its rank is 3.
    const double dr[] = {1e-6, 1, 1e6}, dc[] = {1e6, 1e-3, 1e-6};
    const double b[3][3] = {{2, 1, 0}, {1, 3, 1}, {0, 1, 4}};
    std::vector<std::vector<double>> a(3, std::vector<double>(3));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) a[i][j] = dr[i] * b[i][j] * dc[j];
    FloatRank r = float_rank(a);
    EXPECT_EQ(r.rank, 3u);
    EXPECT_TRUE(r.dependent_rows.empty());
    EXPECT_GT(r.condition, 1e10);
    EXPECT_LT(r.scaled_condition, 10.0);
}

TEST(FloatRank, RectifierLikeJacobianIsFullRank) {
    // Unknowns (v, i, s) of one conducting diode (Ron = 1e-5) in series with a
    // source of 1e5 V scale and a resistor of 1e-3 ohm:
    //   v - Ron s = 0,  i - s = 0,  1e5 * (v + 1e-3 i) = 0 (a row in other units).
    const double ron = 1e-5;
    FloatRank r = float_rank({{1, 0, -ron}, {0, 1, -1}, {1e5, 1e2, 0}});
    EXPECT_EQ(r.rank, 3u);
    EXPECT_TRUE(std::isfinite(r.scaled_condition));
}

TEST(FloatRank, ScaledSingularStaysSingularWithItsDependentRow) {
    // Row 3 = 3e-7 * row 0 + 2e9 * row 1; row 2 is needed for column 3.
    // Any of rows 0, 1, 3 may be the one reported; it must be exactly one of
    // them, and the rows kept must be independent.
    std::vector<std::vector<double>> m{{1e8, 2e8, 0, 0}, {0, 0, 1e-6, 0}, {0, 0, 0, 1e3}};
    std::vector<double> dep(4);
    for (int j = 0; j < 4; ++j) dep[static_cast<std::size_t>(j)] = 3e-7 * m[0][static_cast<std::size_t>(j)] + 2e9 * m[1][static_cast<std::size_t>(j)];
    m.push_back(dep);
    FloatRank r = float_rank(m);
    EXPECT_EQ(r.rank, 3u);
    ASSERT_EQ(r.dependent_rows.size(), 1u);
    EXPECT_NE(r.dependent_rows[0], 2u);
    EXPECT_TRUE(std::isinf(r.condition));
    EXPECT_TRUE(std::isinf(r.scaled_condition));
    // A square singular one: the last row a scaled copy of the first.
    FloatRank sq = float_rank({{1e-9, 3e-9, 0}, {0, 1e4, 2e4}, {7e6, 21e6, 0}});
    EXPECT_EQ(sq.rank, 2u);
    ASSERT_EQ(sq.dependent_rows.size(), 1u);
    EXPECT_TRUE(sq.dependent_rows[0] == 0u || sq.dependent_rows[0] == 2u);
}

TEST(FloatRank, AgreesWithExactRankOnBadlyScaledPlantedMatrices) {
    // The planted matrices of AgreesWithExactRankOnPlantedDependencies with
    // rows and columns scaled by 10^k, k in [-6, 6] (so coefficients of one
    // row differ by up to 1e14, the limit of the rule): scaling changes
    // neither the rank nor which row sets are independent.
    std::mt19937 g(20261203u);
    int deficient = 0;
    for (int trial = 0; trial < 300; ++trial) {
        std::size_t rows = 1 + g() % 8, cols = 1 + g() % 8;
        std::size_t base = g() % (std::min(rows, cols) + 1);
        NMatrix m = planted(g, rows, cols, base);
        ExactRank exact = exact_rank(m);
        std::vector<double> dr(rows), dc(cols);
        for (double& x : dr) x = std::pow(10.0, static_cast<double>(small_int(g, -6, 6)));
        for (double& x : dc) x = std::pow(10.0, static_cast<double>(small_int(g, -6, 6)));
        std::vector<std::vector<double>> a = to_double(m);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j) a[i][j] *= dr[i] * dc[j];
        FloatRank fr = float_rank(a);
        ASSERT_EQ(fr.rank, exact.rank) << "trial " << trial;
        ASSERT_EQ(fr.dependent_rows.size(), rows - exact.rank);
        std::set<std::size_t> dep(fr.dependent_rows.begin(), fr.dependent_rows.end());
        NMatrix kept;
        for (std::size_t i = 0; i < rows; ++i)
            if (!dep.count(i)) kept.push_back(m[i]);
        EXPECT_EQ(exact_rank(kept).rank, fr.rank) << "trial " << trial;
        if (exact.rank < std::min(rows, cols)) ++deficient;
    }
    EXPECT_GT(deficient, 50);
}

TEST(FloatRank, NonSquare) {
    FloatRank wide = float_rank({{3, 0, 0}, {0, 4, 0}});
    EXPECT_EQ(wide.rank, 2u);
    EXPECT_NEAR(wide.condition, 4.0 / 3.0, 1e-14);
    FloatRank tall = float_rank({{1, 0}, {0, 2}, {1, 2}});
    EXPECT_EQ(tall.rank, 2u);
    EXPECT_TRUE(std::isfinite(tall.condition));
    EXPECT_EQ(tall.dependent_rows.size(), 1u);
}

TEST(FloatRank, Empty) {
    FloatRank none = float_rank({});
    EXPECT_EQ(none.rank, 0u);
    EXPECT_TRUE(none.dependent_rows.empty());
    EXPECT_EQ(none.condition, 1.0);
    FloatRank no_cols = float_rank({{}, {}});
    EXPECT_EQ(no_cols.rank, 0u);
    EXPECT_EQ(no_cols.dependent_rows, (std::vector<std::size_t>{0, 1}));
}

TEST(FloatRank, NonFiniteEntriesAreNotRanked) {
    FloatRank r = float_rank({{1, std::nan("")}, {0, 1}});
    EXPECT_EQ(r.rank, 0u);
    EXPECT_TRUE(std::isnan(r.condition));
    EXPECT_EQ(r.dependent_rows.size(), 2u);
}

// ---------------------------------------------------------------------------
// newton

TEST(Newton, SquareNonlinearSystem) {
    symbol x("x"), y("y");
    NewtonResult r = newton({x * x + y * y - 1, x - y}, {x, y}, {}, {1, 0});
    ASSERT_TRUE(r.converged) << r.message;
    ASSERT_EQ(r.values.size(), 2u);
    EXPECT_NEAR(r.values[0], std::sqrt(0.5), 1e-12);
    EXPECT_NEAR(r.values[1], std::sqrt(0.5), 1e-12);
    EXPECT_LE(r.residual, 1e-12);
    EXPECT_GT(r.iterations, 0);
    EXPECT_LT(r.iterations, 10);
}

TEST(Newton, UnderdeterminedMovesMinimally) {
    symbol x("x"), y("y");
    NewtonResult r = newton({x * x + y * y - 1}, {x, y}, {}, {0.6, -0.9});
    ASSERT_TRUE(r.converged) << r.message;
    EXPECT_NEAR(r.values[0] * r.values[0] + r.values[1] * r.values[1], 1.0, 1e-12);
    double len = std::hypot(0.6, -0.9);
    EXPECT_NEAR(r.values[0], 0.6 / len, 1e-6);
    EXPECT_NEAR(r.values[1], -0.9 / len, 1e-6);
}

TEST(Newton, UnderdeterminedLinearIsTheMinimumNormCorrection) {
    // x + y + z = 3 from 0: the closest point is (1, 1, 1), one step.
    symbol x("x"), y("y"), z("z");
    NewtonResult r = newton({x + y + z - 3}, {x, y, z}, {}, {0, 0, 0});
    ASSERT_TRUE(r.converged) << r.message;
    for (double v : r.values) EXPECT_NEAR(v, 1.0, 1e-14);
    EXPECT_EQ(r.iterations, 1);
}

TEST(Newton, OverdeterminedConsistentLinear) {
    symbol x("x"), y("y");
    NewtonResult r = newton({x + y - 3, x - y - 1, 2 * x + y - 5}, {x, y}, {}, {10, -7});
    ASSERT_TRUE(r.converged) << r.message;
    EXPECT_NEAR(r.values[0], 2.0, 1e-12);
    EXPECT_NEAR(r.values[1], 1.0, 1e-12);
}

TEST(Newton, OverdeterminedInconsistentDoesNotConverge) {
    symbol x("x");
    NewtonResult r = newton({x - 1, x - 2}, {x}, {}, {0});
    EXPECT_FALSE(r.converged);
    EXPECT_FALSE(r.message.empty());
    EXPECT_NEAR(r.values[0], 1.5, 1e-12);  // the least-squares point
}

TEST(Newton, ParametersAreSubstituted) {
    symbol x("x"), y("y"), L("L");
    GiNaC::exmap params{{L, 2}};
    NewtonResult r = newton({x * x + y * y - L * L, y - L / 2}, {x, y}, params, {1, 0});
    ASSERT_TRUE(r.converged) << r.message;
    EXPECT_NEAR(r.values[1], 1.0, 1e-12);
    EXPECT_NEAR(r.values[0], std::sqrt(3.0), 1e-12);
}

TEST(Newton, MissingParameterIsReported) {
    symbol x("x"), L("L");
    NewtonResult r;
    EXPECT_NO_THROW(r = newton({x - L}, {x}, {}, {0}));
    EXPECT_FALSE(r.converged);
    EXPECT_NE(r.message.find("equation 0"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("L"), std::string::npos) << r.message;
}

TEST(Newton, NoRealSolutionFailsWithoutThrowing) {
    symbol x("x");
    for (double start : {1.0, 0.0, -3.0, 0.37}) {
        NewtonResult r;
        EXPECT_NO_THROW(r = newton({x * x + 1}, {x}, {}, {start}));
        EXPECT_FALSE(r.converged) << "from " << start;
        EXPECT_FALSE(r.message.empty());
        EXPECT_GE(r.residual, 1.0 - 1e-12);
        EXPECT_TRUE(std::isfinite(r.values[0]));
    }
}

TEST(Newton, LogStartingWhereAFullStepLeavesTheDomain) {
    // Newton on log(x) from 3: the full step goes to 3 - 3 log 3 < 0, where
    // log is not real. The line search must shorten it, not throw.
    symbol x("x");
    NewtonResult r;
    EXPECT_NO_THROW(r = newton({GiNaC::log(x)}, {x}, {}, {3}));
    ASSERT_TRUE(r.converged) << r.message;
    EXPECT_NEAR(r.values[0], 1.0, 1e-12);
}

TEST(Newton, StepOntoAPoleIsShortened) {
    // 1/x - 1 from 2: the full Newton step is dx = x - x^2 = -2, landing on
    // the pole x = 0 exactly.
    symbol x("x");
    NewtonResult r;
    EXPECT_NO_THROW(r = newton({1 / x - 1}, {x}, {}, {2}));
    ASSERT_TRUE(r.converged) << r.message;
    EXPECT_NEAR(r.values[0], 1.0, 1e-12);
}

TEST(Newton, StartOutsideTheDomainIsAFailureNamingTheEquation) {
    symbol x("x"), y("y");
    NewtonResult r;
    EXPECT_NO_THROW(r = newton({x - 1, GiNaC::log(y)}, {x, y}, {}, {0, -1}));
    EXPECT_FALSE(r.converged);
    EXPECT_NE(r.message.find("equation 1"), std::string::npos) << r.message;
    EXPECT_TRUE(std::isinf(r.residual));
}

TEST(Newton, PoleAtTheStartIsAFailure) {
    symbol x("x");
    NewtonResult r;
    EXPECT_NO_THROW(r = newton({1 / x}, {x}, {}, {0}));
    EXPECT_FALSE(r.converged);
    EXPECT_FALSE(r.message.empty());
}

TEST(Newton, SingularSquareJacobianFallsBackToLeastSquares) {
    // Two copies of the same equation: J is singular everywhere, the
    // pseudo-inverse step still solves the (consistent) system.
    symbol x("x"), y("y");
    NewtonResult r = newton({x + y - 2, 2 * x + 2 * y - 4}, {x, y}, {}, {0, 0});
    ASSERT_TRUE(r.converged) << r.message;
    EXPECT_NEAR(r.values[0], 1.0, 1e-12);  // minimum-norm correction
    EXPECT_NEAR(r.values[1], 1.0, 1e-12);
}

TEST(Newton, LargeTermsConvergeAtRoundingLevel) {
    // Terms of size 1e8 cannot cancel to 1e-12 in double precision; the
    // rounding-level rule accepts the solution with a note.
    symbol x("x");
    NewtonResult r = newton({1e8 * x - 314159265.358979}, {x}, {}, {0}, {50, 1e-15});
    ASSERT_TRUE(r.converged) << r.message;
    EXPECT_NEAR(r.values[0], 3.14159265358979, 1e-12);
}

TEST(Newton, IterationLimitIsReported) {
    symbol x("x");
    NewtonResult r = newton({GiNaC::exp(x) - 1}, {x}, {}, {20}, {3, 1e-12});
    EXPECT_FALSE(r.converged);
    EXPECT_EQ(r.iterations, 3);
    EXPECT_NE(r.message.find("3 iterations"), std::string::npos) << r.message;
}

TEST(Newton, BadArguments) {
    symbol x("x");
    EXPECT_FALSE(newton({x}, {x}, {}, {}).converged);
    EXPECT_FALSE(newton({x}, {x}, {}, {std::numeric_limits<double>::infinity()}).converged);
    NewtonResult empty = newton({}, {}, {}, {});
    EXPECT_TRUE(empty.converged);
    EXPECT_EQ(empty.iterations, 0);
}

TEST(Newton, AlreadyConvergedTakesNoStep) {
    symbol x("x");
    NewtonResult r = newton({x - 1}, {x}, {}, {1});
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(r.iterations, 0);
    EXPECT_EQ(r.values[0], 1.0);
}

}  // namespace
}  // namespace modeaudit
