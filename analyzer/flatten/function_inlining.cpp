// The flattener's user functions (flattener.cpp has the order of work):
// calls of functions with algorithm bodies, inlined symbolically where the
// body's control flow is known when flattening, else evaluated numerically
// (function_compiler.h, function_interpreter.h); multiple outputs.
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

std::optional<ClassHit> Flattener::user_function(const ast::Expr& call, const Ctx& ctx) {
    const LexScope* from = lex_of(ctx);
    ClassHit fn = lookup_class(call.ref, from);
    if (fn.cls->kind != ast::ClassKind::Function) return std::nullopt;
    return fn;
}

std::vector<Flattener::Output> Flattener::function_outputs(const ast::Expr& e, const Ctx& ctx) {
    const std::string fname = e.ref.dotted();
    std::optional<ClassHit> fn = user_function(e, ctx);
    if (!fn) {
        ClassHit c = lookup_class(e.ref, lex_of(ctx));
        fail(rule::flatten_unsupported_construct, e.range,
             c.cls->kind == ast::ClassKind::Record
                 ? fmt::format("'{}' constructs a record value, used here where a number or a condition is expected; "
                               "a record constructor gives a whole record component its value (a binding or a record "
                               "equation, Modelica 3.6, 12.6)",
                               ast::to_modelica(e))
                 : fmt::format("'{}' is a {}; calls of classes that are not functions are not supported", fname,
                               ast::class_kind_word(c.cls->kind)));
    }
    return inline_function(*fn, e, ctx);
}

namespace {
// Control flow leaves the symbolic inlining: the body's control flow depends
// on the model's variables, so the function is evaluated numerically.
struct NotInlinable {};
enum class Flow { Next, Break, Return };
}  // namespace

void Flattener::count_function_work(const ast::ClassDef& f, SourceRange where) {
    if (++function_work_ <= options_.max_function_work) return;
    throw LimitExceeded(fmt::format("flattening inlines more than {} function calls and loop iterations in total (the "
                                    "last in function '{}'): a chain of calls that grows exponentially?",
                                    options_.max_function_work, f.name),
                        "function work", "--max-function-work", where);
}

std::vector<Flattener::Output> Flattener::inline_function(const ClassHit& fn, const ast::Expr& call, const Ctx& ctx) {
    const ast::ClassDef& f = *fn.cls;
    if (is_table1d_value_function(f)) return {table_call(f, call, ctx)};
    refuse_unsupported_in(f);
    if (f.is_short)
        fail(rule::flatten_unsupported_construct, call.range,
             fmt::format("short function definition '{}' is not supported", f.name));
    FunctionParts parts;
    std::vector<std::string> ext_inputs;
    const std::optional<std::string> builtin = external_builtin(f);
    if (f.external_clause && !builtin)
        fail(rule::flatten_unsupported_construct, *f.external_clause,
             fmt::format("'{}' calls external code: an external function is not supported unless it is one of the "
                         "Modelica.Math functions that call the C library's mathematical functions",
                         f.name),
             {fmt::format("called at {}:{}", call.range.begin.line, call.range.begin.column)});
    parts = collect_function(fn, host_);
    if (parts.outputs.empty())
        fail(rule::flatten_unsupported_construct, call.range, fmt::format("function '{}' has no output", f.name));
    // The arguments, by input.
    std::vector<std::optional<Output>> given(parts.inputs.size());
    std::size_t pos = 0;
    auto slot = [&](const std::string& name) {
        return static_cast<std::size_t>(std::find(parts.inputs.begin(), parts.inputs.end(), name) - parts.inputs.begin());
    };
    for (const ast::FunctionArg& a : call.args) {
        std::string input;
        if (a.name.empty()) {
            if (pos >= parts.declared_inputs.size())
                fail(rule::flatten_type_mismatch, a.range,
                     fmt::format("too many arguments for '{}' ({} inputs)", f.name, parts.declared_inputs.size()));
            input = parts.declared_inputs[pos++];
        } else {
            if (std::find(parts.declared_inputs.begin(), parts.declared_inputs.end(), a.name) ==
                parts.declared_inputs.end())
                fail(rule::flatten_type_mismatch, a.range, fmt::format("'{}' has no input '{}'", f.name, a.name));
            input = a.name;
        }
        if (const RecordInput* ri = parts.record_input(input)) {
            // A record argument: each scalar field is its input (records.h).
            for (std::size_t j = 0; j < ri->leaves.size(); ++j) {
                const std::size_t k = slot(ri->leaves[j]);
                if (given[k]) fail(rule::flatten_type_mismatch, a.range, fmt::format("input '{}' given twice", input));
                Output o;
                if (parts.find(ri->leaves[j])->boolean)
                    o.condition = fold(selected_condition(*a.value, ctx, ri->paths[j], a.range, ri->leaves[j]));
                else
                    o.value = selected_value(*a.value, ctx, ri->paths[j], a.range, ri->leaves[j]);
                given[k] = o;
            }
            continue;
        }
        const std::size_t k = slot(input);
        if (given[k]) fail(rule::flatten_type_mismatch, a.range, fmt::format("input '{}' given twice", parts.inputs[k]));
        Output o;
        if (parts.find(parts.inputs[k])->boolean) o.condition = fold(condition(*a.value, ctx));
        else o.value = value(*a.value, ctx);
        given[k] = o;
    }
    if (builtin) {
        // A Modelica.Math function: the built-in of the same name.
        std::vector<ex> xs;
        for (std::size_t k = 0; k < given.size(); ++k) {
            if (!given[k] || !given[k]->value || !given[k]->value->is_scalar())
                fail(rule::flatten_type_mismatch, call.range,
                     fmt::format("'{}' needs a number for its input '{}'", f.name, parts.inputs[k]));
            xs.push_back(given[k]->value->elems[0]);
        }
        static const std::map<std::string, ex (*)(const ex&)> unary = {
            {"sin", [](const ex& x) -> ex { return GiNaC::sin(x); }},   {"cos", [](const ex& x) -> ex { return GiNaC::cos(x); }},
            {"tan", [](const ex& x) -> ex { return GiNaC::tan(x); }},   {"asin", [](const ex& x) -> ex { return GiNaC::asin(x); }},
            {"acos", [](const ex& x) -> ex { return GiNaC::acos(x); }}, {"atan", [](const ex& x) -> ex { return GiNaC::atan(x); }},
            {"sinh", [](const ex& x) -> ex { return GiNaC::sinh(x); }}, {"cosh", [](const ex& x) -> ex { return GiNaC::cosh(x); }},
            {"tanh", [](const ex& x) -> ex { return GiNaC::tanh(x); }}, {"exp", [](const ex& x) -> ex { return GiNaC::exp(x); }},
            {"log", [](const ex& x) -> ex { return GiNaC::log(x); }},
            {"log10", [](const ex& x) -> ex { return GiNaC::log(x) / GiNaC::log(GiNaC::ex(10)); }},
            {"sqrt", [](const ex& x) -> ex { return GiNaC::sqrt(x); }}, {"abs", [](const ex& x) -> ex { return ma_abs(x); }}};
        Output o;
        if (*builtin == "atan2") o.value = Value::scalar(GiNaC::atan2(xs[0], xs[1]));
        else o.value = Value::scalar(unary.at(*builtin)(xs[0]));
        return {o};
    }
    const int depth = static_cast<int>(std::count(function_stack_.begin(), function_stack_.end(), &f));
    bool all_numbers = true;
    for (const auto& g : given)
        if (g && g->value)
            for (const ex& x : g->value->elems) all_numbers = all_numbers && numeric_value(x).has_value();
        else if (g && g->condition)
            all_numbers = all_numbers && g->condition->kind == Condition::Kind::Constant;
    if (function_stack_.size() >= options_.max_call_depth)
        fail(rule::flatten_invalid_value, call.range,
             fmt::format("function calls nested deeper than {} when evaluating '{}' (unbounded recursion?)",
                         options_.max_call_depth, f.name));
    // A recursive call on values the model does not fix: evaluated numerically.
    if (depth > 0 && !all_numbers) throw NotInlinable{};

    std::map<std::string, Value> nums;
    std::map<std::string, ConditionPtr> bools;
    Ctx fctx;
    fctx.locals = &nums;
    fctx.bool_locals = &bools;
    fctx.lex = fn.lex;
    auto assign = [&](const FunctionVariable& v, const Output& o, SourceRange where) {
        if (v.boolean) {
            if (!o.condition) fail(rule::flatten_type_mismatch, where, fmt::format("'{}' is Boolean; a number is assigned", v.name));
            bools[v.name] = o.condition;
        } else {
            if (!o.value) fail(rule::flatten_type_mismatch, where, fmt::format("'{}' is a number; a Boolean is assigned", v.name));
            nums[v.name] = *o.value;
        }
    };
    auto eval_into = [&](const FunctionVariable& v, const ast::Expr& e) {
        Output o;
        if (v.boolean) o.condition = fold(condition(e, fctx));
        else o.value = value(e, fctx);
        assign(v, o, e.range);
    };
    std::string args_text;
    for (std::size_t k = 0; k < given.size(); ++k) {
        if (!given[k]) continue;
        std::string t = given[k]->value ? (given[k]->value->is_scalar() ? canonical(given[k]->value->elems[0]) : "{...}")
                                        : canonical(*model_, *given[k]->condition);
        args_text += (args_text.empty() ? "" : ", ") + t;
    }
    call_notes_.push_back(fmt::format("in the call {}({}) at {}:{}", f.name, args_text, call.range.begin.line,
                                      call.range.begin.column));
    count_function_work(f, call.range);
    function_stack_.push_back(&f);
    if (function_stack_.size() == 1) inline_steps_ = 0;
    struct Pop {
        Flattener& self;
        ~Pop() {
            self.function_stack_.pop_back();
            self.call_notes_.pop_back();
        }
    } pop{*this};

    try {
        for (std::size_t k = 0; k < parts.inputs.size(); ++k) {
            const FunctionVariable& v = *parts.find(parts.inputs[k]);
            if (given[k]) {
                assign(v, *given[k], call.range);
                continue;
            }
            if (!v.decl->mod || !v.decl->mod->binding)
                fail(rule::flatten_type_mismatch, call.range, fmt::format("'{}' needs its input '{}'", f.name, v.name));
            fctx.lex = v.lex;
            eval_into(v, *v.decl->mod->binding);
        }
        for (const FunctionVariable& v : parts.variables) {
            if (v.input || !v.decl->mod || !v.decl->mod->binding) continue;
            fctx.lex = v.lex;
            eval_into(v, *v.decl->mod->binding);
        }
        // A condition the flattener decides, or NotInlinable.
        auto decided = [&](const ast::Expr& c) -> bool {
            ConditionPtr cp = fold(condition(c, fctx));
            if (cp->kind != Condition::Kind::Constant) throw NotInlinable{};
            return cp->value;
        };
        auto known_range = [&](const ast::ForIterator& it) {
            if (!it.range) return;
            std::vector<const ast::Expr*> bounds;
            if (it.range->kind == ast::ExprKind::Range)
                for (const ast::ExprPtr& o : it.range->operands) bounds.push_back(o.get());
            else
                bounds.push_back(it.range.get());
            for (const ast::Expr* b : bounds)
                for (const ex& x : value(*b, fctx).elems)
                    if (!numeric_value(x)) throw NotInlinable{};
        };
        auto step = [&](SourceRange where) {
            count_function_work(f, where);
            if (++inline_steps_ > 100000)
                fail(rule::flatten_invalid_value, where,
                     fmt::format("function '{}' runs more than 100000 loop iterations when evaluated here (does it "
                                 "terminate?)",
                                 f.name));
        };
        std::function<Flow(const std::vector<ast::Statement>&)> run = [&](const std::vector<ast::Statement>& body) {
            for (const ast::Statement& s : body) {
                switch (s.kind) {
                    case ast::StatementKind::Assign: {
                        if (s.lhs->kind == ast::ExprKind::Tuple) {
                            if (s.rhs->kind != ast::ExprKind::Call)
                                fail(rule::flatten_type_mismatch, s.range, "a multiple assignment needs a function call");
                            std::vector<Output> outs = function_outputs(*s.rhs, fctx);
                            if (s.lhs->operands.size() > outs.size())
                                fail(rule::flatten_type_mismatch, s.range, "more targets than the function has outputs");
                            for (std::size_t k = 0; k < s.lhs->operands.size(); ++k) {
                                const ast::ExprPtr& t = s.lhs->operands[k];
                                if (!t) continue;
                                const FunctionVariable* v =
                                    t->kind == ast::ExprKind::Ref && t->ref.simple() ? parts.find(t->ref.parts[0].ident) : nullptr;
                                if (!v) fail(rule::flatten_unsupported_construct, t->range, "only scalar function variables are assigned");
                                assign(*v, outs[k], s.range);
                            }
                            break;
                        }
                        const FunctionVariable* v = s.lhs->kind == ast::ExprKind::Ref && s.lhs->ref.simple()
                                                        ? parts.find(s.lhs->ref.parts[0].ident)
                                                        : nullptr;
                        if (!v)
                            fail(rule::flatten_unsupported_construct, s.range,
                                 fmt::format("the assignment to '{}' in function '{}' (only scalar variables of the "
                                             "function are assigned)",
                                             ast::to_modelica(*s.lhs), f.name));
                        if (v->input)
                            fail(rule::flatten_type_mismatch, s.range,
                                 fmt::format("'{}' is an input of function '{}' and cannot be assigned", v->name, f.name));
                        eval_into(*v, *s.rhs);
                        break;
                    }
                    case ast::StatementKind::If:
                        for (const auto& br : s.branches)
                            if (!br.condition || decided(*br.condition)) {
                                Flow fl = run(br.body);
                                if (fl != Flow::Next) return fl;
                                break;
                            }
                        break;
                    case ast::StatementKind::For: {
                        if (s.indices.size() != 1)
                            fail(rule::flatten_unsupported_construct, s.range, "a for-loop with several iterators in a function");
                        known_range(s.indices[0]);
                        const std::string& iv = s.indices[0].name;
                        std::optional<Value> saved;
                        if (auto it = nums.find(iv); it != nums.end()) saved = it->second;
                        Flow out = Flow::Next;
                        for (long x : iterator_values(s.indices[0], {.statements = &s.body}, fctx)) {
                            step(s.range);
                            nums[iv] = Value::scalar(GiNaC::numeric(x));
                            Flow fl = run(s.body);
                            if (fl == Flow::Break) break;
                            if (fl == Flow::Return) {
                                out = fl;
                                break;
                            }
                        }
                        if (saved) nums[iv] = *saved;
                        else nums.erase(iv);
                        if (out == Flow::Return) return out;
                        break;
                    }
                    case ast::StatementKind::While:
                        while (decided(*s.branches[0].condition)) {
                            step(s.range);
                            Flow fl = run(s.branches[0].body);
                            if (fl == Flow::Break) break;
                            if (fl == Flow::Return) return fl;
                        }
                        break;
                    case ast::StatementKind::Break: return Flow::Break;
                    case ast::StatementKind::Return: return Flow::Return;
                    case ast::StatementKind::Call: {
                        const std::string name = s.call->ref.dotted();
                        if (name == "assert" && s.call->args.size() >= 2) {
                            if (!decided(*s.call->args[0].value))
                                fail(rule::flatten_invalid_value, s.range,
                                     fmt::format("the assert in function '{}' fails: {}", f.name,
                                                 ast::to_modelica(*s.call->args[1].value)));
                            break;
                        }
                        fail(rule::flatten_unsupported_construct, s.range,
                             fmt::format("the call statement {}(...) in function '{}' is not supported", name, f.name));
                    }
                    case ast::StatementKind::When:
                        fail(rule::flatten_unsupported_construct, s.range,
                             fmt::format("a when-statement in function '{}' (not allowed in functions, Modelica 3.6, "
                                         "12.2)",
                                         f.name));
                }
            }
            return Flow::Next;
        };
        for (const auto& [sec, lex] : parts.algorithms) {
            fctx.lex = lex;
            if (run(sec->statements) == Flow::Return) break;
        }
    } catch (const NotInlinable&) {
        if (function_stack_.size() > 1) throw;  // the outermost call is evaluated numerically
        std::vector<Output> inputs;
        for (std::size_t k = 0; k < given.size(); ++k) {
            if (given[k]) {
                inputs.push_back(*given[k]);
                continue;
            }
            const FunctionVariable& v = *parts.find(parts.inputs[k]);
            Output o;
            if (v.boolean) o.condition = bools.at(v.name);
            else o.value = nums.at(v.name);
            inputs.push_back(o);
        }
        return numeric_call(fn, parts, inputs, call);
    }
    std::vector<Output> out;
    for (const std::string& o : parts.outputs) {
        const FunctionVariable& v = *parts.find(o);
        Output r;
        if (v.boolean && bools.count(o)) r.condition = bools.at(o);
        else if (!v.boolean && nums.count(o)) r.value = nums.at(o);
        if (r.value && depth > 0) {
            // A recursive call on numbers: a constant result that is not a
            // rational number (sin(1), sqrt(2)) is kept as its floating-point
            // value, as the function computes it. Written exactly, each level
            // of the recursion would wrap the one below, and a deep recursion
            // would give a tree as deep as the recursion times its body,
            // too deep for the later stages to compare or expand.
            for (ex& x : r.value->elems)
                if (!GiNaC::is_a<GiNaC::numeric>(x))
                    if (ex fx = x.evalf(); GiNaC::is_a<GiNaC::numeric>(fx)) x = fx;
        }
        if (!r.value && !r.condition && out.empty())
            fail(rule::flatten_type_mismatch, call.range, fmt::format("function '{}' does not assign its output '{}'", f.name, o));
        out.push_back(r);
    }
    return out;
}

std::vector<Flattener::Output> Flattener::numeric_call(const ClassHit& fn, const FunctionParts& parts,
                                                       const std::vector<Output>& inputs, const ast::Expr& call) {
    const int id = compile_function(fn, host_);
    std::vector<ex> args;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        if (!inputs[k].value && inputs[k].condition && inputs[k].condition->kind == Condition::Kind::Constant) {
            args.push_back(inputs[k].condition->value ? 1 : 0);  // a Boolean known when flattening
            continue;
        }
        if (!inputs[k].value || !inputs[k].value->is_scalar())
            fail(rule::flatten_unsupported_construct, call.range,
                 fmt::format("function '{}' is evaluated numerically (its control flow depends on the model's "
                             "variables), and its input '{}' is {}; only scalar numbers are passed to such a call",
                             fn.cls->name, parts.inputs[k], inputs[k].value ? "an array" : "a Boolean"));
        args.push_back(inputs[k].value->elems[0]);
    }
    std::vector<Output> out;
    for (std::size_t k = 0; k < parts.outputs.size(); ++k) {
        ex c;
        try {
            c = make_call(id, static_cast<int>(k), args);
        } catch (const fn::FunctionError& err) {
            fail(rule::flatten_invalid_value, call.range, fmt::format("evaluating '{}': {}", ast::to_modelica(call), err.what()),
                 {fmt::format("at {}:{} in function '{}'", err.range.begin.line, err.range.begin.column, fn.cls->name)});
        }
        Output o;
        if (parts.find(parts.outputs[k])->boolean) {
            // A Boolean output is 0 or 1: true when above one half.
            auto rel = std::make_shared<Condition>();
            rel->kind = Condition::Kind::Relation;
            rel->op = Condition::RelOp::Gt;
            rel->lhs = c;
            rel->rhs = GiNaC::numeric(1, 2);
            rel->range = call.range;
            o.condition = fold(rel);
        } else {
            o.value = Value::scalar(c);
        }
        out.push_back(o);
    }
    return out;
}

void Flattener::tuple_equation(const ast::Expr& lhs, const ast::Expr& rhs, const ast::Equation* src, SourceRange where,
                               const EqCtx& ec) {
    if (rhs.kind != ast::ExprKind::Call)
        fail(rule::flatten_type_mismatch, where, "the right side of '(a, b) = ...' must be a function call");
    std::vector<Output> outs = function_outputs(rhs, ec.ctx);
    if (lhs.operands.size() > outs.size())
        fail(rule::flatten_type_mismatch, where,
             fmt::format("'{}' has {} targets but the function has {} outputs", ast::to_modelica(lhs), lhs.operands.size(),
                         outs.size()));
    for (std::size_t k = 0; k < lhs.operands.size(); ++k) {
        if (!lhs.operands[k]) continue;
        if (!outs[k].value)
            fail(rule::flatten_unsupported_construct, lhs.operands[k]->range,
                 "a Boolean output of a function in an equation is not supported");
        add_equation(value(*lhs.operands[k], ec.ctx), *outs[k].value, src, where, ec, "equation");
    }
}

}  // namespace modeaudit::flat_impl
