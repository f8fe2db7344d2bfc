// The Krawczyk enclosure of implicitly defined leading variables
// (ModeSystem::enclose_leading) and the guards that use them
// (ImplicitFunction): enclosures contain the point solutions over the box,
// are tight on small boxes, and are refused where F_DOWN = 0 has no unique
// solution in the box (a fold).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "simulation/mode_system.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

struct Implicit {
    std::unique_ptr<testing::FrontEnd> fe;
    std::unique_ptr<sim::ModeSystem> sys;
};

Implicit compiled(std::unique_ptr<testing::FrontEnd> fe) {
    Implicit m;
    m.fe = std::move(fe);
    EXPECT_TRUE(m.fe->state.structure) << m.fe->diagnostics();
    m.sys = std::make_unique<sim::ModeSystem>(m.fe->flat(), m.fe->modes(), 0, m.fe->state.structure->modes.at(0));
    return m;
}
Implicit compile(const std::string& text) { return compiled(std::make_unique<testing::FrontEnd>(text, "structure")); }
Implicit load(const std::string& corpus_model) {
    return compiled(
        testing::FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/" + corpus_model, "structure"));
}

std::size_t leading_index(const sim::ModeSystem& sys, const std::string& name) {
    for (std::size_t i = 0; i < sys.leading_count(); ++i)
        if (sys.leading_names()[i] == name) return i;
    ADD_FAILURE() << "no leading variable " << name;
    return 0;
}

// Encloses the leading variables over x in [lo, hi] (one state), t in [0, 0].
bool enclose(const sim::ModeSystem& sys, double lo, double hi, std::vector<sim::Interval>& y) {
    sim::RoundingScope scope;
    std::vector<sim::FastInterval> xt{sim::FastInterval(lo, hi), sim::FastInterval(0.0, 0.0)}, out(sys.leading_count());
    const bool ok = sys.enclose_leading(xt.data(), out.data());
    y.clear();
    for (const sim::FastInterval& v : out) y.emplace_back(v.lower(), v.upper());
    return ok;
}

TEST(ImplicitFunction, TwoByTwoEnclosureContainsEverySolutionOfTheBoxAndIsTight) {
    // z2 = z1^3 and z1 + z2^3 = x: z1 + z1^9 = x, increasing in z1.
    Implicit m = compile(R"(
model Coupled
  Real x(start = 0.5, fixed = true);
  Real z1(start = 0.5);
  Real z2(start = 0.1);
equation
  der(x) = 1;
  z1 + z2^3 = x;
  z1^3 - z2 = 0;
end Coupled;)");
    const sim::ModeSystem& sys = *m.sys;
    ASSERT_EQ(sys.state_count(), 1u);
    ASSERT_FALSE(sys.linear_leading());
    const std::size_t i1 = leading_index(sys, "z1"), i2 = leading_index(sys, "z2");
    std::vector<double> guess(sys.leading_count(), 0.5);
    sys.set_leading_guess(guess.data());
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> centre(0.2, 1.5), unit(0, 1);
    for (int trial = 0; trial < 40; ++trial) {
        const double c = centre(rng), w = 1e-3 * unit(rng) + 1e-9;
        std::vector<sim::Interval> y;
        ASSERT_TRUE(enclose(sys, c - w, c + w, y)) << "x in " << c << " +- " << w;
        for (int k = 0; k <= 10; ++k) {
            const double x = c - w + 2 * w * k / 10;
            std::vector<double> at(sys.leading_count());
            ASSERT_TRUE(sys.solve_leading_from_guess(0, &x, at.data()));
            EXPECT_LE(y[i1].lower(), at[i1]);
            EXPECT_GE(y[i1].upper(), at[i1]);
            EXPECT_LE(y[i2].lower(), at[i2]);
            EXPECT_GE(y[i2].upper(), at[i2]);
        }
        // Tight: dz1/dx = 1 / (1 + 9 z1^8) <= 1, so z1 moves by at most 2w.
        EXPECT_LT(width(y[i1]), 4 * w + 1e-12);
    }
}

TEST(ImplicitFunction, FoldIsRefusedAndItsRegularSideEnclosed) {
    // z^2 = x has two solutions for x > 0 and none for x < 0: a box around
    // x = 0 has no unique solution, one around x = 1 has z = 1 (the branch
    // of the warm start).
    Implicit m = compile(R"(
model Fold
  Real x(start = 1, fixed = true);
  Real z(start = 1);
equation
  der(x) = -1;
  z^2 = x;
end Fold;)");
    const sim::ModeSystem& sys = *m.sys;
    const std::size_t iz = leading_index(sys, "z");
    std::vector<double> guess(sys.leading_count(), 0.0);
    guess[iz] = 1;
    sys.set_leading_guess(guess.data());
    std::vector<sim::Interval> y;
    ASSERT_TRUE(enclose(sys, 0.99, 1.01, y));
    EXPECT_LE(y[iz].lower(), std::sqrt(0.99));
    EXPECT_GE(y[iz].upper(), std::sqrt(1.01));
    EXPECT_GT(y[iz].lower(), 0.99);
    EXPECT_FALSE(enclose(sys, -0.01, 0.01, y));
    // The other branch from a negative warm start.
    guess[iz] = -1;
    sys.set_leading_guess(guess.data());
    ASSERT_TRUE(enclose(sys, 0.99, 1.01, y));
    EXPECT_GE(y[iz].upper(), -std::sqrt(0.99));
    EXPECT_LE(y[iz].lower(), -std::sqrt(1.01));
    EXPECT_LT(y[iz].upper(), -0.99);
}

TEST(ImplicitFunction, ImplicitGuardIsEvaluatedAtPointsAndOverBoxes) {
    Implicit m = load("implicit_sawtooth.mo");
    const sim::ModeSystem& sys = *m.sys;
    ASSERT_EQ(sys.guards().size(), 1u);
    EXPECT_TRUE(sys.guards()[0].implicit);
    EXPECT_TRUE(sys.guards()[0].unsupported.empty());
    std::vector<double> guess(sys.leading_count(), 0.0);
    sys.set_leading_guess(guess.data());
    // z = 0.5 at x = 0.625: the guard z - 0.5 is 0 there.
    const double x = 0.625;
    EXPECT_NEAR(sys.guard_value(0, 0, &x), 0.0, 1e-15);
    const sim::StateFunction& g = sys.guard_function(0);
    sim::RoundingScope scope;
    std::vector<sim::FastInterval> below{sim::FastInterval(0.5, 0.6), sim::FastInterval(0.0, 0.0)};
    std::vector<sim::FastInterval> across{sim::FastInterval(0.62, 0.63), sim::FastInterval(0.0, 0.0)};
    sim::FastInterval v;
    g.over(below.data(), &v);
    EXPECT_LT(v.upper(), 0);  // z(0.6) < 0.5: certainly negative
    g.over(across.data(), &v);
    EXPECT_LT(v.lower(), 0);
    EXPECT_GT(v.upper(), 0);
}

}  // namespace
}  // namespace modeaudit
