// analyzer/structure/numeric.cpp -- part of the structure stage (and reused by
// the restart and simulation stages): the numerical kernels declared in
// structure/numeric.h.
//
//   exact_rank   Gaussian elimination over exact rationals (GiNaC::numeric,
//                i.e. CLN), reporting for each dependent row the combination
//                of earlier independent rows that reproduces it.
//   float_rank   scale-aware numerical rank: entries at rounding level
//                dropped, rows and columns equilibrated by powers of two
//                (Ruiz), then Eigen's QR with column pivoting on the
//                transpose, so the pivots pick independent ROWS; rank with a
//                relative tolerance; cond_2 of the matrix and of its
//                equilibrated form from Eigen's SVD.
//   newton       Newton / Gauss-Newton on GiNaC expressions, with Eigen's LU,
//                QR and (for rank-deficient Jacobians) SVD pseudo-inverse
//                steps, and a backtracking line search on the residual norm.
//
// Everything here is small dense work (the matrices are equation systems of a
// single mode). The dense kernels are Eigen's (a well-kept, header-only
// library) rather than our own: Householder QR with column pivoting, the
// Jacobi/divide-and-conquer SVD and partial-pivoting LU are exactly what it
// provides, tested far beyond what we could test a hand-written copy.
#include "structure/numeric.h"
#include "common/internal_error.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include <Eigen/Dense>
#include <Eigen/SVD>

namespace modeaudit {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Euclidean norm with scaling, so that entries near the overflow or underflow
// thresholds do not spoil the result (the residual of a badly scaled system
// can be 1e200 at the start values).
double norm2(const double* x, std::size_t n) {
    double scale = 0;
    for (std::size_t i = 0; i < n; ++i) scale = std::max(scale, std::fabs(x[i]));
    if (scale == 0 || !std::isfinite(scale)) return scale;
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        double t = x[i] / scale;
        sum += t * t;
    }
    return scale * std::sqrt(sum);
}
double norm2(const std::vector<double>& x) { return norm2(x.data(), x.size()); }

double max_abs(const std::vector<double>& x) {
    double r = 0;
    for (double v : x) {
        if (std::isnan(v)) return v;
        r = std::max(r, std::fabs(v));
    }
    return r;
}

using Dense = std::vector<std::vector<double>>;  // row-major: J[equation][unknown]

// The caller's row-major matrix as an Eigen matrix; ragged rows are read as
// zero-padded to `cols`.
Eigen::MatrixXd to_eigen(const Dense& m, std::size_t cols) {
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(m.size()), static_cast<Eigen::Index>(cols));
    for (std::size_t i = 0; i < m.size(); ++i)
        for (std::size_t j = 0; j < m[i].size() && j < cols; ++j)
            a(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = m[i][j];
    return a;
}

std::vector<double> to_vector(const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

Eigen::VectorXd to_eigen(const std::vector<double>& v) {
    return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

// ---------------------------------------------------------------------------
// Equilibration (for float_rank).
//
// Two phases, both scaling rows and columns by powers of two only, which is
// exact in binary floating point: the scaled matrix is D_r A D_c with no
// rounding at all, so its rank and row dependencies are those of A (D_r, D_c
// non-singular diagonal) and the decision is not blurred by the scaling.
//   1. Geometric scaling (kGeometricSweeps sweeps): each row, then each
//      column, is divided by (a power of two near) sqrt(max * min) of the
//      magnitudes of its non-zero entries. This evens out the spread inside
//      rows and columns, which max-norm scaling alone may leave large (many
//      scalings have all maxima equal to one; not all are well conditioned).
//   2. Ruiz's max-norm scaling: each row, then each column, divided by (a
//      power of two near) the square root of its largest magnitude, until
//      every non-zero row and column has its largest magnitude in [1/2, 2]
//      (or kRuizSweeps sweeps have passed; it converges linearly).
// Zero rows and columns stay zero (scale 1).
constexpr int kGeometricSweeps = 8;
constexpr int kRuizSweeps = 64;

// 2^-floor(e/2) where x = f 2^e, f in [1/2, 1): a power of two within a
// factor of two of 1/sqrt(x), and exactly 1 when x is in [1/2, 2).
double inverse_sqrt_pow2(double x) {
    int e;
    std::frexp(x, &e);
    return std::ldexp(1.0, -static_cast<int>(std::floor(e / 2.0)));
}

// Largest and smallest non-zero magnitude of a row or column (0, 0 if none).
template <typename Vector>
std::pair<double, double> magnitude_range(const Vector& v) {
    double hi = 0, lo = kInf;
    for (Eigen::Index k = 0; k < v.size(); ++k) {
        double x = std::fabs(v(k));
        if (x == 0) continue;
        hi = std::max(hi, x);
        lo = std::min(lo, x);
    }
    return {hi, hi == 0 ? 0.0 : lo};
}

void equilibrate(Eigen::MatrixXd& a) {
    const Eigen::Index rows = a.rows(), cols = a.cols();
    for (int sweep = 0; sweep < kGeometricSweeps; ++sweep) {
        bool changed = false;
        for (Eigen::Index i = 0; i < rows; ++i) {
            auto [hi, lo] = magnitude_range(a.row(i));
            if (hi == 0) continue;
            double s = inverse_sqrt_pow2(std::sqrt(hi) * std::sqrt(lo));
            if (s != 1) a.row(i) *= s, changed = true;
        }
        for (Eigen::Index j = 0; j < cols; ++j) {
            auto [hi, lo] = magnitude_range(a.col(j));
            if (hi == 0) continue;
            double s = inverse_sqrt_pow2(std::sqrt(hi) * std::sqrt(lo));
            if (s != 1) a.col(j) *= s, changed = true;
        }
        if (!changed) break;
    }
    for (int sweep = 0; sweep < kRuizSweeps; ++sweep) {
        bool balanced = true;
        for (Eigen::Index i = 0; i < rows; ++i) {
            double r = a.row(i).cwiseAbs().maxCoeff();
            if (r == 0) continue;
            if (r < 0.5 || r > 2) balanced = false;
            double s = inverse_sqrt_pow2(r);
            if (s != 1) a.row(i) *= s;
        }
        for (Eigen::Index j = 0; j < cols; ++j) {
            double c = a.col(j).cwiseAbs().maxCoeff();
            if (c == 0) continue;
            if (c < 0.5 || c > 2) balanced = false;
            double s = inverse_sqrt_pow2(c);
            if (s != 1) a.col(j) *= s;
        }
        if (balanced) break;
    }
}

// cond_2 from the singular values (Eigen's BDCSVD, which hands small matrices
// to its one-sided Jacobi SVD: accurate for the small singular values a
// condition estimate needs). Only called for matrices of full rank.
double condition_2(const Eigen::MatrixXd& a) {
    Eigen::BDCSVD<Eigen::MatrixXd> svd(a);  // singular values only
    const Eigen::VectorXd& s = svd.singularValues();
    if (s.size() == 0) return 1;
    double smin = s(s.size() - 1);
    return smin > 0 ? s(0) / smin : kInf;
}

// ---------------------------------------------------------------------------
// Linear solvers for the Newton step J dx = -F, by Eigen's dense
// decompositions.

// Relative threshold below which a pivot (LU), a diagonal of R (QR) or a
// singular value (SVD) is treated as zero. Small on purpose: a nearly
// singular but genuinely invertible Jacobian should still give the Newton
// step; the line search copes with the large steps that result.
constexpr double kSingularRel = 1e-14;

// True when every diagonal entry of the triangular factor is above
// kSingularRel * `scale` (and `scale` is positive).
bool diagonal_ok(const Eigen::MatrixXd& r, double scale) {
    if (!(scale > 0)) return false;
    const Eigen::Index k = std::min(r.rows(), r.cols());
    for (Eigen::Index i = 0; i < k; ++i)
        if (!(std::fabs(r(i, i)) > kSingularRel * scale)) return false;
    return true;
}

// Square J: LU with partial pivoting. Returns false when a pivot is (near)
// zero relative to the largest entry of J, so that the caller falls back to
// the least-squares step (Eigen's PartialPivLU itself never refuses).
bool lu_step(const Eigen::MatrixXd& j, const Eigen::VectorXd& rhs, Eigen::VectorXd& dx) {
    double scale = j.cwiseAbs().maxCoeff();
    Eigen::PartialPivLU<Eigen::MatrixXd> lu(j);
    if (!diagonal_ok(lu.matrixLU(), scale)) return false;
    dx = lu.solve(rhs);
    return true;
}

// Underdetermined, full row rank (m < n): the minimum-norm solution of
// J dx = rhs. With J^T = Q [R; 0], J = [R^T 0] Q^T; writing dx = Q z,
// R^T z_1 = rhs and the norm is smallest with z_2 = 0. This is
// dx = J^T (J J^T)^{-1} rhs without ever forming J J^T (which would square
// the condition number).
bool min_norm_step(const Eigen::MatrixXd& j, const Eigen::VectorXd& rhs, Eigen::VectorXd& dx) {
    const Eigen::Index m = j.rows(), n = j.cols();
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(j.transpose());
    Eigen::MatrixXd r = qr.matrixQR().topLeftCorner(m, m).triangularView<Eigen::Upper>();
    double big = r.diagonal().cwiseAbs().maxCoeff();
    if (!diagonal_ok(r, big)) return false;
    Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
    z.head(m) = r.transpose().triangularView<Eigen::Lower>().solve(rhs);
    dx = qr.householderQ() * z;
    return true;
}

// Overdetermined, full column rank (m > n): the least-squares solution of
// J dx = rhs via J = Q R: R dx = (Q^T rhs)_{0..n-1}.
bool least_squares_step(const Eigen::MatrixXd& j, const Eigen::VectorXd& rhs, Eigen::VectorXd& dx) {
    const Eigen::Index n = j.cols();
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(j);
    Eigen::MatrixXd r = qr.matrixQR().topLeftCorner(n, n).triangularView<Eigen::Upper>();
    double big = r.diagonal().cwiseAbs().maxCoeff();
    if (!diagonal_ok(r, big)) return false;
    Eigen::VectorXd y = qr.householderQ().transpose() * rhs;
    dx = r.triangularView<Eigen::Upper>().solve(y.head(n));
    return true;
}

// Rank-deficient J of any shape: the minimum-norm least-squares solution
// dx = J^+ rhs through the SVD J = U S V^T, truncating the singular values
// below kSingularRel * sigma_max. This is the "least-squares step" a
// singular square Jacobian falls back to; a zero Jacobian gives dx = 0.
void pseudo_inverse_step(const Eigen::MatrixXd& j, const Eigen::VectorXd& rhs, Eigen::VectorXd& dx) {
    const Eigen::Index n = j.cols();
    Eigen::BDCSVD<Eigen::MatrixXd> svd(j, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Eigen::VectorXd& s = svd.singularValues();
    dx = Eigen::VectorXd::Zero(n);
    if (s.size() == 0 || !(s(0) > 0)) return;
    Eigen::VectorXd c = svd.matrixU().transpose() * rhs;
    for (Eigen::Index k = 0; k < s.size(); ++k)
        if (s(k) > kSingularRel * s(0)) dx += (c(k) / s(k)) * svd.matrixV().col(k);
}

std::vector<double> newton_step(const Dense& jac, std::size_t n, const std::vector<double>& f) {
    if (n == 0) return {};
    const Eigen::MatrixXd j = to_eigen(jac, n);
    const Eigen::VectorXd rhs = -to_eigen(f);
    const auto m = static_cast<std::size_t>(j.rows());
    Eigen::VectorXd dx;
    bool done = false;
    if (m == n)
        done = lu_step(j, rhs, dx);
    else if (m < n)
        done = min_norm_step(j, rhs, dx);
    else
        done = least_squares_step(j, rhs, dx);
    if (!done) pseudo_inverse_step(j, rhs, dx);
    return to_vector(dx);
}


// ---------------------------------------------------------------------------
// Evaluation of GiNaC expressions at a point.

std::string show(const GiNaC::ex& e) {
    std::ostringstream os;
    os << e;
    std::string s = os.str();
    if (s.size() > 120) s = s.substr(0, 117) + "...";
    return s;
}

std::string show_point(const std::vector<GiNaC::symbol>& unknowns, const std::vector<double>& x) {
    if (unknowns.empty()) return "(no unknowns)";
    std::ostringstream os;
    os.precision(17);
    constexpr std::size_t kShown = 8;
    for (std::size_t k = 0; k < unknowns.size() && k < x.size(); ++k) {
        if (k == kShown) {
            os << ", ... (" << unknowns.size() - kShown << " more)";
            break;
        }
        os << (k ? ", " : "") << unknowns[k].get_name() << " = " << x[k];
    }
    return os.str();
}

// Substitutes the numbers, evalf's, and insists on a finite real double.
// Returns false with a reason instead of throwing: CLN/GiNaC report poles,
// division by zero and float overflow/underflow as exceptions.
bool eval_real(const GiNaC::ex& e, const GiNaC::exmap& at, double& out, std::string& why) {
    try {
        GiNaC::ex v = e.subs(at, GiNaC::subs_options::no_pattern).evalf();
        if (!GiNaC::is_a<GiNaC::numeric>(v)) {
            why = "does not evaluate to a number (left with " + show(v) + ")";
            return false;
        }
        const GiNaC::numeric& nv = GiNaC::ex_to<GiNaC::numeric>(v);
        if (!nv.is_real()) {
            why = "evaluates to the non-real value " + show(v);
            return false;
        }
        out = nv.to_double();
        if (!std::isfinite(out)) {
            why = "evaluates to a non-finite value";
            return false;
        }
        return true;
    } catch (const InternalError&) {
        throw;  // a bug of the tool, never "cannot be evaluated"
    } catch (const std::exception& ex) {
        why = std::string("cannot be evaluated: ") + ex.what();
    } catch (...) {
        why = "cannot be evaluated (unknown exception)";
    }
    return false;
}

struct System {
    std::vector<GiNaC::ex> f;               // parameters substituted
    std::vector<std::vector<GiNaC::ex>> j;  // j[i][k] = d f_i / d x_k
    const std::vector<GiNaC::symbol>* unknowns = nullptr;

    GiNaC::exmap point(const std::vector<double>& x) const {
        GiNaC::exmap at;
        for (std::size_t k = 0; k < x.size(); ++k) at[(*unknowns)[k]] = GiNaC::numeric(x[k]);
        return at;
    }

    bool residual(const std::vector<double>& x, std::vector<double>& out, std::string& why) const {
        GiNaC::exmap at = point(x);
        out.assign(f.size(), 0);
        for (std::size_t i = 0; i < f.size(); ++i) {
            std::string reason;
            if (!eval_real(f[i], at, out[i], reason)) {
                why = "equation " + std::to_string(i) + " " + reason + " at " + show_point(*unknowns, x);
                return false;
            }
        }
        return true;
    }

    bool jacobian(const std::vector<double>& x, Dense& out, std::string& why) const {
        GiNaC::exmap at = point(x);
        const std::size_t n = unknowns->size();
        out.assign(f.size(), std::vector<double>(n, 0.0));
        for (std::size_t i = 0; i < f.size(); ++i)
            for (std::size_t k = 0; k < n; ++k) {
                if (j[i][k].is_zero()) continue;  // structural zero: skip the substitution
                std::string reason;
                if (!eval_real(j[i][k], at, out[i][k], reason)) {
                    why = "the derivative of equation " + std::to_string(i) + " with respect to " +
                          (*unknowns)[k].get_name() + " " + reason + " at " + show_point(*unknowns, x);
                    return false;
                }
            }
        return true;
    }
};

// Magnitude of the terms that make up an expression at a point: sums add the
// magnitudes of their terms, products multiply them, positive powers raise
// them; anything else (a function call, a symbol, a number) counts with its
// absolute value. A residual that is tiny relative to this is at the
// rounding level of evaluating the expression in double precision.
bool term_scale(const GiNaC::ex& e, const GiNaC::exmap& at, double& out) {
    if (GiNaC::is_a<GiNaC::add>(e) || GiNaC::is_a<GiNaC::mul>(e)) {
        bool sum = GiNaC::is_a<GiNaC::add>(e);
        double acc = sum ? 0.0 : 1.0;
        for (std::size_t i = 0; i < e.nops(); ++i) {
            double t;
            if (!term_scale(e.op(i), at, t)) return false;
            acc = sum ? acc + t : acc * t;
        }
        out = acc;
        return std::isfinite(out);
    }
    if (GiNaC::is_a<GiNaC::power>(e) && GiNaC::is_a<GiNaC::numeric>(e.op(1))) {
        const GiNaC::numeric& p = GiNaC::ex_to<GiNaC::numeric>(e.op(1));
        if (p.is_real() && p.is_positive()) {
            double b;
            if (!term_scale(e.op(0), at, b)) return false;
            out = std::pow(b, p.to_double());
            return std::isfinite(out);
        }
    }
    std::string ignored;
    if (!eval_real(e, at, out, ignored)) return false;
    out = std::fabs(out);
    return true;
}

// Rounding-level acceptance: |F_i| <= kRoundingRel * (magnitude of the terms
// of equation i) for every equation.
constexpr double kRoundingRel = 1024 * kEps;  // about 2.3e-13

bool at_rounding_level(const System& s, const std::vector<double>& x, const std::vector<double>& f) {
    GiNaC::exmap at = s.point(x);
    for (std::size_t i = 0; i < s.f.size(); ++i) {
        double scale;
        if (!term_scale(s.f[i], at, scale)) return false;
        if (!(std::fabs(f[i]) <= kRoundingRel * scale)) return false;
    }
    return true;
}

std::string show_double(double v) {
    std::ostringstream os;
    os.precision(6);
    os << v;
    return os.str();
}

}  // namespace

// ===========================================================================
// exact_rank
//
// Rows are reduced in order against the rows kept so far. Each kept (basis)
// row is stored in reduced form -- leading entry 1 at its pivot column, zero
// at the pivots of the basis rows before it -- together with its expression
// as a combination of original rows. Reducing a new row r against the basis
// in insertion order gives r - sum_k c_k m_k; if that is zero the row is
// dependent and sum_k c_k m_k is its combination. Because a basis row only
// ever mixes rows that were kept, the combination refers to earlier
// independent rows only. Arithmetic is exact (CLN rationals), so "zero" is
// exact zero: no tolerance. A row of zeros (or of no entries) is dependent
// with an empty combination. Ragged rows are read as zero-padded.
ExactRank exact_rank(const std::vector<std::vector<GiNaC::numeric>>& m) {
    ExactRank out;
    std::size_t width = 0;
    for (const auto& row : m) width = std::max(width, row.size());

    struct Basis {
        std::size_t pivot;
        std::vector<GiNaC::numeric> row;               // reduced, row[pivot] == 1
        std::map<std::size_t, GiNaC::numeric> as_rows;  // row = sum as_rows[k] * m[k]
    };
    std::vector<Basis> basis;

    for (std::size_t i = 0; i < m.size(); ++i) {
        std::vector<GiNaC::numeric> v(width, GiNaC::numeric(0));
        std::copy(m[i].begin(), m[i].end(), v.begin());
        std::map<std::size_t, GiNaC::numeric> used;  // v == m[i] - sum used[k] * m[k]
        for (const Basis& b : basis) {
            GiNaC::numeric f = v[b.pivot];
            if (f.is_zero()) continue;
            // Entries of b.row before its pivot are zero, so start there.
            for (std::size_t c = b.pivot; c < width; ++c)
                if (!b.row[c].is_zero()) v[c] -= f * b.row[c];
            for (const auto& [k, coeff] : b.as_rows) used[k] += f * coeff;
        }
        auto lead = std::find_if(v.begin(), v.end(), [](const GiNaC::numeric& x) { return !x.is_zero(); });
        if (lead == v.end()) {
            ExactRank::Dependency dep{i, {}};
            for (const auto& [k, coeff] : used)
                if (!coeff.is_zero()) dep.combination.emplace_back(k, coeff);
            out.dependent.push_back(std::move(dep));
            continue;
        }
        Basis b;
        b.pivot = static_cast<std::size_t>(lead - v.begin());
        GiNaC::numeric inv = lead->inverse();
        b.row.reserve(width);
        for (const auto& x : v) b.row.push_back(x * inv);
        b.as_rows[i] = inv;
        for (const auto& [k, coeff] : used)
            if (!coeff.is_zero()) b.as_rows[k] = -coeff * inv;
        basis.push_back(std::move(b));
    }
    out.rank = basis.size();
    return out;
}

// ===========================================================================
// float_rank
//
// 1. Entries at rounding level of the largest entry of their row or column
//    (|a_ij| <= 16 eps max(max_k |a_ik|, max_k |a_kj|)) are set to zero:
//    such an entry cannot be told from a cancellation that should have given
//    0, and equilibration (step 2) would otherwise blow it up to order one.
//    Not the largest entry of the whole matrix: in a badly scaled matrix
//    that would erase genuine entries of the small rows.
// 2. The matrix is equilibrated by powers of two (Ruiz; see equilibrate):
//    E = D_r A D_c exactly, with every non-zero row and column of max-norm
//    in [1/2, 2]. Rank and row dependencies are those of A.
// 3. E^T (its columns are the rows of m) is factored E^T P = Q R by Eigen's
//    ColPivHouseholderQR, so P lists rows of m most-independent first.
//    rank = number of k with |R_kk| > tol * max_k |R_kk| (non-increasing
//    under this pivoting). The rows of m outside the first `rank` pivots are
//    the dependent ones, listed in increasing order.
// 4. Condition: for full rank (rank == min(rows, cols)), cond_2(A) and
//    cond_2(E) from the singular values; rank-deficient: both infinity.
// 5. A matrix that falls into independent blocks (after step 1) gets steps
//    3 and 4 block by block (block_rank): the same pivots, rank, dependent
//    rows and singular values, without the cost of the whole matrix.
//
// A matrix with no rows or no columns has no singular values; it is reported
// as rank 0 with condition 1 (vacuously well-conditioned), and every row of
// an r x 0 matrix counts as dependent (it is the zero vector). Non-finite
// entries make the factorisation meaningless: the result is then rank 0,
// condition NaN and every row listed as dependent.
constexpr double kNoiseRel = 16 * kEps;

// A block of float_rank's matrix: its rows and columns (increasing).
struct Block {
    std::vector<Eigen::Index> rows, cols;
};

// The connected components of the non-zero pattern of `a`, ordered by
// their first row (then column). A zero row or column is a block alone.
std::vector<Block> independent_blocks(const Eigen::MatrixXd& a) {
    const Eigen::Index rows = a.rows(), cols = a.cols();
    std::vector<Eigen::Index> parent(static_cast<std::size_t>(rows + cols));
    for (std::size_t k = 0; k < parent.size(); ++k) parent[k] = static_cast<Eigen::Index>(k);
    auto find = [&](Eigen::Index x) {
        while (parent[static_cast<std::size_t>(x)] != x) {
            parent[static_cast<std::size_t>(x)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
            x = parent[static_cast<std::size_t>(x)];
        }
        return x;
    };
    for (Eigen::Index j = 0; j < cols; ++j)
        for (Eigen::Index i = 0; i < rows; ++i)
            if (a(i, j) != 0) {
                Eigen::Index ri = find(i), rj = find(rows + j);
                if (ri != rj) parent[static_cast<std::size_t>(std::max(ri, rj))] = std::min(ri, rj);
            }
    std::map<Eigen::Index, Block> by_root;
    for (Eigen::Index i = 0; i < rows; ++i) by_root[find(i)].rows.push_back(i);
    for (Eigen::Index j = 0; j < cols; ++j) by_root[find(rows + j)].cols.push_back(j);
    std::vector<Block> out;
    for (auto& [root, b] : by_root) out.push_back(std::move(b));
    return out;
}

// float_rank on independent blocks (step 5): the pivoted QR of each block
// of E^T, the rank counted against the largest pivot of all blocks, the
// dependent rows those outside each block's leading pivots, and for full
// rank the condition from the singular values of all blocks together.
void block_rank(const Eigen::MatrixXd& a, const Eigen::MatrixXd& e, const std::vector<Block>& blocks, double tol,
                FloatRank& out) {
    auto sub = [](const Eigen::MatrixXd& m, const Block& b) {
        Eigen::MatrixXd s(static_cast<Eigen::Index>(b.rows.size()), static_cast<Eigen::Index>(b.cols.size()));
        for (std::size_t i = 0; i < b.rows.size(); ++i)
            for (std::size_t j = 0; j < b.cols.size(); ++j)
                s(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = m(b.rows[i], b.cols[j]);
        return s;
    };
    struct Pivots {
        std::vector<double> diagonal;        // |R_kk|, non-increasing
        std::vector<std::size_t> row_order;  // the block's rows (of m), pivot order
    };
    std::vector<Pivots> pivots;
    double rmax = 0;
    for (const Block& b : blocks) {
        Pivots p;
        if (!b.rows.empty() && !b.cols.empty()) {
            Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(sub(e, b).transpose());
            const Eigen::Index k_end = std::min(qr.matrixQR().rows(), qr.matrixQR().cols());
            for (Eigen::Index k = 0; k < k_end; ++k) {
                p.diagonal.push_back(std::fabs(qr.matrixQR()(k, k)));
                rmax = std::max(rmax, p.diagonal.back());
            }
            const auto& perm = qr.colsPermutation().indices();
            for (Eigen::Index k = 0; k < perm.size(); ++k)
                p.row_order.push_back(static_cast<std::size_t>(b.rows[static_cast<std::size_t>(perm(k))]));
        } else {
            for (Eigen::Index r : b.rows) p.row_order.push_back(static_cast<std::size_t>(r));
        }
        pivots.push_back(std::move(p));
    }
    std::size_t rank = 0;
    for (const Pivots& p : pivots) {
        std::size_t rb = 0;
        if (rmax > 0)
            for (double d : p.diagonal)
                if (d > tol * rmax) ++rb;
        rank += rb;
        for (std::size_t k = rb; k < p.row_order.size(); ++k) out.dependent_rows.push_back(p.row_order[k]);
    }
    std::sort(out.dependent_rows.begin(), out.dependent_rows.end());
    out.rank = rank;
    if (rank < static_cast<std::size_t>(std::min(a.rows(), a.cols()))) {
        out.condition = out.scaled_condition = kInf;
        return;
    }
    // Full rank: every singular value of the matrix is one of a block's.
    auto condition_of_blocks = [&](const Eigen::MatrixXd& m) {
        double hi = 0, lo = kInf;
        for (const Block& b : blocks) {
            if (b.rows.empty() || b.cols.empty()) continue;
            Eigen::BDCSVD<Eigen::MatrixXd> svd(sub(m, b));
            const Eigen::VectorXd& sv = svd.singularValues();
            if (sv.size() == 0) continue;
            hi = std::max(hi, sv(0));
            lo = std::min(lo, sv(sv.size() - 1));
        }
        return lo > 0 && lo < kInf ? hi / lo : (hi == 0 && lo == kInf ? 1.0 : kInf);
    };
    out.condition = condition_of_blocks(a);
    out.scaled_condition = condition_of_blocks(e);
}

FloatRank float_rank(const std::vector<std::vector<double>>& m, double tol) {
    FloatRank out;
    const std::size_t rows = m.size();
    std::size_t cols = 0;
    for (const auto& row : m) cols = std::max(cols, row.size());

    auto all_dependent = [&] {
        out.dependent_rows.resize(rows);
        for (std::size_t i = 0; i < rows; ++i) out.dependent_rows[i] = i;
    };
    for (const auto& row : m)
        for (double v : row)
            if (!std::isfinite(v)) {
                out.condition = out.scaled_condition = std::numeric_limits<double>::quiet_NaN();
                all_dependent();
                return out;
            }
    if (rows == 0 || cols == 0) {
        out.condition = out.scaled_condition = 1;
        all_dependent();
        return out;
    }
    if (!(tol >= 0)) tol = 0;  // a negative or NaN tolerance means "exact zero only"

    Eigen::MatrixXd a = to_eigen(m, cols);
    {
        const Eigen::VectorXd row_max = a.cwiseAbs().rowwise().maxCoeff();
        const Eigen::RowVectorXd col_max = a.cwiseAbs().colwise().maxCoeff();
        for (Eigen::Index i = 0; i < a.rows(); ++i)
            for (Eigen::Index j = 0; j < a.cols(); ++j)
                if (std::fabs(a(i, j)) <= kNoiseRel * std::max(row_max(i), col_max(j))) a(i, j) = 0;
    }
    Eigen::MatrixXd e = a;
    equilibrate(e);

    // 5. Independent blocks (the connected components of the non-zero
    //    pattern: rows and columns joined by their entries) are factored one
    //    by one: block-diagonal up to permutation, the matrix has the union
    //    of its blocks' pivots and singular values, at a cost that grows
    //    with the blocks' sizes, not the matrix's (a mode of 2,000
    //    independent states: one 2,000 x 2,000 SVD took 17.7 s).
    if (std::vector<Block> blocks = independent_blocks(a); blocks.size() > 1) {
        block_rank(a, e, blocks, tol, out);
        return out;
    }

    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(e.transpose());
    const Eigen::Index k_end = std::min(qr.matrixQR().rows(), qr.matrixQR().cols());
    double rmax = 0;
    for (Eigen::Index k = 0; k < k_end; ++k) rmax = std::max(rmax, std::fabs(qr.matrixQR()(k, k)));
    std::size_t rank = 0;
    if (rmax > 0)
        for (Eigen::Index k = 0; k < k_end; ++k)
            if (std::fabs(qr.matrixQR()(k, k)) > tol * rmax) ++rank;
    out.rank = rank;

    const auto& perm = qr.colsPermutation().indices();
    for (Eigen::Index k = static_cast<Eigen::Index>(rank); k < perm.size(); ++k)
        out.dependent_rows.push_back(static_cast<std::size_t>(perm(k)));
    std::sort(out.dependent_rows.begin(), out.dependent_rows.end());

    if (rank < static_cast<std::size_t>(k_end)) {
        out.condition = out.scaled_condition = kInf;
        return out;
    }
    out.condition = condition_2(a);
    out.scaled_condition = condition_2(e);
    return out;
}

// ===========================================================================
// newton
//
// Setup: parameters are substituted once (no_pattern: the map holds plain
// symbols, and pattern matching would be slow and could match wildcards);
// any symbol left that is not an unknown is an error naming the equation.
// The Jacobian is differentiated symbolically once.
//
// Iteration: step from J dx = -F --
//   square:          LU with partial pivoting (Newton);
//   m < n:           minimum-norm step via QR of J^T (Gauss-Newton);
//   m > n:           least-squares step via QR of J (Gauss-Newton);
//   rank-deficient:  minimum-norm least-squares step via Jacobi SVD.
// Then backtracking: try x + lambda dx for lambda = 1, 1/2, ..., 2^-20 and
// take the first trial that evaluates (real, finite, no pole) and has a
// strictly smaller Euclidean residual norm. Trials that fail to evaluate --
// log of a negative number, division by zero -- just count as "too far",
// which is what lets the solver start close to a domain boundary.
//
// Convergence rule:
//   (a) max_i |F_i| <= options.tolerance (absolute), checked at every iterate
//       including the start values; or
//   (b) the iteration cannot make progress in double precision -- the step
//       satisfies |dx_k| <= 4 eps |x_k| for every k, or no trial of the line
//       search reduces the residual -- AND every residual is at rounding
//       level relative to the magnitude of the terms of its equation:
//       |F_i| <= 1024 eps * scale_i (see term_scale). Then `message` notes
//       that convergence was accepted at rounding level.
// Anything else stops with converged = false and a message: a point where an
// equation or derivative cannot be evaluated, a vanished step with a large
// residual (singular Jacobian / local minimum of |F|, e.g. x^2 + 1 = 0), a
// failed line search, or the iteration limit. `values` is always the last
// accepted iterate and `residual` its max-norm (infinity if the start values
// themselves cannot be evaluated).
NewtonResult newton(const std::vector<GiNaC::ex>& equations, const std::vector<GiNaC::symbol>& unknowns,
                    const GiNaC::exmap& parameters, const std::vector<double>& x0,
                    const NewtonOptions& options) {
    NewtonResult result;
    result.values = x0;
    result.residual = kInf;
    const std::size_t m = equations.size();
    const std::size_t n = unknowns.size();

    if (x0.size() != n) {
        result.message = "" + std::to_string(x0.size()) + " start values for " + std::to_string(n) +
                         " unknowns";
        return result;
    }
    for (std::size_t k = 0; k < n; ++k)
        if (!std::isfinite(x0[k])) {
            result.message = "the start value of " + unknowns[k].get_name() + " is not finite";
            return result;
        }

    System sys;
    sys.unknowns = &unknowns;
    try {
        std::set<GiNaC::ex, GiNaC::ex_is_less> known(unknowns.begin(), unknowns.end());
        sys.f.reserve(m);
        for (std::size_t i = 0; i < m; ++i) {
            GiNaC::ex e = equations[i].subs(parameters, GiNaC::subs_options::no_pattern);
            for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it)
                if (GiNaC::is_a<GiNaC::symbol>(*it) && !known.count(*it)) {
                    result.message = "equation " + std::to_string(i) + " contains the symbol " +
                                     show(*it) + ", which is neither an unknown nor a parameter with a value (a parameter declared without one "
                                     "leaves the equation undetermined)";
                    return result;
                }
            sys.f.push_back(e);
        }
        sys.j.assign(m, std::vector<GiNaC::ex>(n));
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t k = 0; k < n; ++k) sys.j[i][k] = sys.f[i].diff(unknowns[k]);
    } catch (const InternalError&) {
        throw;  // a bug of the tool, never "cannot set up"
    } catch (const std::exception& ex) {
        result.message = std::string("cannot set up the system: ") + ex.what();
        return result;
    } catch (...) {
        result.message = "cannot set up the system (unknown exception)";
        return result;
    }

    std::vector<double> x = x0;
    std::vector<double> f;
    std::string why;
    if (!sys.residual(x, f, why)) {
        result.message = "at the start values, " + why;
        return result;
    }

    const double tol = options.tolerance;
    auto accept_rounding = [&](const char* situation) {
        result.converged = true;
        result.message = std::string("converged at rounding level (") + situation + "; residual " +
                         show_double(result.residual) + " is within rounding of the equations' terms)";
    };

    Dense jac;
    for (;;) {
        result.values = x;
        result.residual = max_abs(f);
        if (result.residual <= tol) {
            result.converged = true;
            return result;
        }
        if (result.iterations >= options.max_iterations) {
            result.message = "no convergence after " + std::to_string(result.iterations) +
                             " iterations; residual " + show_double(result.residual);
            return result;
        }
        if (!sys.jacobian(x, jac, why)) {
            result.message = "" + why;
            return result;
        }
        std::vector<double> dx = newton_step(jac, n, f);
        bool finite_step = std::all_of(dx.begin(), dx.end(), [](double v) { return std::isfinite(v); });
        if (!finite_step) {
            result.message = "the step is not finite (Jacobian too badly conditioned) at " +
                             show_point(unknowns, x) + "; residual " + show_double(result.residual);
            return result;
        }
        bool tiny = true;
        for (std::size_t k = 0; k < n; ++k)
            if (std::fabs(dx[k]) > 4 * kEps * std::fabs(x[k])) tiny = false;
        if (tiny) {
            if (at_rounding_level(sys, x, f)) {
                accept_rounding("the step vanished");
                return result;
            }
            result.message = "the step vanished with residual " + show_double(result.residual) +
                             " (singular Jacobian, local minimum of the residual norm, or an inconsistent "
                             "overdetermined system) at " +
                             show_point(unknowns, x);
            return result;
        }

        // Backtracking line search on |F|_2.
        const double fnorm = norm2(f);
        constexpr int kHalvings = 20;
        double lambda = 1;
        bool accepted = false;
        std::string last_failure;
        std::vector<double> xt(n), ft;
        for (int h = 0; h <= kHalvings; ++h, lambda *= 0.5) {
            for (std::size_t k = 0; k < n; ++k) xt[k] = x[k] + lambda * dx[k];
            std::string reason;
            if (!sys.residual(xt, ft, reason)) {
                last_failure = reason;
                continue;
            }
            if (norm2(ft) < fnorm) {
                accepted = true;
                break;
            }
        }
        if (!accepted) {
            if (at_rounding_level(sys, x, f)) {
                accept_rounding("the line search could not reduce it further");
                return result;
            }
            result.message = "the line search found no step length in [2^-20, 1] that reduces the "
                             "residual " + show_double(result.residual) + " at " + show_point(unknowns, x);
            if (!last_failure.empty()) result.message += " (last trial: " + last_failure + ")";
            return result;
        }
        x = xt;
        f = ft;
        ++result.iterations;
    }
}

}  // namespace modeaudit
