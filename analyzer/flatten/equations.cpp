// The flattener's equations (flattener.cpp has the order of work):
// equation sections to flat equations (for-loops expanded, if-equations
// with parameter conditions resolved, others given condition symbols),
// initial equations of discrete variables, connect equations recorded.
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

// =========================================================================== equations

void Flattener::equations(const std::vector<ast::Equation>& eqs, const EqCtx& ec) {
    for (const ast::Equation& eq : eqs) equation(eq, ec);
}

void Flattener::add_equation(const Value& l, const Value& r, const ast::Equation* src, SourceRange where,
                             const EqCtx& ec, const std::string& origin) {
    if (l.dims != r.dims)
        fail(rule::flatten_type_mismatch, where,
             fmt::format("the two sides of the equation have shapes {} and {}", l.shape(), r.shape()));
    counted_ += l.size();
    for (std::size_t i = 0; i < l.size(); ++i) {
        FlatEquation fe;
        fe.lhs = l.elems[i];
        fe.rhs = r.elems[i];
        fe.range = where;
        fe.origin = origin;
        fe.active_when = ec.active;
        fe.initial = ec.initial;
        (ec.initial ? model_->initial_equations : model_->equations).push_back(std::move(fe));
    }
    (void)src;
}

std::vector<std::string> Flattener::suppressions(const ast::Modification* annotation, const Ctx& ctx) {
    std::vector<std::string> out;
    if (!annotation) return out;
    for (const ast::ElementModification& em : annotation->arguments) {
        if (em.name.dotted() != "__ModeAudit" || !em.mod) continue;
        for (const ast::ElementModification& a : em.mod->arguments) {
            if (a.name.dotted() != "suppress" || !a.mod || !a.mod->binding) continue;
            const ast::Expr& b = *a.mod->binding;
            auto take = [&](const ast::Expr& s) {
                if (s.kind != ast::ExprKind::String)
                    fail(rule::flatten_type_mismatch, s.range, "suppress = {\"rule-id\", ...} takes strings");
                if (!find_rule(s.text))
                    fail(rule::flatten_undefined_name, s.range,
                         fmt::format("unknown rule '{}' in suppress; `modeaudit rules` lists them", s.text));
                out.push_back(s.text);
            };
            if (b.kind == ast::ExprKind::Array)
                for (const ast::ExprPtr& s : b.operands) take(*s);
            else
                take(b);
        }
    }
    (void)ctx;
    return out;
}

bool Flattener::initial_pre(const InitialPre& ip, const ast::Equation& eq, const Ctx& ctx) {
    Resolved r = resolve(*ip.variable, ctx);
    if (r.local || !r.member || r.member->kind != Member::Kind::Scalar) return false;
    const int v = r.member->variable;
    const FlatVariable& var = model_->variables[static_cast<std::size_t>(v)];
    if (var.variability != Variability::Discrete ||
        (var.type != BaseType::Boolean && var.type != BaseType::Integer))
        return false;
    ex got;
    const std::optional<ex> start = known_discrete_start(var.type, *ip.value, ctx, {}, got);
    FlatVariable& w = model_->variables[static_cast<std::size_t>(v)];  // evaluating may have added variables
    if (!start)
        fail(rule::flatten_unsupported_construct, eq.range,
             w.type == BaseType::Boolean
                 ? fmt::format("the initial equation gives pre({}) a value known only at the start; modeaudit needs "
                               "a parameter expression there (the start of a discrete variable)",
                               w.name)
                 : fmt::format("the initial equation gives pre({}) the value {}, not an integer known when "
                               "flattening; modeaudit needs a parameter expression there",
                               w.name, canonical(got)));
    w.start = *start;
    w.fixed = true;
    return true;
}

std::optional<ex> Flattener::known_discrete_start(BaseType type, const ast::Expr& e, const Ctx& ctx,
                                                  const GiNaC::exmap& subs, ex& got) {
    if (type == BaseType::Boolean) {
        ConditionPtr c = fold(condition(e, ctx));
        if (c->kind != Condition::Kind::Constant) return std::nullopt;
        return ex(c->value ? 1 : 0);
    }
    got = scalar(e, ctx, "the start of a discrete variable").subs(subs, kExactSubs);
    const std::optional<GiNaC::numeric> n = numeric_value(got);
    if (!n || !n->is_integer()) return std::nullopt;
    return ex(*n);
}

void Flattener::equation(const ast::Equation& eq, const EqCtx& outer) {
    EqCtx ec = outer;
    if (eq.annotation) {
        auto s = suppressions(eq.annotation.get(), ec.ctx);
        if (!s.empty()) model_->suppressions.push_back({eq.range, std::move(s)});
    }
    const Ctx& ctx = ec.ctx;
    switch (eq.kind) {
        case ast::EquationKind::Simple: {
            if (eq.lhs->kind == ast::ExprKind::Tuple) {
                tuple_equation(*eq.lhs, *eq.rhs, &eq, eq.range, ec);
                return;
            }
            // `pre(y) = e` at the start: y's start value (initial_pre.h).
            if (ec.initial)
                if (auto ip = initial_pre_equation(eq)) {
                    if (initial_pre(*ip, eq, ctx)) return;
                }
            // `r1 = r2` between records: one equation per field (records.h).
            if (record_valued(*eq.lhs, ctx) || record_valued(*eq.rhs, ctx)) {
                record_equation(eq, ec);
                return;
            }
            // A Boolean variable defined by a relation: the MSL diode's `off = s < 0;`.
            if (eq.lhs->kind == ast::ExprKind::Ref) {
                Resolved r = resolve(eq.lhs->ref, ctx);
                if (!r.local && r.member->kind == Member::Kind::Scalar) {
                    const FlatVariable& var = model_->variables[static_cast<std::size_t>(r.member->variable)];
                    if (var.type == BaseType::Boolean) {
                        if (var.variability != Variability::Discrete)
                            fail(rule::flatten_type_mismatch, eq.range,
                                 fmt::format("'{}' is a {}; it cannot be defined by an equation", var.name,
                                             var.variability == Variability::Parameter ? "parameter" : "constant"));
                        if (!ec.active.empty())
                            fail(rule::flatten_unsupported_construct, eq.range,
                                 "a Boolean defined inside an if-equation with a non-parameter condition");
                        RelationDefinition rd;
                        rd.variable = r.member->variable;
                        rd.condition = fold(condition(*eq.rhs, ctx));
                        rd.range = eq.range;
                        model_->relation_definitions.push_back(rd);
                        return;
                    }
                    if (var.type == BaseType::Integer && var.variability == Variability::Discrete) {
                        if (!ec.active.empty())
                            fail(rule::flatten_unsupported_construct, eq.range,
                                 "an Integer defined inside an if-equation with a non-parameter condition");
                        define_integer(r.member->variable, *eq.rhs, ctx, eq.range);
                        return;
                    }
                }
            }
            Value l = value(*eq.lhs, ctx);
            Value r = value(*eq.rhs, ctx);
            add_equation(l, r, &eq, eq.range, ec, "equation");
            return;
        }
        case ast::EquationKind::Connect:
            if (!ec.active.empty())
                fail(rule::flatten_unsupported_construct, eq.range,
                     "connect inside an if-equation with a non-parameter condition is not supported");
            connect(eq, ec);
            return;
        case ast::EquationKind::If: {
            if (terminal_asserts(eq.branches)) {
                FlatWhen w;
                w.chain = ++when_chain_;
                w.terminal = true;
                w.range = eq.range;
                Ctx body = ctx;
                body.in_when = true;
                when_equations(eq.branches[0].body, w, body);
                model_->whens.push_back(std::move(w));
                return;
            }
            std::vector<std::pair<int, bool>> negated;  // earlier conditions, false
            FlatModel::IfEquationShape shape;
            shape.range = eq.range;
            bool any_dynamic = false;
            for (const auto& br : eq.branches) {
                ConditionPtr c;
                if (br.condition) {
                    c = fold(condition(*br.condition, ctx));
                    if (c->kind == Condition::Kind::Constant && !any_dynamic) {
                        if (c->value) {
                            equations(br.body, ec);
                            return;
                        }
                        continue;  // a false parameter branch is dropped
                    }
                }
                EqCtx bc = ec;
                bc.active.insert(bc.active.end(), negated.begin(), negated.end());
                if (c && c->kind == Condition::Kind::Constant) {
                    if (!c->value) continue;
                    // a true branch after dynamic ones: acts as else
                } else if (c) {
                    int k = new_condition(c, br.condition->range);
                    bc.active.emplace_back(k, true);
                    negated.emplace_back(k, false);
                    any_dynamic = true;
                } else {
                    shape.has_else = true;
                }
                if (!any_dynamic) {
                    // only an else branch remains after false parameter branches
                    equations(br.body, ec);
                    return;
                }
                std::size_t before = counted_;
                equations(br.body, bc);
                shape.branch_sizes.push_back(counted_ - before);
                counted_ = before;
                shape.branch_ranges.push_back(br.range);
                if (c && c->kind == Condition::Kind::Constant) {
                    shape.has_else = true;
                    break;
                }
            }
            if (any_dynamic) {
                // In any one mode a single branch is active: count the first.
                counted_ += shape.branch_sizes.empty() ? 0 : shape.branch_sizes.front();
                model_->if_equations.push_back(shape);
            }
            return;
        }
        case ast::EquationKind::For: {
            for_each_iteration(eq.indices, {.equations = &eq.body}, ctx, [&](const Ctx& c2) {
                EqCtx fc = ec;
                fc.ctx = c2;
                equations(eq.body, fc);
            });
            return;
        }
        case ast::EquationKind::When:
            if (ctx.in_when)
                fail(rule::flatten_unsupported_construct, eq.range, "when-clauses cannot be nested (Modelica 8.3.5)");
            if (!ec.active.empty())
                fail(rule::flatten_unsupported_construct, eq.range,
                     "a when-clause inside an if-equation with a non-parameter condition is not supported");
            when_clause(&eq.branches, nullptr, ec, eq.range);
            return;
        case ast::EquationKind::Call: {
            std::string fname = eq.call->ref.dotted();
            if (fname == "assert") {
                assert_action(*eq.call, nullptr, ec);
                return;
            }
            if (fname == "reinit") {
                model_->reinit_outside_when.push_back(eq.range);
                return;
            }
            if (fname == "terminate")
                fail(rule::flatten_unsupported_construct, eq.range, "terminate() outside a when-clause is not supported");
            fail(rule::flatten_unsupported_construct, eq.range,
                 fmt::format("the call equation {}(...) is not supported", fname));
        }
    }
}

// `k := e` in an initial algorithm, k a parameter with fixed = false (the
// MSL's SimpleFriction computes its coefficient so): k's value is e, which
// must follow from parameters and constants. k stays a symbol of the
// equations (kept symbolic, like Evaluate = false) with that value.
void Flattener::initial_parameter(int v, const ast::Statement& s, const Ctx& ctx, GiNaC::exmap& current) {
    {
        // A value k already has (its binding, or its start value taken where
        // it was used before this section) may sit in equations as a number:
        // replacing it now would leave them with the old one.
        const ParamState& before = params_[static_cast<std::size_t>(v)];
        const FlatVariable& k = model_->variables[static_cast<std::size_t>(v)];
        const bool assigned_here = current.count(model_->symbols.variable(v)) > 0;  // an earlier `k := ...`
        if (!assigned_here && (before.binding || (before.state == ParamState::State::Done && before.has_value)))
            fail(rule::flatten_unsupported_construct, s.range,
                 fmt::format("the initial algorithm assigns the parameter '{}' (fixed = false), which already has "
                             "the value {} from its {}; remove that value, the initial algorithm gives it",
                             k.name, canonical(before.has_value ? before.value : ex(0)),
                             before.binding ? "binding" : "start value"));
    }
    if (params_[static_cast<std::size_t>(v)].state != ParamState::State::Done) param_value(v, s.range);
    const ex val = scalar(*s.rhs, ctx, "the assigned value").subs(current, kExactSubs);
    const std::optional<GiNaC::numeric> n = numeric_value(val);
    FlatVariable& var = model_->variables[static_cast<std::size_t>(v)];
    if (!n || !n->is_real())
        fail(rule::flatten_unsupported_construct, s.range,
             fmt::format("the initial algorithm assigns the parameter '{}' (fixed = false) a value that is not known "
                         "from parameters and constants ({}); only such values are supported",
                         var.name, canonical(val)));
    ParamState& ps = params_[static_cast<std::size_t>(v)];
    ps.value = *n;
    ps.has_value = true;
    ps.state = ParamState::State::Done;
    var.value = ex(*n);
    var.unknown_constant = false;
    var.kept_symbolic = true;
    current[model_->symbols.variable(v)] = *n;
}

// `k := e` in an initial algorithm, k a discrete Boolean or Integer (the
// MSL's Pulse counts its periods so): e at the start, t = 0 (the simulation
// starts there), from parameters, constants and earlier assignments of the
// section, becomes k's start value, as `pre(k) = e` in an initial equation
// does (initial_pre.h).
void Flattener::initial_discrete(int v, const ast::Statement& s, const Ctx& ctx, GiNaC::exmap& current) {
    GiNaC::exmap at_start = current;
    at_start[model_->symbols.time()] = 0;
    ex got;
    const std::optional<ex> start =
        known_discrete_start(model_->variables[static_cast<std::size_t>(v)].type, *s.rhs, ctx, at_start, got);
    FlatVariable& var = model_->variables[static_cast<std::size_t>(v)];  // evaluating may have added variables
    if (!start)
        fail(rule::flatten_unsupported_construct, s.range,
             var.type == BaseType::Boolean
                 ? fmt::format("the initial algorithm assigns the discrete variable '{}' a value not known when "
                               "flattening; modeaudit needs a parameter expression there (its start value)",
                               var.name)
                 : fmt::format("the initial algorithm assigns the discrete variable '{}' the value {}, not an "
                               "integer known when flattening at t = 0; modeaudit needs a parameter expression "
                               "there (its start value)",
                               var.name, canonical(got)));
    var.start = *start;
    var.fixed = true;
    current[model_->symbols.variable(v)] = *start;
}

void Flattener::connect(const ast::Equation& eq, const EqCtx& ec) {
    struct Connecting {
        bool& flag;
        bool was;
        ~Connecting() { flag = was; }
    } connecting{connecting_, connecting_};
    connecting_ = true;
    ConnectRecord rec;
    rec.range = eq.range;
    // A connect equation with a side in an absent conditional component is
    // removed (Modelica 3.6, 4.4.5).
    for (const ast::Expr* e : {eq.lhs.get(), eq.rhs.get()})
        if (e && e->kind == ast::ExprKind::Ref && through_absent(e->ref, ec.ctx)) return;
    auto side = [&](const ast::Expr& e, ConnectorRef& out) {
        if (e.kind != ast::ExprKind::Ref)
            fail(rule::flatten_type_mismatch, e.range, "connect() takes two connectors");
        Resolved r = resolve(e.ref, ec.ctx);
        if (r.local) fail(rule::flatten_type_mismatch, e.range, "connect() takes connectors, not iterators");
        if (r.expandable_in) {  // an element of an expandable connector (added by the connection if undeclared)
            out.member = r.member;
            out.name = r.name;
            out.expandable_in = ExpandableElementRef{*r.expandable_in, r.element};
            out.inside = e.ref.parts.size() > 1;
            out.range = e.range;
            return;
        }
        if (!r.member->is_connector)
            fail(rule::flatten_type_mismatch, e.range,
                 fmt::format("'{}' is not a connector; connect() joins connectors", r.name));
        out.member = r.member;
        out.name = r.name;
        // Section 9.1.2: `c` is an outside connector of this instance, `a.c` an inside one.
        out.inside = e.ref.parts.size() > 1;
        out.range = e.range;
    };
    side(*eq.lhs, rec.a);
    side(*eq.rhs, rec.b);
    rec.text = fmt::format("connect({}, {})", rec.a.name, rec.b.name);
    connects_.push_back(std::move(rec));
}

}  // namespace modeaudit::flat_impl
