// The flattener's when-clauses (flattener.cpp has the order of work):
// when-equations and when-statements to FlatWhen actions (discrete
// assignments, reinit, restart constraints, asserts, terminate).
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

void Flattener::assert_action(const ast::Expr& call, FlatWhen* w, const EqCtx& ec) {
    if (call.args.size() < 2 || call.args.size() > 3)
        fail(rule::flatten_type_mismatch, call.range, "assert(condition, message[, level]) takes 2 or 3 arguments");
    ConditionPtr c = fold(condition(*call.args[0].value, ec.ctx));
    const ast::Expr& msg = *call.args[1].value;
    std::string text;
    if (msg.kind == ast::ExprKind::String)
        text = msg.text;
    else
        text = ast::to_modelica(msg);
    std::string level = "error";
    if (call.args.size() == 3) {
        // The literal AssertionLevel.warning; a level that varies (`if x >
        // 0.6 then AssertionLevel.error else AssertionLevel.warning`) is
        // taken as error, the stricter one, so a failure is never passed
        // over as a warning.
        const ast::Expr& l = *call.args[2].value;
        if (l.kind == ast::ExprKind::Ref && !l.ref.parts.empty() && l.ref.parts.back().ident == "warning")
            level = "warning";
    }
    if (w) {
        WhenAction a;
        a.kind = WhenAction::Kind::Assert;
        a.assertion = c;
        a.message = text;
        a.level = level;
        a.range = call.range;
        w->actions.push_back(a);
        return;
    }
    FlatAssert fa;
    fa.condition = c;
    fa.message = text;
    fa.active_when = ec.active;
    fa.level = level;
    fa.range = call.range;
    model_->asserts.push_back(fa);
}

void Flattener::reinit_action(const ast::Expr& call, FlatWhen& w, const Ctx& ctx) {
    if (call.args.size() != 2)
        fail(rule::flatten_type_mismatch, call.range, "reinit(variable, value) takes two arguments");
    const ast::Expr& target = *call.args[0].value;
    if (target.kind != ast::ExprKind::Ref)
        fail(rule::flatten_type_mismatch, target.range, "the first argument of reinit() must be a variable");
    Resolved r = resolve(target.ref, ctx);
    if (r.local || r.member->kind != Member::Kind::Scalar)
        fail(rule::flatten_unsupported_construct, target.range, "reinit() of an array or component is not supported");
    const FlatVariable& var = model_->variables[static_cast<std::size_t>(r.member->variable)];
    if (var.variability != Variability::Continuous)
        fail(rule::flatten_type_mismatch, target.range,
             fmt::format("reinit() needs a continuous Real variable; '{}' is not one", var.name));
    Ctx vc = ctx;
    vc.pre_for_state = true;  // the new value is computed from the values before the event
    WhenAction a;
    a.kind = WhenAction::Kind::Reinit;
    a.variable = r.member->variable;
    a.value = scalar(*call.args[1].value, vc, "the value of reinit()");
    a.range = call.range;
    w.actions.push_back(a);
}

// reinit, assert and terminate inside a when-clause (equation or statement).
void Flattener::when_call(const ast::Expr& call, SourceRange where, FlatWhen& w, const Ctx& ctx) {
    std::string fname = call.ref.dotted();
    if (fname == "reinit") {
        reinit_action(call, w, ctx);
    } else if (fname == "assert") {
        EqCtx ec;
        ec.ctx = ctx;
        assert_action(call, &w, ec);
    } else if (fname == "terminate") {
        WhenAction a;
        a.kind = WhenAction::Kind::Terminate;
        a.range = where;
        if (!call.args.empty() && call.args[0].value->kind == ast::ExprKind::String) a.message = call.args[0].value->text;
        w.actions.push_back(a);
    } else {
        fail(rule::flatten_unsupported_construct, where,
             fmt::format("the call {}(...) inside when is not supported", fname));
    }
}

void Flattener::report_restart_constraint(SourceRange where) {
    sink_.report(rule::flatten_restart_constraint, where,
                 "restart constraint (modeaudit extension 1): relates the left limits pre(v) to the restart values "
                 "v; a standard Modelica tool rejects it");
}

// `v = e` in a when-clause, v a Real variable not declared discrete: by
// Modelica 3.6, 3.8.4 a variable a when-clause assigns is discrete-time (the
// MSL's Pulse keeps its period's start `T_start = time` so). Unless v is
// differentiated somewhere, where it is a state and the equation a restart
// constraint (extension 1), v becomes a discrete Real assigned by the
// clause; an initial equation `v = e` with e known (an initial algorithm's
// `v := e`) gives its start value.
void Flattener::settle_when_assigned_reals() {
    // Differentiated through an alias counts (`a*v + b*w = 0` with der(w)
    // somewhere): the same variable written twice, a state.
    std::vector<int> parent(model_->variables.size());
    std::iota(parent.begin(), parent.end(), 0);
    auto root = [&](int v) {
        while (parent[static_cast<std::size_t>(v)] != v)
            v = parent[static_cast<std::size_t>(v)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(v)])];
        return v;
    };
    if (!when_assigned_reals_.empty())
        for (const FlatEquation& e : model_->equations)
            if (e.active_when.empty())
                if (const std::optional<LinearPair> p = linear_pair(*model_, e))
                    parent[static_cast<std::size_t>(root(p->a))] = root(p->b);
    std::set<int> differentiated_classes;
    for (std::size_t v = 0; v < model_->variables.size(); ++v)
        if (model_->symbols.find_derivative(static_cast<int>(v), 1)) differentiated_classes.insert(root(static_cast<int>(v)));
    std::map<int, bool> discrete;  // variable -> made discrete
    for (const WhenAssignedReal& c : when_assigned_reals_) {
        if (!discrete.count(c.variable)) discrete[c.variable] = !differentiated_classes.count(root(c.variable));
        WhenAction& a = model_->whens.at(c.when).actions.at(c.action);
        if (!discrete[c.variable]) {
            // A state: a restart constraint (extension 1), or in an
            // algorithm flatten-continuous-assigned-in-when.
            if (a.kind == WhenAction::Kind::RestartConstraint) report_restart_constraint(a.range);
            continue;
        }
        a.kind = WhenAction::Kind::AssignDiscrete;
        a.variable = c.variable;
        a.value = a.rhs;
        model_->variables[static_cast<std::size_t>(c.variable)].variability = Variability::Discrete;
    }
    GiNaC::exmap starts;  // the discrete variables' start values
    for (std::size_t v = 0; v < model_->variables.size(); ++v) {
        const FlatVariable& var = model_->variables[v];
        if (var.variability == Variability::Discrete && var.start && numeric_value(*var.start))
            starts[model_->symbols.variable(static_cast<int>(v))] = *var.start;
    }
    // A discrete Real given a known value by an initial equation (`discrete
    // Real x; initial equation x = 1;`, an initial algorithm's `x := 1`):
    // that value is its start.
    for (std::size_t vi = 0; vi < model_->variables.size(); ++vi) {
        const int v = static_cast<int>(vi);
        if (model_->variables[vi].variability != Variability::Discrete || model_->variables[vi].type != BaseType::Real)
            continue;
        const ex sym = model_->symbols.variable(v);
        auto& ie = model_->initial_equations;
        for (auto it = ie.begin(); it != ie.end(); ++it) {
            if (!it->lhs.is_equal(sym)) continue;
            const std::optional<GiNaC::numeric> n = numeric_value(it->rhs.subs(starts, kExactSubs));
            if (!n || !n->is_real()) break;
            FlatVariable& var = model_->variables[static_cast<std::size_t>(v)];
            var.start = ex(*n);
            var.fixed = true;
            starts[sym] = *n;
            ie.erase(it);
            break;
        }
    }
}

void Flattener::when_equations(const std::vector<ast::Equation>& body, FlatWhen& w, const Ctx& ctx) {
    for (const ast::Equation& eq : body) {
        switch (eq.kind) {
            case ast::EquationKind::Simple: {
                int single = -1;  // a Real variable alone on the left (when_assigned_reals)
                if (eq.lhs->kind == ast::ExprKind::Ref) {
                    Resolved r = resolve(eq.lhs->ref, ctx);
                    if (!r.local && r.member->kind == Member::Kind::Scalar) {
                        int v = r.member->variable;
                        single = v;
                        const FlatVariable& var = model_->variables[static_cast<std::size_t>(v)];
                        if (var.variability == Variability::Discrete) {
                            WhenAction a;
                            a.kind = WhenAction::Kind::AssignDiscrete;
                            a.variable = v;
                            a.range = eq.range;
                            if (var.type == BaseType::Boolean)
                                a.bool_value = fold(condition(*eq.rhs, ctx));
                            else
                                a.value = scalar(*eq.rhs, ctx, "the assigned value");
                            w.actions.push_back(a);
                            continue;
                        }
                        if (var.variability != Variability::Continuous)
                            fail(rule::flatten_type_mismatch, eq.range,
                                 fmt::format("'{}' is a parameter; it cannot change at an event", var.name));
                    }
                }
                // Extension 1: a restart constraint between left limits pre(v) and restart values v.
                Value l = value(*eq.lhs, ctx), rv = value(*eq.rhs, ctx);
                if (l.dims != rv.dims)
                    fail(rule::flatten_type_mismatch, eq.range,
                         fmt::format("the two sides have shapes {} and {}", l.shape(), rv.shape()));
                for (std::size_t i = 0; i < l.size(); ++i) {
                    WhenAction a;
                    a.kind = WhenAction::Kind::RestartConstraint;
                    a.lhs = l.elems[i];
                    a.rhs = rv.elems[i];
                    a.range = eq.range;
                    w.actions.push_back(a);
                }
                if (single >= 0 && l.is_scalar()) {
                    // Decided once every der() is known (settle_when_assigned_reals).
                    when_assigned_reals_.push_back({model_->whens.size(), w.actions.size() - 1, single});
                    break;
                }
                report_restart_constraint(eq.range);
                break;
            }
            case ast::EquationKind::Call:
                when_call(*eq.call, eq.range, w, ctx);
                break;
            case ast::EquationKind::For: {
                for_each_iteration(eq.indices, {.equations = &eq.body}, ctx,
                                   [&](const Ctx& c2) { when_equations(eq.body, w, c2); });
                break;
            }
            case ast::EquationKind::If:
                if (const auto* chosen = static_branch(eq.branches, ctx,
                                                     "an if-equation inside when with a non-parameter condition is "
                                                     "not supported; use if-expressions in the assigned values"))
                    when_equations(*chosen, w, ctx);
                break;
            case ast::EquationKind::When:
                fail(rule::flatten_unsupported_construct, eq.range, "when-clauses cannot be nested (Modelica 8.3.5)");
            case ast::EquationKind::Connect:
                fail(rule::flatten_unsupported_construct, eq.range, "connect inside when is not allowed");
        }
    }
}

void Flattener::when_statements(const std::vector<ast::Statement>& body, FlatWhen& w, const Ctx& ctx) {
    for (const ast::Statement& s : body) {
        switch (s.kind) {
            case ast::StatementKind::Assign: {
                if (!s.lhs || s.lhs->kind != ast::ExprKind::Ref)
                    fail(rule::flatten_unsupported_construct, s.range, "multiple assignment inside when is not supported");
                Resolved r = resolve(s.lhs->ref, ctx);
                if (r.local || r.member->kind != Member::Kind::Scalar)
                    fail(rule::flatten_unsupported_construct, s.range, "assignment of an array inside when");
                int v = r.member->variable;
                const FlatVariable& var = model_->variables[static_cast<std::size_t>(v)];
                WhenAction a;
                a.variable = v;
                a.range = s.range;
                if (var.variability == Variability::Discrete) {
                    a.kind = WhenAction::Kind::AssignDiscrete;
                    if (var.type == BaseType::Boolean)
                        a.bool_value = fold(condition(*s.rhs, ctx));
                    else
                        a.value = scalar(*s.rhs, ctx, "the assigned value");
                } else if (var.variability == Variability::Continuous) {
                    a.kind = WhenAction::Kind::AssignContinuous;  // flatten-continuous-assigned-in-when
                    Ctx vc = ctx;
                    vc.pre_for_state = true;
                    a.value = scalar(*s.rhs, vc, "the assigned value");
                    // Unless v is differentiated: a discrete Real, assigned
                    // this value at the event (settle_when_assigned_reals).
                    if (var.type == BaseType::Real) {
                        a.rhs = scalar(*s.rhs, ctx, "the assigned value");
                        when_assigned_reals_.push_back({model_->whens.size(), w.actions.size(), v});
                    }
                } else {
                    fail(rule::flatten_type_mismatch, s.range,
                         fmt::format("'{}' is a parameter; it cannot be assigned at an event", var.name));
                }
                w.actions.push_back(a);
                break;
            }
            case ast::StatementKind::Call:
                when_call(*s.call, s.range, w, ctx);
                break;
            case ast::StatementKind::If:
                if (const auto* chosen = static_branch(
                        s.branches, ctx, "an if-statement inside when with a non-parameter condition is not supported"))
                    when_statements(*chosen, w, ctx);
                break;
            case ast::StatementKind::For: {
                for_each_iteration(s.indices, {.statements = &s.body}, ctx,
                                   [&](const Ctx& c2) { when_statements(s.body, w, c2); });
                break;
            }
            case ast::StatementKind::When:
                fail(rule::flatten_unsupported_construct, s.range, "when-statements cannot be nested");
            default:
                fail(rule::flatten_unsupported_construct, s.range,
                     s.kind == ast::StatementKind::While
                         ? "a while loop is not supported in a model's algorithm (only in a function's)"
                         : "this statement is not supported inside when");
        }
    }
}

void Flattener::when_clause(const std::vector<ast::Branch<ast::Equation>>* eqb,
                            const std::vector<ast::Branch<ast::Statement>>* stb, const EqCtx& ec,
                            SourceRange where) {
    int chain = ++when_chain_;
    std::size_t n = eqb ? eqb->size() : stb->size();
    for (std::size_t i = 0; i < n; ++i) {
        const ast::Expr* cond = eqb ? (*eqb)[i].condition.get() : (*stb)[i].condition.get();
        SourceRange brange = eqb ? (*eqb)[i].range : (*stb)[i].range;
        FlatWhen w;
        w.chain = chain;
        w.priority = static_cast<int>(i);
        w.in_algorithm = stb != nullptr;
        w.range = i == 0 ? where : brange;
        if (!cond) fail(rule::parse_syntax_error, brange, "when without a condition");
        std::vector<const ast::Expr*> triggers;
        if (cond->kind == ast::ExprKind::Array)
            for (const ast::ExprPtr& c : cond->operands) triggers.push_back(c.get());
        else
            triggers.push_back(cond);
        for (const ast::Expr* t : triggers) {
            if (is_terminal_call(*t)) {
                w.terminal = true;
                continue;
            }
            ConditionPtr c = fold(condition(*t, ec.ctx));
            if (c->kind == Condition::Kind::Initial)
                w.initial = true;
            else
                w.triggers.push_back(c);
        }
        Ctx body = ec.ctx;
        body.in_when = true;
        if (eqb)
            when_equations((*eqb)[i].body, w, body);
        else
            when_statements((*stb)[i].body, w, body);
        model_->whens.push_back(std::move(w));
    }
}

}  // namespace modeaudit::flat_impl
