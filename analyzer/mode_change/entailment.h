// Whether an equation follows from others by a constant linear combination
// (part of the mode_change stage; issue 17, items 1 and 3).
//
// Facts (Definition 5 of seed 001) are the equations of an array entailed,
// up to O(eps), by the previous mode and the event's root facts. The paper
// does not say how its tool decides entailment (paper notes 4.5); here an
// equation r = 0 over previous-mode data, taken at eps = 0 (every datum at
// its left limit), is a fact when r = sum_k c_k b_k identically, with
// constant c_k and b_k the previous mode's completed equations and the root
// guards. That covers a shifted copy of a root fact, a constant multiple of
// it (2*v - 2*vb = 0 against the guard v - vb), an equation the previous
// mode keeps (x1 - x2 = 0 while a first contact persists) and sums of
// these. A nonlinear consequence (x*x' + y*y' from x^2 + y^2 = L^2 without
// its derivative) is not found: the equation then stays an equation, the
// conservative side. The same test tells which of a new mode's consistency
// conditions a standard tool's carried states do not meet at the event.
#pragma once

#include <ginac/ginac.h>

#include <functional>
#include <vector>

namespace modeaudit {

struct Entailment {
    bool holds = false;
    std::vector<int> used;  // indices into the basis with a non-zero coefficient
};

// `is_variable` tells the symbols that vary (unknowns, their derivatives,
// time) from the constants (parameters kept symbolic).
Entailment entailed(const GiNaC::ex& r, const std::vector<GiNaC::ex>& basis,
                    const std::function<bool(const GiNaC::symbol&)>& is_variable);

}  // namespace modeaudit
