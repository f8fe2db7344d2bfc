// Procedure 1 of seed 001 (paper notes 5.6): from a matched, rescaled
// mode-change array to the restart system, and its solution at given left
// limits. The restart stage builds the system per transition (verdict.h);
// the simulation solves it at each event's left limits and time
// (simulation/derived_restart.cpp).
//
// 1. erase the unmatched equations; 2. rescale x -> eps^-mu_x x_r and
// f -> eps^mu_f f; 3. set eps := 0 and check that the result is still
// structurally nonsingular (Rule 1); 4. rename: previous-mode data become
// left limits pre(v), tail state variables become restart values v+, the
// rest (rescaled impulses x_r, tail leading variables) stay auxiliary.
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <limits>
#include <string>
#include <vector>

#include "mode_change/mode_change_array.h"
#include "rescaling/rescaling.h"

namespace modeaudit {

struct RestartSystem {
    std::vector<GiNaC::ex> equations;            // 0 = each, eps already 0, renamed
    std::vector<std::string> equation_names;     // the array equation each comes from
    std::vector<GiNaC::symbol> unknowns;         // restart values first, then auxiliaries
    std::map<std::string, GiNaC::symbol> restart_values;  // "der(x)" -> der(x)+
    std::map<std::string, GiNaC::symbol> left_limits;     // "der(x)" -> pre(der(x))
    std::map<std::string, int> impulse_orders;   // base name of each impulsive variable -> mu
    bool rule1 = false;                          // structurally nonsingular after eps := 0
    std::string rule1_note;
    // A row that is not regular at any of its solutions (issue 17, item
    // 5): its matched unknown u enters only as a factor u^k, k >= 2, of a
    // rest free of unknowns (-lambda_r^3 = 0), so every solution has u = 0
    // and the row's gradient vanishes there. -1: none.
    int singular_row = -1;                       // index into equations
    int singular_array_equation = -1;            // the array equation it comes from
    std::string singular_unknown;                // u
};

RestartSystem procedure1(const ArrayInput& in, const ModeChangeArray& a, const RescalingResult& r);

// Procedure 1 with the rational offsets of `f` (rescaling.h): with
// eps = delta^D, D the common denominator, they are integers in delta, and
// the restart is derived in delta. impulse_orders are then in units of
// 1/D. Used to tell whether the fractional offsets give a regular restart.
RestartSystem procedure1_fractional(const ArrayInput& in, const ModeChangeArray& a, const FractionalOffsets& f);

struct RestartSolution {
    bool solved = false;                   // existence: Newton converged to a zero residual
    std::map<std::string, double> values;  // by unknown name
    double residual = 0;                   // max-norm at the solution
    bool locally_unique = false;           // the Jacobian at the solution has full rank
    double condition = 0;                  // its condition estimate (cond_2; infinity when singular)
    std::string message;
};

// Solves the restart system with Newton at the given left limits (by name,
// as in RestartSystem::left_limits) and parameter values of the model, with
// an explicit `time` at the event time `time` (a constraint x = sin(time)
// switched on at t restarts with x+ = sin(t)); at the solution, the
// symbolic Jacobian's rank (local uniqueness) and condition estimate.
RestartSolution solve_restart(const FlatModel& flat, const RestartSystem& s,
                              const std::map<std::string, double>& left_limits, double time);

}  // namespace modeaudit
