// `terminal()` and `assert(...)` as the flattener recognises them: an
// `if terminal() then assert(...); end if;` in an equation section or an
// algorithm is checked at the final instant, as `when terminal()` is
// (Modelica 3.6, 3.7.4.2).
#pragma once

#include <algorithm>
#include <vector>

#include "parse/ast.h"

namespace modeaudit::flat_impl {

// `terminal()` (Modelica 3.6, 3.7.4.2): true at the final instant only.
inline bool is_terminal_call(const ast::Expr& e) {
    return e.kind == ast::ExprKind::Call && e.ref.dotted() == "terminal" && e.args.empty();
}
inline bool is_assert_call(const ast::Equation& e) {
    return e.kind == ast::EquationKind::Call && e.call && e.call->ref.dotted() == "assert";
}
inline bool is_assert_call(const ast::Statement& s) {
    return s.kind == ast::StatementKind::Call && s.call && s.call->ref.dotted() == "assert";
}
// `if terminal() then assert(...); ... end if;`, in an equation section or
// an algorithm: the asserts are checked at the final instant, as in `when
// terminal() then ... end when;`.
template <class Body>
inline bool terminal_asserts(const std::vector<ast::Branch<Body>>& branches) {
    if (branches.size() != 1 || !branches[0].condition || !is_terminal_call(*branches[0].condition)) return false;
    return std::all_of(branches[0].body.begin(), branches[0].body.end(),
                       [](const Body& b) { return is_assert_call(b); });
}

}  // namespace modeaudit::flat_impl
