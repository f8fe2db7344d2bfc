// Guaranteed event detection on the integrator's dense output (simulation
// stage; seed 002).
//
// After each internal step the integrator's interpolant over [t_prev, t_cur]
// is a polynomial in t (CVODE's Nordsieck array z: the Taylor coefficients
// about t_cur are z_k / h^k = CVodeGetDky(t_cur, k)/k!, k = 0..q; see
// Integrator::interpolant). A guard g(states, time), or a function of
// variables the mode defines implicitly (StateFunction), composed with it
// is enclosed over a sub-interval T by interval
// arithmetic: the polynomial is re-expanded about the midpoint of T (in
// interval arithmetic) and summed term by term over the symmetric T - mid,
// then the guard's tape is evaluated on the enclosures. Sub-intervals are
// visited in time order and bisected until the sign is certain or the width
// is below the time tolerance, so every upward crossing inside the step is
// found in order, also when g is positive only in a window far narrower
// than the step (seed 002: "guarantees the location of all state events in
// strict time order ... even if multiple state condition transitions exist
// in an integration step"). The guarantee is relative to the interpolant,
// which is the integrator's solution between its steps; windows narrower
// than the time tolerance may be missed.
//
// Centered form: where the natural enclosure does not decide and the guard
// has a gradient tape (StateFunction::slope_over), the sub-interval T is
// also enclosed by the mean value theorem, g(m) + G'(T) (T - m), m the
// midpoint and G'(T) the enclosure of dg/dt along the interpolant (the
// gradient over the box times the states' derivative polynomial, plus the
// partial derivative in time), and the two enclosures are intersected. The
// natural enclosure of a guard that is a small difference of large terms
// (a diode's current (v_source(t) - v_C)/Ron with Ron = 1e-5, the capacitor
// following the source) is wider than the guard itself unless T is
// thousands of times narrower than a step; the centered form's width
// shrinks with the square of T's.
//
// An event is an upward crossing: g < 0, then g > 0. A guard that reaches
// zero without becoming positive (a tangency such as g = -(t - t0)^2) is no
// event: in the last sub-interval the search checks points for g > 0 and,
// finding none, goes on (CrossingResult::touches counts these). This differs
// from Modelica's `when x >= 0` only on a set of measure zero: a relation
// that becomes true at a single instant of tangency does not fire here.
//
// No sticking (seed 002, "discontinuity sticking"): a guard is armed only
// when it has been certified below -zero_tolerance, by a point value at the
// start of a segment or by an enclosure; after a restart at an event the
// guard that fired is ~0 and stays disarmed until it has really been
// negative, so the restart point is not detected again.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "flatten/condition_semantics.h"
#include "simulation/interval.h"
#include "simulation/tape.h"

namespace modeaudit::sim {

// The states as polynomials over [t0, t1]: coeff[k * n + i] is the k-th
// Taylor coefficient of state i about `center`.
struct StatePolynomial {
    double t0 = 0, t1 = 0, center = 0;
    std::size_t n = 0;
    int degree = 0;
    std::vector<double> coeff;

    void value(double t, double* x) const;
    // Enclosures of every state over [a, b].
    void enclose(double a, double b, Interval* x) const;
    // The same inside a RoundingScope the caller keeps open; `work` is
    // scratch space (2 (degree + 1) entries, grown as needed).
    void enclose_in_scope(double a, double b, FastInterval* x, std::vector<FastInterval>& work) const;
    // The same for the states listed in `only` (the others are left as they are).
    void enclose_in_scope(double a, double b, FastInterval* x, std::vector<FastInterval>& work,
                          const std::vector<std::size_t>& only) const;
    // A cheaper, wider enclosure of the states in `only` (inside a
    // RoundingScope): Horner's scheme in interval arithmetic over
    // [a, b] - center, O(degree) per state instead of the O(degree^2) shift.
    // The searches try it on the whole step first and fall back to the
    // shifted enclosure only when it does not decide.
    void enclose_quickly_in_scope(double a, double b, FastInterval* x, const std::vector<std::size_t>& only) const;
    // Enclosures of the time derivatives of the states in `only` over
    // [a, b] (inside a RoundingScope): Horner's scheme on the derivative
    // polynomial, as enclose_quickly_in_scope.
    void enclose_derivative_in_scope(double a, double b, FastInterval* dx, const std::vector<std::size_t>& only) const;
};

// A function of the states and time that the searches follow along the
// interpolant: a guard, or the margins of an assert. A tape over (states...,
// time) is one (TapeFunction); a function of variables that the mode defines
// implicitly, enclosed by the interval Newton method, is another
// (mode_system.h, ImplicitFunction).
class StateFunction {
public:
    virtual ~StateFunction() = default;
    virtual std::size_t output_count() const = 0;
    // The outputs at a point, in round-to-nearest; `xt` is states..., time.
    // NaN outputs where the function cannot be evaluated.
    virtual void at(const double* xt, double* out) const = 0;
    // Enclosures of the outputs over a box (inside a RoundingScope); NaN
    // bounds where the box is too wide to enclose them (the searches then
    // bisect further).
    virtual void over(const FastInterval* xt, FastInterval* out) const = 0;
    // True when an enclosure costs far more than enclosing the states: the
    // searches then skip the cheap, wide enclosure of the states (a wider
    // box would only cost a second enclosure when it does not decide).
    virtual bool costly() const { return false; }
    // The states the outputs depend on, in order (the searches enclose only
    // those); null: all of them.
    virtual const std::vector<std::size_t>* used_states() const { return nullptr; }
    // The enclosure over a box of the gradient of the first output: its
    // partial derivatives in the used states (in used_states() order), then
    // in time. False when the function has none; the searches then use the
    // natural enclosure alone, else also the centered form (below).
    virtual bool slope_over(const FastInterval* /*xt*/, FastInterval* /*gradient*/) const { return false; }
    virtual bool has_slope() const { return false; }
};

class TapeFunction final : public StateFunction {
public:
    // The tape's inputs are the states, then time. `slope`, when given: a
    // tape with the same inputs whose outputs are the first output's partial
    // derivatives in the states the tape uses (ascending), then in time
    // (slope_inputs below lists those states).
    explicit TapeFunction(const Tape& tape, const Tape* slope = nullptr) : tape_(tape), slope_(slope) {
        used_ = slope_inputs(tape);
        if (slope_ && slope_->output_count() != used_.size() + 1) slope_ = nullptr;
    }
    static std::vector<std::size_t> slope_inputs(const Tape& tape) {
        std::vector<std::size_t> used;
        for (std::size_t i = 0; i + 1 < tape.input_count(); ++i)
            if (tape.uses_input(i)) used.push_back(i);
        return used;
    }
    bool has_slope() const override { return slope_ != nullptr; }
    bool slope_over(const FastInterval* xt, FastInterval* gradient) const override {
        if (!slope_) return false;
        slope_->evaluate_in_scope(xt, gradient, slope_->group_count());
        return true;
    }
    std::size_t output_count() const override { return tape_.output_count(); }
    void at(const double* xt, double* out) const override { tape_.evaluate(xt, out); }
    void over(const FastInterval* xt, FastInterval* out) const override {
        tape_.evaluate_in_scope(xt, out, tape_.group_count());
    }
    const std::vector<std::size_t>* used_states() const override { return &used_; }

private:
    const Tape& tape_;
    const Tape* slope_ = nullptr;
    std::vector<std::size_t> used_;
};

struct CrossingOptions {
    double time_tolerance = 1e-12;   // relative to max(1, |t|): sub-intervals are not bisected below this width
    double zero_tolerance = 1e-12;   // arming threshold (see above)
    std::size_t max_enclosures = 200000;  // work limit per call
};

struct CrossingResult {
    bool found = false;
    double time = 0;            // the earliest crossing, to a few ulps (g(time) > 0 on the interpolant)
    bool armed = false;         // the guard's armed state at the end of the searched range
    std::size_t touches = 0;    // unresolved sub-intervals where g came near 0 without crossing
    // The earliest of them (its start); NaN when there is none.
    double first_touch = std::numeric_limits<double>::quiet_NaN();
    std::size_t enclosures = 0; // interval evaluations made
    bool exhausted = false;     // stopped by max_enclosures (the result is then not guaranteed)
};

// Scratch space of the searches, kept by the caller so that a search
// allocates nothing once it has grown to size (one per thread).
struct SearchWork {
    std::vector<std::size_t> all;  // 0, 1, ..., n - 1
    std::vector<double> x, out;
    std::vector<FastInterval> ix, iout, poly, slope, dx;
    std::vector<std::pair<double, double>> stack;
};

// The earliest upward crossing of the guard (its first output) in [a, b],
// a subset of [p.t0, p.t1].
CrossingResult first_upward_crossing(const StatePolynomial& p, const StateFunction& guard, double a, double b,
                                     bool armed, const CrossingOptions& options, SearchWork& work);
// The same for a tape with inputs states..., time and one output.
CrossingResult first_upward_crossing(const StatePolynomial& p, const Tape& guard, double a, double b, bool armed,
                                     const CrossingOptions& options = {});

// ---- conditions that must hold along the interpolant (asserts) -------------
//
// The same search for the first time in [a, b] at which a condition over
// the outputs of a function of the states and time fails: sub-intervals in time
// order, each enclosed; where the condition is certainly true it is skipped,
// where it is certainly false the violation starts there, where undecided it
// is bisected down to the time tolerance and then decided by point values.
// So a violation on a window far narrower than the step is found, and the
// first one is located (to the tolerance, then by bisection on points).
using Truth = modeaudit::Truth;  // flatten/condition_semantics.h
struct ConditionSearch {
    // The condition's truth over enclosures of the tape's outputs.
    std::function<Truth(const FastInterval* outputs)> over;
    // Its truth at a point.
    std::function<bool(const double* outputs)> at;
};

struct ViolationResult {
    bool found = false;
    double time = 0;             // the first violation: the condition fails at this point of the interpolant
    std::size_t undecided = 0;   // finest sub-intervals left undecided with the condition holding at their points
    std::size_t enclosures = 0;
    bool exhausted = false;      // stopped by max_enclosures (not guaranteed)
};

ViolationResult first_violation(const StatePolynomial& p, const StateFunction& margins, const ConditionSearch& condition,
                                double a, double b, const CrossingOptions& options, SearchWork& work);

}  // namespace modeaudit::sim
