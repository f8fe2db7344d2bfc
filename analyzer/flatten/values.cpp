// The flattener's expressions (flattener.cpp has the order of work):
// parameter values (lazy, cycles detected), name resolution, expressions
// to GiNaC values with their shapes, ranges and for-iterations, the
// built-in calls.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <charconv>
#include <functional>
#include <set>
#include <sstream>

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
#include "flatten/builtin_calls.h"
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

// =========================================================================== values

// A parameter's value whose written-out tree is beyond the size limit
// (flatten/expression_limits.h): refused at once, before any later walk over
// it takes time exponential in a chain of parameters.
static void check_value_size(const std::string& name, const ex& value, SourceRange range) {
    const double limit = kWrittenOutNodesPerTerm * static_cast<double>(max_expression_terms());
    if (written_out_size(value, limit + 1) > limit)
        throw LimitExceeded(fmt::format("the value of parameter '{}' has more than {:.0f} operations when written "
                                        "out (its binding reuses parameters whose values grow at each step), the "
                                        "limit on the expression size",
                                        name, limit),
                            "expression size", "--max-expression-terms", range);
}

// A value that becomes a double in the later stages must be one: beyond
// the largest IEEE double (1e200*1e200) it would be infinity, and a non-zero
// value below the smallest one zero (CLN signals both as exceptions when a
// stage converts). Values that are not numbers (a symbolic parameter) are
// checked where they are evaluated.
void Flattener::check_double_range(const ex& value, SourceRange range, const std::string& what) {
    ex f;
    try {
        f = value.evalf();
    } catch (const std::exception&) {
        return;  // not a number here (evaluation fails where it is used, with its own message)
    }
    if (!GiNaC::is_a<GiNaC::numeric>(f) || !GiNaC::ex_to<GiNaC::numeric>(f).is_real()) return;
    const GiNaC::numeric a = GiNaC::abs(GiNaC::ex_to<GiNaC::numeric>(f));
    // Round to nearest: infinity from 2^1024 - 2^970 (the largest double
    // plus half its last place), zero up to 2^-1075 (half the smallest
    // subnormal), both exact (CLN signals an underflow when a subnormal
    // double itself is made a number).
    static const GiNaC::numeric two(2);
    static const GiNaC::numeric overflow = two.power(1024) - two.power(970);
    static const GiNaC::numeric underflow = GiNaC::numeric(1) / two.power(1075);
    auto shown = [&] {
        std::ostringstream os;
        os << GiNaC::ex(GiNaC::ex_to<GiNaC::numeric>(f)).evalf();
        return os.str();
    };
    if (a >= overflow)
        fail(rule::flatten_invalid_value, range,
             fmt::format("{} is {}, larger than the largest IEEE double, 1.7976931348623157e308 (Modelica 3.6 "
                         "section 2.4.1): every stage computes with doubles, where it would be infinity; scale the "
                         "model's units or its parameters",
                         what, shown()));
    if (!a.is_zero() && a <= underflow)
        fail(rule::flatten_invalid_value, range,
             fmt::format("{} is {}, smaller than the smallest non-zero IEEE double, about 4.9e-324 (Modelica 3.6 "
                         "section 2.4.1): every stage computes with doubles, where it would be zero; scale the "
                         "model's units or its parameters",
                         what, shown()));
}

ex Flattener::power_value(const ex& x, const ex& y, const ast::Expr& e) {
    // An exact rational raised to a large exact power has as many digits as
    // the power times the digits of the base: 3.141^265358979 took 100 s and
    // 2.3 GB to write out (flatten fuzzing), (1001/1000)^100000 is 1e43 with
    // 300,000 digits. Past 4096 bits the power is computed in doubles, as the
    // later stages would, after its size is checked.
    auto nx = numeric_value(x), ny = numeric_value(y);
    if (!nx || !ny || !nx->is_rational() || !ny->is_rational() || nx->is_zero()) return GiNaC::pow(x, y);
    const GiNaC::numeric ax = GiNaC::abs(*nx);
    const double bits = static_cast<double>(ax.numer().int_length() + ax.denom().int_length());
    const double exponent = ny->to_double();
    if (std::abs(exponent) * bits <= 4096) return GiNaC::pow(x, y);
    const double log2_size = exponent * std::log2(ax.to_double());
    if (log2_size >= 1024 || log2_size <= -1075)
        fail(rule::flatten_invalid_value, e.range,
             fmt::format("'{}' is about 2^{:.0f}, {} than an IEEE double can hold (Modelica 3.6 section 2.4.1): "
                         "every stage computes with doubles, where it would be {}; scale the model's units or its "
                         "parameters",
                         ast::to_modelica(e), log2_size, log2_size > 0 ? "larger" : "smaller",
                         log2_size > 0 ? "infinity" : "zero"));
    return GiNaC::pow(GiNaC::ex(*nx).evalf(), ny->is_integer() ? y : y.evalf());
}

ex Flattener::param_value(int v, SourceRange use) {
    // Evaluating a binding may add variables (package constants): `var` is
    // fetched again after each evaluation; params_ is a deque (stable).
    ParamState& ps = params_[static_cast<std::size_t>(v)];
    FlatVariable* var = &model_->variables[static_cast<std::size_t>(v)];
    if (ps.state == ParamState::State::Done) {
        if (var->kept_symbolic || !ps.has_value) return model_->symbols.variable(v);
        return ps.value;
    }
    if (ps.state == ParamState::State::InProgress) {
        // Name the whole cycle: the parameters being evaluated from v onwards.
        std::string cycle;
        auto from = std::find(param_stack_.begin(), param_stack_.end(), v);
        for (auto it = from; it != param_stack_.end(); ++it)
            cycle += model_->variables[static_cast<std::size_t>(*it)].name + " -> ";
        cycle += var->name;
        fail(rule::flatten_parameter_cycle, ps.range.valid() ? ps.range : var->range,
             fmt::format("the value of '{}' depends on itself: {}", var->name, cycle),
             {fmt::format("used at {}:{}", use.begin.line, use.begin.column)});
    }
    if (var->type == BaseType::String) {
        // A String (a record's label, a description) carries no number: its
        // binding is not evaluated; using it as a number is refused where used.
        ps.state = ParamState::State::Done;
        return model_->symbols.variable(v);
    }
    ps.state = ParamState::State::InProgress;
    param_stack_.push_back(v);
    if (ps.binding && var->type == BaseType::Boolean) {
        Ctx ctx{ps.scope, nullptr};
        ctx.lex = ps.lex;
        ConditionPtr c = fold(selected_condition(*ps.binding, ctx, ps.path, ps.range, var->name));
        var = &model_->variables[static_cast<std::size_t>(v)];
        if (c->kind != Condition::Kind::Constant)
            fail(rule::flatten_type_mismatch, ps.range,
                 fmt::format("the Boolean parameter '{}' must have a value known when flattening", var->name));
        ps.value = c->value ? 1 : 0;
        ps.has_value = true;
        var->value = ps.value;
    } else if (ps.binding) {
        Ctx ctx{ps.scope, nullptr};
        ctx.lex = ps.lex;
        Value val = selected_value(*ps.binding, ctx, ps.path, ps.range, var->name);
        var = &model_->variables[static_cast<std::size_t>(v)];
        if (!val.is_scalar())
            fail(rule::flatten_type_mismatch, ps.range,
                 fmt::format("'{}' is a scalar but its binding has shape {}", var->name, val.shape()));
        check_value_size(var->name, val.elems[0], ps.range);
        check_double_range(val.elems[0], ps.range, fmt::format("the value of '{}'", var->name));
        ps.value = val.elems[0];
        ps.has_value = true;
        var->value = ps.value;
    } else if (var->variability == Variability::Parameter && var->start) {
        ps.value = *var->start;  // Modelica: a parameter without binding uses its start value
        ps.has_value = true;
        var->value = ps.value;
    } else if (var->variability == Variability::Parameter) {
        var->unknown_constant = true;
        var->kept_symbolic = true;
    } else {
        fail(rule::flatten_type_mismatch, var->range,
             fmt::format("constant '{}' has no value; give it a binding", var->name));
    }
    ps.state = ParamState::State::Done;
    param_stack_.pop_back();
    if (var->kept_symbolic || !ps.has_value) return model_->symbols.variable(v);
    return ps.value;
}

ex Flattener::variable_ex(int v, const Ctx& ctx, SourceRange use) {
    const FlatVariable& var = model_->variables[static_cast<std::size_t>(v)];
    if (var.variability == Variability::Constant || var.variability == Variability::Parameter)
        return param_value(v, use);
    if (ctx.pre_for_state && var.variability == Variability::Continuous) return model_->symbols.pre(v);
    return model_->symbols.variable(v);
}

Resolved Flattener::resolve(const ast::ComponentRef& ref, const Ctx& ctx) {
    Resolved r;
    if (ref.parts.empty()) MODEAUDIT_UNREACHABLE("empty component reference");
    const ast::NamePart& first = ref.parts[0];
    if (ctx.locals && !ref.global && ref.parts.size() > 1 && !ctx.locals->count(first.ident) &&
        std::all_of(ref.parts.begin(), ref.parts.end(), [](const ast::NamePart& p) { return p.subscripts.empty(); })) {
        // A field of a record input of a function: the local "r.a".
        auto it = ctx.locals->find(ref.dotted());
        if (it != ctx.locals->end()) {
            r.local = it->second;
            r.name = ref.dotted();
            return r;
        }
    }
    if (ctx.locals && !ref.global) {
        auto it = ctx.locals->find(first.ident);
        if (it != ctx.locals->end()) {
            if (ref.parts.size() > 1)
                fail(rule::flatten_type_mismatch, ref.range, fmt::format("'{}' has no components", first.ident));
            Value v = it->second;
            for (const ast::ExprPtr& s : first.subscripts) {
                long k = integer(*s, ctx, "a subscript");
                std::optional<Value> part = v.element(k);
                if (!part)
                    fail(rule::flatten_type_mismatch, s->range,
                         fmt::format("subscript {} is out of range for '{}' of shape {}", k, first.ident,
                                     v.shape()));
                v = *part;
            }
            r.local = v;
            r.name = first.ident;
            return r;
        }
    }
    // Components of the instance; then those of enclosing instances are not
    // visible (Modelica lookup stops at the class), except constants.
    const Member* cur = nullptr;
    Instance* where = ctx.inst;
    if (where) {
        auto it = where->members.find(first.ident);
        if (it == where->members.end() && !ref.global && add_on_demand(*where, first.ident, first.range))
            it = where->members.find(first.ident);
        if (it != where->members.end()) cur = &it->second;
        if (cur && !ref.global && !connecting_ && where->conditional().count(first.ident))
            fail(rule::flatten_type_mismatch, first.range,
                 fmt::format("'{}' is a conditional component: it may be used only in connect equations "
                             "(Modelica 3.6, 4.4.5), not in an expression",
                             where->qualify(first.ident)),
                 {"connect it to an unconditional component and use that one, as the standard library's "
                  "conditional ports do"});
    }
    if (!cur && !ref.global) {
        // A constant of an enclosing instance's class (packages are not instantiated).
        for (Instance* up = where ? where->parent : nullptr; up && !cur; up = up->parent) {
            auto it = up->members.find(first.ident);
            if (it != up->members.end() && it->second.prefix.constant) cur = &it->second;
        }
    }
    if (!cur && where && !ref.global && where->absent().count(first.ident))
        fail(rule::flatten_undefined_name, first.range,
             fmt::format("'{}' is a conditional component whose condition is false, so it does not exist; "
                         "it may be used only in connect equations (which are then dropped)",
                         where->qualify(first.ident)));
    std::string name = where ? where->qualify(first.ident) : first.ident;
    std::size_t start = 0;  // the part `cur` stands for
    if (!cur) {
        // A package element: a constant (`Lib.Constants.pi`, or a constant
        // of an enclosing class) or an enumeration literal (5.3).
        std::optional<NameHit> hit = lookup_.lookup_element(ref, lex_of(ctx));
        if (hit && hit->kind == NameHit::Kind::Literal) {
            if (hit->parts != ref.parts.size() || !ref.parts[hit->parts - 1].subscripts.empty())
                fail(rule::flatten_type_mismatch, ref.range,
                     fmt::format("'{}': an enumeration literal has no components or subscripts", ref.dotted()));
            r.local = Value::scalar(hit->literal);
            r.name = ref.dotted();
            return r;
        }
        if (hit && hit->kind == NameHit::Kind::Class)
            fail(rule::flatten_type_mismatch, ref.range,
                 fmt::format("'{}' is a class, not a value", ref.dotted()));
        if (hit && hit->kind == NameHit::Kind::Component) {
            for (std::size_t i = 0; i + 1 < hit->parts; ++i)
                if (!ref.parts[i].subscripts.empty())
                    fail(rule::flatten_type_mismatch, ref.parts[i].range,
                         fmt::format("'{}' is a class; it takes no subscripts", ref.parts[i].ident));
            cur = &package_member(*hit, ref.range);
            start = hit->parts - 1;
            name = lookup_.full_name(hit->cls.lex) + "." + hit->decl->name;
        }
    }
    if (!cur) {
        std::vector<std::string> notes = lookup_.unreachable_notes(ref);
        fail(rule::flatten_undefined_name, first.range,
             fmt::format("'{}' is not declared{}", ref.dotted(),
                         where && !where->path.empty() ? fmt::format(" in '{}'", where->path) : std::string()),
             notes);
    }
    // Apply subscripts and descend through parts.
    for (std::size_t i = start; i < ref.parts.size(); ++i) {
        const ast::NamePart& part = ref.parts[i];
        if (i > start) {
            if (cur->kind != Member::Kind::Object)
                fail(rule::flatten_undefined_name, part.range,
                     fmt::format("'{}' has no component '{}'", name, part.ident));
            auto it = cur->object->members.find(part.ident);
            if (it == cur->object->members.end() && cur->object->absent().count(part.ident))
                fail(rule::flatten_undefined_name, part.range,
                     fmt::format("'{}.{}' is a conditional component whose condition is false, so it does not "
                                 "exist; it may be used only in connect equations (which are then dropped)",
                                 name, part.ident));
            if (it == cur->object->members.end() && cur->object->expandable()) {
                // An element an expandable connector gets from connect().
                if (connecting_ && i + 1 == ref.parts.size() && part.subscripts.empty()) {
                    r.member = nullptr;
                    r.name = name + "." + part.ident;
                    r.expandable_in = cur->object->path;
                    r.element = part.ident;
                    return r;
                }
                fail(rule::flatten_unsupported_construct, part.range,
                     fmt::format("'{}' is no declared element of the expandable connector '{}'; an element that "
                                 "connect() adds (Modelica 3.6, 9.1.3) can be named only as a whole side of a "
                                 "connect equation here",
                                 name + "." + part.ident, name),
                     {fmt::format("declare '{}' in the connector class, or read it through a connector connected to "
                                  "it",
                                  part.ident)});
            }
            if (it == cur->object->members.end())
                fail(rule::flatten_undefined_name, part.range,
                     fmt::format("'{}' has no component '{}'", name, part.ident));
            // A declared element of an expandable connector that is no
            // connector itself is connected as one (9.1.3).
            if (connecting_ && i + 1 == ref.parts.size() && cur->object->expandable() &&
                !it->second.is_connector) {
                r.expandable_in = cur->object->path;
                r.element = part.ident;
            }
            cur = &it->second;
            name += "." + part.ident;
        }
        for (const ast::ExprPtr& s : part.subscripts) {
            if (cur->kind != Member::Kind::Array)
                fail(rule::flatten_type_mismatch, s->range, fmt::format("'{}' is not an array", name));
            if (s->kind == ast::ExprKind::Colon) {
                if (i + 1 != ref.parts.size() || &s != &part.subscripts.back())
                    fail(rule::flatten_unsupported_construct, s->range,
                         "':' is supported only as the last subscript of a reference");
                continue;
            }
            long n = static_cast<long>(cur->elements.size());
            long k;
            if (s->kind == ast::ExprKind::End)
                k = n;
            else
                k = integer(*s, ctx, "a subscript");
            if (k < 1 || k > n)
                fail(rule::flatten_type_mismatch, s->range,
                     fmt::format("subscript {} is out of range 1..{} of '{}'", k, n, name));
            cur = &cur->elements[static_cast<std::size_t>(k - 1)];
            name += fmt::format("[{}]", k);
        }
    }
    r.member = cur;
    r.name = name;
    return r;
}

Value Flattener::member_value(const Member& m, const Ctx& ctx, SourceRange use, const std::string& name) {
    switch (m.kind) {
        case Member::Kind::Scalar: {
            const FlatVariable& var = model_->variables[static_cast<std::size_t>(m.variable)];
            if (var.type == BaseType::Boolean)
                fail(rule::flatten_type_mismatch, use,
                     fmt::format("'{}' is Boolean; it cannot be used as a number", var.name));
            if (var.type == BaseType::String)
                fail(rule::flatten_type_mismatch, use,
                     fmt::format("'{}' is a String; it cannot be used as a number", var.name));
            return Value::scalar(variable_ex(m.variable, ctx, use));
        }
        case Member::Kind::Object:
            fail(rule::flatten_type_mismatch, use,
                 fmt::format("'{}' is a component, not a number; name one of its variables", name));
        case Member::Kind::Array: {
            Value v;
            v.dims.push_back(m.elements.size());
            bool first = true;
            for (const Member& e : m.elements) {
                Value ev = member_value(e, ctx, use, name);
                if (first) {
                    v.dims.insert(v.dims.end(), ev.dims.begin(), ev.dims.end());
                    first = false;
                }
                v.elems.insert(v.elems.end(), ev.elems.begin(), ev.elems.end());
            }
            return v;
        }
    }
    MODEAUDIT_UNREACHABLE("member kind");
}

ex Flattener::scalar(const ast::Expr& e, const Ctx& ctx, const char* what) {
    Value v = value(e, ctx);
    if (!v.is_scalar())
        fail(rule::flatten_type_mismatch, e.range,
             fmt::format("{} must be a scalar, but '{}' has shape {}", what, ast::to_modelica(e), v.shape()));
    return v.elems[0];
}

long Flattener::integer(const ast::Expr& e, const Ctx& ctx, const char* what) {
    ex x = scalar(e, ctx, what);
    auto n = numeric_value(x);
    if (!n || !n->is_integer())
        fail(rule::flatten_type_mismatch, e.range,
             fmt::format("{} must be an integer known when flattening; '{}' is {}", what, ast::to_modelica(e),
                         canonical(x)));
    if (GiNaC::abs(*n) > GiNaC::numeric(1000000000L))
        fail(rule::flatten_array_size, e.range, fmt::format("{} {} is too large", what, canonical(x)));
    return n->to_long();
}

namespace {
// `if c then a else b` for a condition taken literally (noEvent): order
// relations become ma_select / ma_select_ge of their difference, not, and,
// or and constants compose them. nullopt when the condition holds anything
// else (a Boolean variable, ==, <>, sample, initial()): a mode condition.
std::optional<ex> literal_select(const Condition& c, const ex& a, const ex& b) {
    using K = Condition::Kind;
    using R = Condition::RelOp;
    switch (c.kind) {
        case K::Constant: return c.value ? a : b;
        case K::Relation:
            switch (c.op) {
                case R::Gt: return ma_select(c.lhs - c.rhs, a, b);
                case R::Ge: return ma_select_ge(c.lhs - c.rhs, a, b);
                case R::Lt: return ma_select(c.rhs - c.lhs, a, b);
                case R::Le: return ma_select_ge(c.rhs - c.lhs, a, b);
                default: return std::nullopt;
            }
        case K::Not: return literal_select(*c.operands[0], b, a);
        case K::And:
        case K::Or: {
            // and: the first operand chooses between the rest and b; or:
            // between a and the rest.
            std::optional<ex> r = c.kind == K::And ? a : b;
            for (std::size_t k = c.operands.size(); r && k-- > 0;)
                r = c.kind == K::And ? literal_select(*c.operands[k], *r, b) : literal_select(*c.operands[k], a, *r);
            return r;
        }
        default: return std::nullopt;
    }
}

Value elementwise(const Value& a, const Value& b, const std::function<ex(const ex&, const ex&)>& f,
                  bool& shape_ok) {
    shape_ok = true;
    if (a.is_scalar() && b.is_scalar()) return Value::scalar(f(a.elems[0], b.elems[0]));
    if (a.is_scalar()) {
        Value r = b;
        for (ex& x : r.elems) x = f(a.elems[0], x);
        return r;
    }
    if (b.is_scalar()) {
        Value r = a;
        for (ex& x : r.elems) x = f(x, b.elems[0]);
        return r;
    }
    if (a.dims != b.dims) {
        shape_ok = false;
        return a;
    }
    Value r = a;
    for (std::size_t i = 0; i < r.elems.size(); ++i) r.elems[i] = f(a.elems[i], b.elems[i]);
    return r;
}
}  // namespace

Value Flattener::value(const ast::Expr& e, const Ctx& ctx) {
    switch (e.kind) {
        case ast::ExprKind::Integer: {
            if (e.text.size() > 30) fail(rule::flatten_type_mismatch, e.range, "integer literal too large");
            return Value::scalar(GiNaC::numeric(e.text.c_str()));
        }
        case ast::ExprKind::Real:
            return Value::scalar(parse_real_literal(e.text));
        case ast::ExprKind::String:
            fail(rule::flatten_type_mismatch, e.range,
                 fmt::format("the string \"{}\" is used where a number is expected", e.text));
        case ast::ExprKind::Boolean:
            fail(rule::flatten_type_mismatch, e.range,
                 fmt::format("'{}' is a Boolean; a number is expected here", e.boolean ? "true" : "false"));
        case ast::ExprKind::Ref: {
            if (e.ref.simple() && e.ref.parts[0].ident == "time" && !(ctx.locals && ctx.locals->count("time")) &&
                !(ctx.inst && ctx.inst->members.count("time")))
                return Value::scalar(model_->symbols.time());
            Resolved r = resolve(e.ref, ctx);
            if (r.local) return *r.local;
            return member_value(*r.member, ctx, e.range, r.name);
        }
        case ast::ExprKind::Call:
            if (e.ref.simple() && !e.ref.global && e.ref.parts[0].ident == "cat" && e.iterators.empty())
                return concatenation(e, ctx);
            return call_value(e, ctx);
        case ast::ExprKind::Unary: {
            if (e.uop == ast::UnaryOp::Not)
                fail(rule::flatten_type_mismatch, e.range,
                     fmt::format("'{}' is a Boolean expression; a number is expected here", ast::to_modelica(e)));
            Value v = value(*e.operands[0], ctx);
            if (e.uop == ast::UnaryOp::Minus || e.uop == ast::UnaryOp::ElemMinus)
                for (ex& x : v.elems) x = -x;
            return v;
        }
        case ast::ExprKind::Binary: {
            using B = ast::BinaryOp;
            switch (e.bop) {
                case B::Lt: case B::Le: case B::Gt: case B::Ge: case B::Eq: case B::Ne:
                case B::And: case B::Or:
                    fail(rule::flatten_type_mismatch, e.range,
                         fmt::format("'{}' is a Boolean expression; a number is expected here",
                                     ast::to_modelica(e)));
                default: break;
            }
            Value a = value(*e.operands[0], ctx);
            Value b = value(*e.operands[1], ctx);
            bool ok = true;
            Value r;
            switch (e.bop) {
                case B::Add: case B::ElemAdd: r = elementwise(a, b, [](const ex& x, const ex& y) { return x + y; }, ok); break;
                case B::Sub: case B::ElemSub: r = elementwise(a, b, [](const ex& x, const ex& y) { return x - y; }, ok); break;
                case B::ElemMul: r = elementwise(a, b, [](const ex& x, const ex& y) { return x * y; }, ok); break;
                case B::ElemDiv:
                    for (const ex& y : b.elems)
                        if (y.is_zero())
                            fail(rule::flatten_invalid_value, e.range,
                                 fmt::format("division by zero in '{}'", ast::to_modelica(e)));
                    r = elementwise(a, b, [](const ex& x, const ex& y) { return x / y; }, ok);
                    break;
                case B::ElemPow:
                    r = elementwise(a, b, [&](const ex& x, const ex& y) { return power_value(x, y, e); }, ok);
                    break;
                case B::Mul:
                    if (!a.is_scalar() && !b.is_scalar()) {
                        // vector * vector: scalar product (matrices are not supported)
                        if (a.dims.size() != 1 || b.dims != a.dims)
                            fail(rule::flatten_type_mismatch, e.range,
                                 fmt::format("'*' of shapes {} and {}: only scalar products of vectors of equal "
                                             "length are supported", a.shape(), b.shape()));
                        ex s = 0;
                        for (std::size_t i = 0; i < a.size(); ++i) s += a.elems[i] * b.elems[i];
                        return Value::scalar(s);
                    }
                    r = elementwise(a, b, [](const ex& x, const ex& y) { return x * y; }, ok);
                    break;
                case B::Div:
                    if (!b.is_scalar())
                        fail(rule::flatten_type_mismatch, e.range, "division by an array is not defined");
                    if (b.elems[0].is_zero())
                        fail(rule::flatten_invalid_value, e.range,
                             fmt::format("division by zero in '{}'", ast::to_modelica(e)));
                    r = elementwise(a, b, [](const ex& x, const ex& y) { return x / y; }, ok);
                    break;
                case B::Pow:
                    if (!a.is_scalar() || !b.is_scalar())
                        fail(rule::flatten_type_mismatch, e.range, "'^' of arrays is not supported; use '.^'");
                    if (a.elems[0].is_zero() && GiNaC::is_a<GiNaC::numeric>(b.elems[0]) &&
                        !GiNaC::ex_to<GiNaC::numeric>(b.elems[0]).is_positive())
                        fail(rule::flatten_invalid_value, e.range,
                             fmt::format("0 raised to a non-positive power in '{}'", ast::to_modelica(e)));
                    if (auto base = numeric_value(a.elems[0]), x = numeric_value(b.elems[0]);
                        base && x && base->is_real() && base->is_negative() && x->is_real() && !x->is_integer())
                        fail(rule::flatten_invalid_value, e.range,
                             fmt::format("'{}' raises the negative number {} to the non-integer power {}; it has no "
                                         "real value",
                                         ast::to_modelica(e), canonical(a.elems[0]), canonical(b.elems[0])));
                    r = Value::scalar(power_value(a.elems[0], b.elems[0], e));
                    break;
                default: MODEAUDIT_UNREACHABLE("binary operator");
            }
            if (!ok)
                fail(rule::flatten_type_mismatch, e.range,
                     fmt::format("operands of '{}' have shapes {} and {}", ast::to_modelica(e), a.shape(), b.shape()));
            return r;
        }
        case ast::ExprKind::If: {
            // operands: c1, t1, c2, t2, ..., else. The conditions are decided
            // first, in order: a branch after a condition that holds is not
            // evaluated (a recursive function's base case, written
            // `if n <= 0 then 1 else n*f(n - 1)`, ends its recursion as the
            // if-statement form does), nor is a branch whose condition fails.
            std::size_t n = e.operands.size();
            std::vector<ConditionPtr> conds;
            std::size_t last = n - 1;  // the operand taken when no earlier condition holds
            for (std::size_t i = 0; i + 1 < n; i += 2) {
                conds.push_back(fold(condition(*e.operands[i], ctx)));
                if (conds.back()->kind == Condition::Kind::Constant && conds.back()->value) {
                    last = i + 1;
                    break;
                }
            }
            Value result = value(*e.operands[last], ctx);
            for (std::size_t i = last == n - 1 ? n - 1 : last - 1; i >= 2; i -= 2) {
                const ast::Expr& c = *e.operands[i - 2];
                const ast::Expr& t = *e.operands[i - 1];
                ConditionPtr cond = conds[(i - 2) / 2];
                if (cond->kind == Condition::Kind::Constant) continue;  // false: a true one ended the list
                Value tv = value(t, ctx);
                // A condition taken literally (inside noEvent, or noEvent(...)
                // itself) and made of order relations: no mode, no event; the
                // branch is chosen where the expression is evaluated.
                const bool literal =
                    ctx.no_event || (c.kind == ast::ExprKind::Call && c.ref.dotted() == "noEvent");
                if (literal && literal_select(*cond, ex(1), ex(0))) {
                    bool same = true;
                    result = elementwise(tv, result, [&](const ex& x, const ex& y) { return *literal_select(*cond, x, y); },
                                         same);
                    if (!same)
                        fail(rule::flatten_type_mismatch, e.range, "branches of the if-expression have different shapes");
                    if (i < 2) break;
                    continue;
                }
                int k = new_condition(cond, c.range);
                const GiNaC::symbol& cs = model_->symbols.condition(k);
                bool ok = true;
                result = elementwise(tv, result, [&](const ex& x, const ex& y) { return mode_if(cs, x, y); }, ok);
                if (!ok)
                    fail(rule::flatten_type_mismatch, e.range, "branches of the if-expression have different shapes");
                if (i < 2) break;
            }
            return result;
        }
        case ast::ExprKind::Array: {
            Value v;
            bool first = true;
            std::vector<std::size_t> inner;
            for (const ast::ExprPtr& op : e.operands) {
                Value x = value(*op, ctx);
                if (first) {
                    inner = x.dims;
                    first = false;
                } else if (x.dims != inner) {
                    fail(rule::flatten_type_mismatch, op->range, "elements of the array have different shapes");
                }
                v.elems.insert(v.elems.end(), x.elems.begin(), x.elems.end());
            }
            v.dims.push_back(e.operands.size());
            v.dims.insert(v.dims.end(), inner.begin(), inner.end());
            if (!e.iterators.empty()) {
                // {expr for i in r}
                v = Value{};
                for_each_iteration(e.iterators, {.expr = e.operands[0].get()}, ctx, [&](const Ctx& c2) {
                    Value x = value(*e.operands[0], c2);
                    if (!x.is_scalar()) fail(rule::flatten_unsupported_construct, e.range, "array comprehension of arrays");
                    v.elems.push_back(x.elems[0]);
                });
                v.dims = {v.elems.size()};
            }
            return v;
        }
        case ast::ExprKind::Range: {
            std::vector<long> vals = range_values(e, ctx);
            Value v;
            v.dims = {vals.size()};
            for (long x : vals) v.elems.push_back(GiNaC::numeric(x));
            return v;
        }
        case ast::ExprKind::Matrix: {
            // [a, b; c, d] (array_concatenation.h)
            std::vector<std::vector<Value>> rows;
            for (const ast::ExprPtr& row : e.operands) {
                rows.emplace_back();
                for (const ast::ExprPtr& x : row->operands) rows.back().push_back(value(*x, ctx));
            }
            std::string error;
            std::optional<Value> m = matrix(rows, error);
            if (!m)
                fail(rule::flatten_type_mismatch, e.range,
                     fmt::format("the matrix constructor '{}' does not fit together: {}", ast::to_modelica(e), error));
            return *m;
        }
        case ast::ExprKind::Colon:
        case ast::ExprKind::End:
        case ast::ExprKind::Tuple:
            fail(rule::flatten_unsupported_construct, e.range,
                 fmt::format("'{}' is not supported here", ast::to_modelica(e)));
    }
    MODEAUDIT_UNREACHABLE("expression kind");
}

Value Flattener::concatenation(const ast::Expr& e, const Ctx& ctx) {
    if (e.args.size() < 2)
        fail(rule::flatten_type_mismatch, e.range, "cat() takes a dimension and at least one array");
    for (const ast::FunctionArg& a : e.args)
        if (!a.name.empty() || !a.value)
            fail(rule::flatten_type_mismatch, a.range, "cat() takes no named arguments");
    long k = integer(*e.args[0].value, ctx, "the dimension of cat()");
    std::vector<Value> parts;
    for (std::size_t i = 1; i < e.args.size(); ++i) parts.push_back(value(*e.args[i].value, ctx));
    std::string error;
    std::optional<Value> r = k >= 1 ? concatenate(static_cast<std::size_t>(k), parts, error) : std::nullopt;
    if (k < 1) error = fmt::format("dimension {} does not exist", k);
    if (!r)
        fail(rule::flatten_type_mismatch, e.range, fmt::format("'{}' cannot be formed: {}", ast::to_modelica(e), error));
    return *r;
}

std::optional<long> Flattener::enumeration_extent(const ast::Expr& e, const Ctx& ctx) {
    if (e.kind != ast::ExprKind::Ref || e.ref.global) return std::nullopt;
    for (const ast::NamePart& p : e.ref.parts)
        if (!p.subscripts.empty()) return std::nullopt;
    const std::string& first = e.ref.parts[0].ident;
    if ((ctx.locals && ctx.locals->count(first)) || (ctx.inst && ctx.inst->members.count(first))) return std::nullopt;
    std::optional<NameHit> hit = lookup_.lookup_element(e.ref, lex_of(ctx));
    if (!hit || hit->kind != NameHit::Kind::Class || hit->parts != e.ref.parts.size()) return std::nullopt;
    const ast::ClassDef* c = hit->cls.cls;
    if (!c || !c->is_enumeration) return std::nullopt;
    check_enumeration_literals(*c);
    return static_cast<long>(c->enumeration_literals.size());
}

std::vector<long> Flattener::range_values(const ast::Expr& e, const Ctx& ctx) {
    if (std::optional<long> n = enumeration_extent(e, ctx)) {  // `for e in E`: its literals in order
        std::vector<long> out;
        for (long k = 1; k <= *n; ++k) out.push_back(k);
        return out;
    }
    if (e.kind != ast::ExprKind::Range) {
        Value v = value(e, ctx);
        if (v.dims.size() != 1)
            fail(rule::flatten_type_mismatch, e.range, "a for-loop range must be a vector or a:b:c");
        std::vector<long> out;
        for (const ex& x : v.elems) {
            auto n = numeric_value(x);
            if (!n || !n->is_integer())
                fail(rule::flatten_type_mismatch, e.range, "a for-loop range must hold integers");
            out.push_back(n->to_long());
        }
        return out;
    }
    long a = integer(*e.operands[0], ctx, "a range bound");
    long step = e.has_step ? integer(*e.operands[1], ctx, "a range step") : 1;
    long b = integer(*e.operands[e.has_step ? 2 : 1], ctx, "a range bound");
    if (step == 0) fail(rule::flatten_type_mismatch, e.range, "a range step cannot be 0");
    std::vector<long> out;
    double count = static_cast<double>(b - a) / static_cast<double>(step) + 1;
    if (count > static_cast<double>(options_.max_array_size))
        fail(rule::flatten_array_size, e.range,
             fmt::format("the range {} has more than {} elements", ast::to_modelica(e), options_.max_array_size));
    for (long x = a; step > 0 ? x <= b : x >= b; x += step) out.push_back(x);
    return out;
}

std::vector<std::map<std::string, Value>> Flattener::iterations(const std::vector<ast::ForIterator>& its,
                                                                const Ctx& ctx, const LoopBody& body) {
    std::vector<std::map<std::string, Value>> out{{}};
    for (const ast::ForIterator& it : its) {
        std::vector<std::map<std::string, Value>> next;
        for (const auto& env : out) {
            std::map<std::string, Value> locals = ctx.locals ? *ctx.locals : std::map<std::string, Value>{};
            for (const auto& [k, v] : env) locals[k] = v;
            Ctx c2 = ctx;
            c2.locals = &locals;
            for (long x : iterator_values(it, body, c2)) {
                auto env2 = env;
                env2[it.name] = Value::scalar(GiNaC::numeric(x));
                next.push_back(std::move(env2));
                if (next.size() > options_.max_array_size)
                    fail(rule::flatten_array_size, it.loc, "for-loop expands to too many iterations");
            }
        }
        out = std::move(next);
    }
    return out;
}

std::vector<long> Flattener::iterator_values(const ast::ForIterator& it, const LoopBody& body, const Ctx& ctx) {
    if (it.range) return range_values(*it.range, ctx);
    std::vector<IteratorUse> uses = body.equations    ? iterator_uses(it.name, *body.equations)
                                    : body.statements ? iterator_uses(it.name, *body.statements)
                                    : body.expr       ? iterator_uses(it.name, *body.expr)
                                                      : std::vector<IteratorUse>{};
    if (uses.empty())
        fail(rule::flatten_type_mismatch, it.loc,
             fmt::format("'for {0}' has no range, and '{0}' is not used as a subscript in the loop, so no range "
                         "can be deduced from it (Modelica 3.6, 8.3.2.1)",
                         it.name),
             {fmt::format("write the range: 'for {} in 1:n'", it.name)});
    long n = subscripted_extent(uses[0], ctx);
    for (std::size_t k = 1; k < uses.size(); ++k) {
        long m = subscripted_extent(uses[k], ctx);
        if (m != n)
            fail(rule::flatten_type_mismatch, uses[k].where,
                 fmt::format("'{}' subscripts a dimension of size {} here and one of size {} at {}:{}; an implicit "
                             "range needs the same size in every use (Modelica 3.6, 8.3.2.1)",
                             it.name, m, n, uses[0].where.begin.line, uses[0].where.begin.column),
                 {fmt::format("write the range: 'for {} in 1:n'", it.name)});
    }
    std::vector<long> out;
    for (long x = 1; x <= n; ++x) out.push_back(x);
    return out;
}

long Flattener::subscripted_extent(const IteratorUse& use, const Ctx& ctx) {
    const ast::ComponentRef& a = *use.array;
    auto too_few = [&](std::size_t dims) {
        fail(rule::flatten_type_mismatch, use.where,
             fmt::format("'{}' has {} dimension{}; subscript {} is beyond them", a.parts[use.part].ident, dims,
                         dims == 1 ? "" : "s", use.position + 1));
    };
    if (ctx.locals && !a.global && use.part == 0) {
        auto it = ctx.locals->find(a.parts[0].ident);
        if (it != ctx.locals->end()) {  // an array local of a function
            if (use.position >= it->second.dims.size()) too_few(it->second.dims.size());
            return static_cast<long>(it->second.dims[use.position]);
        }
    }
    // The array itself: the reference up to that part, every subscript
    // before the iterator's replaced by `end` (any valid index has the
    // same extent below it).
    ast::ComponentRef head;
    head.global = a.global;
    head.range = a.range;
    for (std::size_t k = 0; k <= use.part; ++k) {
        ast::NamePart p;
        p.ident = a.parts[k].ident;
        p.range = a.parts[k].range;
        std::size_t n = k < use.part ? a.parts[k].subscripts.size() : use.position;
        for (std::size_t j = 0; j < n; ++j) {
            auto end = std::make_unique<ast::Expr>();
            end->kind = ast::ExprKind::End;
            end->range = a.parts[k].subscripts[j]->range;
            p.subscripts.push_back(std::move(end));
        }
        head.parts.push_back(std::move(p));
    }
    Resolved r = resolve(head, ctx);
    if (r.local) {
        if (!r.local->dims.empty()) return static_cast<long>(r.local->dims[0]);
        too_few(use.position);
    }
    if (!r.member || r.member->kind != Member::Kind::Array) too_few(use.position);
    return static_cast<long>(r.member->elements.size());
}

ex Flattener::total_derivative(const ex& e, SourceRange) { return modeaudit::total_derivative(*model_, e); }

int Flattener::new_condition(ConditionPtr c, SourceRange where) {
    std::string text = canonical(*model_, *c);
    for (std::size_t i = 0; i < model_->condition_text.size(); ++i)
        if (model_->condition_text[i] == text) return static_cast<int>(i);
    int k = model_->symbols.add_condition(fmt::format("cond#{}", model_->conditions.size() + 1));
    model_->conditions.push_back(c);
    model_->condition_text.push_back(text);
    (void)where;
    return k;
}

void Flattener::define_integer(int variable, const ast::Expr& rhs, const Ctx& ctx, SourceRange where) {
    Value v = value(rhs, ctx);
    if (!v.is_scalar())
        fail(rule::flatten_type_mismatch, where,
             fmt::format("the Integer '{}' is defined by an array",
                         model_->variables[static_cast<std::size_t>(variable)].name));
    define_integer_value(variable, v.elems[0], where);
}

void Flattener::define_integer_value(int variable, const ex& value, SourceRange where) {
    const FlatVariable& var = model_->variables[static_cast<std::size_t>(variable)];
    // Between events an Integer is constant: its value may read discrete
    // quantities and select by conditions (which may test continuous
    // relations), but not read a continuous quantity itself.
    for (GiNaC::const_preorder_iterator it = value.preorder_begin(); it != value.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
        auto m = model_->symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
        if (!m || m->role == SymbolTable::Meaning::Role::Condition) continue;
        const bool discrete = (m->role == SymbolTable::Meaning::Role::Variable ||
                               m->role == SymbolTable::Meaning::Role::Pre) &&
                              model_->variables[static_cast<std::size_t>(m->index)].variability != Variability::Continuous;
        if (!discrete)
            fail(rule::flatten_unsupported_construct, where,
                 fmt::format("the Integer '{}' is defined by an expression that reads the continuous quantity '{}'; "
                             "define it by conditions (if ... then 1 else ...) or assign it in a when-clause",
                             var.name, GiNaC::ex_to<GiNaC::symbol>(*it).get_name()));
    }
    model_->integer_definitions.push_back({variable, value, where});
}

Value Flattener::call_value(const ast::Expr& e, const Ctx& ctx) {
    const std::string fname = e.ref.dotted();
    auto arg = [&](std::size_t i) -> const ast::Expr& {
        if (i >= e.args.size() || !e.args[i].value)
            fail(rule::flatten_type_mismatch, e.range, fmt::format("{}() needs at least {} arguments", fname, i + 1));
        return *e.args[i].value;
    };
    auto nargs = [&](std::size_t lo, std::size_t hi) {
        if (e.args.size() < lo || e.args.size() > hi)
            fail(rule::flatten_type_mismatch, e.range,
                 fmt::format("{}() takes {} arguments, not {}", fname,
                             lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi), e.args.size()));
        for (const ast::FunctionArg& a : e.args)
            if (!a.name.empty())
                fail(rule::flatten_type_mismatch, a.range, fmt::format("{}() takes no named arguments", fname));
    };
    auto map1 = [&](const std::function<ex(const ex&)>& f) {
        nargs(1, 1);
        Value v = value(arg(0), ctx);
        for (ex& x : v.elems) x = f(x);
        return v;
    };
    if (!e.iterators.empty() && fname != "sum")
        fail(rule::flatten_unsupported_construct, e.range,
             fmt::format("reduction expressions are supported only in sum(), not in {}()", fname));
    if (fname == "der") {
        nargs(1, 1);
        if (arg(0).kind == ast::ExprKind::Ref) {
            // Only Real expressions have derivatives (3.7.4), even constant ones.
            Resolved r = resolve(arg(0).ref, ctx);
            const Member* m = r.member;
            while (m && m->kind == Member::Kind::Array && !m->elements.empty()) m = &m->elements[0];
            if (m && m->kind == Member::Kind::Scalar) {
                const FlatVariable& var = model_->variables[static_cast<std::size_t>(m->variable)];
                if (var.type != BaseType::Real)
                    fail(rule::flatten_type_mismatch, e.range,
                         fmt::format("der() takes a Real expression; '{}' is {} (Modelica 3.6, 3.7.4)", var.name,
                                     var.type == BaseType::Integer ? "an Integer" : "not a Real"));
            }
        }
        Value v = value(arg(0), ctx);
        for (ex& x : v.elems) x = total_derivative(x, e.range);
        return v;
    }
    if (fname == "pre") {
        nargs(1, 1);
        const ast::Expr& a = arg(0);
        if (a.kind != ast::ExprKind::Ref)
            fail(rule::flatten_type_mismatch, a.range, "pre() takes a variable");
        Resolved r = resolve(a.ref, ctx);
        if (r.local) fail(rule::flatten_type_mismatch, a.range, "pre() takes a variable, not an iterator");
        std::function<Value(const Member&)> pre_of = [&](const Member& m) -> Value {
            if (m.kind == Member::Kind::Scalar) {
                const FlatVariable& var = model_->variables[static_cast<std::size_t>(m.variable)];
                if (var.variability == Variability::Parameter || var.variability == Variability::Constant)
                    return Value::scalar(param_value(m.variable, a.range));
                if (var.type == BaseType::Boolean)
                    fail(rule::flatten_type_mismatch, a.range,
                         fmt::format("'{}' is Boolean; pre() of it is not a number", var.name));
                return Value::scalar(model_->symbols.pre(m.variable));
            }
            if (m.kind == Member::Kind::Object)
                fail(rule::flatten_type_mismatch, a.range, "pre() of a component is not supported");
            Value v;
            v.dims = {m.elements.size()};
            for (const Member& el : m.elements) {
                Value x = pre_of(el);
                v.elems.insert(v.elems.end(), x.elems.begin(), x.elems.end());
            }
            return v;
        };
        return pre_of(*r.member);
    }
    if (fname == "noEvent") {
        // Its event-generating built-ins are evaluated plainly, with no
        // crossing function (simulation/event_operators.h).
        nargs(1, 1);
        Ctx quiet = ctx;
        quiet.no_event = true;
        Value v = value(arg(0), quiet);
        for (ex& x : v.elems) x = mark_no_event(x);
        return v;
    }
    if (fname == "smooth") {
        nargs(2, 2);
        return value(arg(1), ctx);
    }
    if (fname == "homotopy") {
        // homotopy(actual, simplified): the actual expression (Modelica 3.6,
        // 3.7.4.4); the simplified one only helps a tool's initialization.
        for (const ast::FunctionArg& a : e.args)
            if (a.name == "actual" && a.value) return value(*a.value, ctx);
        if (e.args.empty() || !e.args[0].name.empty() || !e.args[0].value)
            fail(rule::flatten_type_mismatch, e.range, "homotopy() needs its actual expression");
        return value(*e.args[0].value, ctx);
    }
    // Functions whose argument is known when flattening must have a real value.
    auto domain = [&](const char* what, const std::function<bool(const GiNaC::numeric&)>& ok) {
        nargs(1, 1);
        Value v = value(arg(0), ctx);
        for (const ex& x : v.elems)
            if (auto n = numeric_value(x); n && n->is_real() && !ok(*n))
                fail(rule::flatten_invalid_value, e.range,
                     fmt::format("'{}' has no real value: {} is {}", ast::to_modelica(e), what, canonical(x)));
    };
    auto two = [&](const std::function<ex(const ex&, const ex&)>& f) {
        nargs(2, 2);
        Value a = value(arg(0), ctx), b = value(arg(1), ctx);
        bool ok = true;
        Value r = elementwise(a, b, f, ok);
        if (!ok) fail(rule::flatten_type_mismatch, e.range, fmt::format("arguments of {}() differ in shape", fname));
        return r;
    };
    // The elementwise functions: one table (builtin_calls.h).
    if (const ElementwiseBuiltin* b = elementwise_builtin(fname)) {
        if (b->arity == 2) return two(b->binary);
        if (b->in_domain) domain(b->domain_text, b->in_domain);
        return map1(b->unary);
    }
    if (fname == "Integer") {
        // Integer(e) of an enumeration value: its position, the value it already has here.
        nargs(1, 1);
        return value(arg(0), ctx);
    }
    if (fname == "semiLinear") {
        // semiLinear(x, k+, k-) = if x >= 0 then k+ x else k- x (Modelica 3.6,
        // 3.7.2), written as (k+ + k-)/2 x + (k+ - k-)/2 abs(x): equal for
        // every x, 0 included, with abs's event at x = 0 (none inside
        // noEvent), as the if-expression's relation has.
        nargs(3, 3);
        const Value x = value(arg(0), ctx), kp = value(arg(1), ctx), kn = value(arg(2), ctx);
        bool ok = true, all_ok = true;
        auto both = [&](const Value& a, const Value& b, const std::function<ex(const ex&, const ex&)>& f) {
            Value v = elementwise(a, b, f, ok);
            all_ok = all_ok && ok;
            return v;
        };
        const Value mean = both(kp, kn, [](const ex& p, const ex& n) { return (p + n) / 2; });
        const Value half = both(kp, kn, [](const ex& p, const ex& n) { return (p - n) / 2; });
        const Value r = both(both(mean, x, [](const ex& m, const ex& u) { return m * u; }),
                             both(half, x, [](const ex& h, const ex& u) { return h * ma_abs(u); }),
                             [](const ex& a, const ex& b) { return a + b; });
        if (!all_ok) fail(rule::flatten_type_mismatch, e.range, "arguments of semiLinear() differ in shape");
        return r;
    }
    if (fname == "min" || fname == "max") {
        bool is_min = fname == "min";
        if (e.args.size() == 1) {
            Value v = value(arg(0), ctx);
            if (v.elems.empty()) fail(rule::flatten_type_mismatch, e.range, fmt::format("{}() of an empty array", fname));
            ex r = v.elems[0];
            for (std::size_t i = 1; i < v.elems.size(); ++i) r = is_min ? ma_min(r, v.elems[i]) : ma_max(r, v.elems[i]);
            return Value::scalar(r);
        }
        return two([is_min](const ex& a, const ex& b) { return is_min ? ma_min(a, b) : ma_max(a, b); });
    }
    if (fname == "sum") {
        if (!e.iterators.empty()) {
            ex s = 0;
            for_each_iteration(e.iterators, {.expr = &arg(0)}, ctx,
                               [&](const Ctx& c2) { s += scalar(arg(0), c2, "the summand"); });
            return Value::scalar(s);
        }
        nargs(1, 1);
        Value v = value(arg(0), ctx);
        ex s = 0;
        for (const ex& x : v.elems) s += x;
        return Value::scalar(s);
    }
    if (fname == "size") {
        nargs(1, 2);
        Value v = value(arg(0), ctx);
        if (e.args.size() == 2) {
            long k = integer(arg(1), ctx, "the dimension of size()");
            if (k < 1 || static_cast<std::size_t>(k) > v.dims.size())
                fail(rule::flatten_type_mismatch, e.range, "size(): no such dimension");
            return Value::scalar(GiNaC::numeric(static_cast<long>(v.dims[static_cast<std::size_t>(k - 1)])));
        }
        Value r;
        r.dims = {v.dims.size()};
        for (std::size_t d : v.dims) r.elems.push_back(GiNaC::numeric(static_cast<long>(d)));
        return r;
    }
    if (fname == "zeros" || fname == "ones" || fname == "fill") {
        std::size_t first = fname == "fill" ? 1 : 0;
        ex elem = fname == "fill" ? scalar(arg(0), ctx, "the fill value") : ex(fname == "ones" ? 1 : 0);
        Value v;
        std::size_t total = 1;
        for (std::size_t i = first; i < e.args.size(); ++i) {
            long n = integer(arg(i), ctx, "an array size");
            if (n < 0 || static_cast<std::size_t>(n) > options_.max_array_size)
                fail(rule::flatten_array_size, e.args[i].range, "array size out of range");
            v.dims.push_back(static_cast<std::size_t>(n));
            total *= static_cast<std::size_t>(n);
            if (total > options_.max_array_size) fail(rule::flatten_array_size, e.range, "array too large");
        }
        v.elems.assign(total, elem);
        return v;
    }
    if (fname == "inStream" || fname == "actualStream") {
        nargs(1, 1);
        const ast::Expr& a = arg(0);
        if (a.kind != ast::ExprKind::Ref) fail(rule::flatten_type_mismatch, a.range, fname + "() takes a stream variable");
        Resolved r = resolve(a.ref, ctx);
        if (r.local || r.member->kind != Member::Kind::Scalar || !r.member->prefix.stream)
            fail(rule::flatten_type_mismatch, a.range,
                 fmt::format("{}() takes a stream variable of a connector; '{}' is not one", fname, r.name));
        ex s = model_->symbols.variable(r.member->variable);
        return Value::scalar(fname == "inStream" ? in_stream(s) : actual_stream(s));
    }
    static const std::set<std::string> condition_only = {"initial", "terminal", "sample", "edge", "change"};
    if (condition_only.count(fname))
        fail(rule::flatten_type_mismatch, e.range,
             fmt::format("{}() is Boolean; it is allowed only in conditions", fname));
    // Models are untrusted: no file is read but the model itself, so a
    // resource-loading or file function is refused whatever it is called
    // with (Modelica.Utilities.Files.loadResource, ...Streams.readFile, ...).
    auto ends_with = [&](std::string_view tail) {
        return fname.size() >= tail.size() && fname.compare(fname.size() - tail.size(), tail.size(), tail) == 0;
    };
    if (fname.rfind("Modelica.Utilities.", 0) == 0 || fname.rfind("ModelicaServices.", 0) == 0 ||
        ends_with("loadResource") || ends_with("readFile") || ends_with("readLine") || ends_with("readRealMatrix"))
        fail(rule::flatten_unsupported_construct, e.range,
             fmt::format("{}() would access files or the system; models are untrusted and may read no file but "
                         "themselves, so file and resource functions are refused; give the data as parameters",
                         fname));
    static const std::set<std::string> refused = {
        "loadResource", "Modelica.Utilities.Files.loadResource", "readFile", "getInstanceName", "print",
        "delay", "spatialDistribution", "cardinality", "transpose", "cross",
        "identity", "diagonal", "cat", "linspace", "scalar", "vector", "matrix", "ndims", "product", "skew",
        "outerProduct", "symmetric", "reinit", "assert", "terminate"};
    if (refused.count(fname))
        fail(rule::flatten_unsupported_construct, e.range,
             fmt::format("{}() is not supported in this context", fname));
    // A user function.
    std::vector<Output> outs = function_outputs(e, ctx);
    if (!outs[0].value)
        fail(rule::flatten_type_mismatch, e.range,
             fmt::format("'{}' is Boolean (the function's first output); a number is expected here", ast::to_modelica(e)));
    return *outs[0].value;
}

}  // namespace modeaudit::flat_impl
