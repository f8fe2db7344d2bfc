// analyzer/structure/numeric.cpp -- part of the structure stage (and reused by
// the restart and simulation stages): the numerical kernels declared in
// structure/numeric.h.
//
//   exact_rank   Gaussian elimination over exact rationals (GiNaC::numeric,
//                i.e. CLN), reporting for each dependent row the combination
//                of earlier independent rows that reproduces it.
//   float_rank   Householder QR with column pivoting on the transpose, so the
//                pivots pick independent ROWS; numerical rank with a relative
//                tolerance; cond_2 from the singular values of R, computed by
//                a one-sided (Hestenes) Jacobi SVD.
//   newton       Newton / Gauss-Newton on GiNaC expressions, with LU, QR and
//                (for rank-deficient Jacobians) a Jacobi-SVD pseudo-inverse,
//                and a backtracking line search on the residual norm.
//
// Everything here is small dense work (the matrices are equation systems of a
// single mode), so clarity and robustness win over speed: O(n^3) kernels,
// norms recomputed rather than downdated, no blocking.
#include "structure/numeric.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <utility>

namespace modeaudit {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A matrix as a list of columns; the QR and Jacobi kernels work column-wise
// because Householder reflections and Jacobi rotations act on whole columns.
using Columns = std::vector<std::vector<double>>;

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

// ---------------------------------------------------------------------------
// Householder QR.
//
// A (rows x cols, given as columns) = Q R P^T. Reflector k is
// H_k = I - beta_k v_k v_k^T acting on entries k..rows-1; Q = H_0 H_1 ... .
// With `pivot`, step k brings the remaining column of largest norm to the
// front (Businger-Golub), which makes |R_kk| non-increasing and so
// rank-revealing. Norms are recomputed at every step instead of downdated:
// downdating loses accuracy exactly in the nearly-dependent case we care
// about, and recomputing is affordable for these sizes.
struct HouseholderQR {
    std::size_t rows = 0;
    std::size_t cols = 0;
    Columns a;                              // after factoring: R in the upper triangle
    std::vector<std::vector<double>> v;     // v[k] has length rows - k
    std::vector<double> beta;
    std::vector<std::size_t> perm;          // column j of R is original column perm[j]

    std::size_t steps() const { return std::min(rows, cols); }
    double r(std::size_t i, std::size_t j) const { return a[j][i]; }
};

HouseholderQR qr_factor(Columns columns, std::size_t rows, bool pivot) {
    HouseholderQR qr;
    qr.rows = rows;
    qr.cols = columns.size();
    qr.a = std::move(columns);
    for (auto& c : qr.a) c.resize(rows, 0.0);  // tolerate ragged input: missing entries are zero
    qr.perm.resize(qr.cols);
    for (std::size_t j = 0; j < qr.cols; ++j) qr.perm[j] = j;

    const std::size_t k_end = qr.steps();
    for (std::size_t k = 0; k < k_end; ++k) {
        if (pivot) {
            // Strict '>' keeps the earliest column on ties, so the choice is
            // deterministic and prefers earlier rows of the caller's matrix.
            std::size_t best = k;
            double best_norm = -1;
            for (std::size_t j = k; j < qr.cols; ++j) {
                double n = norm2(qr.a[j].data() + k, rows - k);
                if (n > best_norm) {
                    best_norm = n;
                    best = j;
                }
            }
            if (best != k) {
                std::swap(qr.a[k], qr.a[best]);
                std::swap(qr.perm[k], qr.perm[best]);
            }
        }
        std::vector<double>& x = qr.a[k];
        double nrm = norm2(x.data() + k, rows - k);
        std::vector<double> v(x.begin() + static_cast<std::ptrdiff_t>(k), x.end());
        double beta = 0;
        if (nrm > 0 && std::isfinite(nrm)) {
            // alpha takes the sign opposite to x_k so that v_0 = x_k - alpha
            // is a sum of like-signed numbers: no cancellation.
            double alpha = -std::copysign(nrm, x[k]);
            v[0] = x[k] - alpha;
            beta = 1.0 / (nrm * (nrm + std::fabs(x[k])));  // = 2 / (v^T v)
            x[k] = alpha;
            for (std::size_t i = k + 1; i < rows; ++i) x[i] = 0;
            for (std::size_t j = k + 1; j < qr.cols; ++j) {
                std::vector<double>& y = qr.a[j];
                double s = 0;
                for (std::size_t i = k; i < rows; ++i) s += v[i - k] * y[i];
                s *= beta;
                for (std::size_t i = k; i < rows; ++i) y[i] -= s * v[i - k];
            }
        }
        qr.v.push_back(std::move(v));
        qr.beta.push_back(beta);
    }
    return qr;
}

// y <- Q^T y (y has qr.rows entries).
void apply_qt(const HouseholderQR& qr, std::vector<double>& y) {
    for (std::size_t k = 0; k < qr.v.size(); ++k) {
        if (qr.beta[k] == 0) continue;
        double s = 0;
        for (std::size_t i = k; i < qr.rows; ++i) s += qr.v[k][i - k] * y[i];
        s *= qr.beta[k];
        for (std::size_t i = k; i < qr.rows; ++i) y[i] -= s * qr.v[k][i - k];
    }
}

// y <- Q y (y has qr.rows entries).
void apply_q(const HouseholderQR& qr, std::vector<double>& y) {
    for (std::size_t k = qr.v.size(); k-- > 0;) {
        if (qr.beta[k] == 0) continue;
        double s = 0;
        for (std::size_t i = k; i < qr.rows; ++i) s += qr.v[k][i - k] * y[i];
        s *= qr.beta[k];
        for (std::size_t i = k; i < qr.rows; ++i) y[i] -= s * qr.v[k][i - k];
    }
}

// ---------------------------------------------------------------------------
// One-sided Jacobi (Hestenes) orthogonalisation: rotates pairs of columns of
// W until all are mutually orthogonal, so that W_final = U Sigma and, if V is
// accumulated, W_initial = W_final V^T. The singular values are the final
// column norms. Chosen over bidiagonalisation + QR iteration because it is
// short, needs no shifts, and is accurate to high relative precision even for
// tiny singular values -- which is what a condition estimate needs.
void jacobi_orthogonalize(Columns& w, Columns* vmat) {
    const std::size_t n = w.size();
    if (n < 2) return;
    const std::size_t len = w[0].size();
    constexpr int kMaxSweeps = 80;
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
        bool rotated = false;
        for (std::size_t p = 0; p + 1 < n; ++p) {
            for (std::size_t q = p + 1; q < n; ++q) {
                double alpha = 0, beta = 0, gamma = 0;
                for (std::size_t i = 0; i < len; ++i) {
                    alpha += w[p][i] * w[p][i];
                    beta += w[q][i] * w[q][i];
                    gamma += w[p][i] * w[q][i];
                }
                if (alpha == 0 || beta == 0) continue;
                if (!(std::fabs(gamma) > kEps * std::sqrt(alpha) * std::sqrt(beta))) continue;
                // Rotation angle that zeroes the (p,q) inner product; t is the
                // smaller root of t^2 + 2 zeta t - 1 = 0 (stable, |angle| <= pi/4).
                double zeta = (beta - alpha) / (2 * gamma);
                double t = (zeta >= 0 ? 1.0 : -1.0) / (std::fabs(zeta) + std::hypot(1.0, zeta));
                double c = 1 / std::sqrt(1 + t * t);
                double s = c * t;
                for (std::size_t i = 0; i < len; ++i) {
                    double wp = w[p][i], wq = w[q][i];
                    w[p][i] = c * wp - s * wq;
                    w[q][i] = s * wp + c * wq;
                }
                if (vmat) {
                    auto& vp = (*vmat)[p];
                    auto& vq = (*vmat)[q];
                    for (std::size_t i = 0; i < vp.size(); ++i) {
                        double a = vp[i], b = vq[i];
                        vp[i] = c * a - s * b;
                        vq[i] = s * a + c * b;
                    }
                }
                rotated = true;
            }
        }
        if (!rotated) break;
    }
}

// ---------------------------------------------------------------------------
// Linear solvers for the Newton step J dx = -F.

// Relative threshold below which a pivot (LU), a diagonal of R (QR) or a
// singular value (SVD) is treated as zero. Small on purpose: a nearly
// singular but genuinely invertible Jacobian should still give the Newton
// step; the line search copes with the large steps that result.
constexpr double kSingularRel = 1e-14;

using Dense = std::vector<std::vector<double>>;  // row-major: J[equation][unknown]

// Square J: LU with partial pivoting. Returns false when a pivot is (near)
// zero, so that the caller falls back to the least-squares step.
bool lu_step(Dense a, std::vector<double> b, std::vector<double>& dx) {
    const std::size_t n = a.size();
    double scale = 0;
    for (const auto& row : a)
        for (double v : row) scale = std::max(scale, std::fabs(v));
    if (scale == 0) return false;
    for (std::size_t k = 0; k < n; ++k) {
        std::size_t p = k;
        for (std::size_t i = k + 1; i < n; ++i)
            if (std::fabs(a[i][k]) > std::fabs(a[p][k])) p = i;
        if (!(std::fabs(a[p][k]) > kSingularRel * scale)) return false;
        std::swap(a[p], a[k]);
        std::swap(b[p], b[k]);
        for (std::size_t i = k + 1; i < n; ++i) {
            double f = a[i][k] / a[k][k];
            if (f == 0) continue;
            for (std::size_t j = k; j < n; ++j) a[i][j] -= f * a[k][j];
            b[i] -= f * b[k];
        }
    }
    dx.assign(n, 0);
    for (std::size_t k = n; k-- > 0;) {
        double s = b[k];
        for (std::size_t j = k + 1; j < n; ++j) s -= a[k][j] * dx[j];
        dx[k] = s / a[k][k];
    }
    return true;
}

bool r_diagonal_ok(const HouseholderQR& qr) {
    double big = 0;
    for (std::size_t k = 0; k < qr.steps(); ++k) big = std::max(big, std::fabs(qr.r(k, k)));
    if (!(big > 0)) return false;
    for (std::size_t k = 0; k < qr.steps(); ++k)
        if (!(std::fabs(qr.r(k, k)) > kSingularRel * big)) return false;
    return true;
}

// Underdetermined, full row rank (m < n): the minimum-norm solution of
// J dx = rhs. With J^T = Q [R; 0], J = [R^T 0] Q^T; writing dx = Q z,
// R^T z_1 = rhs and the norm is smallest with z_2 = 0. This is
// dx = J^T (J J^T)^{-1} rhs without ever forming J J^T (which would square
// the condition number).
bool min_norm_step(const Dense& j, std::size_t n, const std::vector<double>& rhs, std::vector<double>& dx) {
    const std::size_t m = j.size();
    Columns jt(j.begin(), j.end());  // the columns of J^T are the rows of J
    HouseholderQR qr = qr_factor(std::move(jt), n, false);
    if (!r_diagonal_ok(qr)) return false;
    std::vector<double> z(n, 0.0);
    for (std::size_t i = 0; i < m; ++i) {  // forward substitution with R^T
        double s = rhs[i];
        for (std::size_t k = 0; k < i; ++k) s -= qr.r(k, i) * z[k];
        z[i] = s / qr.r(i, i);
    }
    apply_q(qr, z);
    dx = std::move(z);
    return true;
}

// Overdetermined, full column rank (m > n): the least-squares solution of
// J dx = rhs via J = Q R: R dx = (Q^T rhs)_{0..n-1}.
bool least_squares_step(const Dense& j, std::size_t n, const std::vector<double>& rhs, std::vector<double>& dx) {
    const std::size_t m = j.size();
    Columns cols(n, std::vector<double>(m, 0.0));
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t k = 0; k < n; ++k) cols[k][i] = j[i][k];
    HouseholderQR qr = qr_factor(std::move(cols), m, false);
    if (!r_diagonal_ok(qr)) return false;
    std::vector<double> y = rhs;
    apply_qt(qr, y);
    dx.assign(n, 0);
    for (std::size_t k = n; k-- > 0;) {
        double s = y[k];
        for (std::size_t c = k + 1; c < n; ++c) s -= qr.r(k, c) * dx[c];
        dx[k] = s / qr.r(k, k);
    }
    return true;
}

// Rank-deficient J of any shape: the minimum-norm least-squares solution
// dx = J^+ rhs through a Jacobi SVD (J V = W with orthogonal columns w_k,
// J^+ = sum_k v_k w_k^T / |w_k|^2), truncating the singular values below
// kSingularRel * sigma_max. This is the "least-squares step" a singular
// square Jacobian falls back to; a zero Jacobian gives dx = 0.
void pseudo_inverse_step(const Dense& j, std::size_t n, const std::vector<double>& rhs, std::vector<double>& dx) {
    const std::size_t m = j.size();
    Columns w(n, std::vector<double>(m, 0.0));
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t k = 0; k < n; ++k) w[k][i] = j[i][k];
    Columns v(n, std::vector<double>(n, 0.0));
    for (std::size_t k = 0; k < n; ++k) v[k][k] = 1;
    jacobi_orthogonalize(w, &v);
    std::vector<double> sigma(n);
    double smax = 0;
    for (std::size_t k = 0; k < n; ++k) smax = std::max(smax, sigma[k] = norm2(w[k]));
    dx.assign(n, 0);
    if (!(smax > 0)) return;
    for (std::size_t k = 0; k < n; ++k) {
        if (!(sigma[k] > kSingularRel * smax)) continue;
        double c = 0;
        for (std::size_t i = 0; i < m; ++i) c += w[k][i] * rhs[i];
        c /= sigma[k] * sigma[k];
        for (std::size_t i = 0; i < n; ++i) dx[i] += c * v[k][i];
    }
}

std::vector<double> newton_step(const Dense& j, std::size_t n, const std::vector<double>& f) {
    const std::size_t m = j.size();
    std::vector<double> rhs(m);
    for (std::size_t i = 0; i < m; ++i) rhs[i] = -f[i];
    std::vector<double> dx;
    if (n == 0) return dx;
    bool done = false;
    if (m == n)
        done = lu_step(j, rhs, dx);
    else if (m < n)
        done = min_norm_step(j, n, rhs, dx);
    else
        done = least_squares_step(j, n, rhs, dx);
    if (!done) pseudo_inverse_step(j, n, rhs, dx);
    return dx;
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
// A = m^T (its columns are the rows of m) is factored A P = Q R with column
// pivoting, so P lists rows of m in order of "most independent first".
// rank = number of leading k with |R_kk| > tol * |R_00| (|R_kk| is
// non-increasing under this pivoting). Rows of m outside the first `rank`
// pivots are the dependent ones.
//
// Condition estimate: the singular values of m are those of R (Q orthogonal,
// P a permutation), so for full rank (rank == min(rows, cols)) we compute
// them exactly, up to rounding, with a one-sided Jacobi SVD of the leading
// min(rows, cols) rows of R and return sigma_max / sigma_min, i.e. cond_2
// itself rather than the crude |R_00| / |R_kk| bound. Rank-deficient:
// infinity. A matrix with no rows or no columns has no singular values; it
// is reported as rank 0 with condition 1 (vacuously well-conditioned), and
// every row of an r x 0 matrix counts as dependent (it is the zero vector).
// Non-finite entries make the factorisation meaningless: the result is then
// rank 0, condition NaN and every row listed as dependent.
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
                out.condition = std::numeric_limits<double>::quiet_NaN();
                all_dependent();
                return out;
            }
    if (rows == 0 || cols == 0) {
        out.condition = 1;
        all_dependent();
        return out;
    }
    if (!(tol >= 0)) tol = 0;  // a negative or NaN tolerance means "exact zero only"

    HouseholderQR qr = qr_factor(Columns(m.begin(), m.end()), cols, true);
    const std::size_t k_end = qr.steps();
    const double r00 = std::fabs(qr.r(0, 0));
    std::size_t rank = 0;
    if (r00 > 0)
        while (rank < k_end && std::fabs(qr.r(rank, rank)) > tol * r00) ++rank;
    out.rank = rank;

    out.dependent_rows.assign(qr.perm.begin() + static_cast<std::ptrdiff_t>(rank), qr.perm.end());
    std::sort(out.dependent_rows.begin(), out.dependent_rows.end());

    if (rank < k_end) {
        out.condition = kInf;
        return out;
    }
    // R restricted to its first k_end rows is k_end x rows (upper
    // trapezoidal). Orthogonalise the rows of that block (the columns of its
    // transpose): k_end vectors of length `rows`, whose final norms are the
    // k_end singular values.
    Columns w(k_end, std::vector<double>(rows, 0.0));
    for (std::size_t i = 0; i < k_end; ++i)
        for (std::size_t j = i; j < rows; ++j) w[i][j] = qr.r(i, j);
    jacobi_orthogonalize(w, nullptr);
    double smax = 0, smin = kInf;
    for (const auto& c : w) {
        double s = norm2(c);
        smax = std::max(smax, s);
        smin = std::min(smin, s);
    }
    out.condition = smin > 0 ? smax / smin : kInf;
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
