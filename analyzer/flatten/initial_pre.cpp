#include "flatten/initial_pre.h"

namespace modeaudit::flat {

namespace {

const ast::ComponentRef* pre_operand(const ast::Expr& e) {
    if (e.kind != ast::ExprKind::Call || e.ref.parts.size() != 1 || e.ref.global || e.ref.parts[0].ident != "pre")
        return nullptr;
    if (e.args.size() != 1 || !e.args[0].name.empty() || !e.args[0].value) return nullptr;
    if (e.args[0].value->kind != ast::ExprKind::Ref) return nullptr;
    return &e.args[0].value->ref;
}

}  // namespace

std::optional<InitialPre> initial_pre_equation(const ast::Equation& eq) {
    if (eq.kind != ast::EquationKind::Simple || !eq.lhs || !eq.rhs) return std::nullopt;
    if (const ast::ComponentRef* r = pre_operand(*eq.lhs); r && !pre_operand(*eq.rhs))
        return InitialPre{r, eq.rhs.get()};
    if (const ast::ComponentRef* r = pre_operand(*eq.rhs); r && !pre_operand(*eq.lhs))
        return InitialPre{r, eq.lhs.get()};
    return std::nullopt;
}

}  // namespace modeaudit::flat
