// The parametric Krawczyk operator for the leading variables that a
// nonlinear F_DOWN defines implicitly, and the guards and asserts that use
// them as functions of the states and time (mode_system.h). Interval code:
// compiled with -frounding-math like tape.cpp and event_detection.cpp.
#include <algorithm>
#include <cfenv>
#include <cmath>

#include "simulation/mode_system.h"

namespace modeaudit::sim {

bool ModeSystem::enclose_leading(const FastInterval* xt, FastInterval* y) const {
    using FI = FastInterval;
    const std::size_t n = states_.size(), m = leading_.size();
    // The box's midpoint, and there an approximate solution y0 and C, an
    // approximate inverse of F_y, in round-to-nearest (the caller's scope
    // rounds upward). They need not be exact: the test K in int(Y) below is
    // what guarantees the enclosure.
    if (k_last_box_.size() == 2 * (n + 1)) {
        bool same = true;
        for (std::size_t j = 0; j <= n && same; ++j)
            same = xt[j].lower() == k_last_box_[2 * j] && xt[j].upper() == k_last_box_[2 * j + 1];
        if (same) {
            std::copy(k_last_y_.begin(), k_last_y_.end(), y);
            return true;
        }
    }
    for (std::size_t j = 0; j <= n; ++j) {
        const double lo = xt[j].lower(), hi = xt[j].upper();
        if (!std::isfinite(lo) || !std::isfinite(hi)) return false;
        k_mid_[j] = std::clamp(lo + (hi - lo) / 2, lo, hi);
    }
    // y0: Newton steps from the warm start (the solution at a nearby point)
    // until the step is below 1e-12 relative, two as a rule: an inexact y0
    // only widens the box, so the last step is not confirmed by another, and
    // C is the inverse of the Jacobian the last step used.
    const int saved = std::fegetround();
    std::fesetround(FE_TONEAREST);
    std::copy(guess_.begin(), guess_.end(), k_y_.begin());
    std::copy(k_mid_.begin(), k_mid_.begin() + static_cast<std::ptrdiff_t>(n), in_.begin());
    in_[n + m] = k_mid_[n];
    bool ok = true;
    for (int it = 0, done = 0; ok && !done && it < 12; ++it) {
        std::copy(k_y_.begin(), k_y_.end(), in_.begin() + static_cast<std::ptrdiff_t>(n));
        down_.evaluate(in_.data(), out_.data(), 2);
        mat_.resize(m * m);
        leading_jacobian(out_.data(), mat_);
        ok = newton_lu_.factor(mat_.data(), m);
        if (!ok) break;
        rhs_.assign(out_.begin(), out_.begin() + static_cast<std::ptrdiff_t>(m));
        newton_lu_.solve(rhs_.data());
        double step = 0, size = 0;
        for (std::size_t i = 0; i < m; ++i) {
            k_y_[i] -= rhs_[i];
            ok = ok && std::isfinite(k_y_[i]);
            step = std::max(step, std::fabs(rhs_[i]));
            size = std::max(size, std::fabs(k_y_[i]));
        }
        done = step <= 1e-12 * (1 + size);
    }
    if (ok) {
        std::copy(k_y_.begin(), k_y_.end(), guess_.begin());
        for (std::size_t j = 0; ok && j < m; ++j) {
            rhs_.assign(m, 0.0);
            rhs_[j] = 1;
            newton_lu_.solve(rhs_.data());
            for (std::size_t i = 0; i < m; ++i) {
                ok = ok && std::isfinite(rhs_[i]);
                k_c_[i * m + j] = rhs_[i];
            }
        }
    }
    std::fesetround(saved);
    if (!ok) return false;

    auto bad = [](const FI& v) { return std::isnan(v.lower()) || std::isnan(v.upper()); };
    FI* in = k_in_.data();
    std::copy(xt, xt + n, in);
    in[n + m] = xt[n];
    for (std::size_t i = 0; i < m; ++i) in[n + i] = FI(k_y_[i], k_y_[i]);
    down_.evaluate_in_scope(in, k_out_.data(), 1);  // F(X, y0, T)
    // r = -C F(X, y0, T): the Newton corrections from y0 over the box.
    for (std::size_t i = 0; i < m; ++i) {
        FI sum(0.0, 0.0);
        for (std::size_t k = 0; k < m; ++k) sum += FI(k_c_[i * m + k], k_c_[i * m + k]) * k_out_[k];
        if (bad(sum)) return false;
        k_r_[i] = -sum;
        k_box_[i] = FI(k_y_[i], k_y_[i]) + k_r_[i];
    }
    for (int attempt = 0; attempt < 6; ++attempt) {
        // Epsilon-inflation of the candidate box, which must contain y0 (the
        // mean-value form behind K is taken along segments from y0).
        for (std::size_t i = 0; i < m; ++i) {
            const double lo = std::min(k_box_[i].lower(), k_y_[i]), hi = std::max(k_box_[i].upper(), k_y_[i]);
            const double e = 0.1 * (hi - lo) + 1e-15 * (1 + std::max(std::fabs(lo), std::fabs(hi)));
            k_box_[i] = FI(-(e - lo), hi + e);  // lo - e rounded downward
            in[n + i] = k_box_[i];
        }
        down_.evaluate_in_scope(in, k_out_.data(), 2);  // F_y(X, Y, T)
        leading_jacobian(k_out_.data(), k_jac_);
        bool inside = true;
        for (std::size_t i = 0; i < m; ++i) {
            FI sum = FI(k_y_[i], k_y_[i]) + k_r_[i];
            for (std::size_t j = 0; j < m; ++j) {
                FI mij = i == j ? FI(1.0, 1.0) : FI(0.0, 0.0);  // (I - C F_y)_ij
                for (std::size_t k = 0; k < m; ++k) mij -= FI(k_c_[i * m + k], k_c_[i * m + k]) * k_jac_[k * m + j];
                sum += mij * (k_box_[j] - FI(k_y_[j], k_y_[j]));
            }
            if (bad(sum)) return false;
            k_next_[i] = sum;
            inside = inside && sum.lower() > k_box_[i].lower() && sum.upper() < k_box_[i].upper();
        }
        if (inside) {
            std::copy(k_next_.begin(), k_next_.end(), y);
            k_last_box_.clear();
            for (std::size_t j = 0; j <= n; ++j) {
                k_last_box_.push_back(xt[j].lower());
                k_last_box_.push_back(xt[j].upper());
            }
            k_last_y_.assign(k_next_.begin(), k_next_.end());
            return true;
        }
        std::copy(k_next_.begin(), k_next_.end(), k_box_.begin());
    }
    return false;
}

ImplicitFunction::ImplicitFunction(const ModeSystem& system, const Tape& tape)
    : sys_(system), tape_(tape), in_(tape.input_count()), iin_(tape.input_count()) {}

void ImplicitFunction::at(const double* xt, double* out) const {
    const std::size_t n = sys_.state_count(), m = sys_.leading_count();
    std::copy(xt, xt + n, in_.begin());
    in_[n + m] = xt[n];
    if (!sys_.solve_leading_from_guess(xt[n], xt, in_.data() + n)) {
        std::fill(out, out + tape_.output_count(), std::nan(""));
        return;
    }
    tape_.evaluate(in_.data(), out);
}

void ImplicitFunction::over(const FastInterval* xt, FastInterval* out) const {
    const std::size_t n = sys_.state_count(), m = sys_.leading_count();
    if (!sys_.enclose_leading(xt, iin_.data() + n)) {
        std::fill(out, out + tape_.output_count(), FastInterval::empty());  // NaN bounds: unknown
        return;
    }
    std::copy(xt, xt + n, iin_.begin());
    iin_[n + m] = xt[n];
    tape_.evaluate_in_scope(iin_.data(), out, tape_.group_count());
}

}  // namespace modeaudit::sim
