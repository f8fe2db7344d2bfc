// The restart stage: the hot restart of every transition and its verdict
// (seed 001, sections 5-9; seed 000, sections 4.2-4.3 and 5.2-5.3; paper
// notes 5.6-5.9 and 7).
//
// For each transition, from the routes of the mode_change stage and the
// offsets of the rescaling stage:
//   supplied      the transition has `reinit` resets: they are the restart;
//                 the new mode's consistency conditions are checked with
//                 the resets and the other states carried over;
//   continuous    the direct route has a good solution with no impulsive
//                 variable: states carry over, algebraic readouts (diode
//                 currents) may jump; conditions the carried states must
//                 meet are listed in `conditions` and checked at events;
//   impulsive     a good solution with impulsive variables (their offsets
//                 are the impulse orders), directly or through a transient
//                 mode (a cascade);
//   unsupported   the array has a solution, but not one modeaudit derives
//                 a restart from: its least offsets are fractional (a power
//                 of an impulsive variable, f = lambda^3, needs lambda of
//                 order 1/3), or its restart has a row singular at its
//                 solution (-lambda_r^3 = 0), or the only obstacle is an
//                 impulsive variable inside a non-polynomial function
//                 (axiom 112): the equation is named, and the order needed;
//   inconsistent  restart constraints are given and no route to the stated
//                 target has a good solution: the equations in conflict are
//                 the overdetermined part (Dulmage-Mendelsohn) of the array;
//                 an alternative target with a good solution is named as
//                 the admissible continuation;
//   undetermined  no good solution up to K^*: Corollary 1 names the restart
//                 values without a determining relation; or the only good
//                 solution moves a position (a variable whose derivative is
//                 a state of the previous mode) at once, which no finite
//                 impulse does: `position_jump` names it and no restart is
//                 given.
// Beside each verdict, what a standard Modelica tool does (states
// continuous unless reinit) and which new consistency conditions that
// violates in general.
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "mode_change/transition_study.h"
#include "rescaling/rescaling.h"
#include "restart/restart.h"

namespace modeaudit {

enum class Verdict { Continuous, Impulsive, Supplied, Undetermined, Inconsistent, Unsupported, NotAnalysed };
std::string_view verdict_name(Verdict v);  // as in output-contract.md; "not-analysed"

struct StandardToolView {
    std::string action;                 // what a standard Modelica tool does at this event
    std::vector<std::string> violates;  // new consistency conditions the carried values do not meet in general
};

struct TransitionRestart {
    int transition = -1;
    Verdict verdict = Verdict::NotAnalysed;
    int route = -1;                     // index into TransitionStudy::routes of the restart used
    std::string route_text;
    int height = -1;                    // K of the good solution (or of the diagnosis)
    std::map<std::string, int> impulse_orders;  // display name -> offset
    std::vector<std::string> restart;   // the restart system, canonical text, one relation a line
    std::optional<RestartSystem> system;
    std::map<std::string, std::string> display;  // restart-system symbol name -> model name (der(x)+ -> vx+)
    std::vector<std::string> continuous_states;  // states carried over unchanged (q+ = q-)
    std::vector<std::string> undetermined, determined;  // Corollary 1
    // Undetermined because the array's only good solution moves these
    // positions at once (restart-position-jump; issue 17, item 4).
    std::vector<std::string> position_jump;
    std::vector<std::string> conflict;  // inconsistent: equations of the overdetermined part
    std::string nonlinear;              // unsupported: which equation, which variable (and the order it needs)
    SourceRange nonlinear_range;        // unsupported: that equation's source
    std::vector<std::string> continuations;  // inconsistent: admissible alternative targets (mode ids)
    std::optional<RestartSystem> continuation_system;
    int continuation_route = -1;
    std::vector<std::string> conditions;  // conditions on the left limits checked at the event
    StandardToolView standard_tool;
    std::vector<std::string> conserved; // quantities the restart preserves (verification stage)
    std::string explanation;            // one sentence: why this verdict
};

struct RestartStageResult {
    std::vector<TransitionRestart> transitions;  // parallel to ModeSet::transitions
};

RestartStageResult derive_restarts(const FlatModel& flat, const ModeSet& modes, const ModeChangeResult& mc,
                                   const RescalingStageResult& rs);

// The restart of one studied transition (study.transition indexes
// modes.transitions), from the rescaling of its arrays ([route][array], as
// one transition's entry of RescalingStageResult::arrays). derive_restarts
// runs it for every transition; the simulation runs it for a combined
// transition it builds on demand (simulation/combined_restart.h).
TransitionRestart derive_restart(const FlatModel& flat, const ModeSet& modes, const TransitionStudy& study,
                                 const std::vector<std::vector<ArrayRescaling>>& rescaling);

void dump_restarts(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r, std::ostream& out);

// The display name of a restart-system symbol ("der(x)+" -> "vx+" for a
// first-order model), or the symbol's own name.
std::string display_name(const TransitionRestart& r, const std::string& symbol);

}  // namespace modeaudit
