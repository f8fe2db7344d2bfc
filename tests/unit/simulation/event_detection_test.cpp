// Guaranteed event detection on one interpolation polynomial (seed 002):
// every window where the guard is positive is found in time order even when
// it is far narrower than the step and invisible at the step's ends; a
// tangency is no event; a restart at a crossing does not re-detect it.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "simulation/event_detection.h"

namespace modeaudit::sim {
namespace {

using GiNaC::ex;
using GiNaC::symbol;

// x(t) = t over [0, 1], written about the centre t = 1 as CVODE's dense
// output is: x = 1 + (t - 1).
StatePolynomial identity_polynomial() {
    StatePolynomial p;
    p.t0 = 0;
    p.t1 = 1;
    p.center = 1;
    p.n = 1;
    p.degree = 1;
    p.coeff = {1.0, 1.0};
    return p;
}

// All crossings in [0, 1], restarting after each one as the driver does
// (the guard disarmed at the restart point).
std::vector<double> all_crossings(const StatePolynomial& p, const Tape& guard, bool armed) {
    std::vector<double> out;
    double a = p.t0;
    for (int k = 0; k < 1000; ++k) {
        CrossingResult r = first_upward_crossing(p, guard, a, p.t1, armed);
        EXPECT_FALSE(r.exhausted);
        if (!r.found) break;
        out.push_back(r.time);
        a = r.time;
        armed = false;
    }
    return out;
}

TEST(EventDetection, EveryNarrowWindowInOneStepIsFoundInOrder) {
    symbol x("x"), t("time");
    // sin(200 x) > 0.9999 only in windows of width 2*acos(0.9999)/200 = 1.4e-4,
    // 32 of them in the step [0, 1]; g < 0 at both ends of the step.
    const double level = 0.9999;
    Tape guard({x, t}, {{GiNaC::sin(200 * x) - GiNaC::numeric(9999, 10000)}});
    StatePolynomial p = identity_polynomial();
    std::vector<double> xs(1);
    double g0 = 0, g1 = 0;
    std::vector<double> in0{0.0, 0.0}, in1{1.0, 1.0};
    guard.evaluate(in0.data(), &g0);
    guard.evaluate(in1.data(), &g1);
    ASSERT_LT(g0, 0);
    ASSERT_LT(g1, 0);
    std::vector<double> found = all_crossings(p, guard, true);
    const double delta = std::acos(level);
    std::vector<double> expected;
    for (int k = 0;; ++k) {
        const double tk = (std::numbers::pi / 2 - delta + 2 * std::numbers::pi * k) / 200;
        if (tk > 1) break;
        expected.push_back(tk);
    }
    ASSERT_EQ(expected.size(), 32u);
    ASSERT_EQ(found.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_NEAR(found[k], expected[k], 1e-12) << "window " << k;
}

TEST(EventDetection, TangencyIsNoEventButANarrowCrossingIs) {
    symbol x("x"), t("time");
    StatePolynomial p = identity_polynomial();
    Tape touch({x, t}, {{-GiNaC::pow(x - GiNaC::numeric(1, 2), 2)}});
    CrossingResult r = first_upward_crossing(p, touch, 0, 1, true);
    EXPECT_FALSE(r.found);
    EXPECT_GT(r.touches, 0u);
    EXPECT_TRUE(r.armed);
    // Lifted by 1e-8 it is positive in (0.5 - 1e-4, 0.5 + 1e-4): an event.
    Tape cross({x, t}, {{GiNaC::numeric(1, 100000000) - GiNaC::pow(x - GiNaC::numeric(1, 2), 2)}});
    CrossingResult c = first_upward_crossing(p, cross, 0, 1, true);
    ASSERT_TRUE(c.found);
    EXPECT_NEAR(c.time, 0.5 - 1e-4, 1e-12);
}

// After a restart at the crossing the guard is ~0 and positive just after:
// disarmed, it must not fire again until it has been negative.
TEST(EventDetection, NoStickingAfterARestartAtTheCrossing) {
    symbol x("x"), t("time");
    StatePolynomial p = identity_polynomial();
    // Positive in (0.3, 0.6), negative after, positive again after 0.8.
    Tape g({x, t}, {{(x - GiNaC::numeric(3, 10)) * (GiNaC::numeric(6, 10) - x) * (GiNaC::numeric(8, 10) - x)}});
    CrossingResult first = first_upward_crossing(p, g, 0, 1, true);
    ASSERT_TRUE(first.found);
    EXPECT_NEAR(first.time, 0.3, 1e-14);
    // Signs of the factors: (0.3, 0.6) + + +, (0.6, 0.8) + - +, (0.8, 1] + - -.
    CrossingResult again = first_upward_crossing(p, g, first.time, 1, false);
    ASSERT_TRUE(again.found);
    EXPECT_NEAR(again.time, 0.8, 1e-14);
    // Without the negative stretch in between there is nothing to find.
    CrossingResult none = first_upward_crossing(p, g, first.time, 0.55, false);
    EXPECT_FALSE(none.found);
    EXPECT_FALSE(none.armed);
}

TEST(EventDetection, PolynomialEnclosuresContainTheValues) {
    StatePolynomial p;
    p.t0 = 2.0;
    p.t1 = 2.5;
    p.center = 2.5;
    p.n = 2;
    p.degree = 4;
    p.coeff = {1.0, -2.0, 0.5, 3.0, -4.0, 0.25, 7.0, -1.0, 2.0, 0.5};  // k-major: coeff[k*n + i]
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(2.0, 2.5);
    for (int trial = 0; trial < 100; ++trial) {
        double a = u(rng), b = u(rng);
        if (a > b) std::swap(a, b);
        Interval enc[2];
        p.enclose(a, b, enc);
        for (int s = 0; s <= 8; ++s) {
            double v[2];
            p.value(a + (b - a) * s / 8, v);
            for (int i = 0; i < 2; ++i) {
                EXPECT_LE(enc[i].lower(), v[i]);
                EXPECT_GE(enc[i].upper(), v[i]);
            }
        }
    }
    // Shrinking intervals give enclosures shrinking with them.
    Interval tiny[2];
    p.enclose(2.25, 2.25 + 1e-9, tiny);
    EXPECT_LT(boost::numeric::width(tiny[0]), 1e-7);
}

}  // namespace
}  // namespace modeaudit::sim

namespace modeaudit::sim {
namespace {

// The centered form (event_detection.h): a guard that is a small
// difference of large terms, g = 1e5 (q(t) - x) + (t - 0.75) with the
// state x following q exactly (x's interpolant is q: a capacitor tracking
// its source through Ron = 1e-5), crosses zero upward at t = 0.75. The
// natural enclosure over a sub-interval of width w is about 1e6 w wide, so
// near the crossing it decides only on sub-intervals narrower than the
// distance over 1e6 and the search runs out of work; the centered form's
// width shrinks with w^2 and the search ends in a few thousand enclosures.
TEST(EventDetection, CenteredFormDecidesADifferenceOfLargeTermsOnWideSubIntervals) {
    symbol x("x"), t("time");
    // q(t) = 1 + 2 (t - 1) + 3 (t - 1)^2 + (t - 1)^3 about the centre 1.
    StatePolynomial p;
    p.t0 = 0;
    p.t1 = 1;
    p.center = 1;
    p.n = 1;
    p.degree = 3;
    p.coeff = {1.0, 2.0, 3.0, 1.0};
    const ex q = 1 + 2 * (t - 1) + 3 * GiNaC::pow(t - 1, 2) + GiNaC::pow(t - 1, 3);
    const ex g = 100000 * (q - x) + (t - GiNaC::numeric(3, 4));
    Tape guard({x, t}, {{g}});
    Tape slope({x, t}, {{g.diff(x), g.diff(t)}});
    CrossingOptions o;
    SearchWork work;
    CrossingResult with = first_upward_crossing(p, TapeFunction(guard, &slope), 0, 1, true, o, work);
    ASSERT_TRUE(with.found);
    EXPECT_FALSE(with.exhausted);
    EXPECT_NEAR(with.time, 0.75, 1e-9);
    EXPECT_LT(with.enclosures, 20000u);
    CrossingResult without = first_upward_crossing(p, TapeFunction(guard), 0, 1, true, o, work);
    EXPECT_TRUE(without.exhausted);
    EXPECT_FALSE(without.found);
}

// A guard resting just below zero, falling: g = -1e-14 - 1e3 x
// + 1e9 (x (x - 1) - x^2 + x) on x = t in [0, 1e-9] (the last term is 0,
// written so that its natural enclosure is not: x appears three times).
// The natural enclosure contains zero on every sub-interval down to the
// finest, where all points are negative: each was counted as a touch (the
// driver's grazing warning right after a diode switched on, its current
// leaving zero faster than its enclosure could follow). With the slope
// (exactly -1e3) the centered form decides it.
TEST(EventDetection, AGuardLeavingTheSurfaceIsNoTouch) {
    symbol x("x"), t("time");
    StatePolynomial p = identity_polynomial();
    const ex g = -GiNaC::numeric(1, 100000000000000LL) - 1000 * x + 1000000000 * (x * (x - 1) - GiNaC::pow(x, 2) + x);
    Tape guard({x, t}, {{g}});
    Tape slope({x, t}, {{g.diff(x), g.diff(t)}});
    CrossingOptions o;
    SearchWork work;
    CrossingResult with = first_upward_crossing(p, TapeFunction(guard, &slope), 0, 1e-9, true, o, work);
    EXPECT_FALSE(with.found);
    EXPECT_FALSE(with.exhausted);
    EXPECT_EQ(with.touches, 0u);
    CrossingResult without = first_upward_crossing(p, TapeFunction(guard), 0, 1e-9, true, o, work);
    EXPECT_FALSE(without.found);
    EXPECT_GT(without.touches, 0u);
}

}  // namespace
}  // namespace modeaudit::sim
