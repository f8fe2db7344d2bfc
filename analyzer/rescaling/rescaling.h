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
//
// Powers and products are tropical (axiom 111): lambda^3 of an order-o
// variable has order 3*o. The offsets are integers, but the least offsets
// of a polynomial law can be fractional (f = lambda^3 with f of order 1
// needs lambda of order 1/3; issue 17, item 5). The integer least
// solution then lets the power dominate alone (3 > 1), and its restart row
// -lambda_r^3 = 0 is singular at its only solution. So an array whose
// matched rows have a monomial of degree >= 2 in dependent variables is
// solved a second time over the rationals; where that least solution is
// not integral, `fractional` holds it and the integer answer is not used.
// Without such monomials the constraints are difference constraints with
// integer bounds, whose least solutions are integral: nothing changes.
// The rescaling stage (rescaling_stage.cpp) solves every matched array of
// every route of the mode_change stage.
#pragma once

#include <map>
#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include "mode_change/mode_change_array.h"
#include "mode_change/transition_study.h"

namespace modeaudit {

struct Monomial {
    int eps_power = 0;                 // n in eps^-n
    std::map<int, int> powers;         // array variable index -> exponent
};

// Resource limits of each Z3 query (common/limits.h): reaching one is
// LimitExceeded (limit-exceeded), never a hang or an out-of-memory kill.
struct Z3Limits {
    unsigned timeout_ms = 10000;    // per query; --z3-timeout
    unsigned max_memory_mb = 2048;  // Z3's memory (process-wide memory_max_size); --z3-memory
};

// The least offsets over the rationals, when some are not integers.
struct FractionalOffsets {
    std::vector<GiNaC::numeric> mu;  // per array variable
    int variable = -1;   // a fractional variable whose power in its matched row is what forces it
    int equation = -1;   // that row (array equation index)
    int power = 1;       // the variable's exponent in the row's leading monomial
};

struct RescalingResult {
    bool solved = false;
    std::vector<int> mu;               // per array variable
    std::map<int, int> mu_equation;    // per matched equation: its largest monomial value
    std::vector<std::string> core;     // unsat: the named assertions in conflict
    std::optional<std::string> recheck_failure;  // our own check of Z3's answer; nullopt: it holds
    std::string nonlinear;             // an equation where an impulsive variable would enter nonlinearly
    // Set when the rationals give smaller, fractional offsets: the integer
    // `mu` (when solved) then makes a power dominate alone and is not used.
    std::optional<FractionalOffsets> fractional;
};

// The monomials (in the array variables and 1/eps) and non-polynomial atoms
// of each matched row of an array, in matching order, computed once per
// array: every constraint of the rescaling problem, its content key and the
// check read them. A factor that is not a power of an array variable
// (sin(x), 1/x, ...) counts as a constant, and its array variables are the
// row's atoms: they must not be impulsive.
struct MatchedRow {
    int equation = -1;  // array equation index
    int variable = -1;  // its matched array variable
    std::vector<Monomial> monomials;
    std::vector<int> atoms;  // sorted
};
std::vector<MatchedRow> matched_rows(const ModeChangeArray& a);

// The value of a monomial (its power of 1/eps plus the offsets of its
// factors, each times its exponent) under integer offsets.
long monomial_value(const Monomial& m, const std::vector<int>& mu);

// Per matched equation: its largest monomial value under `mu`.
std::map<int, int> equation_offsets(const ModeChangeArray& a, const std::vector<int>& mu);

// Whether a matched row has a monomial of degree >= 2 in dependent
// variables: the only case where the least offsets can be fractional.
bool has_dependent_powers(const ModeChangeArray& a);

// `restart_variables`: indices of array variables that must not be impulsive.
// With `nonlinear_finite` false, axiom 112 is left out: used only to tell
// whether an impulse inside a non-polynomial function is what blocks the
// restart (the verdict "unsupported").
//
// Offsets are natural numbers, so when all offsets 0 satisfy every
// constraint (no variable impulsive: most mode changes) they are the least
// solution, over the integers and the rationals alike; that is checked by
// our own evaluation (zero_offsets) and Z3 is asked only otherwise. A
// problem solved before with the same content (the variables by position:
// identical switching cells) takes that answer, which names no variable.
// `zero_shortcut` false always asks Z3 (the differential test of the two).
RescalingResult solve_rescaling(const ModeChangeArray& a, const std::vector<int>& restart_variables,
                                bool nonlinear_finite = true, const Z3Limits& limits = {}, bool zero_shortcut = true);

// Z3 alone (no shortcut, no cache of solved problems by content).
RescalingResult solve_rescaling_with_z3(const ModeChangeArray& a, const std::vector<int>& restart_variables,
                                        bool nonlinear_finite = true, const Z3Limits& limits = {});

// The solved result with every offset 0 when those satisfy every
// constraint of the array; nullopt otherwise.
std::optional<RescalingResult> zero_offsets(const ModeChangeArray& a, const std::vector<int>& restart_variables,
                                            bool nonlinear_finite = true);

// Our own check: every constraint holds for mu; returns the first violation.
std::optional<std::string> check_rescaling(const ModeChangeArray& a, const std::vector<int>& restart_variables,
                                           const RescalingResult& r, bool nonlinear_finite = true);

// ---- the rescaling stage ----------------------------------------------------
struct ArrayRescaling {
    std::optional<RescalingResult> result;   // for a matched array
    std::optional<RescalingResult> relaxed;  // unsat because of axiom 112: the same without it
    // Unsat with goodness (124) among the conflict: the least offsets
    // without it, whose impulsive restart variables are the set Y of
    // Corollary 1 (paper notes 5.8).
    std::optional<RescalingResult> without_goodness;
};

struct RescalingStageResult {
    // [transition][route][array], parallel to ModeChangeResult.
    std::vector<std::vector<std::vector<ArrayRescaling>>> arrays;
};

RescalingStageResult rescale_transitions(const FlatModel& flat, const ModeChangeResult& mc, bool progress = false,
                                         const Z3Limits& limits = {});
void dump_rescaling(const FlatModel& flat, const ModeChangeResult& mc, const RescalingStageResult& r,
                    std::ostream& out);

}  // namespace modeaudit
