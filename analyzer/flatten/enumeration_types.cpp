// Type checks of enumeration values (Modelica 3.6, 4.8.5).
//
// Part of the flatten stage, as members of the Flattener. Values of an
// enumeration type are flattened to the Integers 1..n (resolve_type), so
// the types are checked on the syntax tree, where they are still visible:
// an enumeration literal bound to an Integer or Real (`Integer a = E.three`
// instead of `Integer(E.three)`), a number or another enumeration's literal
// bound to an enumeration variable, and a comparison of an enumeration value
// with a number or with another enumeration's value are errors. Only
// expressions whose type is evident from their form are checked; an
// expression of unknown type (a function call, a record field) is not.
#include <fmt/format.h>

#include "flatten/flattener_impl.h"

namespace modeaudit::flat_impl {

namespace {

std::string describe(const ValueType& t) {
    if (t.kind == ValueType::Kind::Number) return "a number";
    return fmt::format("a value of the enumeration '{}'", t.enumeration->name);
}

bool mismatched(const ValueType& a, const ValueType& b) {
    using K = ValueType::Kind;
    if (a.kind == K::Unknown || b.kind == K::Unknown) return false;
    if (a.kind != b.kind) return true;
    return a.kind == K::Enumeration && a.enumeration != b.enumeration;
}

}  // namespace

ValueType Flattener::variable_type(int v) {
    ValueType t;
    const FlatVariable& var = model_->variables[static_cast<std::size_t>(v)];
    const ast::ClassDef* e =
        static_cast<std::size_t>(v) < variable_enumeration_.size() ? variable_enumeration_[static_cast<std::size_t>(v)] : nullptr;
    if (e) {
        t.kind = ValueType::Kind::Enumeration;
        t.enumeration = e;
    } else if (var.type == BaseType::Real || var.type == BaseType::Integer) {
        t.kind = ValueType::Kind::Number;
    }
    return t;
}

ValueType Flattener::value_type(const ast::Expr& e, const Ctx& ctx) {
    using K = ValueType::Kind;
    auto common = [&](const std::vector<const ast::Expr*>& parts) {
        ValueType t;
        for (std::size_t k = 0; k < parts.size(); ++k) {
            ValueType p = value_type(*parts[k], ctx);
            if (p.kind == K::Unknown || (k > 0 && mismatched(p, t))) return ValueType{};
            t = p;
        }
        return t;
    };
    switch (e.kind) {
        case ast::ExprKind::Integer:
        case ast::ExprKind::Real:
            return {K::Number, nullptr};
        case ast::ExprKind::Ref: {
            if (e.ref.global) return {};
            const std::string& first = e.ref.parts[0].ident;
            if ((ctx.locals && ctx.locals->count(first)) || (ctx.bool_locals && ctx.bool_locals->count(first)))
                return {};
            if (ctx.inst && ctx.inst->members.count(first)) {
                // A component of the instance: its scalar variables' type
                // (an array's elements all have the element type).
                if (e.ref.parts.size() != 1) return {};
                const Member* m = &ctx.inst->members.at(first);
                while (m->kind == Member::Kind::Array && !m->elements.empty()) m = &m->elements[0];
                if (m->kind != Member::Kind::Scalar) return {};
                return variable_type(m->variable);
            }
            std::optional<NameHit> hit = lookup_.lookup_element(e.ref, lex_of(ctx));
            if (hit && hit->kind == NameHit::Kind::Literal && hit->parts == e.ref.parts.size())
                return {K::Enumeration, hit->cls.cls};
            return {};
        }
        case ast::ExprKind::Unary:
            if (e.uop == ast::UnaryOp::Not) return {};
            return value_type(*e.operands[0], ctx).kind == K::Number ? ValueType{K::Number, nullptr} : ValueType{};
        case ast::ExprKind::Binary: {
            using B = ast::BinaryOp;
            switch (e.bop) {
                case B::Lt: case B::Le: case B::Gt: case B::Ge: case B::Eq: case B::Ne: case B::And: case B::Or:
                    return {};
                default:
                    break;
            }
            bool numbers = value_type(*e.operands[0], ctx).kind == K::Number &&
                           value_type(*e.operands[1], ctx).kind == K::Number;
            return numbers ? ValueType{K::Number, nullptr} : ValueType{};
        }
        case ast::ExprKind::If: {
            std::vector<const ast::Expr*> values;
            for (std::size_t k = 1; k < e.operands.size(); k += 2) values.push_back(e.operands[k].get());
            values.push_back(e.operands.back().get());
            return common(values);
        }
        case ast::ExprKind::Array: {
            if (!e.iterators.empty() || e.operands.empty()) return {};
            std::vector<const ast::Expr*> values;
            for (const ast::ExprPtr& o : e.operands) values.push_back(o.get());
            return common(values);
        }
        case ast::ExprKind::Call:
            if (!e.ref.global && e.ref.simple() && e.ref.parts[0].ident == "Integer") return {K::Number, nullptr};
            return {};
        default:
            return {};
    }
}

void Flattener::check_binding_type(int v) {
    const ParamState& ps = params_[static_cast<std::size_t>(v)];
    if (!ps.binding) return;
    // An element of an array binding has the array's element type; a record
    // field's type is not known from the binding's form.
    for (const Selector& sel : ps.path)
        if (!sel.field.empty()) return;
    ValueType declared = variable_type(v);
    Ctx ctx{ps.scope, nullptr};
    ctx.lex = ps.lex;
    if (!ctx.inst) return;
    ValueType given = value_type(*ps.binding, ctx);
    if (!mismatched(declared, given)) return;
    const FlatVariable& var = model_->variables[static_cast<std::size_t>(v)];
    std::vector<std::string> notes;
    if (declared.kind == ValueType::Kind::Number)
        notes.push_back(fmt::format("convert it: Integer({})", ast::to_modelica(*ps.binding)));
    else if (given.kind == ValueType::Kind::Number && !declared.enumeration->enumeration_literals.empty())
        notes.push_back(fmt::format("bind a literal of '{}', such as {}.{}", declared.enumeration->name,
                                    declared.enumeration->name, declared.enumeration->enumeration_literals.front()));
    std::string type = declared.kind == ValueType::Kind::Number
                           ? (var.type == BaseType::Integer ? "an Integer" : "a Real")
                           : fmt::format("of the enumeration type '{}'", declared.enumeration->name);
    fail(rule::flatten_type_mismatch, ps.binding->range,
         fmt::format("'{}' is {} but is bound to {} (Modelica 3.6, 4.8.5)", var.name, type, describe(given)), notes);
}

void Flattener::check_comparison_types(const ast::Expr& relation, const Ctx& ctx) {
    ValueType a = value_type(*relation.operands[0], ctx);
    ValueType b = value_type(*relation.operands[1], ctx);
    if (!mismatched(a, b)) return;
    fail(rule::flatten_type_mismatch, relation.range,
         fmt::format("'{}' compares {} with {}; values of an enumeration compare only with values of the same "
                     "enumeration (Modelica 3.6, 4.8.5)",
                     ast::to_modelica(relation), describe(a), describe(b)),
         {"convert with Integer(...) to compare the positions"});
}

}  // namespace modeaudit::flat_impl
