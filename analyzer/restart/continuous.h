// The continuous restart test of seed 000, section 4.2 ("if the inherited
// values satisfy the new consistency conditions, solve for the new
// algebraic variables and derivatives"): part of the restart stage; the
// simulation applies it at the event time for continuous transitions
// (simulation.cpp, supplied_restart).
//
// The previous mode's state values are inherited unchanged; the new mode's
// other state variables are solved from its consistency conditions; the
// restart is continuous when those hold (to a tolerance relative to the
// data), and then the index-reduced system gives the new leading variables
// (algebraic readouts such as diode currents may jump).
#pragma once

#include <map>
#include <string>

#include "flatten/flat_model.h"
#include "modes/modes.h"
#include "structure/structure.h"

namespace modeaudit {

struct ContinuousRestart {
    bool consistent = false;                 // the inherited states satisfy the new consistency conditions
    double residual = 0;                     // max-norm of the consistency conditions at the solution
    std::map<std::string, double> values;    // new states and leading variables, by symbol name
    std::string message;
};

// `left` gives the previous mode's state values by symbol name ("v1", "der(x)");
// `time` is the event time, which an explicit `time` in the new mode's
// consistency conditions and index-reduced equations takes.
ContinuousRestart continuous_restart(const FlatModel& flat, const ModeStructure& previous, const ModeStructure& next,
                                     const std::map<std::string, double>& left, double time,
                                     double tolerance = 1e-9);

}  // namespace modeaudit
