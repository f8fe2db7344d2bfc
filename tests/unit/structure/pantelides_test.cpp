// Unit tests of Pantelides' algorithm on signature matrices
// (analyzer/structure/pantelides.cpp). Matrices are written by hand from the
// equations, so these tests do not depend on build_signature. The expected
// counts are worked out by hand in the comments and agree with the
// Sigma-method's canonical offsets (paper notes 1.3-1.8); the randomized test
// at the end checks that agreement against a brute-force HVT plus Pryce's
// fixed point written here independently.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "structure/pantelides.h"

namespace modeaudit {
namespace {

using Row = std::vector<std::pair<int, int>>;  // (column, sigma)

SignatureMatrix make(int cols, const std::vector<Row>& rows) {
    SignatureMatrix s;
    s.rows = static_cast<int>(rows.size());
    s.cols = cols;
    for (const Row& r : rows) {
        std::vector<SignatureEntry> row;
        for (auto [c, sig] : r) row.push_back({c, sig});
        std::sort(row.begin(), row.end(),
                  [](const SignatureEntry& a, const SignatureEntry& b) { return a.col < b.col; });
        s.entries.push_back(std::move(row));
    }
    s.row_equation.resize(s.rows);
    std::iota(s.row_equation.begin(), s.row_equation.end(), 0);
    s.col_variable.resize(cols);
    std::iota(s.col_variable.begin(), s.col_variable.end(), 0);
    return s;
}

using V = std::vector<int>;

// Cup-and-ball columns.
constexpr int X = 0, Y = 1, LAM = 2;

// Taut mode (paper notes 1.8): e1 x'' + lam x, e2 y'' + lam y + g,
// k1 x^2 + y^2 - L^2.
const Row kE1 = {{X, 2}, {LAM, 0}};
const Row kE2 = {{Y, 2}, {LAM, 0}};
const Row kK1 = {{X, 0}, {Y, 0}};

TEST(Pantelides, PendulumIsIndexThreeWithTheConstraintDifferentiatedTwice) {
    // Trace: e1 takes x'', e2 takes y''. k1 has no highest derivative
    // (x, y occur at order 0 < 2): two failed searches coloring only k1, so
    // k1 is differentiated twice; then k1'' reaches x'' -> e1 -> lam.
    PantelidesResult r = pantelides(make(3, {kE1, kE2, kK1}));
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.differentiations, (V{0, 0, 2}));
    EXPECT_EQ(r.highest_order, (V{2, 2, 0}));
    EXPECT_EQ(r.index, 3);  // 2 + 1 (d_lam = 0)
}

TEST(Pantelides, PendulumCountsDoNotDependOnTheEquationOrder) {
    // k1 first: it fails twice on its own, then k1'' takes x''; e1 then
    // finds lam, e2 y''. Same counts per equation.
    PantelidesResult r = pantelides(make(3, {kK1, kE2, kE1}));
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.differentiations, (V{2, 0, 0}));
    EXPECT_EQ(r.highest_order, (V{2, 2, 0}));
    EXPECT_EQ(r.index, 3);
}

TEST(Pantelides, FreeCupAndBallNeedsNoDifferentiation) {
    // e1, e2 and k2: lam = 0.
    PantelidesResult r = pantelides(make(3, {kE1, kE2, {{LAM, 0}}}));
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.differentiations, (V{0, 0, 0}));
    EXPECT_EQ(r.highest_order, (V{2, 2, 0}));
    EXPECT_EQ(r.index, 1);
}

TEST(Pantelides, PurelyAlgebraicSystemHasIndexOneByTheStructuralIndexConvention) {
    // x + y = 1, x - y = 0. Nothing is differentiated and every d_j is 0.
    // The structural index of paper notes 1.5 (Pryce) adds 1 whenever some
    // d_j = 0, so a regular algebraic system gets 1, not the 0 of the
    // differentiation-index convention. We mirror the Sigma-method here.
    PantelidesResult r = pantelides(make(2, {{{0, 0}, {1, 0}}, {{0, 0}, {1, 0}}}));
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.differentiations, (V{0, 0}));
    EXPECT_EQ(r.highest_order, (V{0, 0}));
    EXPECT_EQ(r.index, 1);
}

TEST(Pantelides, SemiExplicitIndexTwo) {
    // f1: x' - y, f2: x - sin t; columns x, y.
    // f1 takes x'. f2 contains x at order 0 < h_x = 1: the search colors
    // only f2 and fails, so f2 is differentiated once (x' - cos t); then
    // f2' -> x' -> f1 -> y. Result c = (0, 1), d = (1, 0), index 1 + 1.
    PantelidesResult r = pantelides(make(2, {{{0, 1}, {1, 0}}, {{0, 0}}}));
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.differentiations, (V{0, 1}));
    EXPECT_EQ(r.highest_order, (V{1, 0}));
    EXPECT_EQ(r.index, 2);
}

// RLDC2 (seed 000, section 5.1). Columns i1 i2 u1 u2 v1 v2 j1 j2 V; rows
//   0  i1 + i2 + j1 + j2 = 0
//   1  L1 j1' = V - R1 j1          2  L2 j2' = V - R2 j2
//   3  i1 = C1 v1'                 4  i2 = C2 v2'
//   5  V = u1 + v1                 6  V = u2 + v2
//   7  diode 1: u1 = 0 (conducting) or i1 = 0 (blocking)
//   8  diode 2: u2 = 0 or i2 = 0
enum { I1, I2, U1, U2, V1, V2, J1, J2, VV };

SignatureMatrix rldc2(bool d1_conducts, bool d2_conducts) {
    return make(9, {
                       {{I1, 0}, {I2, 0}, {J1, 0}, {J2, 0}},
                       {{J1, 1}, {VV, 0}},
                       {{J2, 1}, {VV, 0}},
                       {{I1, 0}, {V1, 1}},
                       {{I2, 0}, {V2, 1}},
                       {{VV, 0}, {U1, 0}, {V1, 0}},
                       {{VV, 0}, {U2, 0}, {V2, 0}},
                       {{d1_conducts ? U1 : I1, 0}},
                       {{d2_conducts ? U2 : I2, 0}},
                   });
}

TEST(Pantelides, Rldc2BothConductingDifferentiatesTheVoltageTieOnce) {
    // With u1 = u2 = 0, rows 5-8 say v1 = V = v2: a constraint between two
    // capacitor states. Trace: rows 0-4 take i1, j1', j2', v1', v2'; row 5
    // takes V, row 7 pushes it to u1, row 6 takes u2 (via V), and row 8
    // fails with {5, 6, 7, 8} colored over {V, u1, u2}. Those four rows are
    // differentiated once (so v1' = V' = v2'), then an augmenting path such
    // as 8' -> u2' -> 6' -> V' -> 5' -> v1' -> 3 -> i1 -> 0 -> i2 exists.
    // Currents stay algebraic.
    PantelidesResult r = pantelides(rldc2(true, true));
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.differentiations, (V{0, 0, 0, 0, 0, 1, 1, 1, 1}));
    EXPECT_EQ(r.highest_order, (V{0, 0, 1, 1, 1, 1, 1, 1, 1}));
    EXPECT_EQ(r.index, 2);
}

TEST(Pantelides, Rldc2BothBlockingDifferentiatesTheCurrentBalanceOnce) {
    // i1 = i2 = 0 turn the balance into j1 + j2 = 0 between inductor
    // states: rows 0, 7, 8 are differentiated once, which gives j1' + j2' = 0
    // and, through rows 1 and 2, the relation that determines V (seed 5.1).
    PantelidesResult r = pantelides(rldc2(false, false));
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.differentiations, (V{1, 0, 0, 0, 0, 0, 0, 1, 1}));
    EXPECT_EQ(r.highest_order, (V{1, 1, 0, 0, 1, 1, 1, 1, 0}));
    EXPECT_EQ(r.index, 2);
}

TEST(Pantelides, Rldc2OneConductingIsIndexOne) {
    // Only v1 is tied to V; nothing is differentiated.
    PantelidesResult r = pantelides(rldc2(true, false));
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.differentiations, (V(9, 0)));
    EXPECT_EQ(r.highest_order, (V{0, 0, 0, 0, 1, 1, 1, 1, 0}));
    EXPECT_EQ(r.index, 1);
}

TEST(Pantelides, Rldc2WithDiodeVoltagesEliminatedDifferentiatesV1EqualsV2) {
    // The same mode after substituting u = 0: columns i1 i2 v1 v2 j1 j2 V,
    // rows balance, two inductors, two capacitors, V = v1, V = v2. Exactly
    // the two voltage ties are differentiated.
    enum { i1, i2, v1, v2, j1, j2, vv };
    PantelidesResult r = pantelides(make(7, {
                                                {{i1, 0}, {i2, 0}, {j1, 0}, {j2, 0}},
                                                {{j1, 1}, {vv, 0}},
                                                {{j2, 1}, {vv, 0}},
                                                {{i1, 0}, {v1, 1}},
                                                {{i2, 0}, {v2, 1}},
                                                {{vv, 0}, {v1, 0}},
                                                {{vv, 0}, {v2, 0}},
                                            }));
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.differentiations, (V{0, 0, 0, 0, 0, 1, 1}));
    EXPECT_EQ(r.highest_order, (V{0, 0, 1, 1, 1, 1, 1}));
    EXPECT_EQ(r.index, 2);
}

TEST(Pantelides, StructurallySingularSystemsFailWithoutHanging) {
    // Two equations in one variable: not square.
    EXPECT_FALSE(pantelides(make(1, {{{0, 0}}, {{0, 1}}})).ok);
    // One equation a + b = 1 in two variables: not square either.
    EXPECT_FALSE(pantelides(make(2, {{{0, 0}, {1, 0}}})).ok);
    // Square, but y occurs nowhere: x = 0, x' + x = 0. Pantelides itself
    // would differentiate {x = 0, x' + x = 0} forever; the matching check
    // stops it first.
    EXPECT_FALSE(pantelides(make(2, {{{0, 0}}, {{0, 1}}})).ok);
    // Square, every variable occurs, but Hall's condition fails:
    // x + y + z, x, x' (y and z only in the first row).
    EXPECT_FALSE(pantelides(make(3, {{{0, 0}, {1, 0}, {2, 0}}, {{0, 0}}, {{0, 1}}})).ok);
    // The same kind of kernel in a long chain x_i' + x_{i+1} (every
    // variable occurs): the first row is cut down to x_0', so it and the
    // last row x_0 = g(t) compete for x_0 alone.
    std::vector<Row> rows;
    const int n = 5000;
    for (int i = 0; i + 1 < n; ++i) rows.push_back({{i, 1}, {i + 1, 0}});
    rows.push_back({{0, 0}});
    rows[0] = {{0, 1}};
    EXPECT_FALSE(pantelides(make(n, rows)).ok);
}

TEST(Pantelides, MalformedMatricesAreRejected) {
    SignatureMatrix s = make(2, {{{0, 0}}, {{1, 0}}});
    s.entries.pop_back();  // rows says 2, one row stored
    EXPECT_FALSE(pantelides(s).ok);
    SignatureMatrix t = make(2, {{{0, 0}}, {{5, 0}}});  // column out of range
    EXPECT_FALSE(pantelides(t).ok);
}

TEST(Pantelides, EmptySystemIsTrivial) {
    PantelidesResult r = pantelides(make(0, {}));
    EXPECT_TRUE(r.ok);
    EXPECT_TRUE(r.differentiations.empty());
    EXPECT_EQ(r.index, 0);
}

TEST(Pantelides, HighOrderChainNeedsQuadraticallyManyDifferentiations) {
    // x1^(s) = x2, ..., x_{n-1}^(s) = x_n, x1 = g(t): x_k = g^((k-1)s), so
    // the last row is differentiated (n-1)s times and row k (n-1-k)s times.
    // The total s n (n-1) / 2 = 180 exceeds n (max sigma + n + 1) = 150, so
    // a bound of that size would wrongly report this well-posed system.
    const int n = 10, s = 4;
    std::vector<Row> rows;
    for (int k = 0; k + 1 < n; ++k) rows.push_back({{k, s}, {k + 1, 0}});
    rows.push_back({{0, 0}});
    PantelidesResult r = pantelides(make(n, rows));
    ASSERT_TRUE(r.ok);
    V c, d;
    for (int k = 1; k < n; ++k) c.push_back((n - 1 - k) * s);
    c.push_back((n - 1) * s);
    for (int k = 1; k <= n; ++k) d.push_back((n - k) * s);
    EXPECT_EQ(r.differentiations, c);
    EXPECT_EQ(r.highest_order, d);
    EXPECT_EQ(r.index, (n - 1) * s + 1);
}

// Blocks of the taut pendulum, block b in rows/columns 3b..3b+2, coupled
// "weakly": e1_b also contains x_{b-1} (a spring, order 0 < d = 2) and e2_b
// contains lam_{b-1} (order 0, a force from the neighbour's rod). Neither
// coupling is tight at the canonical offsets, so every block keeps
// (0, 0, 2) / (2, 2, 0).
TEST(Pantelides, WeaklyCoupledPendulumChainKeepsPerBlockCounts) {
    const int blocks = 2000;
    std::vector<Row> rows;
    for (int b = 0; b < blocks; ++b) {
        const int x = 3 * b, y = 3 * b + 1, lam = 3 * b + 2;
        Row e1 = {{x, 2}, {lam, 0}}, e2 = {{y, 2}, {lam, 0}};
        if (b > 0) {
            e1.push_back({x - 3, 0});
            e2.push_back({lam - 3, 0});
        }
        rows.push_back(e1);
        rows.push_back(e2);
        rows.push_back({{x, 0}, {y, 0}});
    }
    PantelidesResult r = pantelides(make(3 * blocks, rows));
    ASSERT_TRUE(r.ok);
    for (int b = 0; b < blocks; ++b) {
        ASSERT_EQ(r.differentiations[3 * b], 0) << b;
        ASSERT_EQ(r.differentiations[3 * b + 1], 0) << b;
        ASSERT_EQ(r.differentiations[3 * b + 2], 2) << b;
        ASSERT_EQ(r.highest_order[3 * b], 2) << b;
        ASSERT_EQ(r.highest_order[3 * b + 1], 2) << b;
        ASSERT_EQ(r.highest_order[3 * b + 2], 0) << b;
    }
    EXPECT_EQ(r.index, 3);
}

TEST(Pantelides, ChainOfRodsCouplesTheConstraintsAndStillIndexThree) {
    // Strong coupling for contrast: k1_b is (x_b - x_{b-1})^2 + (y_b -
    // y_{b-1})^2 - L^2, so the constraints link neighbouring blocks. The
    // canonical offsets are still (0, 0, 2) / (2, 2, 0) per block.
    const int blocks = 2000;
    std::vector<Row> rows;
    for (int b = 0; b < blocks; ++b) {
        const int x = 3 * b, y = 3 * b + 1, lam = 3 * b + 2;
        rows.push_back({{x, 2}, {lam, 0}});
        rows.push_back({{y, 2}, {lam, 0}});
        Row k1 = {{x, 0}, {y, 0}};
        if (b > 0) {
            k1.push_back({x - 3, 0});
            k1.push_back({y - 3, 0});
        }
        rows.push_back(k1);
    }
    PantelidesResult r = pantelides(make(3 * blocks, rows));
    ASSERT_TRUE(r.ok);
    for (int b = 0; b < blocks; ++b) {
        ASSERT_EQ(r.differentiations[3 * b + 2], 2) << b;
        ASSERT_EQ(r.differentiations[3 * b] + r.differentiations[3 * b + 1], 0) << b;
        ASSERT_EQ(r.highest_order[3 * b + 2], 0) << b;
    }
    EXPECT_EQ(r.index, 3);
}

TEST(Pantelides, HundredThousandRowChainFailsAndAugmentsWithoutRecursion) {
    // Columns z, y, x_1..x_m; rows D: z' - y, C_0: z - x_1,
    // C_i: x_i - x_{i+1} (i = 1..m-1), E: x_m - g(t). Solution x_i = z = g,
    // y = g'. Trace: D takes z', C_0 takes x_1, C_i takes x_{i+1}; E's search
    // walks the whole chain back to C_0 and fails (depth m), so C_0..C_{m-1}
    // and E are differentiated once; E' then walks the chain again to
    // C_0' -> z' -> D -> y (depth m). A recursive search would need 10^5 frames
    // twice over.
    const int m = 100000;
    const int z = 0, y = 1;
    auto x = [](int i) { return 1 + i; };  // x_1 is column 2
    std::vector<Row> rows;
    rows.push_back({{z, 1}, {y, 0}});
    rows.push_back({{z, 0}, {x(1), 0}});
    for (int i = 1; i < m; ++i) rows.push_back({{x(i), 0}, {x(i + 1), 0}});
    rows.push_back({{x(m), 0}});
    PantelidesResult r = pantelides(make(m + 2, rows));
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.differentiations[0], 0);
    EXPECT_EQ(std::count(r.differentiations.begin(), r.differentiations.end(), 1), m + 1);
    EXPECT_EQ(r.highest_order[z], 1);
    EXPECT_EQ(r.highest_order[y], 0);
    EXPECT_EQ(std::count(r.highest_order.begin(), r.highest_order.end(), 1), m + 1);
    EXPECT_EQ(r.index, 2);
}

TEST(Pantelides, HundredThousandRowChainWithADeepMatchingPath) {
    // Rows A_i: x_i' + x_{i+1}' (i < n-1) and B: x_0 - g(t). The plain
    // matching check and the search from B' both need an alternating path
    // through all n rows (B' -> x_0' -> A_0 -> x_1' -> ... -> x_{n-1}').
    const int n = 100000;
    std::vector<Row> rows;
    for (int i = 0; i + 1 < n; ++i) rows.push_back({{i, 1}, {i + 1, 1}});
    rows.push_back({{0, 0}});
    PantelidesResult r = pantelides(make(n, rows));
    ASSERT_TRUE(r.ok);
    V c(n, 0);
    c[n - 1] = 1;
    EXPECT_EQ(r.differentiations, c);
    EXPECT_EQ(r.highest_order, V(n, 1));
    EXPECT_EQ(r.index, 1);  // max c = 1, and no d_j is 0, so no + 1
}

// Reference for the randomized test: an HVT by trying every permutation and
// the canonical offsets by Pryce's fixed point (paper notes 1.3). Only for
// n <= 6.
struct Reference {
    bool well_posed = false;
    V c, d;
};

Reference brute_force(int n, const std::vector<V>& sigma) {
    constexpr int kNone = -1;
    Reference ref;
    V perm(n), best;
    std::iota(perm.begin(), perm.end(), 0);
    long best_value = -1;
    do {
        long value = 0;
        bool finite = true;
        for (int i = 0; i < n && finite; ++i) {
            finite = sigma[i][perm[i]] != kNone;
            value += sigma[i][perm[i]];
        }
        if (finite && value > best_value) {
            best_value = value;
            best = perm;
        }
    } while (std::next_permutation(perm.begin(), perm.end()));
    if (best_value < 0) return ref;
    ref.well_posed = true;
    ref.c.assign(n, 0);
    ref.d.assign(n, 0);
    for (bool changed = true; changed;) {
        for (int j = 0; j < n; ++j) {
            ref.d[j] = 0;
            for (int i = 0; i < n; ++i) {
                if (sigma[i][j] != kNone) ref.d[j] = std::max(ref.d[j], sigma[i][j] + ref.c[i]);
            }
        }
        changed = false;
        for (int i = 0; i < n; ++i) {
            const int ci = ref.d[best[i]] - sigma[i][best[i]];
            changed = changed || ci != ref.c[i];
            ref.c[i] = ci;
        }
    }
    return ref;
}

TEST(Pantelides, AgreesWithCanonicalSigmaOffsetsOnRandomSmallSystems) {
    // The header of pantelides.cpp argues that Pantelides' counts are the
    // canonical offsets whenever the system is structurally well-posed; this
    // checks it, including that a permutation of the rows permutes c only.
    std::mt19937 rng(20240611);
    int well_posed = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const int n = 1 + static_cast<int>(rng() % 6);
        const int max_sigma = static_cast<int>(rng() % 4);
        const int density = 25 + static_cast<int>(rng() % 55);
        std::vector<V> sigma(n, V(n, -1));
        std::vector<Row> rows(n);
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                if (static_cast<int>(rng() % 100) < density) {
                    sigma[i][j] = static_cast<int>(rng() % (max_sigma + 1));
                    rows[i].push_back({j, sigma[i][j]});
                }
            }
        }
        const Reference ref = brute_force(n, sigma);
        const PantelidesResult r = pantelides(make(n, rows));
        ASSERT_EQ(r.ok, ref.well_posed) << "trial " << trial;
        if (!ref.well_posed) continue;
        ++well_posed;
        ASSERT_EQ(r.differentiations, ref.c) << "trial " << trial;
        ASSERT_EQ(r.highest_order, ref.d) << "trial " << trial;

        V order(n);
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), rng);
        std::vector<Row> shuffled;
        for (int i : order) shuffled.push_back(rows[i]);
        const PantelidesResult p = pantelides(make(n, shuffled));
        ASSERT_TRUE(p.ok) << "trial " << trial;
        for (int t = 0; t < n; ++t) ASSERT_EQ(p.differentiations[t], ref.c[order[t]]) << "trial " << trial;
        ASSERT_EQ(p.highest_order, ref.d) << "trial " << trial;
    }
    EXPECT_GT(well_posed, 1000);
}

}  // namespace
}  // namespace modeaudit
