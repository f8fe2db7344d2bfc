// Small dense linear algebra for the simulation stage: LU with partial
// pivoting (the Newton iteration on the index-reduced equations, the
// implicit-function Jacobian of the right-hand side) and minimum-norm
// corrections onto the consistency conditions (projection). The systems are
// a mode's leading variables or constraints, tens of unknowns at most, so
// dense row-major storage is the right tool.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

namespace modeaudit::sim {

class DenseLu {
public:
    // Factors the n x n row-major matrix `a`; false when a pivot is zero or
    // below 1e-14 times the largest entry (numerically singular), or when
    // `deadline` passed during the elimination (then interrupted()).
    bool factor(const double* a, std::size_t n,
                std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());
    bool interrupted() const { return interrupted_; }
    // Solves A x = b in place.
    void solve(double* b) const;
    std::size_t size() const { return n_; }

private:
    std::size_t n_ = 0;
    bool interrupted_ = false;
    std::vector<double> lu_;
    std::vector<std::size_t> piv_;
};

// The minimum-norm correction dx with J dx = -r for an m x n row-major J of
// full row rank (m <= n): dx = -J^T (J J^T)^{-1} r. A tiny multiple of the
// identity is added to J J^T so that redundant but consistent rows do not
// make it singular. False when it is singular even so.
// `work` is scratch space kept by the caller between calls (no allocation
// once it has grown to size).
struct MinNormWork {
    std::vector<double> jjt, w;
    DenseLu lu;
};
bool min_norm_correction(const std::vector<double>& jac, std::size_t m, std::size_t n, const double* r, double* dx,
                         MinNormWork& work);
// The same with the factors of J J^T the last min_norm_correction left in
// `work` (same jac), for a second right-hand side.
void min_norm_again(const std::vector<double>& jac, std::size_t m, std::size_t n, const double* r, double* dx,
                    MinNormWork& work);

}  // namespace modeaudit::sim
