// One mode compiled for integration (simulation stage).
//
// Input: a Mode of the modes stage and its ModeStructure (structure stage):
// the states x_j^(k), k < d_j, the leading variables x_j^(d_j), the
// index-reduced equations F_DOWN (square in the leading variables) and the
// consistency conditions F_UP (seed 000, section 4.1; paper notes 1-2). The
// ODE integrated is the state vector: d/dt x_j^(k) is x_j^(k+1), another
// state or a leading variable, and the leading variables are solved from
// F_DOWN(states, leading, time) = 0 by Newton's method with the taped
// Jacobian, warm-started from the previous solution. When F_DOWN is affine
// in the leading variables with a constant Jacobian (RLDC2, the bouncing
// ball, the free flight), the LU factors are computed once and each solve is
// one substitution.
//
// When F_DOWN is affine but its matrix depends on the states (the taut
// rope's lambda*x), its symbolic solution is compiled and evaluated instead
// of factoring at every right-hand side, in a canonical form (so that the
// rounding does not follow GiNaC's run-dependent term order). Two states
// tied by a consistency condition a = b or a = -b (the Sigma-method keeps
// der(x) and vx when der(x) = vx is differentiated) are integrated as one;
// all_state_names() and expand() give the structure's full list back.
//
// Everything the integrator evaluates is a Tape (tape.h), compiled here
// once: F_DOWN with dF/d(leading) and dF/d(states) (for the exact ODE
// Jacobian by the implicit function theorem), F_UP with dF_UP/d(states)
// (projection), the guards of the mode's transitions as functions of the
// states and time, and the relations of the mode's asserts.
//
// Guards that use solved (non-state) variables, such as RLDC2's diode
// parameters s1, s2, are rewritten in the states: when F_DOWN is affine in
// the leading variables it is solved symbolically (GiNaC::lsolve) and the
// solution substituted. A guard or assert that needs a leading variable of
// a mode whose F_DOWN is nonlinear in them (z^3 + z = x) keeps it: it is
// followed along the interpolant as an ImplicitFunction, whose enclosures
// over a box of states and time come from the parametric Krawczyk operator
// (enclose_leading): for every point of the box F_DOWN = 0 has exactly one
// solution in the box it returns, so the guard's enclosure over it is
// guaranteed as for an explicit guard. Where the box is too wide for the
// operator to contract, the enclosure is unknown and the search bisects
// the time interval further.
#pragma once

#include <ginac/ginac.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "flatten/flat_model.h"
#include "modes/modes.h"
#include "simulation/dense.h"
#include "simulation/event_detection.h"
#include "simulation/event_operators.h"
#include "simulation/leading_blocks.h"
#include "simulation/tape.h"
#include "structure/structure.h"

namespace modeaudit::sim {

struct Guard {
    int transition = -1;        // index into ModeSet::transitions
    std::string text;           // Transition::guard_text
    GiNaC::ex in_states;        // the guard in states, parameters and time (and leading variables when implicit)
    Tape tape;                  // inputs: states..., time (implicit: states..., leading..., time); one output
    bool implicit = false;      // uses leading variables of a nonlinear F_DOWN
    std::string unsupported;    // non-empty: why it cannot be monitored
    // Not implicit: the guard's partial derivatives in the states its tape
    // uses, then in time (TapeFunction's slope, event_detection.h); no
    // outputs when it cannot be compiled.
    Tape slope;
};

// One relation of an assert condition, compiled; the condition tree is
// evaluated over the relations' signs.
struct AssertCheck {
    int assert_index = -1;      // FlatModel::asserts
    std::string message;        // the assert's message
    std::string level;          // "error" or "warning"
    ConditionPtr condition;
    std::vector<const Condition*> relations;  // in tape output order
    Tape tape;                  // inputs: states..., leading..., time; output k: lhs - rhs of relations[k]
    // The same margins in the states and time (leading variables replaced by
    // the symbolic solution of an affine F_DOWN), for the search along the
    // interpolant; on_interpolant false: only checked at points. implicit:
    // the margins use leading variables of a nonlinear F_DOWN, and `tape` is
    // followed along the interpolant (ModeSystem::assert_function).
    Tape state_tape;
    bool on_interpolant = false;
    bool implicit = false;
    std::string unsupported;
};

class ModeSystem {
public:
    // Throws TapeError (with a message for the user) when an equation cannot
    // be compiled, and std::runtime_error when the mode cannot be integrated
    // (not structurally regular). A mode without states (purely algebraic)
    // is compiled all the same: its leading variables and guards are
    // functions of time (and of the parameters) alone, which the driver
    // follows without integrating (algebraic_segment.cpp).
    ModeSystem(const FlatModel& flat, const ModeSet& modes, int mode_index, const ModeStructure& structure);
    ~ModeSystem();
    // The guard and assert functions refer to the system.
    ModeSystem(const ModeSystem&) = delete;
    ModeSystem& operator=(const ModeSystem&) = delete;

    int mode_index() const { return mode_; }
    const std::string& mode_id() const { return mode_id_; }
    std::size_t state_count() const { return states_.size(); }
    std::size_t leading_count() const { return leading_.size(); }
    const std::vector<GiNaC::symbol>& states() const { return states_; }
    const std::vector<GiNaC::symbol>& leading() const { return leading_; }
    const std::vector<std::string>& state_names() const { return state_names_; }
    const std::vector<std::string>& leading_names() const { return leading_names_; }
    // The states integrated are the structure's states less their aliases
    // (a consistency condition a = b or a = -b between two states keeps one
    // of them); all_state_names() lists the structure's states in its order
    // and expand() gives their values from the integrated ones.
    const std::vector<std::string>& all_state_names() const { return all_state_names_; }
    void expand(const double* x, double* all) const;
    // Structure state j is sign * (integrated state `first`).
    std::pair<std::size_t, double> state_of(std::size_t j) const { return {expansion_[j].index, expansion_[j].sign}; }
    bool has_constraints() const { return up_rows_ > 0; }
    // Some consistency condition has an explicit time (a source v = V*sin(w*t)
    // that a conducting diode imposes on a capacitor): the manifold moves.
    bool moving_constraints() const { return up_moving_; }
    bool linear_leading() const { return affine_; }
    bool constant_jacobian() const { return constant_; }

    // Solves F_DOWN(x, y, t) = 0 for the leading variables y, starting from
    // y (in/out). False when Newton does not converge or the Jacobian is
    // singular.
    bool solve_leading(double t, const double* x, double* y) const;
    // d/dt of the states at (t, x) from the compiled explicit solution of an
    // affine F_DOWN, evaluating only the leading variables the derivatives
    // are; false where there is none (or it is not finite there): then
    // solve_leading and state_derivative.
    bool explicit_state_derivative(double t, const double* x, double* xdot) const;
    // d/dt of the states given the states and the solved leading variables.
    void state_derivative(const double* x, const double* y, double* xdot) const;
    // The ODE Jacobian d(xdot)/dx (n x n, row-major) at a solved point, by
    // the implicit function theorem: dy/dx = -(dF/dy)^-1 dF/dx. False also
    // when `deadline` passes during the work (checked every 32 rows and
    // columns: a dense system of thousands of leading variables takes
    // minutes).
    bool ode_jacobian(double t, const double* x, const double* y, double* jac,
                      std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max()) const;

    // Max-norm of F_UP at x (0 without constraints).
    double constraint_residual(double t, const double* x) const;
    // Moves x onto F_UP = 0 by minimum-norm Newton corrections; `err`
    // (optional) is projected onto the tangent space. Returns false when it
    // does not converge. `before` receives the residual before projecting.
    bool project(double t, double* x, double* err, double* before) const;

    // Values the tapes take as parameters, which change at events only: the
    // discrete variables other than the mode variables (variable >= 0, a
    // FlatModel::variables index), and for a sampled guard the next instant
    // of its clock (transition >= 0, a ModeSet::transitions index). The
    // simulation sets them before integrating a segment (0 until then).
    // A branch parameter of an event-generating operator (event_operators.h)
    // has branch >= 0 (an index into the operators' parameters): its value is
    // the system's own (branch_parameter), chosen by choose_branches and
    // cross_branch_guard.
    struct ParameterSource {
        int variable = -1;
        int transition = -1;
        int branch = -1;
    };
    const std::vector<ParameterSource>& parameter_sources() const { return parameter_sources_; }
    void set_parameters(const std::vector<double>& values);

    // Enclosures of the leading variables over a box of states and time
    // (inside a RoundingScope; `xt` is states..., time): the parametric
    // Krawczyk operator K = y0 - C F(X, y0, T) + (I - C F_y(X, Y, T))(Y - y0)
    // with y0 an approximate solution at the box's midpoint and C an
    // approximate inverse of F_y there, on candidate boxes Y (containing y0)
    // grown by epsilon-inflation. When K lies in
    // the interior of Y, every point of the box has exactly one solution of
    // F_DOWN = 0 in Y, and it lies in K, which is returned. False when no
    // candidate contracts (a box too wide, or a singular F_y).
    bool enclose_leading(const FastInterval* xt, FastInterval* y) const;
    // The warm start of the leading variables for the guards and asserts
    // that use them (ImplicitFunction): the solution at the restart, kept up
    // to date by every solve. Setting it selects the branch followed (and
    // forgets the last enclosure).
    void set_leading_guess(const double* y) const;
    // Solves F_DOWN from that warm start (updating it on success).
    bool solve_leading_from_guess(double t, const double* x, double* y) const;

    // ---- event-generating operators (event_operators.h) ----
    const EventOperators& event_operators() const { return events_; }
    double branch_parameter(std::size_t j) const;
    std::size_t branch_guard_count() const { return branch_guards_.size(); }
    const BranchGuard& branch_guard(std::size_t i) const { return branch_guards_[i]; }
    const StateFunction& branch_guard_function(std::size_t i) const { return *branch_functions_.at(i); }
    double branch_guard_value(std::size_t i, double t, const double* x) const;
    // Every branch chosen from its argument at (t, x, y) (y: the leading
    // variables); true when a choice changed.
    bool choose_branches(double t, const double* x, const double* y);
    // The branch of exit guard i moved across it.
    void cross_branch_guard(std::size_t i);
    // The current choices (k, lo, hi or s per branch), for comparisons.
    std::vector<double> branch_choices() const;
    void set_branch_choices(const std::vector<double>& choices);
    // solve_leading with the branches chosen at the solution: choose at
    // (x, y), solve, again until the choices settle (a few rounds).
    bool solve_with_branches(double t, const double* x, double* y);

    const std::vector<Guard>& guards() const { return guards_; }
    // Guard g as a function of the states and time (a TapeFunction, or an
    // ImplicitFunction for an implicit guard); not for an unsupported guard.
    const StateFunction& guard_function(std::size_t g) const { return *guard_functions_.at(g); }
    // NaN for an unsupported guard.
    double guard_value(std::size_t g, double t, const double* x) const;
    const std::vector<AssertCheck>& asserts() const { return asserts_; }
    // Evaluates assert k: true when it holds; `margin` receives lhs - rhs of
    // the first relation that fails (or of the first relation when it holds).
    bool assert_holds(std::size_t k, double t, const double* x, const double* y, double* margin) const;
    // The margins of an on_interpolant assert as a function of the states
    // and time.
    const StateFunction& assert_function(std::size_t k) const { return *assert_functions_.at(k); }
    // The same from the states alone (on_interpolant asserts).
    bool assert_holds_in_states(std::size_t k, double t, const double* x, double* margin) const;
    // The same from the margins (the outputs of either tape of assert k).
    bool assert_holds_for(std::size_t k, const double* margins, double* margin) const;
    // Three-valued truth of assert k over enclosures of its margins (inside
    // a RoundingScope): True or False only when certain.
    Truth assert_truth_over(std::size_t k, const FastInterval* margins) const;

private:
    void apply_parameters();
    // The fallback of solve_leading when Newton's method on the whole of
    // F_DOWN fails (its Jacobian singular at the guess, or no convergence):
    // F_DOWN's block triangular form (Dulmage-Mendelsohn on the pattern of
    // dF/dy), each block solved by Newton's method in order, the earlier
    // blocks' values known. A leading variable fixed by a constant (the
    // library resistor's R_actual = R) is then found before the equation
    // that multiplies by it (v = R_actual*i), whose Jacobian at the zero
    // guess is singular (leading_blocks.cpp).
    bool solve_leading_by_blocks(double t, const double* x, double* y) const;
    // dF_DOWN/dy (m x m, row-major, mat sized m * m) from the outputs of
    // down_ (points, or intervals inside a RoundingScope).
    template <class T>
    void leading_jacobian(const T* down_outputs, std::vector<T>& mat) const {
        const std::size_t m = leading_.size();
        std::fill(mat.begin(), mat.end(), T(0.0));
        for (std::size_t k = 0; k < fy_.size(); ++k)
            mat[fy_[k].first * m + fy_[k].second] = down_outputs[down_.group_begin(1) + k];
    }
    struct Slot {
        bool is_state = true;
        std::size_t index = 0;
        double sign = 1;  // a state slot: the value is sign * x[index]
    };
    int mode_ = -1;
    std::string mode_id_;
    std::vector<GiNaC::symbol> states_, leading_;
    std::vector<std::string> state_names_, leading_names_;
    std::vector<Slot> derivative_;
    std::vector<std::string> all_state_names_;
    std::vector<Slot> expansion_;  // per structure state: its integrated state and sign
    Tape down_;  // inputs: states, leading, time; groups: F_DOWN, dF/dy entries, dF/dx entries
    std::vector<std::pair<std::size_t, std::size_t>> fy_, fx_;
    bool affine_ = false, constant_ = false;
    mutable DenseLu constant_lu_;
    mutable bool constant_lu_ready_ = false;
    // inputs: states, time; the leading variables (affine F_DOWN solved
    // symbolically), output k being leading variable explicit_order_[k]: the
    // first group those the state derivatives are, then the others.
    Tape explicit_;
    std::vector<std::size_t> explicit_order_;
    bool explicit_ready_ = false;
    Tape up_;    // inputs: states, time; groups: F_UP, dF_UP/dx entries
    std::size_t up_rows_ = 0;
    bool up_moving_ = false;
    std::vector<std::pair<std::size_t, std::size_t>> upx_;
    std::vector<GiNaC::symbol> parameters_;
    std::vector<ParameterSource> parameter_sources_;
    std::vector<Guard> guards_;
    std::vector<AssertCheck> asserts_;
    std::vector<double> parameter_values_;
    EventOperators events_;
    std::vector<std::size_t> branch_slot_;  // operator parameter j -> its index in parameters_
    std::vector<BranchGuard> branch_guards_;
    std::vector<Tape> branch_tapes_;         // per exit guard (inputs as a Guard's)
    std::vector<bool> branch_implicit_;
    std::vector<std::unique_ptr<StateFunction>> branch_functions_;
    Tape branch_arguments_;                  // inputs: states, leading, time; output b: branch b's plain argument
    std::vector<std::unique_ptr<StateFunction>> guard_functions_, assert_functions_;  // null: not on the interpolant
    std::map<int, std::int64_t> mode_variable_values_;  // flat variable -> its value in this mode
    // Scratch space, so that no evaluation allocates (one system per thread).
    mutable std::vector<double> in_, out_, mat_, rhs_, dydx_, col_, explicit_in_, explicit_out_;
    mutable std::vector<double> up_in_, up_out_, up_jac_, up_dx_, up_je_, assert_in_, assert_out_;
    mutable DenseLu newton_lu_;
    // solve_leading_by_blocks: F_DOWN's blocks (computed on first use; none
    // when F_DOWN is structurally singular).
    mutable LeadingBlocks blocks_;
    mutable bool blocks_ready_ = false;
    mutable std::vector<double> y_start_;  // solve_leading's guess, for the fallback
    mutable MinNormWork norm_work_;
    // The warm start of the implicit functions, and the Krawczyk operator's
    // scratch space.
    mutable std::vector<double> guess_, k_mid_, k_y_, k_c_;
    mutable std::vector<FastInterval> k_in_, k_out_, k_r_, k_box_, k_next_, k_jac_;
    // The last box enclose_leading succeeded on and its enclosure (the
    // guards and asserts of a step start from the same box); cleared by
    // set_parameters and set_leading_guess.
    mutable std::vector<double> k_last_box_;
    mutable std::vector<FastInterval> k_last_y_;
};

// A tape over (states..., leading..., time) seen as a function of the states
// and time, the leading variables being the solution of the mode's F_DOWN:
// at a point solved by Newton's method from the system's warm start, over a
// box enclosed by ModeSystem::enclose_leading.
class ImplicitFunction final : public StateFunction {
public:
    ImplicitFunction(const ModeSystem& system, const Tape& tape);
    std::size_t output_count() const override { return tape_.output_count(); }
    void at(const double* xt, double* out) const override;
    void over(const FastInterval* xt, FastInterval* out) const override;
    bool costly() const override { return true; }  // an interval Newton step per enclosure

private:
    const ModeSystem& sys_;
    const Tape& tape_;
    mutable std::vector<double> in_;
    mutable std::vector<FastInterval> iin_;
};

}  // namespace modeaudit::sim
