// The flattener's conditions (flattener.cpp has the order of work):
// Boolean expressions to Condition trees, folded where parameters decide
// them.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <charconv>
#include <functional>
#include <set>

#include "common/internal_error.h"
#include "common/limits.h"
#include "flatten/array_concatenation.h"
#include "flatten/builtin_classes.h"
#include "flatten/condition_semantics.h"
#include "flatten/connections.h"
#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"
#include "flatten/final_modifiers.h"
#include "flatten/flatten_error.h"
#include "flatten/flattener_impl.h"
#include "flatten/function_call.h"
#include "flatten/function_compiler.h"
#include "flatten/function_interpreter.h"
#include "flatten/initial_pre.h"
#include "flatten/lookup.h"
#include "flatten/redeclaration.h"
#include "flatten/unsupported_uses.h"
#include "parse/ast_print.h"

namespace modeaudit::flat_impl {

// =========================================================================== conditions

ConditionPtr Flattener::fold(ConditionPtr c) {
    // Relations between numbers decide; the rest stays.
    return fold_condition(c, [](const ConditionPtr& leaf) {
        if (leaf->kind != Condition::Kind::Relation) return leaf;
        auto a = numeric_value(leaf->lhs), b = numeric_value(leaf->rhs);
        if (!a || !b || !a->is_real() || !b->is_real()) return leaf;
        return condition_constant(relation_holds(leaf->op, *a, *b), leaf->range);
    });
}

ConditionPtr Flattener::condition(const ast::Expr& e, const Ctx& ctx) {
    using K = Condition::Kind;
    auto make = [&](K k) {
        auto c = std::make_shared<Condition>();
        c->kind = k;
        c->range = e.range;
        return c;
    };
    switch (e.kind) {
        case ast::ExprKind::Boolean: {
            auto c = make(K::Constant);
            c->value = e.boolean;
            return c;
        }
        case ast::ExprKind::Ref: {
            if (ctx.bool_locals && e.ref.simple())
                if (auto it = ctx.bool_locals->find(e.ref.parts[0].ident); it != ctx.bool_locals->end()) return it->second;
            if (ctx.bool_locals && !e.ref.global && e.ref.parts.size() > 1)
                if (auto it = ctx.bool_locals->find(e.ref.dotted()); it != ctx.bool_locals->end()) return it->second;
            Resolved r = resolve(e.ref, ctx);
            if (r.local || r.member->kind != Member::Kind::Scalar)
                fail(rule::flatten_type_mismatch, e.range, fmt::format("'{}' is not a Boolean", r.name));
            int v = r.member->variable;
            const FlatVariable& var = model_->variables[static_cast<std::size_t>(v)];
            if (var.type != BaseType::Boolean)
                fail(rule::flatten_type_mismatch, e.range,
                     fmt::format("'{}' is not a Boolean; write a relation such as '{} > 0'", var.name, var.name));
            if (var.variability == Variability::Parameter || var.variability == Variability::Constant) {
                ex val = param_value(v, e.range);
                auto n = numeric_value(val);
                if (!n)
                    fail(rule::flatten_unsupported_construct, e.range,
                         fmt::format("Boolean parameter '{}' without a value",
                                     model_->variables[static_cast<std::size_t>(v)].name));
                auto c = make(K::Constant);
                c->value = !n->is_zero();
                return c;
            }
            auto c = make(K::Variable);
            c->variable = v;
            return c;
        }
        case ast::ExprKind::Unary: {
            if (e.uop != ast::UnaryOp::Not)
                fail(rule::flatten_type_mismatch, e.range,
                     fmt::format("'{}' is a number; a condition is expected", ast::to_modelica(e)));
            auto c = make(K::Not);
            c->operands = {condition(*e.operands[0], ctx)};
            return c;
        }
        case ast::ExprKind::Binary: {
            using B = ast::BinaryOp;
            if (e.bop == B::And || e.bop == B::Or) {
                auto c = make(e.bop == B::And ? K::And : K::Or);
                c->operands = {condition(*e.operands[0], ctx), condition(*e.operands[1], ctx)};
                return c;
            }
            Condition::RelOp op;
            switch (e.bop) {
                case B::Lt: op = Condition::RelOp::Lt; break;
                case B::Le: op = Condition::RelOp::Le; break;
                case B::Gt: op = Condition::RelOp::Gt; break;
                case B::Ge: op = Condition::RelOp::Ge; break;
                case B::Eq: op = Condition::RelOp::Eq; break;
                case B::Ne: op = Condition::RelOp::Ne; break;
                default:
                    fail(rule::flatten_type_mismatch, e.range,
                         fmt::format("'{}' is a number; a condition is expected", ast::to_modelica(e)));
            }
            // Boolean == Boolean
            if ((op == Condition::RelOp::Eq || op == Condition::RelOp::Ne)) {
                auto is_bool = [&](const ast::Expr& x) {
                    if (x.kind == ast::ExprKind::Boolean) return true;
                    if (x.kind == ast::ExprKind::Ref && ctx.bool_locals && x.ref.simple() &&
                        ctx.bool_locals->count(x.ref.parts[0].ident))
                        return true;
                    if (x.kind == ast::ExprKind::Ref) {
                        Resolved r = resolve(x.ref, ctx);
                        return !r.local && r.member->kind == Member::Kind::Scalar &&
                               model_->variables[static_cast<std::size_t>(r.member->variable)].type ==
                                   BaseType::Boolean;
                    }
                    return false;
                };
                if (is_bool(*e.operands[0]) || is_bool(*e.operands[1])) {
                    ConditionPtr a = condition(*e.operands[0], ctx), b = condition(*e.operands[1], ctx);
                    auto both = make(K::And);
                    both->operands = {a, b};
                    auto na = make(K::Not);
                    na->operands = {a};
                    auto nb = make(K::Not);
                    nb->operands = {b};
                    auto neither = make(K::And);
                    neither->operands = {na, nb};
                    auto eq = make(K::Or);
                    eq->operands = {both, neither};
                    if (op == Condition::RelOp::Eq) return eq;
                    auto ne = make(K::Not);
                    ne->operands = {eq};
                    return ne;
                }
            }
            check_comparison_types(e, ctx);
            auto c = make(K::Relation);
            c->op = op;
            c->lhs = scalar(*e.operands[0], ctx, "the left side of a relation");
            c->rhs = scalar(*e.operands[1], ctx, "the right side of a relation");
            return c;
        }
        case ast::ExprKind::Call: {
            std::string fname = e.ref.dotted();
            if (fname == "noEvent" && e.args.size() == 1) return condition(*e.args[0].value, ctx);
            if (fname == "initial" || fname == "terminal") {
                if (!e.args.empty()) fail(rule::flatten_type_mismatch, e.range, fname + "() takes no arguments");
                if (fname == "terminal")
                    fail(rule::flatten_unsupported_construct, e.range,
                         "terminal() is supported as a when-condition (when terminal() then ...), not here");
                return make(K::Initial);
            }
            if (fname == "sample") {
                if (e.args.size() != 2)
                    fail(rule::flatten_type_mismatch, e.range, "sample(start, interval) takes two arguments");
                auto c = make(K::Sample);
                c->lhs = scalar(*e.args[0].value, ctx, "the start of sample()");
                if (!numeric_value(c->lhs))
                    fail(rule::flatten_type_mismatch, e.args[0].range,
                         fmt::format("the start of sample() must be a parameter expression (Modelica 3.6, 3.7.5); "
                                     "'{}' is not",
                                     ast::to_modelica(*e.args[0].value)));
                c->rhs = scalar(*e.args[1].value, ctx, "the interval of sample()");
                auto iv = numeric_value(c->rhs);
                if (!iv || !iv->is_real() || !iv->is_positive())
                    fail(rule::flatten_type_mismatch, e.args[1].range, "the interval of sample() must be a positive constant");
                return c;
            }
            if (fname == "pre" || fname == "edge" || fname == "change") {
                if (e.args.size() != 1 || e.args[0].value->kind != ast::ExprKind::Ref)
                    fail(rule::flatten_type_mismatch, e.range, fmt::format("{}() takes one variable", fname));
                Resolved r = resolve(e.args[0].value->ref, ctx);
                if (r.local || r.member->kind != Member::Kind::Scalar)
                    fail(rule::flatten_type_mismatch, e.range, fmt::format("{}() takes a scalar variable", fname));
                int v = r.member->variable;
                const FlatVariable& var = model_->variables[static_cast<std::size_t>(v)];
                if (var.type != BaseType::Boolean) {
                    if (fname != "change")
                        fail(rule::flatten_type_mismatch, e.range,
                             fmt::format("'{}' is not a Boolean; {}() of it is not a condition", var.name, fname));
                    auto c = make(K::Relation);
                    c->op = Condition::RelOp::Ne;
                    c->lhs = model_->symbols.variable(v);
                    c->rhs = model_->symbols.pre(v);
                    return c;
                }
                auto now = make(K::Variable);
                now->variable = v;
                auto before = make(K::Variable);
                before->variable = v;
                before->pre = true;
                if (fname == "pre") return before;
                auto not_before = make(K::Not);
                not_before->operands = {before};
                auto rising = make(K::And);
                rising->operands = {now, not_before};
                if (fname == "edge") return rising;
                auto not_now = make(K::Not);
                not_now->operands = {now};
                auto falling = make(K::And);
                falling->operands = {not_now, before};
                auto c = make(K::Or);
                c->operands = {rising, falling};
                return c;
            }
            static const std::set<std::string> not_conditions = {"abs", "sign", "sqrt", "sin", "cos", "der", "min", "max"};
            if (!not_conditions.count(fname) && lookup_first(e.ref.parts[0].ident, lex_of(ctx))) {
                std::vector<Output> outs = function_outputs(e, ctx);
                if (!outs[0].condition)
                    fail(rule::flatten_type_mismatch, e.range,
                         fmt::format("'{}' is a number (the function's first output); a condition is expected",
                                     ast::to_modelica(e)));
                return outs[0].condition;
            }
            fail(rule::flatten_unsupported_construct, e.range,
                 fmt::format("{}() in a condition is not supported", fname));
        }
        case ast::ExprKind::If: {
            // if c1 then a elseif ... else b, as (c1 and a) or (not c1 and (...)).
            std::size_t n = e.operands.size();
            ConditionPtr result = condition(*e.operands[n - 1], ctx);
            for (std::size_t i = n - 1; i >= 2; i -= 2) {
                ConditionPtr c = condition(*e.operands[i - 2], ctx);
                ConditionPtr t = condition(*e.operands[i - 1], ctx);
                auto yes = make(K::And);
                yes->operands = {c, t};
                auto nc = make(K::Not);
                nc->operands = {c};
                auto no = make(K::And);
                no->operands = {nc, result};
                auto r = make(K::Or);
                r->operands = {yes, no};
                result = r;
                if (i < 2) break;
            }
            return result;
        }
        default:
            fail(rule::flatten_type_mismatch, e.range,
                 fmt::format("'{}' is not a condition", ast::to_modelica(e)));
    }
}

}  // namespace modeaudit::flat_impl
