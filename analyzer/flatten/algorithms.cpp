// The flattener's algorithm sections (flattener.cpp has the order of work):
// sequential assignments to equations, when-statements, initial
// algorithms of parameters and discrete variables.
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
#include "flatten/terminal_asserts.h"
#include "flatten/unsupported_uses.h"
#include "parse/ast_print.h"

namespace modeaudit::flat_impl {

void Flattener::algorithm(const ast::AlgorithmSection& sec, Instance* inst, const LexScope* lex) {
    // Sequential assignments to continuous variables become equations, each
    // variable defined by its final value (earlier assignments substituted).
    Ctx ctx{inst, nullptr};
    ctx.lex = lex;
    std::map<int, ex> assigned;
    std::vector<int> assigned_order;
    std::vector<SourceRange> where;
    GiNaC::exmap current;
    std::function<void(const std::vector<ast::Statement>&)> run = [&](const std::vector<ast::Statement>& statements) {
        for (const ast::Statement& s : statements) {
            switch (s.kind) {
                case ast::StatementKind::If: {
                    if (terminal_asserts(s.branches)) {
                        FlatWhen w;
                        w.chain = ++when_chain_;
                        w.terminal = true;
                        w.in_algorithm = true;
                        w.range = s.range;
                        EqCtx ec;
                        ec.ctx = ctx;
                        ec.ctx.in_when = true;
                        for (const ast::Statement& b : s.branches[0].body) assert_action(*b.call, &w, ec);
                        model_->whens.push_back(std::move(w));
                        break;
                    }
                    // The branch its conditions select when they are known when
                    // flattening (parameters, constants), in order: a later
                    // condition is not evaluated once one holds (11.2.6).
                    for (const auto& br : s.branches) {
                        if (!br.condition) {
                            run(br.body);
                            break;
                        }
                        ConditionPtr c = fold(condition(*br.condition, ctx));
                        if (c->kind != Condition::Kind::Constant)
                            fail(rule::flatten_unsupported_construct, br.condition->range,
                                 "an if-statement in a model's algorithm is supported when its conditions are known "
                                 "when flattening (parameter expressions); this one depends on variables",
                                 {"write the assignments with if-expressions (x := if c then a else b) instead"});
                        if (c->value) {
                            run(br.body);
                            break;
                        }
                    }
                    break;
                }
                case ast::StatementKind::Assign: {
                    if (!s.lhs || s.lhs->kind != ast::ExprKind::Ref)
                        fail(rule::flatten_unsupported_construct, s.range,
                             "multiple assignment (a, b) := f(...) is not supported");
                    Resolved r = resolve(s.lhs->ref, ctx);
                    if (r.local || r.member->kind != Member::Kind::Scalar)
                        fail(rule::flatten_unsupported_construct, s.range, "assignment to an array in an algorithm");
                    int v = r.member->variable;
                    const FlatVariable& var = model_->variables[static_cast<std::size_t>(v)];
                    if (sec.initial && var.variability == Variability::Parameter && !var.fixed) {
                        initial_parameter(v, s, ctx, current);
                        break;
                    }
                    if (sec.initial && var.variability == Variability::Discrete &&
                        (var.type == BaseType::Boolean || var.type == BaseType::Integer)) {
                        initial_discrete(v, s, ctx, current);
                        break;
                    }
                    if (var.variability != Variability::Continuous)
                        fail(rule::flatten_unsupported_construct, s.range,
                             fmt::format("assignment to the {} variable '{}' outside when",
                                         var.variability == Variability::Discrete ? "discrete" : "parameter",
                                         var.name));
                    ex val = scalar(*s.rhs, ctx, "the assigned value").subs(current, kExactSubs);
                    if (!assigned.count(v)) {
                        assigned_order.push_back(v);
                        where.push_back(s.range);
                    }
                    assigned[v] = val;
                    current[model_->symbols.variable(v)] = val;
                    break;
                }
                case ast::StatementKind::When:
                    if (sec.initial)
                        fail(rule::flatten_unsupported_construct, s.range, "when in an initial algorithm");
                    {
                        EqCtx ec;
                        ec.ctx = ctx;
                        when_clause(nullptr, &s.branches, ec, s.range);
                    }
                    break;
                case ast::StatementKind::Call: {
                    std::string fname = s.call->ref.dotted();
                    if (fname == "reinit") {
                        model_->reinit_outside_when.push_back(s.range);
                        break;
                    }
                    if (fname == "assert") {
                        EqCtx ec;
                        ec.ctx = ctx;
                        assert_action(*s.call, nullptr, ec);
                        break;
                    }
                    fail(rule::flatten_unsupported_construct, s.range,
                         fmt::format("the call {}(...) in an algorithm is not supported", fname));
                }
                case ast::StatementKind::While:
                    fail(rule::flatten_unsupported_construct, s.range, "while loops are not supported");
                default:
                    fail(rule::flatten_unsupported_construct, s.range,
                         s.kind == ast::StatementKind::While
                             ? "a while loop is not supported in a model's algorithm (only in a function's)"
                             : "only assignments, if-statements with conditions known when flattening, "
                               "when-statements and assert are supported in a model's algorithm");
            }
        }
    };
    run(sec.statements);
    for (std::size_t i = 0; i < assigned_order.size(); ++i) {
        int v = assigned_order[i];
        FlatEquation fe;
        fe.lhs = model_->symbols.variable(v);
        fe.rhs = assigned[v];
        fe.range = where[i];
        fe.origin = sec.initial ? "initial algorithm" : "algorithm";
        fe.initial = sec.initial;
        (sec.initial ? model_->initial_equations : model_->equations).push_back(std::move(fe));
    }
}

}  // namespace modeaudit::flat_impl
