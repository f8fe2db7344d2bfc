#include "flatten/function_compiler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "flatten/function_call.h"

#include "parse/ast_print.h"

namespace modeaudit::flat {

const FunctionVariable* FunctionParts::find(const std::string& name) const {
    for (const FunctionVariable& v : variables)
        if (v.name == name) return &v;
    return nullptr;
}

const RecordInput* FunctionParts::record_input(const std::string& name) const {
    for (const RecordInput& r : record_inputs)
        if (r.name == name) return &r;
    return nullptr;
}

bool is_boolean_type(const ast::ComponentRef& type) { return type.dotted() == "Boolean"; }
bool is_integer_type(const ast::ComponentRef& type) { return type.dotted() == "Integer"; }

namespace {

// The record class a function variable's type denotes, or null (a built-in
// type, a type derived from one, an enumeration, another class).
ClassHit record_type(const ast::ComponentRef& type, const LexScope* lex, FunctionHost& host) {
    auto builtin = [](const ast::ComponentRef& r) {
        if (r.parts.size() != 1 || r.global) return false;
        const std::string& n = r.parts[0].ident;
        return n == "Real" || n == "Integer" || n == "Boolean" || n == "String";
    };
    if (builtin(type)) return {};
    ClassHit hit = host.find_class(type, lex);
    for (int guard = 0; hit.cls && hit.cls->is_short && !hit.cls->is_enumeration && guard < 64; ++guard) {
        if (builtin(hit.cls->short_base)) return {};
        hit = host.find_class(hit.cls->short_base, hit.lex ? hit.lex->parent : nullptr);
    }
    return hit.cls && hit.cls->kind == ast::ClassKind::Record ? hit : ClassHit{};
}

void collect(const ClassHit& fn, FunctionHost& host, FunctionParts& parts, std::vector<const ast::ClassDef*>& stack) {
    const ast::ClassDef& f = *fn.cls;
    if (std::find(stack.begin(), stack.end(), &f) != stack.end())
        host.refuse(rule::flatten_recursive_class, f.range, fmt::format("function '{}' extends itself", f.name));
    stack.push_back(&f);
    host.check_class(f);
    for (const ast::Element& el : f.elements) {
        if (el.kind != ast::Element::Kind::Extends) continue;
        ClassHit base = host.find_class(el.extends->base, fn.lex);
        if (base.cls->kind != ast::ClassKind::Function)
            host.refuse(rule::flatten_type_mismatch, el.range,
                        fmt::format("function '{}' extends '{}', which is not a function", f.name, base.cls->name));
        if (el.extends->mod && (!el.extends->mod->arguments.empty() || el.extends->mod->binding))
            host.refuse(rule::flatten_unsupported_construct, el.range,
                        fmt::format("extends with modifiers in function '{}' is not supported", f.name));
        collect(base, host, parts, stack);
    }
    for (const ast::Element& el : f.elements) {
        if (el.kind != ast::Element::Kind::Component) continue;
        const ast::ComponentClause& cc = *el.component;
        for (const ast::ComponentDecl& d : cc.decls) {
            if (!d.dims.empty() || !cc.type_dims.empty())
                host.refuse(rule::flatten_unsupported_construct, d.range,
                            fmt::format("array variable '{}' in function '{}': only scalar function variables are "
                                        "supported",
                                        d.name, f.name));
            if (parts.find(d.name))
                host.refuse(rule::flatten_type_mismatch, d.name_range,
                            fmt::format("'{}' is declared twice in function '{}'", d.name, f.name));
            FunctionVariable v;
            v.name = d.name;
            v.clause = &cc;
            v.decl = &d;
            v.lex = fn.lex;
            v.input = cc.prefix.input;
            v.output = cc.prefix.output;
            v.boolean = is_boolean_type(cc.type_name);
            v.integer = is_integer_type(cc.type_name);
            if (cc.type_name.dotted() == "String")
                host.refuse(rule::flatten_unsupported_construct, d.range,
                            fmt::format("String variable '{}' in function '{}' is not supported", d.name, f.name));
            if (ClassHit rec = record_type(cc.type_name, fn.lex, host); rec.cls) {
                // A record input is its scalar fields; other record variables
                // (outputs, protected ones) are outside the subset.
                if (!cc.prefix.input)
                    host.refuse(rule::flatten_unsupported_construct, d.range,
                                fmt::format("'{}' of function '{}' is a record (class '{}'); records returned from "
                                            "functions or held in their protected variables are outside the subset",
                                            d.name, f.name, rec.cls->name));
                if (d.mod)
                    host.refuse(rule::flatten_unsupported_construct, d.mod->range,
                                fmt::format("a default value of the record input '{}' of function '{}'", d.name, f.name));
                RecordInput ri;
                ri.name = d.name;
                for (const RecordLeaf& leaf : host.record_leaves(rec, d.range)) {
                    FunctionVariable lv = v;
                    lv.name = d.name + "." + leaf.name;
                    lv.boolean = leaf.boolean;
                    lv.integer = leaf.integer;
                    if (parts.find(lv.name))
                        host.refuse(rule::flatten_type_mismatch, d.name_range,
                                    fmt::format("'{}' is declared twice in function '{}'", lv.name, f.name));
                    parts.variables.push_back(lv);
                    parts.inputs.push_back(lv.name);
                    ri.leaves.push_back(lv.name);
                    ri.paths.push_back(leaf.path);
                }
                parts.declared_inputs.push_back(d.name);
                parts.record_inputs.push_back(std::move(ri));
                continue;
            }
            parts.variables.push_back(v);
            if (v.input) parts.inputs.push_back(d.name);
            if (v.input) parts.declared_inputs.push_back(d.name);
            if (v.output) parts.outputs.push_back(d.name);
        }
    }
    if (!f.equation_sections.empty())
        host.refuse(rule::flatten_unsupported_construct, f.equation_sections.front().range,
                    fmt::format("function '{}' has an equation section; a function's body is an algorithm", f.name));
    for (const ast::AlgorithmSection& s : f.algorithm_sections) {
        if (s.initial)
            host.refuse(rule::flatten_unsupported_construct, s.range,
                        fmt::format("function '{}' has an initial algorithm", f.name));
        parts.algorithms.emplace_back(&s, fn.lex);
    }
    stack.pop_back();
}

const std::set<std::string>& math_builtins() {
    static const std::set<std::string> s = {"sin",  "cos",  "tan",  "asin", "acos", "atan", "atan2", "sinh",
                                            "cosh", "tanh", "exp",  "log",  "log10", "sqrt", "abs"};
    return s;
}

// Compiles one function's parts into a registry entry.
class Compiler {
public:
    Compiler(FunctionHost& host, const FunctionParts& parts, fn::Function& out)
        : host_(host), parts_(parts), out_(out) {}

    void run() {
        const std::string& name = out_.name;
        for (const FunctionVariable& v : parts_.variables) slot(v.name);
        for (const std::string& in : parts_.inputs) out_.inputs.push_back(slots_.at(in));
        for (const std::string& o : parts_.outputs) out_.outputs.push_back(slots_.at(o));
        for (const std::string& in : parts_.inputs) {
            const FunctionVariable& v = *parts_.find(in);
            lex_ = v.lex;
            if (v.decl->mod && v.decl->mod->binding) out_.input_defaults.push_back(expr(*v.decl->mod->binding));
            else out_.input_defaults.push_back(std::nullopt);
        }
        for (const FunctionVariable& v : parts_.variables) {
            if (v.input || !v.decl->mod || !v.decl->mod->binding) continue;
            lex_ = v.lex;
            out_.initial.emplace_back(slots_.at(v.name), expr(*v.decl->mod->binding));
        }
        for (const auto& [sec, lex] : parts_.algorithms) {
            lex_ = lex;
            statements(sec->statements, out_.body);
        }
        (void)name;
    }

private:
    FunctionHost& host_;
    const FunctionParts& parts_;
    fn::Function& out_;
    std::map<std::string, int> slots_;
    const LexScope* lex_ = nullptr;
    int loops_ = 0;

    int slot(const std::string& n) {
        auto it = slots_.find(n);
        if (it != slots_.end()) return it->second;
        out_.slot_names.push_back(n);
        int s = static_cast<int>(out_.slot_names.size() - 1);
        slots_[n] = s;
        return s;
    }

    [[noreturn]] void refuse(SourceRange where, const std::string& what) {
        host_.refuse(rule::flatten_unsupported_construct, where, fmt::format("{} in function '{}'", what, out_.name));
        std::abort();  // refuse does not return
    }

    int target(const ast::Expr& e) {
        if (e.kind != ast::ExprKind::Ref || !e.ref.simple() || !slots_.count(e.ref.parts[0].ident))
            refuse(e.range, fmt::format("the assignment to '{}' (only scalar variables of the function are assigned)",
                                        ast::to_modelica(e)));
        const std::string& n = e.ref.parts[0].ident;
        const FunctionVariable* v = parts_.find(n);
        if (v && v->input)
            host_.refuse(rule::flatten_type_mismatch, e.range,
                         fmt::format("'{}' is an input of function '{}' and cannot be assigned", n, out_.name));
        return slots_.at(n);
    }

    void statements(const std::vector<ast::Statement>& in, std::vector<fn::Stmt>& out) {
        for (const ast::Statement& s : in) out.push_back(statement(s));
    }

    fn::Stmt statement(const ast::Statement& s) {
        fn::Stmt st;
        st.range = s.range;
        switch (s.kind) {
            case ast::StatementKind::Assign:
                st.kind = fn::Stmt::Kind::Assign;
                if (s.lhs->kind == ast::ExprKind::Tuple) {
                    if (s.rhs->kind != ast::ExprKind::Call)
                        refuse(s.range, "a multiple assignment whose right side is not a function call");
                    for (const ast::ExprPtr& t : s.lhs->operands) st.targets.push_back(t ? target(*t) : -1);
                    st.value = expr(*s.rhs);
                    if (st.value.kind != fn::Expr::Kind::Call)
                        refuse(s.range, "a multiple assignment from a built-in function");
                    if (st.targets.size() > fn::Registry::instance().get(st.value.function).outputs.size() &&
                        fn::Registry::instance().get(st.value.function).complete)
                        host_.refuse(rule::flatten_type_mismatch, s.range,
                                     fmt::format("'{}' assigns more outputs than the function has",
                                                 ast::to_modelica(*s.lhs)));
                } else {
                    st.targets.push_back(target(*s.lhs));
                    st.value = expr(*s.rhs);
                }
                return st;
            case ast::StatementKind::If:
                st.kind = fn::Stmt::Kind::If;
                for (const auto& br : s.branches) {
                    if (br.condition) st.conditions.push_back(expr(*br.condition));
                    st.bodies.emplace_back();
                    statements(br.body, st.bodies.back());
                }
                return st;
            case ast::StatementKind::For: {
                if (s.indices.size() != 1 || !s.indices[0].range)
                    refuse(s.range, "a for-loop with several or implicit iterators");
                const ast::Expr& r = *s.indices[0].range;
                st.kind = fn::Stmt::Kind::For;
                if (r.kind == ast::ExprKind::Range) {
                    st.start = expr(*r.operands[0]);
                    st.step = r.has_step ? expr(*r.operands[1]) : constant(1, r.range);
                    st.stop = expr(*r.operands[r.has_step ? 2 : 1]);
                } else {
                    refuse(r.range, "a for-loop over something else than a range a:b or a:s:b");
                }
                auto saved = slots_.find(s.indices[0].name) != slots_.end() ? std::optional<int>(slots_.at(s.indices[0].name))
                                                                             : std::nullopt;
                // The iterator is a new variable hiding any of the same name.
                out_.slot_names.push_back(s.indices[0].name);
                st.slot = static_cast<int>(out_.slot_names.size() - 1);
                slots_[s.indices[0].name] = st.slot;
                ++loops_;
                statements(s.body, st.body);
                --loops_;
                if (saved) slots_[s.indices[0].name] = *saved;
                else slots_.erase(s.indices[0].name);
                return st;
            }
            case ast::StatementKind::While:
                st.kind = fn::Stmt::Kind::While;
                st.conditions.push_back(expr(*s.branches[0].condition));
                ++loops_;
                statements(s.branches[0].body, st.body);
                --loops_;
                return st;
            case ast::StatementKind::Break:
                if (loops_ == 0) refuse(s.range, "'break' outside a loop");
                st.kind = fn::Stmt::Kind::Break;
                return st;
            case ast::StatementKind::Return:
                st.kind = fn::Stmt::Kind::Return;
                return st;
            case ast::StatementKind::Call: {
                const std::string name = s.call->ref.dotted();
                if (name == "assert") {
                    if (s.call->args.size() < 2) refuse(s.range, "assert() without a message");
                    st.kind = fn::Stmt::Kind::Assert;
                    st.conditions.push_back(expr(*s.call->args[0].value));
                    st.message = s.call->args[1].value->kind == ast::ExprKind::String
                                     ? s.call->args[1].value->text
                                     : ast::to_modelica(*s.call->args[1].value);
                    return st;
                }
                refuse(s.range, fmt::format("the call statement {}(...)", name));
            }
            case ast::StatementKind::When:
                refuse(s.range, "a when-statement (not allowed in functions, Modelica 3.6, 12.2)");
        }
        refuse(s.range, "this statement");
    }

    fn::Expr constant(double v, SourceRange r) {
        fn::Expr e;
        e.kind = fn::Expr::Kind::Const;
        e.value = v;
        e.range = r;
        return e;
    }

    fn::Expr node(fn::Expr::Kind k, const ast::Expr& src, std::vector<fn::Expr> ops) {
        fn::Expr e;
        e.kind = k;
        e.range = src.range;
        e.text = ast::to_modelica(src);
        e.operands = std::move(ops);
        return e;
    }

    fn::Expr expr(const ast::Expr& e) {
        using K = fn::Expr::Kind;
        switch (e.kind) {
            case ast::ExprKind::Integer:
            case ast::ExprKind::Real: return constant(std::stod(e.text), e.range);
            case ast::ExprKind::Boolean: return constant(e.boolean ? 1 : 0, e.range);
            case ast::ExprKind::Ref: {
                if (e.ref.simple() && slots_.count(e.ref.parts[0].ident)) {
                    fn::Expr x = node(K::Slot, e, {});
                    x.slot = slots_.at(e.ref.parts[0].ident);
                    return x;
                }
                // A field of a record input: `r.a` is the input "r.a".
                if (!e.ref.global && e.ref.parts.size() > 1 && slots_.count(e.ref.dotted()) &&
                    std::all_of(e.ref.parts.begin(), e.ref.parts.end(),
                                [](const ast::NamePart& p) { return p.subscripts.empty(); })) {
                    fn::Expr x = node(K::Slot, e, {});
                    x.slot = slots_.at(e.ref.dotted());
                    return x;
                }
                return constant(host_.constant(e, lex_), e.range);
            }
            case ast::ExprKind::Unary: {
                fn::Expr a = expr(*e.operands[0]);
                if (e.uop == ast::UnaryOp::Not) return node(K::Not, e, {a});
                if (e.uop == ast::UnaryOp::Minus || e.uop == ast::UnaryOp::ElemMinus) return node(K::Neg, e, {a});
                return a;
            }
            case ast::ExprKind::Binary: {
                using B = ast::BinaryOp;
                K k = K::Add;
                switch (e.bop) {
                    case B::Add: case B::ElemAdd: k = K::Add; break;
                    case B::Sub: case B::ElemSub: k = K::Sub; break;
                    case B::Mul: case B::ElemMul: k = K::Mul; break;
                    case B::Div: case B::ElemDiv: k = K::Div; break;
                    case B::Pow: case B::ElemPow: k = K::Pow; break;
                    case B::Lt: k = K::Lt; break;
                    case B::Le: k = K::Le; break;
                    case B::Gt: k = K::Gt; break;
                    case B::Ge: k = K::Ge; break;
                    case B::Eq: k = K::Eq; break;
                    case B::Ne: k = K::Ne; break;
                    case B::And: k = K::And; break;
                    case B::Or: k = K::Or; break;
                }
                return node(k, e, {expr(*e.operands[0]), expr(*e.operands[1])});
            }
            case ast::ExprKind::If: {
                std::vector<fn::Expr> ops;
                for (const ast::ExprPtr& o : e.operands) ops.push_back(expr(*o));
                return node(K::If, e, std::move(ops));
            }
            case ast::ExprKind::Call: return call(e);
            default: refuse(e.range, fmt::format("the expression '{}'", ast::to_modelica(e)));
        }
    }

    fn::Expr call(const ast::Expr& e) {
        using K = fn::Expr::Kind;
        const std::string name = e.ref.dotted();
        if (!e.iterators.empty()) refuse(e.range, "a reduction expression");
        std::vector<fn::Expr> args;
        auto positional = [&](std::size_t lo, std::size_t hi) {
            if (e.args.size() < lo || e.args.size() > hi)
                host_.refuse(rule::flatten_type_mismatch, e.range,
                             fmt::format("{}() takes {} to {} arguments, not {}", name, lo, hi, e.args.size()));
            for (const ast::FunctionArg& a : e.args) {
                if (!a.name.empty())
                    host_.refuse(rule::flatten_type_mismatch, a.range, fmt::format("{}() takes no named arguments", name));
                args.push_back(expr(*a.value));
            }
        };
        if (name == "noEvent" || name == "smooth" || name == "homotopy") {
            // noEvent(e) = e; smooth(p, e) = e; homotopy(actual, simplified) = actual.
            if (e.args.empty()) host_.refuse(rule::flatten_type_mismatch, e.range, name + "() needs an argument");
            const ast::Expr& inner = *e.args[name == "smooth" && e.args.size() > 1 ? 1 : 0].value;
            return expr(inner);
        }
        static const std::map<std::string, std::pair<fn::Builtin, int>> builtins = {
            {"abs", {fn::Builtin::Abs, 1}},     {"sign", {fn::Builtin::Sign, 1}},   {"sqrt", {fn::Builtin::Sqrt, 1}},
            {"exp", {fn::Builtin::Exp, 1}},     {"log", {fn::Builtin::Log, 1}},     {"log10", {fn::Builtin::Log10, 1}},
            {"sin", {fn::Builtin::Sin, 1}},     {"cos", {fn::Builtin::Cos, 1}},     {"tan", {fn::Builtin::Tan, 1}},
            {"asin", {fn::Builtin::Asin, 1}},   {"acos", {fn::Builtin::Acos, 1}},   {"atan", {fn::Builtin::Atan, 1}},
            {"atan2", {fn::Builtin::Atan2, 2}}, {"sinh", {fn::Builtin::Sinh, 1}},   {"cosh", {fn::Builtin::Cosh, 1}},
            {"tanh", {fn::Builtin::Tanh, 1}},   {"min", {fn::Builtin::Min, 2}},     {"max", {fn::Builtin::Max, 2}},
            {"div", {fn::Builtin::Div, 2}},     {"mod", {fn::Builtin::Mod, 2}},     {"rem", {fn::Builtin::Rem, 2}},
            {"floor", {fn::Builtin::Floor, 1}}, {"ceil", {fn::Builtin::Ceil, 1}}, {"integer", {fn::Builtin::Integer, 1}},
        };
        if (auto it = builtins.find(name); it != builtins.end()) {
            positional(static_cast<std::size_t>(it->second.second), static_cast<std::size_t>(it->second.second));
            fn::Expr x = node(K::Builtin, e, std::move(args));
            x.builtin = it->second.first;
            return x;
        }
        if (name == "Integer") {
            positional(1, 1);
            return args[0];
        }
        ClassHit target = host_.find_class(e.ref, lex_);
        if (target.cls->kind != ast::ClassKind::Function)
            host_.refuse(rule::flatten_unsupported_construct, e.range,
                         fmt::format("'{}' is a {}; only functions can be called in function '{}'", name,
                                     ast::class_kind_word(target.cls->kind), out_.name));
        if (auto b = external_builtin(*target.cls)) {
            auto it = builtins.find(*b);
            const std::size_t n = static_cast<std::size_t>(it->second.second);
            positional(n, n);
            fn::Expr x = node(K::Builtin, e, std::move(args));
            x.builtin = it->second.first;
            return x;
        }
        const int id = compile_function(target, host_);
        FunctionParts callee = collect_function(target, host_);
        if (!callee.record_inputs.empty())
            refuse(e.range, fmt::format("a call of '{}', which takes a record input, inside a function evaluated "
                                        "numerically",
                                        name));
        std::vector<std::optional<fn::Expr>> given(callee.inputs.size());
        std::size_t pos = 0;
        for (const ast::FunctionArg& a : e.args) {
            std::size_t k = 0;
            if (a.name.empty()) {
                if (pos >= callee.inputs.size())
                    host_.refuse(rule::flatten_type_mismatch, a.range,
                                 fmt::format("too many arguments for '{}' ({} inputs)", name, callee.inputs.size()));
                k = pos++;
            } else {
                auto it = std::find(callee.inputs.begin(), callee.inputs.end(), a.name);
                if (it == callee.inputs.end())
                    host_.refuse(rule::flatten_type_mismatch, a.range, fmt::format("'{}' has no input '{}'", name, a.name));
                k = static_cast<std::size_t>(it - callee.inputs.begin());
            }
            given[k] = expr(*a.value);
        }
        fn::Expr x = node(K::Call, e, {});
        x.function = id;
        x.output = 0;
        for (std::size_t k = 0; k < given.size(); ++k) {
            if (given[k]) {
                x.operands.push_back(*given[k]);
                continue;
            }
            const FunctionVariable& v = *callee.find(callee.inputs[k]);
            if (!v.decl->mod || !v.decl->mod->binding)
                host_.refuse(rule::flatten_type_mismatch, e.range,
                             fmt::format("'{}' needs its input '{}'", name, callee.inputs[k]));
            fn::Expr m;
            m.kind = K::Missing;
            x.operands.push_back(m);
        }
        if (callee.outputs.empty())
            host_.refuse(rule::flatten_unsupported_construct, e.range, fmt::format("function '{}' has no output", name));
        return x;
    }
};

}  // namespace

FunctionParts collect_function(const ClassHit& fn, FunctionHost& host) {
    FunctionParts parts;
    parts.fn = fn;
    std::vector<const ast::ClassDef*> stack;
    collect(fn, host, parts, stack);
    return parts;
}

std::optional<std::string> external_builtin(const ast::ClassDef& fn) {
    if (!fn.external_clause) return std::nullopt;
    if (!fn.external_language.empty() && fn.external_language != "C" && fn.external_language != "builtin")
        return std::nullopt;
    const std::string name = fn.external_name.empty() ? fn.name : fn.external_name;
    if (!math_builtins().count(name)) return std::nullopt;
    // The C function's arguments are the inputs, in order; its result the output.
    std::size_t inputs = 0, outputs = 0;
    for (const ast::Element& el : fn.elements) {
        if (el.kind != ast::Element::Kind::Component) continue;
        for (std::size_t k = 0; k < el.component->decls.size(); ++k) {
            if (el.component->prefix.input) ++inputs;
            if (el.component->prefix.output) ++outputs;
        }
    }
    if (outputs != 1 || inputs != (name == "atan2" ? 2u : 1u)) return std::nullopt;
    return name;
}

const ast::ComponentRef* derivative_annotation(const ast::ClassDef& fn) {
    for (const ast::ModificationPtr& a : fn.annotations) {
        if (!a) continue;
        for (const ast::ElementModification& em : a->arguments)
            if (em.name.dotted() == "derivative" && em.mod && em.mod->binding &&
                em.mod->binding->kind == ast::ExprKind::Ref)
                return &em.mod->binding->ref;
    }
    return nullptr;
}

int compile_function(const ClassHit& fn, FunctionHost& host) {
    if (auto it = host.compiled.find(fn.cls); it != host.compiled.end()) return it->second;
    if (fn.cls->external_clause)
        host.refuse(rule::flatten_unsupported_construct, *fn.cls->external_clause,
                    fmt::format("'{}' calls external code: an external function is not supported unless it is one "
                                "of the Modelica.Math functions that call the C library's mathematical functions",
                                fn.cls->name));
    FunctionParts parts = collect_function(fn, host);
    if (parts.outputs.empty())
        host.refuse(rule::flatten_unsupported_construct, fn.cls->range, fmt::format("function '{}' has no output", fn.cls->name));
    if (parts.inputs.size() > kMaxCallInputs)
        host.refuse(rule::flatten_unsupported_construct, fn.cls->range,
                    fmt::format("function '{}' has {} inputs; at most {} are supported", fn.cls->name,
                                parts.inputs.size(), kMaxCallInputs));
    const int id = fn::Registry::instance().add(fn.cls->name, fn.cls->range);
    host.compiled[fn.cls] = id;
    fn::Function& out = fn::Registry::instance().at(id);
    Compiler c(host, parts, out);
    c.run();
    out.complete = true;
    if (const ast::ComponentRef* d = derivative_annotation(*fn.cls)) {
        ClassHit dh = host.find_class(*d, fn.lex);
        if (dh.cls->kind == ast::ClassKind::Function) {
            const int did = compile_function(dh, host);
            fn::Registry::instance().at(id).derivative = did;
        }
    }
    return id;
}

}  // namespace modeaudit::flat
