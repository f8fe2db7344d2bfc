#include "simulation/event_detection.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace modeaudit::sim {

void StatePolynomial::value(double t, double* x) const {
    const double s = t - center;
    for (std::size_t i = 0; i < n; ++i) {
        double v = coeff[static_cast<std::size_t>(degree) * n + i];
        for (int k = degree - 1; k >= 0; --k) v = v * s + coeff[static_cast<std::size_t>(k) * n + i];
        x[i] = v;
    }
}

void StatePolynomial::enclose(double a, double b, Interval* x) const {
    namespace bn = boost::numeric;
    using FI = FastInterval;
    RoundingScope scope;
    const double mid = a + (b - a) / 2;
    const FI shift = FI(mid, mid) - FI(center, center);
    const FI tau = FI(a, b) - FI(mid, mid);
    const std::size_t q = static_cast<std::size_t>(degree);
    std::vector<FI> c(q + 1), powers(q + 1);
    powers[0] = FI(1.0, 1.0);
    for (std::size_t k = 1; k <= q; ++k) powers[k] = bn::pow(tau, static_cast<int>(k));
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t k = 0; k <= q; ++k) c[k] = FI(coeff[k * n + i], coeff[k * n + i]);
        // Taylor shift to the midpoint (repeated synthetic division).
        for (std::size_t j = 0; j < q; ++j)
            for (std::size_t k = q - 1; k + 1 > j; --k) c[k] += shift * c[k + 1];
        FI sum = c[0];
        for (std::size_t k = 1; k <= q; ++k) sum += c[k] * powers[k];
        x[i] = Interval(sum.lower(), sum.upper());
    }
}

namespace {

bool unknown(const Interval& g) { return std::isnan(g.lower()) || std::isnan(g.upper()); }

class GuardOnPolynomial {
public:
    GuardOnPolynomial(const StatePolynomial& p, const Tape& guard) : p_(p), guard_(guard), x_(p.n + 1), ix_(p.n + 1) {}

    double at(double t) {
        p_.value(t, x_.data());
        x_[p_.n] = t;
        double g = 0;
        guard_.evaluate(x_.data(), &g);
        return g;
    }
    Interval over(double a, double b) {
        p_.enclose(a, b, ix_.data());
        ix_[p_.n] = Interval(a, b);
        Interval g;
        guard_.evaluate(ix_.data(), &g);
        return g;
    }

private:
    const StatePolynomial& p_;
    const Tape& guard_;
    std::vector<double> x_;
    std::vector<Interval> ix_;
};

// g(lo) <= 0 < g(hi): bisection down to adjacent doubles; returns hi.
double locate(GuardOnPolynomial& g, double lo, double hi) {
    for (int it = 0; it < 200; ++it) {
        const double m = lo + (hi - lo) / 2;
        if (!(m > lo && m < hi)) break;
        if (g.at(m) > 0) hi = m;
        else lo = m;
    }
    return hi;
}

}  // namespace

CrossingResult first_upward_crossing(const StatePolynomial& p, const Tape& guard, double a, double b, bool armed,
                                     const CrossingOptions& options) {
    CrossingResult res;
    res.armed = armed;
    GuardOnPolynomial g(p, guard);
    const double tol = options.time_tolerance * std::max({1.0, std::fabs(a), std::fabs(b)});
    std::vector<std::pair<double, double>> stack{{a, b}};
    while (!stack.empty()) {
        auto [lo, hi] = stack.back();
        stack.pop_back();
        if (++res.enclosures > options.max_enclosures) {
            res.exhausted = true;
            break;
        }
        const Interval v = g.over(lo, hi);
        const bool unsure = unknown(v);
        if (!unsure && v.upper() < 0) {
            if (v.upper() < -options.zero_tolerance) res.armed = true;
            continue;
        }
        if (!unsure && v.lower() > 0 && !res.armed) continue;  // positive while disarmed: no upward crossing
        if (!unsure && v.lower() > 0 && res.armed) {
            // Armed (negative just before lo) and positive on all of [lo, hi].
            res.found = true;
            res.time = lo;
            return res;
        }
        if (hi - lo > tol) {
            const double mid = lo + (hi - lo) / 2;
            if (mid > lo && mid < hi) {
                stack.emplace_back(mid, hi);
                stack.emplace_back(lo, mid);
                continue;
            }
        }
        if (!res.armed) continue;  // an undecided sliver cannot arm the guard
        // The last sub-interval: decide by points.
        const double glo = g.at(lo);
        if (glo > 0) {
            res.found = true;
            res.time = lo;
            return res;
        }
        const double mid = lo + (hi - lo) / 2;
        if (g.at(hi) > 0) {
            res.found = true;
            res.time = locate(g, lo, hi);
            return res;
        }
        if (mid > lo && mid < hi && g.at(mid) > 0) {
            res.found = true;
            res.time = locate(g, lo, mid);
            return res;
        }
        ++res.touches;  // near zero, never positive: a tangency (or a window below the tolerance)
    }
    return res;
}

}  // namespace modeaudit::sim
