// Interval arithmetic for guaranteed event detection (simulation stage).
//
// Seed 002 detects every state event of an integration step by enclosing the
// discontinuity functions over sub-intervals of the step. The enclosures must
// really enclose, so the arithmetic is Boost.Interval with
//  - rounded_arith_opp: +, -, *, / and sqrt are IEEE operations, so with the
//    hardware rounding direction upward (fesetround, which is what Boost uses
//    on x86-64) an upper bound is the rounded result and a lower bound the
//    negated upper bound of the negated operation: correctly rounded bounds
//    with one rounding direction throughout;
//  - OutwardLibm (below) for the transcendental functions: libm's exp, sin,
//    log, ... are not correctly rounded and are only specified in
//    round-to-nearest, so Boost's rounded_transc_std (which calls libm in the
//    directed modes) gives no guarantee. We call libm in round-to-nearest and
//    widen the result by two ulps outward; glibc documents errors below one
//    ulp for these functions on x86-64, so the bound holds with a margin;
//  - save_state: the caller's rounding mode (round-to-nearest for CVODE) is
//    restored after each operation of an `Interval`. Switching the mode costs
//    more than the arithmetic (it was half of the run time of the bouncing
//    ball), so the hot loops (tape evaluation, polynomial enclosures) open
//    one RoundingScope, which sets the mode upward once and restores it at
//    the end, and compute with FastInterval, the same type without the
//    per-operation switching (Boost's unprotect);
//  - checking_base: no exceptions; an empty result (sqrt or log of a
//    negative interval) is a NaN bound, which the event search treats as
//    "unknown" and bisects further.
// The translation units that evaluate intervals are compiled with
// -frounding-math so that GCC does not move floating-point operations across
// the rounding-mode switches.
#pragma once

#include <boost/numeric/interval.hpp>

#include <cmath>
#include <limits>

namespace modeaudit::sim {

namespace detail {

inline double widen_down(double r) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    return std::nextafter(std::nextafter(r, -kInf), -kInf);
}
inline double widen_up(double r) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    return std::nextafter(std::nextafter(r, kInf), kInf);
}

// Transcendental functions evaluated in round-to-nearest and widened by two
// ulps; the arithmetic comes from `Base` (rounded_arith_opp<double>), whose
// invariant (the mode is upward between operations) is restored afterwards.
template <class Base>
struct OutwardLibm : Base {
#define MODEAUDIT_OUTWARD(f)                                         \
    double f##_down(const double& x) {                               \
        this->to_nearest();                                          \
        const double r = std::f(x);                                  \
        this->upward();                                              \
        return widen_down(r);                                        \
    }                                                                \
    double f##_up(const double& x) {                                 \
        this->to_nearest();                                          \
        const double r = std::f(x);                                  \
        this->upward();                                              \
        return widen_up(r);                                          \
    }
    MODEAUDIT_OUTWARD(exp)
    MODEAUDIT_OUTWARD(log)
    MODEAUDIT_OUTWARD(sin)
    MODEAUDIT_OUTWARD(cos)
    MODEAUDIT_OUTWARD(tan)
    MODEAUDIT_OUTWARD(asin)
    MODEAUDIT_OUTWARD(acos)
    MODEAUDIT_OUTWARD(atan)
    MODEAUDIT_OUTWARD(sinh)
    MODEAUDIT_OUTWARD(cosh)
    MODEAUDIT_OUTWARD(tanh)
    MODEAUDIT_OUTWARD(asinh)
    MODEAUDIT_OUTWARD(acosh)
    MODEAUDIT_OUTWARD(atanh)
#undef MODEAUDIT_OUTWARD
};

}  // namespace detail

namespace ivl = boost::numeric::interval_lib;
using IntervalPolicies =
    ivl::policies<ivl::save_state<detail::OutwardLibm<ivl::rounded_arith_opp<double>>>, ivl::checking_base<double>>;
using Interval = boost::numeric::interval<double, IntervalPolicies>;
// Valid only inside a RoundingScope.
using FastInterval = ivl::unprotect<Interval>::type;
// Sets the rounding mode for FastInterval and restores the caller's on exit.
using RoundingScope = Interval::traits_type::rounding;

}  // namespace modeaudit::sim
