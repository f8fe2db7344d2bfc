// The reference simulation across mode changes (simulation stage; the
// pipeline runs it after the restart stage, pipeline.cpp).
//
// Input: the FlatModel, the ModeSet (modes and transitions) and the
// StructureResult (each mode's states, leading variables, F_DOWN, F_UP).
// From a starting mode and consistent initial values the driver integrates
// one mode at a time with CVODE (integrator.h), searches every step's
// interpolant for the earliest upward guard crossing of the mode's
// transitions (event_detection.h), takes the left limits there, and asks a
// restart callback for the values the next mode starts from. The callback is
// the seam to the restart stage: `supplied_restart` below applies reinit
// resets and continuity (seed 004; seed 000, 4.2), and the pipeline can plug
// in the derived restarts of Procedure 1 (restart/restart.h) for impulsive
// mode changes such as the rope's capture (seed 000, 5.2).
//
// Initial values: the given values (by symbol name) and the start values of
// fixed states are kept; the other states are solved from the consistency
// conditions F_UP (and, in the model's initial mode, the initial equations
// and algorithms with F_DOWN, which is how FilterBlock1's `x := u` enters:
// FlatModel::initial_equations holds it as the equation x = u), moving their
// start values as little as possible (minimum-norm Gauss-Newton); a state
// that is neither given nor fixed and that no condition moves begins at its
// start value. Then the leading variables are solved from F_DOWN (Newton's
// method, falling back to F_DOWN's block triangular form where the whole
// system's Jacobian is singular at the guess, leading_blocks.h; leading
// variables F_DOWN fixes to constants, such as a library resistor's
// R_actual = R, are substituted first, mode_system.cpp).
//
// Modes without states (a purely algebraic model, or a mode in which an
// ideal switch removed every energy store) are not integrated: time is
// advanced over an output grid (SimulationOptions::algebraic_intervals),
// F_DOWN solved at its points and at events, and the guards and asserts
// searched over each grid interval as functions of time alone with the
// same interval search (algebraic_segment.cpp); their events restart
// through the same callback.
//
// Zeno: when the spacings of the last `zeno_events` events shrink
// geometrically with a stable ratio r < 1 and the accumulation time
// t_n + dt_n r / (1 - r) lies before the stop time, the run stops once the
// last spacing is below `zeno_spacing_fraction` of the time to accumulation,
// with stopped_because = zeno and that estimate; several events closer than
// `min_event_spacing` in a row stop it too.
//
// Chattering (SimulationResult::chattering, stopped_because = zeno, the
// closest of the contract's reasons): right after an event, a guard of the
// new mode, other than those that fired, that is zero at the restart (the
// same switching surface) and then becomes positive without having been
// negative. Both modes' flows then
// point across the surface (a relay without hysteresis, a sliding mode):
// the guard cannot be armed (no-sticking rule, event_detection.h), so
// without this check the run would slide through the surface silently.
//
// Asserts (Mode::asserts): each step's interpolant is searched for the
// first violation with the guards' interval machinery (event_detection.h,
// first_violation), the margins being functions of the states and time
// directly, through the symbolic solution of an affine F_DOWN (the rope's
// tension lambda), or through the Krawczyk enclosure of the leading
// variables of a nonlinear F_DOWN (ImplicitFunction, mode_system.h): a
// violation on a window narrower than the step but wider than the time
// tolerance is found and its start located. Guards are followed the same
// three ways. Only an assert whose margins cannot be compiled in the states
// is evaluated at accepted steps and event left limits alone, the first
// violation seen located by bisection.
//
// Speed: the per-step path reuses scratch space (in the systems, the
// integrator and the searches) instead of allocating; a step's search opens
// one rounding-mode scope and tries a cheap Horner enclosure of the whole
// step before the shifted one; the leading variables are solved between
// events only where an assert needs them at points, by the compiled
// symbolic solution where F_DOWN is affine (the right-hand side evaluating
// only the leading variables the state derivatives are); alias states
// (a = ±b among the states) are integrated once (mode_system.h); each
// step's interpolant is read from CVODE's Nordsieck array
// (Integrator::interpolant); a search encloses only the states its function
// uses. Compiling the modes is a fixed cost that
// CompiledModes (below) lets several runs share.
//
// Discrete variables other than the mode variables (a counter
// `n = pre(n) + 1`, a sampled value `u = 1 - pre(x)`) are tracked by the
// driver: they start at their start values (then `when initial()`
// assignments), the assignments of the clauses that fire are evaluated at
// the left limits in clause order (pre(v) the left limit, a discrete v its
// value so far: an algorithm's sequence), and the equations see them as tape
// parameters (ModeSystem::set_parameters) set at each segment. They appear
// in the events' before/after values and the final values.
// sample(start, interval) is a clock: its guard is time - next, next the
// first instant start + k*interval at or after the start time, moved on
// after each firing; an instant at a segment's start (t = start itself)
// fires before integrating; clocks that meet fire as one event.

#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flatten/flat_model.h"
#include "modes/modes.h"
#include "structure/structure.h"

namespace modeaudit {

enum class StopReason { StopTime, Zeno, Inadmissible, UndeterminedRestart, SolverFailure, Unsupported, LimitExceeded };
// "stop-time", "zeno", "inadmissible", "undetermined-restart", "solver-failure", "unsupported",
// "limit-exceeded" (a resource limit: SimulationResult::limit names it)
std::string_view stop_reason_name(StopReason r);

struct RestartRequest {
    const FlatModel& flat;
    const ModeSet& modes;
    const Transition& transition;                // the first of those that fire (clause order)
    std::vector<const Transition*> transitions;  // all that fire at this instant
    int from = -1;
    int to = -1;                                 // the mode they lead to together
    double time = 0;
    const std::map<std::string, double>& left_limits;  // previous mode's states and solved variables
    // The discrete variables the driver tracks (counters, sampled values),
    // after the firing clauses' assignments: a reset that names one reads
    // this value (the clause's own assignment, as in Modelica), pre(v) the
    // left limit.
    std::map<std::string, double> discrete_after = {};
};

struct RestartAnswer {
    bool ok = false;
    // The new mode's states by symbol name; a state not given keeps the left
    // limit of the same name (continuity). Leading variables may be given as
    // a first guess.
    std::map<std::string, double> values;
    std::string verdict;  // "continuous", "reinit", "impulsive", "inadmissible", "undetermined", ...
    std::string message;
    // The magnitude of each first-order impulse of a derived restart: the
    // integral of the variable over the event (a contact force's impulse,
    // the momentum it transfers), by display name. Impulses of order >= 2
    // have no finite magnitude and are not listed.
    std::map<std::string, double> impulses;
};

using RestartFunction = std::function<RestartAnswer(const RestartRequest&)>;

// Reinit resets evaluated at the left limits (pre(v) and v both mean the
// left limit, except that a tracked discrete variable named plainly has the
// value its clause just assigned: RestartRequest::discrete_after), every
// other state carried over, the new mode's remaining
// states solved from its consistency conditions (continuous_restart). When
// the carried values violate them the answer is "undetermined": the restart
// must be derived (mode-change array and Procedure 1).
RestartFunction supplied_restart(const StructureResult& structures);

struct SimulationOptions {
    int start_mode = 0;
    double start_time = 0;
    std::optional<double> stop_time;               // default: the model's StopTime, else 1
    std::map<std::string, double> initial_values;  // states of the start mode, by symbol name
    // A reference simulation: the seeds' numbers are stated to 1e-9 / 1e-10
    // and BDF's global error is some ten times rtol (at rtol = 1e-10 the
    // rope's capture time is off by 1.2e-10).
    double rtol = 1e-12, atol = 1e-14;
    bool project = true;                           // onto F_UP after each step
    double event_time_tolerance = 1e-12;           // relative; the event search's finest sub-interval
    double guard_zero_tolerance = 1e-12;           // a guard is armed below -this
    double simultaneity = 1e-10;                   // relative; crossings this close fire together
    // The one tolerance rule of mode boundaries: a guard or assert margin
    // within boundary_tolerance * max(1, |x|, |y|) of zero (the largest
    // state or leading variable there) is at its boundary. An assert that
    // holds to that at the instant a guard ends the mode is no violation;
    // a guard that close to zero at a restart is at its surface, where its
    // rate along the new mode's flow decides whether it fires at once; a
    // relation contradicted by more decides the initial mode. It covers the
    // event location's error (event_time_tolerance relative in time) for
    // rates up to some 100 per unit time of the values' scale.
    double boundary_tolerance = 1e-10;
    // Restarts at one instant (a cascade), and modes tried by the initial
    // event iteration, at most (--max-event-iterations).
    std::size_t max_event_iterations = 50;
    // Resource limits (common/limits.h): reaching one stops the run with
    // SimulationResult::limit set, reported as limit-exceeded.
    std::size_t max_events = 10000;                // --max-events
    long max_steps = 1000000;                      // per segment; --max-steps
    double max_wall_seconds = 300;                 // the whole run; --max-sim-time
    int zeno_events = 10;
    double zeno_spacing_fraction = 1e-2;
    double min_event_spacing = 1e-12;              // relative
    bool record_steps = false;                     // fill SimulationResult::samples
    // A mode without states is not integrated (algebraic_segment.cpp): its
    // leading variables are solved at the points of a grid that divides
    // [start_time, stop time] into this many intervals (and at its events),
    // and its guards are searched over each interval.
    int algebraic_intervals = 500;
};

// One restart step. Steps at one instant (a cascade: the restart of one
// implies the next) share `instant` and are numbered by `step`.
struct EventRecord {
    double time = 0;
    int instant = 0;                        // the event instant, counted from 0
    int step = 0;                           // the step within it
    int from = -1, to = -1;
    std::string from_id, to_id;
    std::vector<std::string> guards;        // guard texts of the transitions that fired
    // An event of event-generating operators alone (event_operators.h): no
    // transition fires, from == to, the branches are chosen again and the
    // states carry over; `guards` names the operators.
    bool operator_event = false;
    std::string verdict, message;           // from the restart callback
    std::map<std::string, double> before;   // left limits
    std::map<std::string, double> after;    // new states and leading variables
    std::map<std::string, double> impulses; // RestartAnswer::impulses
};

struct AssertRecord {
    int assert_index = -1;                  // FlatModel::asserts
    std::string message, level;
    bool violated = false;
    double time = 0;                        // first violation in the segment
    double value = 0;                       // margin there (lhs - rhs, sign such that >= 0 holds)
    double min_margin = 0;                  // smallest margin seen at the checked points
    std::string unsupported;
};

struct SegmentRecord {
    int mode = -1;
    std::string mode_id;
    // The independent part whose run this segment is (a model simulated in
    // parts, composition.h); 0 otherwise. `mode` is then the part's own.
    int part = 0;
    double begin = 0, end = 0;
    // A segment of a mode without states (algebraic_segment.cpp): `steps`
    // counts the output points at which F_DOWN was solved (the segment's
    // end among them, its start not), max_step is the widest interval
    // between them; no right-hand sides, Jacobians or projections.
    bool algebraic = false;
    long steps = 0, rhs_evaluations = 0;
    long jacobian_evaluations = 0;         // ODE Jacobians CVODE asked for (Integrator::jacobian)
    double max_step = 0;
    double max_drift = 0;                   // max-norm of F_UP at the accepted steps
    double max_drift_before_projection = 0;
    std::size_t event_search_enclosures = 0;
    std::vector<std::string> state_names;
    std::vector<AssertRecord> asserts;
};

struct Sample {
    double time = 0;
    std::size_t segment = 0;
    std::vector<double> states;             // in SegmentRecord::state_names order
};

struct SimulationResult {
    StopReason stopped_because = StopReason::SolverFailure;
    double end_time = 0;
    std::optional<double> zeno_time;        // estimated accumulation time (chattering: the switch's time)
    // Stopped as zeno because of chattering: right after a switch, a guard
    // of the new mode already crosses zero (a sliding motion), not a
    // geometric accumulation of events.
    bool chattering = false;
    // Chattering seen by the event iteration: a mode repeated with the same
    // states at one instant; the modes of the cycle ("'a' -> 'b' -> 'a'").
    // Empty for the other kind (a guard crossing again as soon as time
    // advances after the last switch).
    std::string chattering_cycle;
    // Chattering of an event-generating operator (event_operators.h): its
    // exit guard's text ("sign(x) (x changes sign)"), the flows on both
    // sides of its switching point pointing across it. Empty otherwise.
    std::string chattering_operator;
    std::vector<EventRecord> events;        // restart steps, in order
    // Grazing: a guard that came to zero without crossing (a tangency such
    // as -(x - a)^2): no event fires (event_detection.h); each is reported
    // (sim-grazing-guard), the first per guard and segment.
    struct Graze {
        double time = 0;
        int transition = -1;                // ModeSet::transitions
        std::string guard, mode_id;
        SourceRange range;                  // the transition's
    };
    std::vector<Graze> grazes;
    // An assert inside a when-clause, checked when the clause fires (its
    // condition at the event, after the clause's assignments before it):
    // each failure, or an assert that cannot be evaluated there.
    struct EventAssert {
        double time = 0;
        std::string message, level;         // level "error" or "warning"
        std::string unevaluated;            // why it cannot be evaluated (empty: it failed)
        SourceRange range;                  // the assert's
    };
    std::vector<EventAssert> event_asserts;
    // A search that stopped at its work limit (CrossingOptions::max_enclosures,
    // event_detection.h) over [t0, t1]: a guard crossing or an assert
    // violation there may have been missed (sim-event-search-incomplete).
    struct SearchGaveUp {
        double t0 = 0, t1 = 0;
        bool assert_search = false;  // true: an assert's violation search; false: a guard's crossing search
        std::string what, mode_id;   // the guard's text or the assert's message
        int assert_index = -1;       // FlatModel::asserts, for an assert
        SourceRange range;           // the transition's (a guard)
    };
    std::vector<SearchGaveUp> searches_gave_up;
    // The modes the initial event iteration entered, the last being the
    // initial mode (one mode when its relations held at once).
    std::vector<std::string> initial_modes;
    std::vector<SegmentRecord> segments;
    std::map<std::string, double> final_values;  // states, solved variables and their aliases
    std::string final_mode;
    std::vector<std::string> messages;
    std::vector<Sample> samples;
    // Set when a resource limit stopped the run: the limit's name and option
    // ("simulation events", "--max-events"); the message says more.
    std::string limit, limit_option;
};

// A reference result must not move with the tolerance (seed 000, 4.4): a
// run compared with the same run at tighter tolerances.
struct ToleranceComparison {
    bool same_events = false;          // same stop reason, number of events and modes entered
    double max_event_shift = 0;        // largest |t_tight - t| over the events both runs have
    double max_final_difference = 0;   // largest |v_tight - v| over the final values both runs have
    // What differs first when the events do not agree ("event 3: at t = ..
    // to mode 'a' against t = .. to mode 'b'", "12 events against 13", "the
    // stop reasons"); empty when they agree.
    std::string first_difference;
    // The largest |v_tight - v| / max(1, |v|) over the final values, and
    // whose it is.
    double max_relative_final_difference = 0;
    std::string worst_final;
};
ToleranceComparison compare_tolerances(const SimulationResult& reference, const SimulationResult& tighter);

namespace sim {
class ModeSystem;
}

// The modes compiled for integration (mode_system.h: the tapes of F_DOWN,
// F_UP, the guards and the asserts, the symbolic solve of an affine F_DOWN),
// built when a simulation first enters a mode. Compiling is a fixed cost per
// mode, independent of the simulated time, and on short runs it is most of
// the cost (the rope's two modes: more than half of a 0.2 s run). Passing
// the same cache to several simulations of one model (the reference run and
// its sensitivity rerun) compiles each mode once. A cache belongs to one
// (flat, modes, structures) triple; not thread-safe (one per thread).
class CompiledModes {
public:
    CompiledModes();
    ~CompiledModes();
    CompiledModes(const CompiledModes&) = delete;
    CompiledModes& operator=(const CompiledModes&) = delete;
    std::size_t compiled() const { return systems_.size(); }

private:
    friend class SimulationDriver;
    const void* flat_ = nullptr;
    const void* modes_ = nullptr;
    const void* structures_ = nullptr;
    std::map<int, std::unique_ptr<sim::ModeSystem>> systems_;
};

// Throws std::invalid_argument for bad options (no such mode, tolerances not
// positive, stop time before start, an initial value for a symbol that is no
// state of the start mode, a cache of another model). Model problems end up
// in the result. Without a cache the modes are compiled for this run only.
SimulationResult simulate(const FlatModel& flat, const ModeSet& modes, const StructureResult& structures,
                          const SimulationOptions& options, const RestartFunction& restart,
                          CompiledModes* cache = nullptr);

}  // namespace modeaudit
