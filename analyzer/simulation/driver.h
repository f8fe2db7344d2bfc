// The simulation driver (internal to the simulation stage; simulation.h
// describes what it does). Its run is a sequence of named steps, each
// returning whether the run goes on (a stop records its reason in the
// result):
//
//   enter_mode          the mode's compiled system, its mode-variable values
//                       and the parameters of its tapes;
//   initialize          the initial event iteration (Modelica 3.6, 8.6):
//                       the continuous initial system solved in a mode, its
//                       relations evaluated there, the mode they imply
//                       entered, until the mode is stable (driver.cpp);
//   integrate_segment   CVODE in one mode up to the first event, the stop
//                       time or a stop: guards searched on each step's
//                       interpolant, asserts checked (driver.cpp);
//   algebraic_segment   the same for a mode without states: no
//                       integration, the leading variables solved at the
//                       points of an output grid and the guards searched
//                       as functions of time (algebraic_segment.cpp);
//   handle_instant      the event iteration at an event instant: a restart
//                       step for the guards that fired, then the guards of
//                       the new mode evaluated at the restart values, until
//                       no guard fires: a cascade is one instant of several
//                       steps (event_instant.cpp);
//   restart_step        one step of it: discrete assignments, the combined
//                       target, the restart callback, the new mode's
//                       consistency (event_instant.cpp).
//
// Discrete variables and clocks at events (their values, the when-clause
// assignments, condition trees at the left limits) are in
// driver_discrete.cpp.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "modes/discrete_logic.h"
#include "modes/simultaneous.h"
#include "simulation/event_detection.h"
#include "simulation/integrator.h"
#include "simulation/mode_system.h"
#include "simulation/simulation.h"

namespace modeaudit {

class SimulationDriver {
public:
    SimulationDriver(const FlatModel& flat, const ModeSet& modes, const StructureResult& st, const SimulationOptions& o,
                     const RestartFunction& restart, CompiledModes& cache);

    SimulationResult run();

private:
    using ModeSystem = sim::ModeSystem;
    using Integrator = sim::Integrator;

    // ---- the steps (see above) ----
    bool enter_mode(int mode);
    bool initialize();
    struct SegmentEnd {
        enum class Kind { Stopped, StopTime, Event } kind = Kind::Stopped;
        double time = 0;
        std::vector<std::size_t> fired;  // guards of the mode (ModeSystem::guards) that fire
        std::vector<std::size_t> branches;  // exit guards of operator branches (ModeSystem::branch_guard) that fire
    };
    // ---- event-generating operators (driver_branches.cpp, event_operators.h) ----
    // Exit guards at their surface with the flow pointing across them (or
    // already positive) at the current point: their branches move across,
    // until none does. False with `why` when the choices cycle (both sides'
    // flows point across the surface: a sliding motion) or do not settle.
    bool settle_branches(double t, std::string& why);
    // An event of operator branches alone (no transition fires): the
    // branches cross, the states carry over, the leading variables are
    // solved again; recorded as a continuous event in the same mode.
    bool branch_event(double t_e, const std::vector<std::size_t>& fired);
    SegmentEnd integrate_segment();
    // A segment of a mode without states (algebraic_segment.cpp): time is
    // advanced over an output grid instead of integrated, the leading
    // variables solved from F_DOWN at each point, the guards searched over
    // each grid interval as functions of time alone.
    SegmentEnd algebraic_segment();
    // A segment's record at its start in mode `mode` (its system `sys`) at
    // t: the mode, the
    // state names and an entry per assert.
    SegmentRecord open_segment(int mode, const ModeSystem& sys, double t) const;
    // The guards' and operator branches' state at a segment's start (both
    // kinds of segment; the comments in driver.cpp say why each is so).
    struct GuardStart {
        std::vector<bool> armed, on_surface, start_touch, departed, branch_armed;
        std::vector<std::size_t> immediate;  // clock guards whose instant is the start
        double surface = 0;  // boundary_tolerance at the start: a guard this near 0 has not departed
    };
    GuardStart guard_start(const ModeSystem& sys, double t, const std::vector<double>& x,
                           const std::vector<double>& y) const;
    bool handle_instant(double t_e, std::vector<std::size_t> fired);
    // One restart step from the current mode at t_e for the guards `fired`;
    // `left` are the values before it (the left limits, or the previous
    // step's restart values). On success the driver is in the new mode with
    // its restart values.
    bool restart_step(double t_e, const std::vector<std::size_t>& fired, const std::map<std::string, double>& left,
                      int instant, int step);
    // The guards of the current mode that fire at once at (t, x, y), right
    // after a restart: a relation-defined guard that is positive (the mode
    // contradicts its own relation), a when-guard that became positive
    // through the restart (its relation was false before: `before` holds
    // the values before the step), or any guard at zero whose flow points
    // across it (its rate along the new mode's flow is positive). The
    // when-clauses in `fired_clauses` fired at this instant already and do
    // not fire again.
    std::vector<std::size_t> firing_at_restart(double t, const std::map<std::string, double>& before,
                                               const std::vector<std::pair<int, int>>& fired_clauses,
                                               std::string& why) const;
    // The relation-defined guards of the current mode that are positive at
    // (t, x): its relations contradict it (initialization).
    std::vector<std::size_t> contradicted_relations(double t) const;
    // The rate of guard g along the current mode's flow (`xdot`, the state
    // derivatives at (t, x)), by a central difference.
    double guard_rate(std::size_t g, double t, const std::vector<double>& xdot) const;
    // The mode the initialization starts from (initialize, driver.cpp).
    int initial_mode_guess() const;
    // Whether mode variable k is a relation-defined switch (off = s < 0, or
    // a relation used as a condition); the mode nearest to `mode` (fewest
    // such switches changed, then mode order) that differs from it in those
    // alone and is not in `tried`; -1 when there is none.
    bool relation_switch(std::size_t k) const;
    int relation_neighbour(int mode, const std::vector<int>& tried) const;
    // The one tolerance rule of mode boundaries (simulation.h): a guard or
    // assert margin within this of zero at (x, y) is at its boundary.
    double boundary_tolerance(const std::vector<double>& x, const std::vector<double>& y) const;

    // ---- compiled modes and integrators ----
    ModeSystem* system(int mode);
    Integrator& integrator(int mode);

    // ---- stopping ----
    SimulationResult run_segments();  // run() without its guard against user-function errors
    void stop(StopReason r, const std::string& message) {
        result_.stopped_because = r;
        if (!message.empty()) result_.messages.push_back(message);
    }
    // A resource limit stops the run (reported as limit-exceeded).
    void stop_at_limit(const std::string& message, const char* limit, const char* option) {
        stop(StopReason::LimitExceeded, message);
        result_.limit = limit;
        result_.limit_option = option;
    }
    // Chattering right after the last event (simulation.h): guard g of the
    // new mode is already crossing zero. Stops the run as zeno.
    void stop_chattering(const ModeSystem& sys, std::size_t g);
    // The earliest of `crossings` (time, index; indices from guard_count on
    // are operator branches) and those within the simultaneity window of it,
    // sorted into `fired` and `fired_branches`; returns its time.
    double take_simultaneous(std::vector<std::pair<double, std::size_t>>& crossings, std::size_t guard_count,
                             std::vector<std::size_t>& fired, std::vector<std::size_t>& fired_branches) const;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
    // Read at every 8th call (once per step: the clock costs about 2 % of a
    // small model's step); the integrator checks it inside steps as well.
    bool over_wall_time() {
        if ((wall_calls_++ & 7u) != 0) return false;
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() > o_.max_wall_seconds;
    }
    unsigned wall_calls_ = 0;

    // ---- values by name ----
    std::map<std::string, double> named(const ModeSystem& sys, const std::vector<double>& x,
                                        const std::vector<double>& y) const;
    void finish_values(const ModeSystem& sys, const std::vector<double>& x, const std::vector<double>& y);
    // The current mode's states from values by name (its own names); false
    // when one is missing.
    bool states_from(const ModeSystem& sys, const std::map<std::string, double>& values, std::vector<double>& x) const;

    // Asserts over [t_ok, t] and at (t, x, y) (driver.cpp). `at_exit`: t is
    // the instant a guard takes the run out of the mode, where a margin
    // within round-off of the boundary is no violation.
    void check_asserts(SegmentRecord& seg, const ModeSystem& sys, const Integrator* integ,
                       const sim::StatePolynomial* poly, double t_ok, double t, const std::vector<double>& x,
                       const std::vector<double>& y, bool at_exit = false);

    // ---- discrete variables and clocks (driver_discrete.cpp) ----
    struct Clock {
        double start = 0, interval = 0;
        long count = 0;  // the next instant is start + count * interval
        double next() const { return start + static_cast<double>(count) * interval; }
    };
    bool tracked(int v) const;
    std::optional<double> event_value(const GiNaC::ex& e, const std::map<std::string, double>& left, double t,
                                      std::string& missing) const;
    std::optional<bool> event_truth(const Condition& c, const std::map<std::string, double>& left, double t,
                                    std::string& missing) const;
    bool assign_discrete(const std::vector<WhenAction>& actions, const std::map<std::string, double>& left, double t,
                         std::string& why);
    void reset_discrete(double t);
    // At the start, after the initial values and `when initial()`: the
    // tracked discrete variables defined by equations (`Integer k = 3;`, a
    // relation-defined Boolean no equation selects by) take their defined
    // values, pre() their start values, relations evaluated at `at`. False
    // with `why` when a definition cannot be evaluated.
    bool settle_tracked_definitions(const std::map<std::string, double>& at, double t, std::string& why);
    // Each relation's truth from its difference evaluated at `at` (event_value);
    // false, with the first symbol that has no value named in `missing`,
    // where it cannot be evaluated.
    RelationTruth relations_at(const std::map<std::string, double>& at, double t, std::string& missing) const;
    // The discrete logic (modes/discrete_logic.h), built on first use.
    void ensure_logic();
    // The discrete values now: the mode's mode variables and the tracked ones.
    DiscreteState discrete_state() const;
    // The event iteration of the discrete event conditions
    // (ModeSet::discrete_triggers: change(k) of a counter, k >= 3) after a
    // restart step's assignments: a clause whose condition is true now and
    // was false with the discrete values before the step (`pre_discrete`;
    // pre() reads `left`) fires its assignments, once per step (the clauses
    // in `done` fired already), until none does. Their conditions' texts
    // are added to `fired`; false with `why` when one cannot be evaluated.
    bool fire_discrete_triggers(const std::map<std::string, double>& left, const std::vector<double>& pre_discrete,
                                double t, std::set<int> done, std::vector<std::string>& fired, std::string& why);
    Clock& clock(const Transition& tr);
    std::vector<double> parameter_values_of(const ModeSystem& sys);
    void add_discrete(std::map<std::string, double>& m) const;
    // The mode one restart step leads to for the transitions `fired`: their
    // combined target (combined_target), except that discrete variables
    // defined by equations (a pre() latch, an Integer mode) take the values
    // of their event iteration at the event (modes/discrete_logic.h): pre()
    // the values before the step, the relations of the fired guards crossed
    // and the others evaluated at `left`. -1 with `why` when there is none.
    int event_target(const std::vector<const Transition*>& fired, const std::map<std::string, double>& left,
                     double t, std::string& why);
    std::optional<DiscreteLogic> logic_;  // built at the first event that needs it

    const FlatModel& flat_;
    const ModeSet& modes_;
    const StructureResult& st_;
    const SimulationOptions& o_;
    const RestartFunction& restart_;
    std::map<int, std::unique_ptr<ModeSystem>>& systems_;
    std::map<int, std::unique_ptr<Integrator>> integrators_;
    mutable sim::SearchWork work_;
    std::vector<double> surface_x_;
    std::map<int, std::int64_t> mode_variables_;  // flat variable -> value in the current mode
    std::vector<double> discrete_;                // by flat variable (tracked ones only)
    std::map<std::pair<int, int>, Clock> clocks_;  // by (when clause, trigger)

    // The run's current point: the mode, its system, time, states and
    // leading variables.
    double stop_time_ = 0;
    int mode_ = -1;
    ModeSystem* sys_ = nullptr;
    double t_ = 0;
    std::vector<double> x_, y_;
    std::vector<double> instant_times_;  // one per event instant (the Zeno check)
    SimulationResult result_;
};

}  // namespace modeaudit
