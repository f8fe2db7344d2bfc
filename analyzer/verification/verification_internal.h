// Pieces of the verification stage shared by its static and event parts
// (not part of the stage's interface).
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "flatten/flat_model.h"
#include "modes/modes.h"
#include "restart/verdict.h"
#include "verification/verification.h"

namespace modeaudit::verification_detail {

std::vector<DeclaredInvariant> declared_invariants(const FlatModel& flat);
// The invariant's `modes = {...}` restriction admits this mode.
bool applies_to(const InvariantDecl& decl, const Mode& mode);

// 1: certainly >= 0, -1: certainly <= 0, 0: not known (structural test on
// products, even powers and sums of terms of one sign).
int certain_sign(const GiNaC::ex& e);
int sign_of(const GiNaC::ex& e, bool& zero);
// Canonical text of a rational expression that is the same on every run.
std::string stable_text(const GiNaC::ex& e);

// e with its symbols looked up by name in `values` (and `params`); nullopt
// when one is missing or the value is not real.
std::optional<double> evaluate(const GiNaC::ex& e, const std::map<std::string, double>& values,
                               const GiNaC::exmap& params);

// A restart system's symbols by model name.
struct RestartNames {
    std::map<std::string, GiNaC::symbol> after;   // vx -> der(x)+
    std::map<std::string, GiNaC::symbol> before;  // vx -> pre(der(x))
    std::vector<GiNaC::symbol> impulses;          // rescaled impulsive variables (lambda_r)
    std::vector<GiNaC::symbol> tail;              // the new mode's leading variables (lambda@1)
};
RestartNames restart_names(const TransitionRestart& tr);

struct LinearPart {
    std::vector<GiNaC::ex> equations;             // without tail unknowns
    std::vector<GiNaC::symbol> unknowns;          // restart values and impulses they hold
    bool solved = false;
    std::map<GiNaC::symbol, GiNaC::ex, GiNaC::ex_is_less> solution;  // in left limits
};
LinearPart linear_part(const TransitionRestart& tr, const RestartNames& names);

}  // namespace modeaudit::verification_detail
