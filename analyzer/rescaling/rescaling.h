// Rescaling offsets of a matched mode-change array, solved with Z3 (seed
// 001, sections 6-7; paper notes 5.1-5.5). Not wired into the pipeline yet.
//
// Each array variable x gets an offset mu_x in N (its impulse order: x is
// O(eps^-mu_x)); data of the previous mode have mu = 0. A monomial's value
// is its power of 1/eps plus the offsets of its factors (max-plus). For each
// matched pair (f, x) the terms containing x must reach the largest value
// of f (the matched variable survives eps := 0). A non-polynomial function
// of a variable forces that variable's offset to 0 (axiom 112). The
// goodness condition (124): restart variables are not impulsive. Z3
// minimises the sum of the offsets; every assertion is named by its
// provenance, so an unsat core reads as a diagnosis; and the model Z3
// returns is re-checked here by our own evaluation of the constraints.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mode_change/mode_change_array.h"

namespace modeaudit {

struct Monomial {
    int eps_power = 0;                 // n in eps^-n
    std::map<int, int> powers;         // array variable index -> exponent
};

struct RescalingResult {
    bool solved = false;
    std::vector<int> mu;               // per array variable
    std::map<int, int> mu_equation;    // per matched equation: its largest monomial value
    std::vector<std::string> core;     // unsat: the named assertions in conflict
    std::optional<std::string> recheck_failure;  // our own check of Z3's answer; nullopt: it holds
    std::string nonlinear;             // an equation where an impulsive variable would enter nonlinearly
};

// The monomials of an array equation in its array variables and 1/eps. A
// factor that is not a power of an array variable (sin(x), 1/x, ...) counts
// as a constant, and its array variables are added to `atoms`: they must
// not be impulsive.
std::vector<Monomial> monomials_of(const ModeChangeArray& a, const GiNaC::ex& residual, std::vector<int>& atoms);

// `restart_variables`: indices of array variables that must not be impulsive.
RescalingResult solve_rescaling(const ModeChangeArray& a, const std::vector<int>& restart_variables);

// Our own check: every constraint holds for mu; returns the first violation.
std::optional<std::string> check_rescaling(const ModeChangeArray& a, const std::vector<int>& restart_variables,
                                           const RescalingResult& r);

}  // namespace modeaudit
