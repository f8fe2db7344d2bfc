#include "simulation/integrator.h"

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <cvode/cvode_proj.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace modeaudit::sim {

namespace {

N_Vector vec(void* p) { return static_cast<N_Vector>(p); }

// No exception may cross CVODE's C frames: an evaluation that throws (a
// user function that divides by zero or does not terminate: tape.h) is an
// unrecoverable failure (-1) whose message the next step() reports.
template <class F>
int guarded(void* user, F&& f) {
    try {
        return f();
    } catch (const std::exception& e) {
        static_cast<Integrator*>(user)->set_evaluation_error(e.what());
        return -1;
    }
}

extern "C" int cvode_rhs(realtype t, N_Vector y, N_Vector ydot, void* user) {
    return guarded(user, [&] {
        return static_cast<Integrator*>(user)->rhs(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
    });
}

extern "C" int cvode_jac(realtype t, N_Vector y, N_Vector /*fy*/, SUNMatrix jac, void* user, N_Vector, N_Vector,
                         N_Vector) {
    return guarded(user, [&] {
        return static_cast<Integrator*>(user)->jacobian(t, N_VGetArrayPointer(y), SUNDenseMatrix_Data(jac));
    });
}

extern "C" int cvode_proj(realtype t, N_Vector ycur, N_Vector corr, realtype /*eps*/, N_Vector err, void* user) {
    return guarded(user, [&] {
        return static_cast<Integrator*>(user)->projection(t, N_VGetArrayPointer(ycur), N_VGetArrayPointer(corr),
                                                           err ? N_VGetArrayPointer(err) : nullptr);
    });
}

// CVODE reports failures through the return codes we check; its own
// printing to stderr is switched off (the driver reports in its result).
extern "C" void cvode_quiet(int, const char*, const char*, char*, void*) {}

// The vectors CVodeGetDky combines into its output, seen through the
// output vector's linear-combination operation (interpolant(), below).
struct DkyCapture {
    bool active = false;
    int nvec = 0;
    std::vector<const double*> data;
};
thread_local DkyCapture dky_capture;

extern "C" int capture_linear_combination(int nvec, realtype* c, N_Vector* X, N_Vector z) {
    if (dky_capture.active) {
        dky_capture.nvec = nvec;
        dky_capture.data.clear();
        for (int i = 0; i < nvec; ++i) dky_capture.data.push_back(N_VGetArrayPointer(X[i]));
    }
    return N_VLinearCombination_Serial(nvec, c, X, z);
}

void check(int flag, const char* what) {
    if (flag < 0) throw std::runtime_error(fmt::format("CVODE: {} failed (flag {})", what, flag));
}

}  // namespace

Integrator::Integrator(const ModeSystem& system, const IntegratorOptions& options) : sys_(system), options_(options) {
    const auto n = static_cast<sunindextype>(sys_.state_count());
    SUNContext ctx = nullptr;
    check(SUNContext_Create(nullptr, &ctx), "SUNContext_Create");
    context_ = ctx;
    y_ = N_VNew_Serial(n, ctx);
    if (y_) N_VEnableFusedOps_Serial(vec(y_), SUNTRUE);
    dky_ = N_VNew_Serial(n, ctx);
    if (dky_) {
        N_VEnableFusedOps_Serial(vec(dky_), SUNTRUE);
        vec(dky_)->ops->nvlinearcombination = capture_linear_combination;
    }
    matrix_ = SUNDenseMatrix(n, n, ctx);
    solver_ = SUNLinSol_Dense(vec(y_), static_cast<SUNMatrix>(matrix_), ctx);
    cvode_ = CVodeCreate(CV_BDF, ctx);
    if (!y_ || !dky_ || !matrix_ || !solver_ || !cvode_) throw std::runtime_error("CVODE: out of memory");
    x_.assign(sys_.state_count(), 0.0);
    lead_.assign(sys_.leading_count(), 0.0);
    trial_.assign(sys_.leading_count(), 0.0);
    work_.assign(sys_.state_count() * sys_.state_count(), 0.0);
}

Integrator::~Integrator() {
    if (cvode_) CVodeFree(&cvode_);
    if (solver_) SUNLinSolFree(static_cast<SUNLinearSolver>(solver_));
    if (matrix_) SUNMatDestroy(static_cast<SUNMatrix>(matrix_));
    if (y_) N_VDestroy(vec(y_));
    if (dky_) N_VDestroy(vec(dky_));
    if (context_) {
        SUNContext ctx = static_cast<SUNContext>(context_);
        SUNContext_Free(&ctx);
    }
}

void Integrator::start(double t0, const std::vector<double>& x0, const std::vector<double>& leading, double stop_time) {
    std::copy(x0.begin(), x0.end(), N_VGetArrayPointer(vec(y_)));
    x_ = x0;
    if (leading.size() == lead_.size()) lead_ = leading;
    t_ = t_prev_ = t0;
    stop_ = stop_time;
    // The maxima are per segment (the counters are read as differences);
    // an integrator reused for a mode entered again starts them anew.
    stats_.max_step = 0;
    stats_.max_drift_before_projection = 0;
    if (!initialized_) {
        initialized_ = true;
        check(CVodeInit(cvode_, cvode_rhs, t0, vec(y_)), "CVodeInit");
        check(CVodeSetUserData(cvode_, this), "CVodeSetUserData");
        check(CVodeSetErrHandlerFn(cvode_, cvode_quiet, nullptr), "CVodeSetErrHandlerFn");
        check(CVodeSStolerances(cvode_, options_.rtol, options_.atol), "CVodeSStolerances");
        check(CVodeSetLinearSolver(cvode_, static_cast<SUNLinearSolver>(solver_), static_cast<SUNMatrix>(matrix_)),
              "CVodeSetLinearSolver");
        check(CVodeSetJacFn(cvode_, cvode_jac), "CVodeSetJacFn");
        check(CVodeSetMaxNumSteps(cvode_, options_.max_steps), "CVodeSetMaxNumSteps");
        if (options_.project && sys_.has_constraints()) {
            check(CVodeSetProjFn(cvode_, cvode_proj), "CVodeSetProjFn");
            // On a moving manifold the error estimate keeps its component
            // off the tangent space (see the header).
            if (sys_.moving_constraints()) check(CVodeSetProjErrEst(cvode_, SUNFALSE), "CVodeSetProjErrEst");
        }
    } else {
        check(CVodeReInit(cvode_, t0, vec(y_)), "CVodeReInit");
    }
    check(CVodeSetStopTime(cvode_, stop_time), "CVodeSetStopTime");
}

bool Integrator::step(std::string& error) {
    realtype t = t_;
    const double before = t_;
    const int flag = CVode(cvode_, stop_, vec(y_), &t, CV_ONE_STEP);
    if (flag < 0) {
        error = fmt::format("CVODE failed at t = {:.12g} in mode '{}': {} (flag {})", t_, sys_.mode_id(),
                            CVodeGetReturnFlagName(flag), flag);
        if (!evaluation_error_.empty()) error += "; " + evaluation_error_;
        evaluation_error_.clear();
        return false;
    }
    t_prev_ = before;
    t_ = t;
    const double* y = N_VGetArrayPointer(vec(y_));
    std::copy(y, y + x_.size(), x_.begin());
    ++stats_.steps;
    stats_.max_step = std::max(stats_.max_step, t_ - t_prev_);
    return true;
}

bool Integrator::view_nordsieck(int q) const {
    if (nordsieck_refused_) return false;
    const std::size_t n = x_.size();
    N_Vector dky = vec(dky_);
    dky_capture.active = true;
    const int flag = CVodeGetDky(cvode_, t_, 0, dky);
    dky_capture.active = false;
    // Which order the vectors came in: z_0 is the state at t_ itself.
    const std::vector<const double*>& v = dky_capture.data;
    auto is_state = [&](const double* d) { return d && std::equal(x_.begin(), x_.end(), d); };
    nordsieck_.clear();
    if (flag >= 0 && dky_capture.nvec == q + 1 && static_cast<int>(v.size()) == q + 1) {
        if (is_state(v.front()) && !is_state(v.back())) nordsieck_.assign(v.begin(), v.end());
        else if (is_state(v.back())) nordsieck_.assign(v.rbegin(), v.rend());
    }
    // z_1 / h must be CVODE's own first derivative at t_.
    realtype h = 0;
    bool ok = nordsieck_.size() == static_cast<std::size_t>(q + 1) && q >= 1 &&
              CVodeGetLastStep(cvode_, &h) >= 0 && h != 0 && CVodeGetDky(cvode_, t_, 1, dky) >= 0;
    const double* d = N_VGetArrayPointer(dky);
    for (std::size_t i = 0; ok && i < n; ++i)
        ok = std::fabs(nordsieck_[1][i] / h - d[i]) <= 1e-12 * (std::fabs(d[i]) + std::fabs(nordsieck_[1][i] / h)) + 1e-300;
    if (!ok) {
        nordsieck_.clear();
        nordsieck_refused_ = true;
    }
    return ok;
}

const StatePolynomial& Integrator::interpolant() const {
    StatePolynomial& p = poly_;
    p.t0 = t_prev_;
    p.t1 = t_;
    p.center = t_;
    p.n = x_.size();
    int q = 1;
    CVodeGetLastOrder(cvode_, &q);
    // The Taylor coefficients about t_ are z_k / h^k, z the Nordsieck array
    // of the last step and h its size. CVODE has no call that returns z;
    // CVodeGetDky(t_, k) gives k! z_k / h^k one k at a time, at a fixed cost
    // per call that was a sixth of the rope's run. So the array is read
    // where CVodeGetDky reads it: its combination of z_0..z_q into our own
    // output vector names their storage (view_nordsieck, checked against
    // CVodeGetDky's first derivative, then kept: CVODE allocates z once).
    // Should a later SUNDIALS combine other vectors, the check fails and the
    // calls below serve instead.
    realtype h = 0;
    if (q >= 1 && (static_cast<int>(nordsieck_.size()) > q || view_nordsieck(q)) && CVodeGetLastStep(cvode_, &h) >= 0 &&
        h != 0 && std::equal(x_.begin(), x_.end(), nordsieck_[0])) {
        p.coeff.resize(static_cast<std::size_t>(q + 1) * p.n);
        double scale = 1;
        for (int k = 0; k <= q; ++k) {
            const double* z = nordsieck_[static_cast<std::size_t>(k)];
            for (std::size_t i = 0; i < p.n; ++i) p.coeff[static_cast<std::size_t>(k) * p.n + i] = z[i] * scale;
            scale /= h;
        }
        p.degree = q;
        return p;
    }
    N_Vector dky = vec(dky_);
    double factorial = 1;
    // At t_ the value is the state itself (no interpolation needed).
    p.coeff.assign(x_.begin(), x_.end());
    for (int k = 1; k <= q; ++k) {
        factorial *= k;
        if (CVodeGetDky(cvode_, t_, k, dky) < 0) {
            q = k - 1;
            break;
        }
        const double* d = N_VGetArrayPointer(dky);
        for (std::size_t i = 0; i < p.n; ++i) p.coeff.push_back(d[i] / factorial);
    }
    p.degree = std::max(q, 0);
    return p;
}

bool Integrator::values_at(double t, std::vector<double>& x, std::vector<double>& y) const {
    x.resize(x_.size());
    if (t == t_) {
        x = x_;
    } else {
        N_Vector v = vec(dky_);
        const int flag = CVodeGetDky(cvode_, t, 0, v);
        if (flag < 0) return false;
        std::copy(N_VGetArrayPointer(v), N_VGetArrayPointer(v) + x_.size(), x.begin());
    }
    y.resize(lead_.size());
    std::copy(lead_.begin(), lead_.end(), y.begin());
    if (!sys_.solve_leading(t, x.data(), y.data())) return false;
    std::copy(y.begin(), y.end(), lead_.begin());
    return true;
}

bool Integrator::states_at(double t, std::vector<double>& x) const {
    x.resize(x_.size());
    if (t == t_) {
        std::copy(x_.begin(), x_.end(), x.begin());
        return true;
    }
    N_Vector v = vec(dky_);
    if (CVodeGetDky(cvode_, t, 0, v) < 0) return false;
    std::copy(N_VGetArrayPointer(v), N_VGetArrayPointer(v) + x_.size(), x.begin());
    return true;
}

bool Integrator::check_deadline(bool now) {
    // The clock is read at every 8th call (the right-hand side, Jacobian and
    // projection of a small system cost about as much as reading it).
    if (!past_deadline_ && (now || (deadline_calls_++ & 7u) == 0) && std::chrono::steady_clock::now() > options_.deadline)
        past_deadline_ = true;
    return !past_deadline_;
}

// A passed deadline is an unrecoverable failure (-1): CVODE returns at once,
// and the driver reports the wall-time limit (past_deadline()).
int Integrator::rhs(double t, const double* x, double* xdot) {
    if (!check_deadline()) return -1;
    ++stats_.rhs_evaluations;
    if (sys_.explicit_state_derivative(t, x, xdot)) return 0;
    std::vector<double>& y = trial_;
    std::copy(lead_.begin(), lead_.end(), y.begin());
    if (!sys_.solve_leading(t, x, y.data())) {
        ++stats_.newton_failures;
        return 1;  // recoverable: CVODE retries with a smaller step
    }
    lead_.swap(y);
    sys_.state_derivative(x, lead_.data(), xdot);
    return 0;
}

int Integrator::jacobian(double t, const double* x, double* jac_column_major) {
    if (!check_deadline()) return -1;
    ++stats_.jacobian_evaluations;
    std::vector<double>& y = trial_;
    std::copy(lead_.begin(), lead_.end(), y.begin());
    if (!sys_.solve_leading(t, x, y.data())) return 1;
    const std::size_t n = x_.size();
    if (!sys_.ode_jacobian(t, x, y.data(), work_.data(), options_.deadline))
        return check_deadline(true) ? 1 : -1;  // the deadline passed inside: unrecoverable, as at the entry
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) jac_column_major[j * n + i] = work_[i * n + j];
    return 0;
}

int Integrator::projection(double t, const double* x, double* corr, double* err) {
    if (!check_deadline()) return -1;
    ++stats_.projections;
    const std::size_t n = x_.size();
    std::vector<double>& p = work_;  // n * n >= n entries
    std::copy(x, x + n, p.begin());
    double before = 0;
    if (!sys_.project(t, p.data(), err, &before)) return 1;
    stats_.max_drift_before_projection = std::max(stats_.max_drift_before_projection, before);
    for (std::size_t i = 0; i < n; ++i) corr[i] = p[i] - x[i];
    return 0;
}

}  // namespace modeaudit::sim
