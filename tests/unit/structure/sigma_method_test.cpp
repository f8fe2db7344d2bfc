// Unit tests of the Sigma-method and the Dulmage-Mendelsohn decomposition on
// signature matrices written by hand, and a differential test of the sparse
// assignment solver against brute force over all permutations.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "structure/dulmage_mendelsohn.h"
#include "structure/sigma_method.h"

namespace modeaudit {
namespace {

SignatureMatrix matrix(int n, int m, const std::vector<std::tuple<int, int, int>>& entries) {
    SignatureMatrix s;
    s.rows = n;
    s.cols = m;
    s.entries.resize(static_cast<std::size_t>(n));
    for (auto [i, j, sg] : entries) s.entries[static_cast<std::size_t>(i)].push_back({j, sg});
    for (auto& row : s.entries)
        std::sort(row.begin(), row.end(), [](const SignatureEntry& a, const SignatureEntry& b) { return a.col < b.col; });
    for (int i = 0; i < n; ++i) s.row_equation.push_back(i);
    for (int j = 0; j < m; ++j) s.col_variable.push_back(j);
    return s;
}

// The pendulum of paper notes 1.8: rows e1, e2, k1; columns x, y, lam.
SignatureMatrix pendulum() { return matrix(3, 3, {{0, 0, 2}, {0, 2, 0}, {1, 1, 2}, {1, 2, 0}, {2, 0, 0}, {2, 1, 0}}); }

TEST(SigmaMethod, PendulumHasIndexThreeAndTwoDegreesOfFreedom) {
    SigmaResult r = sigma_method(pendulum());
    ASSERT_TRUE(r.well_posed);
    EXPECT_EQ(r.value, 2);
    EXPECT_EQ(r.c, (std::vector<int>{0, 0, 2}));
    EXPECT_EQ(r.d, (std::vector<int>{2, 2, 0}));
    EXPECT_EQ(r.index, 3);
    EXPECT_EQ(r.dof, 2);
    EXPECT_FALSE(check_offsets(pendulum(), r).has_value());
}

TEST(SigmaMethod, FreeFlightHasIndexOne) {
    // e1: x'' + lam x, e2: y'' + lam y + g, k2: lam = 0
    SignatureMatrix s = matrix(3, 3, {{0, 0, 2}, {0, 2, 0}, {1, 1, 2}, {1, 2, 0}, {2, 2, 0}});
    SigmaResult r = sigma_method(s);
    ASSERT_TRUE(r.well_posed);
    EXPECT_EQ(r.c, (std::vector<int>{0, 0, 0}));
    EXPECT_EQ(r.d, (std::vector<int>{2, 2, 0}));
    EXPECT_EQ(r.index, 1);
    EXPECT_EQ(r.dof, 4);
}

TEST(SigmaMethod, CertificateCheckCatchesWrongOffsets) {
    SignatureMatrix s = pendulum();
    SigmaResult r = sigma_method(s);
    SigmaResult bad = r;
    bad.c[2] = 1;  // k1 differentiated only once
    EXPECT_TRUE(check_offsets(s, bad).has_value());
    bad = r;
    bad.d[0] = 3;
    EXPECT_TRUE(check_offsets(s, bad).has_value());
    bad = r;
    std::swap(bad.transversal[0], bad.transversal[1]);
    EXPECT_TRUE(check_offsets(s, bad).has_value());
}

TEST(SigmaMethod, StructurallySingularHasNoTransversal) {
    // two equations in the same single variable, one variable in none
    SignatureMatrix s = matrix(2, 2, {{0, 0, 0}, {1, 0, 1}});
    EXPECT_FALSE(sigma_method(s).well_posed);
}

// Brute force: the best transversal value over all permutations.
long brute_force_value(const SignatureMatrix& s, bool& exists) {
    std::vector<int> perm(static_cast<std::size_t>(s.cols));
    std::iota(perm.begin(), perm.end(), 0);
    long best = 0;
    exists = false;
    do {
        long v = 0;
        bool ok = true;
        for (int i = 0; i < s.rows && ok; ++i) {
            int sg = s.sigma(i, perm[static_cast<std::size_t>(i)]);
            if (sg == SignatureMatrix::kNoEntry) ok = false;
            v += sg;
        }
        if (ok && (!exists || v > best)) best = v, exists = true;
    } while (std::next_permutation(perm.begin(), perm.end()));
    return best;
}

TEST(SigmaMethod, AssignmentAgreesWithBruteForceOnRandomMatrices) {
    std::mt19937 rng(20261201);
    int well_posed = 0;
    for (int trial = 0; trial < 400; ++trial) {
        int n = 1 + static_cast<int>(rng() % 7);
        std::vector<std::tuple<int, int, int>> e;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                if (rng() % 100 < 45) e.emplace_back(i, j, static_cast<int>(rng() % 4));
        SignatureMatrix s = matrix(n, n, e);
        bool exists = false;
        long best = brute_force_value(s, exists);
        SigmaResult r = sigma_method(s);
        ASSERT_EQ(r.well_posed, exists) << "trial " << trial;
        if (!exists) continue;
        ++well_posed;
        EXPECT_EQ(r.value, best) << "trial " << trial;
        EXPECT_FALSE(check_offsets(s, r).has_value()) << "trial " << trial << ": " << check_offsets(s, r).value_or("");
        // Smallest offsets: no c_i can be lowered (c_i > 0 is forced by some path).
        for (int i = 0; i < n; ++i) {
            if (r.c[static_cast<std::size_t>(i)] == 0) continue;
            SigmaResult lower = r;
            lower.c[static_cast<std::size_t>(i)] -= 1;
            lower.d[static_cast<std::size_t>(lower.transversal[static_cast<std::size_t>(i)])] -= 1;
            EXPECT_TRUE(check_offsets(s, lower).has_value()) << "trial " << trial << " row " << i;
        }
    }
    EXPECT_GT(well_posed, 100);
}

TEST(DulmageMendelsohn, SplitsOverUnderAndWellDeterminedParts) {
    // rows: r0(x), r1(x)  -> over on {x}; r2(y, z) -> under on {y, z} ; r3(w) well
    SignatureMatrix s = matrix(4, 4, {{0, 0, 0}, {1, 0, 0}, {2, 1, 0}, {2, 2, 0}, {3, 3, 0}});
    DulmageMendelsohn dm = dulmage_mendelsohn(s);
    EXPECT_EQ(dm.matching_size(), 3u);
    EXPECT_EQ(dm.over_rows, (std::vector<int>{0, 1}));
    EXPECT_EQ(dm.over_cols, (std::vector<int>{0}));
    EXPECT_EQ(dm.under_rows, (std::vector<int>{2}));
    EXPECT_EQ(dm.under_cols, (std::vector<int>{1, 2}));
    EXPECT_EQ(dm.well_rows, (std::vector<int>{3}));
    EXPECT_FALSE(dm.perfect());
}

// The part of the system a discrete-only event touches can be empty: no
// rows, no columns, a perfect (empty) matching, no blocks. (It indexed an
// empty vector, which the sanitizer build reported.)
TEST(DulmageMendelsohn, EmptySystemIsPerfectWithNoBlocks) {
    SignatureMatrix s = matrix(0, 0, {});
    DulmageMendelsohn dm = dulmage_mendelsohn(s);
    EXPECT_EQ(dm.matching_size(), 0u);
    EXPECT_TRUE(dm.perfect());
    EXPECT_TRUE(dm.blocks.empty());
}

TEST(DulmageMendelsohn, BlockTriangularOrderSolvesDependenciesFirst) {
    // r0: a; r1: a, b; r2: b, c; r3: c, d; r4: d, c   (c, d form one 2x2 block)
    SignatureMatrix s = matrix(5, 4 + 0, {});
    s = matrix(4, 4, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {2, 1, 0}, {2, 2, 0}, {2, 3, 0}, {3, 2, 0}, {3, 3, 0}});
    DulmageMendelsohn dm = dulmage_mendelsohn(s);
    ASSERT_TRUE(dm.perfect());
    ASSERT_EQ(dm.blocks.size(), 3u);
    EXPECT_EQ(dm.blocks[0], (std::vector<int>{0}));
    EXPECT_EQ(dm.blocks[1], (std::vector<int>{1}));
    std::vector<int> last = dm.blocks[2];
    std::sort(last.begin(), last.end());
    EXPECT_EQ(last, (std::vector<int>{2, 3}));
}

TEST(SigmaMethod, LongChainOfPendulumsScalesAndIsBlockwise) {
    // 20000 pendulum blocks, block k's lambda also acting on block k+1's x.
    const int blocks = 20000;
    std::vector<std::tuple<int, int, int>> e;
    for (int k = 0; k < blocks; ++k) {
        int r = 3 * k, c = 3 * k;
        e.emplace_back(r, c, 2);
        e.emplace_back(r, c + 2, 0);
        e.emplace_back(r + 1, c + 1, 2);
        e.emplace_back(r + 1, c + 2, 0);
        e.emplace_back(r + 2, c, 0);
        e.emplace_back(r + 2, c + 1, 0);
        if (k + 1 < blocks) e.emplace_back(r, c + 5, 0);
    }
    SignatureMatrix s = matrix(3 * blocks, 3 * blocks, e);
    SigmaResult r = sigma_method(s);
    ASSERT_TRUE(r.well_posed);
    EXPECT_FALSE(check_offsets(s, r).has_value());
    EXPECT_EQ(r.index, 3);
    EXPECT_EQ(r.dof, 2L * blocks);
}

}  // namespace
}  // namespace modeaudit
