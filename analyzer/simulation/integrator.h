// CVODE on one mode (simulation stage).
//
// Method: BDF (variable order 1-5) with the dense direct linear solver and
// the exact ODE Jacobian (ModeSystem::ode_jacobian). BDF rather than Adams
// because CVODE's projection onto the constraint manifold (CVodeSetProjFn)
// exists for BDF only, and the higher-index modes need it: after each
// accepted step the states are moved onto the consistency conditions F_UP by
// a minimum-norm Newton correction (ModeSystem::project), the error estimate
// with them, so the drift of e.g. the rope's x^2 + y^2 = L^2 stays at
// rounding level instead of growing with time. The error estimate is
// projected only while the manifold stands still: when a consistency
// condition has an explicit time (a rectifier's conducting diode ties the
// capacitor to the source), the off-manifold part of the local error is no
// longer small beside the tangential part, and in a mode without degrees of
// freedom it is all of it; projected away, nothing controlled the step and
// the interpolant between steps, on which events are located and left
// limits read, strayed by 1e-4 (the half-wave rectifier's switches moved by
// up to 8e-8 s). BDF also copes with stiff
// modes (circuits with small time constants), which the audited models may
// have. Its cost on the nonstiff test models is a few more steps than Adams
// at the same tolerance (the benchmark reports the ratio against a hand-coded
// CVODE model).
//
// Steps are taken one at a time (CV_ONE_STEP) so that the driver can search
// each step's interpolant for events (event_detection.h) before going on.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "simulation/event_detection.h"
#include "simulation/mode_system.h"

namespace modeaudit::sim {

struct IntegratorOptions {
    double rtol = 1e-10, atol = 1e-12;
    bool project = true;          // onto F_UP after each step (modes with consistency conditions)
    long max_steps = 1000000;     // per segment
    // The run's wall-time limit (--max-sim-time), checked inside every
    // right-hand-side, Jacobian and projection call as well as between
    // steps: one step of a large system can take minutes.
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

struct IntegratorStats {
    long steps = 0, rhs_evaluations = 0, jacobian_evaluations = 0, newton_failures = 0, projections = 0;
    double max_step = 0;
    double max_drift_before_projection = 0;  // max-norm of F_UP before each projection
};

class Integrator {
public:
    Integrator(const ModeSystem& system, const IntegratorOptions& options);
    ~Integrator();
    Integrator(const Integrator&) = delete;
    Integrator& operator=(const Integrator&) = delete;

    // Starts (or restarts) at t0 with the states x0; `leading` is the warm
    // start of the Newton iteration. Throws std::runtime_error when CVODE
    // refuses.
    void start(double t0, const std::vector<double>& x0, const std::vector<double>& leading, double stop_time);

    // One internal step towards the stop time. False on failure (`error`
    // says why).
    bool step(std::string& error);

    double time() const { return t_; }
    double previous_time() const { return t_prev_; }
    const std::vector<double>& states() const { return x_; }
    // The interpolant of the last step over [previous_time(), time()]; the
    // reference stays valid (and is overwritten) until the next call.
    const StatePolynomial& interpolant() const;
    // True once the interpolant is read from CVODE's Nordsieck array (the
    // fast route), false while it comes from CVodeGetDky one derivative at a
    // time (before the first step, or if the array could not be located).
    bool reads_nordsieck() const { return !nordsieck_.empty(); }
    // States and solved leading variables at t in the last step.
    bool values_at(double t, std::vector<double>& x, std::vector<double>& y) const;
    // The states alone (no solve).
    bool states_at(double t, std::vector<double>& x) const;

    const IntegratorStats& stats() const { return stats_; }
    // True once a callback found the deadline passed (the step then failed).
    bool past_deadline() const { return past_deadline_; }
    // An evaluation inside a CVODE callback threw (integrator.cpp): its message.
    void set_evaluation_error(std::string msg) { evaluation_error_ = std::move(msg); }
    const ModeSystem& system() const { return sys_; }

    // CVODE callbacks (public for the C trampolines only).
    int rhs(double t, const double* x, double* xdot);
    int jacobian(double t, const double* x, double* jac_column_major);
    int projection(double t, const double* x, double* corr, double* err);

private:
    const ModeSystem& sys_;
    IntegratorOptions options_;
    void* context_ = nullptr;  // SUNContext
    void* cvode_ = nullptr;
    void* y_ = nullptr;        // N_Vector
    void* dky_ = nullptr;      // N_Vector: scratch for CVodeGetDky
    void* matrix_ = nullptr;   // SUNMatrix
    void* solver_ = nullptr;   // SUNLinearSolver
    bool initialized_ = false;
    double t_ = 0, t_prev_ = 0, stop_ = 0;
    std::vector<double> x_;
    mutable std::vector<double> lead_;  // warm start of the Newton iteration
    std::vector<double> trial_;         // Newton iterate (lead_ is kept when it fails)
    mutable StatePolynomial poly_;
    // Storage of CVODE's Nordsieck vectors z_0..z_q (interpolant()).
    mutable std::vector<const double*> nordsieck_;
    mutable bool nordsieck_refused_ = false;
    bool view_nordsieck(int q) const;
    std::vector<double> work_;
    IntegratorStats stats_;
    bool past_deadline_ = false;
    std::string evaluation_error_;
    // False (and past_deadline_) when the deadline has passed; `now`: read
    // the clock whatever the count of calls.
    bool check_deadline(bool now = false);
    unsigned deadline_calls_ = 0;
};

}  // namespace modeaudit::sim
