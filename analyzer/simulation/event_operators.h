// Event-generating built-in operators in the simulation (Modelica 3.6,
// sections 3.7.1, 3.7.4 and 8.5).
//
// abs, sign, min, max, floor, ceil, integer, div, mod and rem trigger state
// events at their kinks and jumps unless they are written inside noEvent():
// between events each keeps the branch (abs, sign, min, max) or the integer
// (floor, ceil, integer, div, mod, rem) chosen at the last event, so the
// right-hand side is smooth within a segment; when the argument leaves the
// region where that choice holds, an event fires, the choice is made again
// and the integrator restarts from the same states (a continuous restart).
//
// ModeSystem (mode_system.h) freezes every such occurrence of a mode's
// F_DOWN and F_UP into tape parameters (freeze below):
//   abs(u)     -> s * u          sign(u) -> s      s = +1 or -1, the side of u
//   min(a, b)  -> a (1 - s)/2 + b (1 + s)/2,  max(a, b) the other way round,
//                 s the side of a - b
//   floor(u), integer(u) -> k    ceil(u) -> -k with k the floor of -u
//   div(a, b)  -> k, the truncation of a/b;  rem(a, b) -> a - k b with that k
//   mod(a, b)  -> a - k b, k the floor of a/b
// Occurrences with the same kind and argument share their branch (abs(u)
// and the sign(u) of its derivative, which index reduction brings). Each
// branch has exit guards, functions of the states and time followed by the
// same guaranteed search as the mode's guards (event_detection.h): -s u for
// a side; lo - q and q - hi for an integer k held on [lo, hi) (floor:
// [k, k + 1); truncation: [k, k + 1) for k > 0, (k - 1, k] for k < 0,
// (-1, 1) for 0). An occurrence whose arguments carry the noEvent mark
// (flatten/expression_builder.h, ma_noevent) is left as it is: the tape
// evaluates it plainly and it has no exit guard.
//
// smooth(p, e) keeps the events of e: the specification allows a tool to
// skip them when p >= 0, never requires it, and located events are always
// correct (only the restarts cost).
//
// In the transitions' guards only the operators that jump are frozen
// (freeze with jumps_only): a guard such as floor(x) - 2 is constant between
// floor's events and jumps at one of them, where the simulation fires the
// transitions whose guards jumped from at most 0 to above it (driver.cpp);
// a kink of a continuous guard (abs, min, max) is no problem for the
// interval search. Not frozen: the operators inside the asserts'
// conditions, and inside user functions evaluated by the interpreter.
#pragma once

#include <ginac/ginac.h>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace modeaudit::sim {

struct Branch {
    enum class Kind { Side, Floor, Trunc };
    Kind kind = Kind::Side;
    GiNaC::ex argument;   // u, a - b or the quotient q, with inner occurrences frozen
    GiNaC::ex plain;      // the same with inner occurrences as plain functions (a choice at a point)
    std::string text;     // the first occurrence, as written ("floor(x)")
    std::size_t first = 0;  // its parameters in EventOperators::parameters(): s; or k, lo, hi
};

// One exit guard of a branch: positive once the argument has left the region
// of the current choice.
struct BranchGuard {
    std::size_t branch = 0;
    bool upper = false;  // q reached hi (integer kinds); false: below lo, or u changed side
    GiNaC::ex expression;
    std::string text;
};

class EventOperators {
public:
    // `e` with its event-generating occurrences frozen (registering their
    // branches and parameters). With `jumps_only`, only the operators whose
    // value jumps (sign, floor, ceil, integer, div, mod, rem): a guard that
    // reads them is constant between their events, and its crossing is the
    // jump itself (the simulation fires it at the operator's event);
    // abs, min and max stay continuous functions the interval search follows.
    GiNaC::ex freeze(const GiNaC::ex& e, bool jumps_only = false);
    const std::vector<Branch>& branches() const { return branches_; }
    const std::vector<GiNaC::symbol>& parameters() const { return parameters_; }
    std::vector<BranchGuard> exit_guards() const;

    // The parameters of a branch of `kind` (at `p`: s, or k, lo, hi) where
    // its argument is `value`.
    static void choose(Branch::Kind kind, double value, double* p);
    // The choice on the other side of the exit guard (`upper` as in
    // BranchGuard) that fired.
    static void cross(Branch::Kind kind, bool upper, double* p);
    static std::size_t parameter_count(Branch::Kind kind) { return kind == Branch::Kind::Side ? 1 : 3; }

private:
    std::size_t branch(Branch::Kind kind, const GiNaC::ex& argument, const GiNaC::ex& plain, const std::string& text);
    std::vector<Branch> branches_;
    std::vector<GiNaC::symbol> parameters_;
    std::map<GiNaC::ex, std::size_t, GiNaC::ex_is_less> by_key_;
};

}  // namespace modeaudit::sim
