#include "simulation/event_detection.h"

#include <algorithm>
#include <cfenv>
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
    RoundingScope scope;
    std::vector<FastInterval> work, out(n);
    enclose_in_scope(a, b, out.data(), work);
    for (std::size_t i = 0; i < n; ++i) x[i] = Interval(out[i].lower(), out[i].upper());
}

void StatePolynomial::enclose_in_scope(double a, double b, FastInterval* x, std::vector<FastInterval>& work) const {
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    enclose_in_scope(a, b, x, work, all);
}

void StatePolynomial::enclose_in_scope(double a, double b, FastInterval* x, std::vector<FastInterval>& work,
                                       const std::vector<std::size_t>& only) const {
    namespace bn = boost::numeric;
    using FI = FastInterval;
    const double mid = a + (b - a) / 2;
    const FI shift = FI(mid, mid) - FI(center, center);
    const FI tau = FI(a, b) - FI(mid, mid);
    const std::size_t q = static_cast<std::size_t>(degree);
    if (work.size() < 2 * (q + 1)) work.resize(2 * (q + 1));
    FI* c = work.data();
    FI* powers = c + (q + 1);
    powers[0] = FI(1.0, 1.0);
    for (std::size_t k = 1; k <= q; ++k) powers[k] = bn::pow(tau, static_cast<int>(k));
    for (std::size_t i : only) {
        for (std::size_t k = 0; k <= q; ++k) c[k] = FI(coeff[k * n + i], coeff[k * n + i]);
        // Taylor shift to the midpoint (repeated synthetic division).
        for (std::size_t j = 0; j < q; ++j)
            for (std::size_t k = q - 1; k + 1 > j; --k) c[k] += shift * c[k + 1];
        FI sum = c[0];
        for (std::size_t k = 1; k <= q; ++k) sum += c[k] * powers[k];
        x[i] = sum;
    }
}

void StatePolynomial::enclose_quickly_in_scope(double a, double b, FastInterval* x,
                                               const std::vector<std::size_t>& only) const {
    using FI = FastInterval;
    const FI s = FI(a, b) - FI(center, center);
    const std::size_t q = static_cast<std::size_t>(degree);
    for (std::size_t i : only) {
        FI sum(coeff[q * n + i], coeff[q * n + i]);
        for (std::size_t k = q; k-- > 0;) sum = sum * s + FI(coeff[k * n + i], coeff[k * n + i]);
        x[i] = sum;
    }
}

void StatePolynomial::enclose_derivative_in_scope(double a, double b, FastInterval* dx,
                                                  const std::vector<std::size_t>& only) const {
    using FI = FastInterval;
    const FI s = FI(a, b) - FI(center, center);
    const std::size_t q = static_cast<std::size_t>(degree);
    for (std::size_t i : only) {
        if (q == 0) {
            dx[i] = FI(0.0, 0.0);
            continue;
        }
        const double top = static_cast<double>(q) * coeff[q * n + i];
        FI sum(top, top);
        for (std::size_t k = q - 1; k >= 1; --k) {
            const FI term = FI(static_cast<double>(k), static_cast<double>(k)) * FI(coeff[k * n + i], coeff[k * n + i]);
            sum = sum * s + term;
        }
        dx[i] = sum;
    }
}

namespace {

bool unknown(const FastInterval& g) { return std::isnan(g.lower()) || std::isnan(g.upper()); }

// A function of the states and time composed with the interpolant, at
// points (round-to-nearest) and over sub-intervals (upward rounding). The
// rounding mode is switched once for a run of enclosures, not per
// enclosure: the scope is opened by the first enclosure and closed before a
// point value.
class OnPolynomial {
public:
    OnPolynomial(const StatePolynomial& p, const StateFunction& f, SearchWork& w) : p_(p), f_(f), w_(w) {
        w_.x.resize(p.n + 1);
        w_.ix.resize(p.n + 1);
        w_.out.resize(f.output_count());
        w_.iout.resize(f.output_count());
        if (const std::vector<std::size_t>* used = f.used_states()) {
            used_ = used;
            std::fill(w_.ix.begin(), w_.ix.end(), FastInterval(0.0, 0.0));  // the others are not read
        } else {
            for (std::size_t i = w_.all.size(); i < p.n; ++i) w_.all.push_back(i);
            w_.all.resize(p.n);
            used_ = &w_.all;
        }
    }

    ~OnPolynomial() { close(); }
    OnPolynomial(const OnPolynomial&) = delete;
    OnPolynomial& operator=(const OnPolynomial&) = delete;

    const double* at(double t) {
        close();
        p_.value(t, w_.x.data());
        w_.x[p_.n] = t;
        f_.at(w_.x.data(), w_.out.data());
        return w_.out.data();
    }
    const FastInterval* over(double a, double b, bool quickly = false) {
        enclose_states(a, b, quickly);
        f_.over(w_.ix.data(), w_.iout.data());
        return w_.iout.data();
    }
    // The centered form of the first output over [a, b] (event_detection.h);
    // NaN bounds when the function has no gradient or it cannot be enclosed.
    FastInterval centered(double a, double b) {
        using FI = FastInterval;
        const FI slope = rate(a, b);
        const double m = a + (b - a) / 2;
        const FI at_m = over(m, m)[0];
        if (unknown(slope) || unknown(at_m)) return FI(std::nan(""), std::nan(""));
        return at_m + slope * (FI(a, b) - FI(m, m));
    }
    // The enclosure of the first output's time derivative along the
    // interpolant over [a, b]; NaN bounds when there is no gradient.
    FastInterval rate(double a, double b) {
        using FI = FastInterval;
        enclose_states(a, b, false);
        w_.slope.resize(used_->size() + 1);
        if (!f_.slope_over(w_.ix.data(), w_.slope.data())) return FI(std::nan(""), std::nan(""));
        w_.dx.resize(p_.n);
        p_.enclose_derivative_in_scope(a, b, w_.dx.data(), *used_);
        FI sum = w_.slope[used_->size()];
        for (std::size_t k = 0; k < used_->size(); ++k) sum += w_.slope[k] * w_.dx[(*used_)[k]];
        return sum;
    }

private:
    // The states over [a, b] into w_.ix (time last), opening the rounding
    // scope; the tight enclosure is kept while [a, b] stays the same (the
    // centered form follows the tight enclosure of the same sub-interval).
    void enclose_states(double a, double b, bool quickly) {
        if (!open_) {
            // What RoundingScope does (interval.h): save the caller's mode, round upward.
            saved_ = std::fegetround();
            std::fesetround(FE_UPWARD);
            open_ = true;
        }
        if (!quickly && tight_a_ == a && tight_b_ == b) return;
        if (quickly) p_.enclose_quickly_in_scope(a, b, w_.ix.data(), *used_);
        else p_.enclose_in_scope(a, b, w_.ix.data(), w_.poly, *used_);
        w_.ix[p_.n] = FastInterval(a, b);
        tight_a_ = quickly ? std::nan("") : a;
        tight_b_ = quickly ? std::nan("") : b;
    }
    double tight_a_ = std::nan(""), tight_b_ = std::nan("");  // the tight enclosure in w_.ix, if any
    const StatePolynomial& p_;
    const StateFunction& f_;
    SearchWork& w_;
    const std::vector<std::size_t>* used_ = nullptr;  // the states to enclose
    bool open_ = false;
    int saved_ = FE_TONEAREST;

    void close() {
        if (open_) std::fesetround(saved_);
        open_ = false;
    }
};

// g(lo) <= 0 < g(hi): bisection down to adjacent doubles; returns hi.
double locate(OnPolynomial& g, double lo, double hi) {
    for (int it = 0; it < 200; ++it) {
        const double m = lo + (hi - lo) / 2;
        if (!(m > lo && m < hi)) break;
        if (g.at(m)[0] > 0) hi = m;
        else lo = m;
    }
    return hi;
}

// Pushes the halves of [lo, hi] onto the search stack, the earlier half on
// top, when it is wider than `tol` and still divisible in doubles; false
// when it is a finest sub-interval, to be decided by points.
bool bisect(std::vector<std::pair<double, double>>& stack, double lo, double hi, double tol) {
    if (!(hi - lo > tol)) return false;
    const double mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) return false;
    stack.emplace_back(mid, hi);
    stack.emplace_back(lo, mid);
    return true;
}

}  // namespace

CrossingResult first_upward_crossing(const StatePolynomial& p, const Tape& guard, double a, double b, bool armed,
                                     const CrossingOptions& options) {
    SearchWork work;
    return first_upward_crossing(p, TapeFunction(guard), a, b, armed, options, work);
}

CrossingResult first_upward_crossing(const StatePolynomial& p, const StateFunction& guard, double a, double b,
                                     bool armed, const CrossingOptions& options, SearchWork& work) {
    CrossingResult res;
    res.armed = armed;
    OnPolynomial g(p, guard, work);
    const bool quick = !guard.costly();  // the cheap state enclosure first
    const bool centered = guard.has_slope();
    const double tol = options.time_tolerance * std::max({1.0, std::fabs(a), std::fabs(b)});
    auto& stack = work.stack;
    stack.clear();
    stack.emplace_back(a, b);
    while (!stack.empty()) {
        auto [lo, hi] = stack.back();
        stack.pop_back();
        if (++res.enclosures > options.max_enclosures) {
            res.exhausted = true;
            break;
        }
        FastInterval v = g.over(lo, hi, quick)[0];
        if (quick && (unknown(v) || !(v.upper() < -options.zero_tolerance || (v.lower() > 0 && !res.armed)))) {
            ++res.enclosures;
            v = g.over(lo, hi)[0];  // the quick enclosure does not decide: the tight one
        }
        if (centered && (unknown(v) || !(v.upper() < 0 || (!res.armed && v.lower() >= -options.zero_tolerance) ||
                                         (v.lower() > 0 && res.armed)))) {
            // Not decided: the centered form, intersected.
            ++res.enclosures;
            const FastInterval c = g.centered(lo, hi);
            if (!unknown(c)) {
                if (unknown(v)) v = c;
                else if (boost::numeric::overlap(v, c)) v = boost::numeric::intersect(v, c);
            }
        }
        const bool unsure = unknown(v);
        if (!unsure && v.upper() < 0) {
            if (v.upper() < -options.zero_tolerance) res.armed = true;
            continue;
        }
        // Disarmed and nowhere below -zero_tolerance (positive, or resting
        // on the surface as a contact gap that stays closed): it can neither
        // arm nor cross here.
        if (!unsure && !res.armed && v.lower() >= -options.zero_tolerance) continue;
        if (!unsure && v.lower() > 0 && res.armed) {
            // Armed (negative just before lo) and positive on all of [lo, hi].
            res.found = true;
            res.time = lo;
            return res;
        }
        if (bisect(stack, lo, hi, tol)) continue;
        if (!res.armed) continue;  // an undecided sliver cannot arm the guard
        // The last sub-interval: decide by points.
        const double glo = g.at(lo)[0];
        if (glo > 0) {
            res.found = true;
            res.time = lo;
            return res;
        }
        const double mid = lo + (hi - lo) / 2;
        const double ghi = g.at(hi)[0];
        if (ghi > 0) {
            res.found = true;
            res.time = locate(g, lo, hi);
            return res;
        }
        if (mid > lo && mid < hi && g.at(mid)[0] > 0) {
            res.found = true;
            res.time = locate(g, lo, mid);
            return res;
        }
        if (centered) {
            // Monotone on the sub-interval and not positive at the end it
            // rises to: below zero inside, no touch (a guard leaving the
            // surface fast right after a restart moves by more than its
            // value across the finest sub-interval).
            const FastInterval r = g.rate(lo, hi);
            if (!unknown(r) && ((r.upper() < 0 && glo <= 0) || (r.lower() > 0 && ghi <= 0))) continue;
        }
        // Near zero, never positive: a tangency (or a window below the
        // tolerance).
        ++res.touches;
        if (std::isnan(res.first_touch)) res.first_touch = lo;
    }
    return res;
}

ViolationResult first_violation(const StatePolynomial& p, const StateFunction& margins, const ConditionSearch& condition,
                                double a, double b, const CrossingOptions& options, SearchWork& work) {
    ViolationResult res;
    OnPolynomial g(p, margins, work);
    const bool quick = !margins.costly();  // the cheap state enclosure first
    const double tol = options.time_tolerance * std::max({1.0, std::fabs(a), std::fabs(b)});
    // Holds at `ok`, fails at `bad`: bisection on points down to adjacent
    // doubles; returns the failing end.
    auto locate_failure = [&](double ok, double bad) {
        for (int it = 0; it < 200; ++it) {
            const double m = ok + (bad - ok) / 2;
            if (!(m > std::min(ok, bad) && m < std::max(ok, bad))) break;
            if (condition.at(g.at(m))) ok = m;
            else bad = m;
        }
        return bad;
    };
    auto& stack = work.stack;
    stack.clear();
    stack.emplace_back(a, b);
    double last_ok = a;  // the latest point known to satisfy the condition (a point check or a certified sub-interval)
    bool have_ok = false;
    while (!stack.empty()) {
        auto [lo, hi] = stack.back();
        stack.pop_back();
        if (++res.enclosures > options.max_enclosures) {
            res.exhausted = true;
            break;
        }
        Truth truth = condition.over(g.over(lo, hi, quick));
        if (quick && truth == Truth::Unknown) {
            ++res.enclosures;
            truth = condition.over(g.over(lo, hi));
        }
        if (truth == Truth::True) {
            last_ok = hi;
            have_ok = true;
            continue;
        }
        if (truth == Truth::False) {
            // Everything before lo held; the failure starts at lo (to the
            // overestimation of the enclosure, refined on points).
            res.found = true;
            res.time = have_ok && last_ok < lo && condition.at(g.at(last_ok)) ? locate_failure(last_ok, lo) : lo;
            return res;
        }
        if (bisect(stack, lo, hi, tol)) continue;
        // The finest sub-interval: decide by points, in time order.
        const double mid = lo + (hi - lo) / 2;
        const double points[3] = {lo, mid, hi};
        bool failed = false;
        for (double t : points) {
            if (condition.at(g.at(t))) {
                last_ok = t;
                have_ok = true;
                continue;
            }
            res.found = true;
            res.time = have_ok && last_ok < t ? locate_failure(last_ok, t) : t;
            failed = true;
            break;
        }
        if (failed) return res;
        ++res.undecided;
    }
    return res;
}

}  // namespace modeaudit::sim
