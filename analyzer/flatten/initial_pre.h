// Initial equations of left limits: `pre(y) = e` in an `initial equation`
// section (Modelica 3.6, 8.6), the MSL's way to start a discrete variable
// (`pre(y) = pre_y_start` in its on/off controller and hysteresis blocks).
//
// Part of the flatten stage. For a discrete Boolean or Integer variable y
// and a parameter expression e, the equation fixes the value pre(y) has at
// the start, which is what the modes stage starts from: the flattener
// records it as y's start value with fixed = true (the same start a
// `Boolean y(start = e, fixed = true)` gives). A value known only at the
// start (a continuous variable's) is refused where the equation is written.
#pragma once

#include <optional>

#include "parse/ast.h"

namespace modeaudit::flat {

struct InitialPre {
    const ast::ComponentRef* variable = nullptr;  // y in pre(y)
    const ast::Expr* value = nullptr;             // e
};

// `pre(y) = e` or `e = pre(y)` (y a component reference); nullopt for any
// other equation.
std::optional<InitialPre> initial_pre_equation(const ast::Equation& eq);

}  // namespace modeaudit::flat
