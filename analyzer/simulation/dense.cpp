#include "simulation/dense.h"

#include <algorithm>
#include <cmath>

namespace modeaudit::sim {

bool DenseLu::factor(const double* a, std::size_t n, std::chrono::steady_clock::time_point deadline) {
    n_ = n;
    interrupted_ = false;
    lu_.assign(a, a + n * n);
    piv_.resize(n);
    double scale = 0;
    for (double v : lu_) scale = std::max(scale, std::fabs(v));
    if (scale == 0) return n == 0;
    const bool timed = deadline != std::chrono::steady_clock::time_point::max();
    for (std::size_t k = 0; k < n; ++k) {
        // A large system can take minutes: the wall-time limit holds inside.
        if (timed && k % 32 == 31 && std::chrono::steady_clock::now() > deadline) {
            interrupted_ = true;
            return false;
        }
        std::size_t p = k;
        for (std::size_t i = k + 1; i < n; ++i)
            if (std::fabs(lu_[i * n + k]) > std::fabs(lu_[p * n + k])) p = i;
        piv_[k] = p;
        if (!(std::fabs(lu_[p * n + k]) > 1e-14 * scale)) return false;
        if (p != k)
            for (std::size_t j = 0; j < n; ++j) std::swap(lu_[k * n + j], lu_[p * n + j]);
        const double inv = 1.0 / lu_[k * n + k];
        for (std::size_t i = k + 1; i < n; ++i) {
            double& l = lu_[i * n + k];
            if (l == 0) continue;
            l *= inv;
            for (std::size_t j = k + 1; j < n; ++j) lu_[i * n + j] -= l * lu_[k * n + j];
        }
    }
    return true;
}

void DenseLu::solve(double* b) const {
    const std::size_t n = n_;
    // The rows were swapped whole (multipliers included), so the
    // permutation applies to b first, then L y = P b, then U x = y.
    for (std::size_t k = 0; k < n; ++k)
        if (piv_[k] != k) std::swap(b[k], b[piv_[k]]);
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = k + 1; i < n; ++i) b[i] -= lu_[i * n + k] * b[k];
    for (std::size_t k = n; k-- > 0;) {
        double s = b[k];
        for (std::size_t j = k + 1; j < n; ++j) s -= lu_[k * n + j] * b[j];
        b[k] = s / lu_[k * n + k];
    }
}

bool min_norm_correction(const std::vector<double>& jac, std::size_t m, std::size_t n, const double* r, double* dx,
                         MinNormWork& work) {
    std::vector<double>& jjt = work.jjt;
    jjt.assign(m * m, 0.0);
    double trace = 0;
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t k = 0; k < m; ++k) {
            double s = 0;
            for (std::size_t j = 0; j < n; ++j) s += jac[i * n + j] * jac[k * n + j];
            jjt[i * m + k] = s;
            if (i == k) trace = std::max(trace, s);
        }
    for (std::size_t i = 0; i < m; ++i) jjt[i * m + i] += 1e-13 * trace;
    if (!work.lu.factor(jjt.data(), m)) return false;
    min_norm_again(jac, m, n, r, dx, work);
    return true;
}

void min_norm_again(const std::vector<double>& jac, std::size_t m, std::size_t n, const double* r, double* dx,
                    MinNormWork& work) {
    std::vector<double>& w = work.w;
    w.assign(r, r + m);
    work.lu.solve(w.data());
    for (std::size_t j = 0; j < n; ++j) {
        double s = 0;
        for (std::size_t i = 0; i < m; ++i) s += jac[i * n + j] * w[i];
        dx[j] = -s;
    }
}

}  // namespace modeaudit::sim
