#include "flatten/records.h"

#include "flatten/flattener_impl.h"

#include <fmt/format.h>

#include <functional>
#include <set>

namespace modeaudit::flat {

namespace {

// Follows `record S = R(...)` to R; the class itself when it is not short.
ClassHit through_short_record(Lookup& lookup, ClassHit c) {
    for (int guard = 0; c.cls && c.cls->is_short && !c.cls->is_enumeration && guard < 64; ++guard) {
        const ast::ComponentRef& base = c.cls->short_base;
        if (base.parts.size() == 1 && !base.global) {
            const std::string& n = base.parts[0].ident;
            if (n == "Real" || n == "Integer" || n == "Boolean" || n == "String") return c;
        }
        c = lookup.lookup_class(base, c.lex && c.lex->parent ? c.lex->parent : lookup.top_scope());
    }
    return c;
}

}  // namespace

bool is_record_class(Lookup& lookup, ClassHit cls) {
    if (!cls.cls) return false;
    if (cls.cls->kind == ast::ClassKind::Record) return true;
    ClassHit t = through_short_record(lookup, cls);
    return t.cls && t.cls->kind == ast::ClassKind::Record;
}

std::vector<RecordField> record_fields(Lookup& lookup, ClassHit record) {
    std::vector<RecordField> out;
    std::set<std::string> seen;
    std::set<const ast::ClassDef*> visiting;
    std::function<void(ClassHit)> walk = [&](ClassHit c) {
        c = through_short_record(lookup, c);
        if (!c.cls || !visiting.insert(c.cls).second) return;
        for (const ast::Element& el : c.cls->elements)
            if (el.kind == ast::Element::Kind::Extends) walk(lookup.lookup_class(el.extends->base, c.lex));
        for (const ast::Element& el : c.cls->elements) {
            if (el.kind != ast::Element::Kind::Component || el.component->redeclare) continue;
            const ast::ComponentClause& cc = *el.component;
            for (const ast::ComponentDecl& d : cc.decls) {
                if (!seen.insert(d.name).second) continue;
                RecordField f;
                f.name = d.name;
                f.clause = &cc;
                f.decl = &d;
                f.lex = c.lex;
                f.is_protected = el.is_protected;
                const bool valued = d.mod && d.mod->binding;
                f.input = !el.is_protected && !cc.final && !(cc.prefix.constant && valued);
                out.push_back(f);
            }
        }
    };
    walk(record);
    return out;
}

bool constructor_arguments(const ast::Expr& call, const std::vector<RecordField>& fields,
                           std::map<std::string, const ast::Expr*>& out, std::string& error, SourceRange& where) {
    std::vector<const RecordField*> inputs;
    for (const RecordField& f : fields)
        if (f.input) inputs.push_back(&f);
    std::size_t pos = 0;
    for (const ast::FunctionArg& a : call.args) {
        where = a.range;
        if (!a.value) {
            error = "an empty argument";
            return false;
        }
        std::string name;
        if (a.name.empty()) {
            if (pos >= inputs.size()) {
                error = fmt::format("too many arguments: the record constructor has {} inputs", inputs.size());
                return false;
            }
            name = inputs[pos++]->name;
        } else {
            name = a.name;
            const RecordField* f = nullptr;
            for (const RecordField& g : fields)
                if (g.name == name) f = &g;
            if (!f) {
                error = fmt::format("the record has no field '{}'", name);
                return false;
            }
            if (!f->input) {
                error = fmt::format("the field '{}' is {}, so it is no input of the record constructor (Modelica "
                                    "3.6, 12.6)",
                                    name,
                                    f->is_protected ? "protected"
                                    : f->clause->final ? "final"
                                                       : "a constant with a value");
                return false;
            }
        }
        if (!out.emplace(name, a.value.get()).second) {
            error = fmt::format("the field '{}' is given twice", name);
            return false;
        }
    }
    return true;
}

}  // namespace modeaudit::flat

// ---------------------------------------------------------------- the flattener's part

namespace modeaudit::flat_impl {

std::optional<TypeInfo> Flattener::record_constructor(const ast::Expr& call, const Ctx& ctx) {
    if (call.kind != ast::ExprKind::Call || !call.iterators.empty() || call.ref.parts.empty()) return std::nullopt;
    for (const ast::NamePart& p : call.ref.parts)
        if (!p.subscripts.empty()) return std::nullopt;
    const LexScope* from = lex_of(ctx);
    if (!call.ref.global && !lookup_first(call.ref.parts[0].ident, from)) return std::nullopt;  // a built-in
    std::vector<const ast::ClassDef*> stack;
    TypeInfo t = resolve_type(call.ref, from, stack, call.range);
    if (t.builtin || t.cls.cls->kind != ast::ClassKind::Record) return std::nullopt;
    refuse_unsupported_in(*t.cls.cls);
    return t;
}

ModPtr Flattener::record_binding_mods(const ModPtr& mod, ClassHit cls, const std::string& target) {
    const ast::Expr* e = mod->binding;
    std::vector<Selector> path = mod->binding_path;
    Ctx bc{mod->binding_scope, nullptr};
    bc.lex = mod->binding_lex;
    for (bool reduced = true; reduced;) {
        reduced = false;
        // `R rs[2] = {R(...), R(...)}`: element k of an array constructor.
        if (!path.empty() && path.front().field.empty() && e->kind == ast::ExprKind::Array && e->iterators.empty()) {
            const long k = path.front().index;
            if (k < 1 || static_cast<std::size_t>(k) > e->operands.size())
                fail(rule::flatten_type_mismatch, mod->range,
                     fmt::format("the binding of '{}' has {} elements, not {}", target, e->operands.size(), k));
            e = e->operands[static_cast<std::size_t>(k - 1)].get();
            path.erase(path.begin());
            reduced = true;
        } else if (e->kind == ast::ExprKind::If) {
            // `if big then R(...) else R(...)` with a condition known now.
            const ast::Expr* chosen = nullptr;
            bool dynamic = false;
            for (std::size_t i = 0; i + 1 < e->operands.size() && !chosen && !dynamic; i += 2) {
                ConditionPtr c = fold(condition(*e->operands[i], bc));
                if (c->kind != Condition::Kind::Constant) dynamic = true;
                else if (c->value) chosen = e->operands[i + 1].get();
            }
            if (!dynamic) {
                e = chosen ? chosen : e->operands.back().get();
                reduced = true;
            }
        }
    }
    // The modifiers of the fields written with the binding or in the
    // declarations it overrides (`parameter R r(a = 1)` bound as a whole):
    // the binding gives every input field its value, so their bindings go;
    // their attributes stay.
    auto rest = std::make_shared<ModNode>(*mod);
    rest->binding = nullptr;
    rest->binding_path.clear();
    for (const RecordField& f : record_fields(lookup_, cls)) {
        auto it = rest->args.find(f.name);
        if (!f.input || it == rest->args.end() || !it->second->binding) continue;
        auto stripped = std::make_shared<ModNode>(*it->second);
        stripped->binding = nullptr;
        stripped->binding_path.clear();
        if (!stripped->redeclare) it->second = stripped;
    }
    auto fields = std::make_shared<ModNode>();
    fields->range = mod->range;
    auto give = [&](const std::string& field, const ast::Expr* x, std::vector<Selector> p, SourceRange range) {
        auto node = std::make_shared<ModNode>();
        node->binding = x;
        node->binding_scope = mod->binding_scope;
        node->binding_lex = mod->binding_lex;
        node->binding_path = std::move(p);
        node->range = range;
        fields->args[field] = node;
        fields->arg_order.push_back(field);
    };
    if (path.empty()) {
        if (std::optional<TypeInfo> ct = record_constructor(*e, bc)) {
            // The record constructor (12.6): its arguments are modifiers of the
            // fields; the fields not given keep their declarations' values.
            std::vector<std::string> missing = missing_components(lookup_, cls, ct->cls);
            if (!missing.empty())
                fail(rule::flatten_type_mismatch, e->range,
                     fmt::format("'{}' constructs a '{}', which lacks the field '{}' of '{}', the class of '{}'",
                                 ast::to_modelica(*e), ct->cls.cls->name, missing.front(), cls.cls->name, target));
            std::vector<RecordField> rf = record_fields(lookup_, ct->cls);
            std::map<std::string, const ast::Expr*> args;
            std::string error;
            SourceRange where = e->range;
            if (!constructor_arguments(*e, rf, args, error, where))
                fail(rule::flatten_type_mismatch, where,
                     fmt::format("the record constructor call '{}': {}", ast::to_modelica(*e), error));
            for (const RecordField& f : rf)
                if (auto it = args.find(f.name); it != args.end()) give(f.name, it->second, {}, it->second->range);
            return merge(fields, merge(ct->mod, rest));
        }
    }
    if (e->kind == ast::ExprKind::Call && (e->ref.global || lookup_first(e->ref.parts[0].ident, lex_of(bc)))) {
        std::optional<ClassHit> fn = user_function(*e, bc);
        if (fn)
            fail(rule::flatten_unsupported_construct, e->range,
                 fmt::format("'{}' gives the record '{}' the value of the function '{}'; records returned by "
                             "functions are outside the subset",
                             ast::to_modelica(*e), target, fn->cls->name));
    }
    // Another record value: each input field takes that field of it (the
    // other fields' own bindings give the same values).
    for (const RecordField& f : record_fields(lookup_, cls)) {
        if (!f.input) continue;
        std::vector<Selector> p = path;
        p.push_back(Selector{0, f.name});
        give(f.name, e, std::move(p), mod->range);
    }
    return merge(fields, rest);
}

Flattener::Reached Flattener::reach(const ast::Expr& e, const Ctx& ctx, const std::vector<Selector>& path,
                                    std::size_t from, SourceRange where) {
    Reached out;
    out.ctx = ctx;
    auto only_indices = [&] {
        for (std::size_t i = from; i < path.size(); ++i)
            if (!path[i].field.empty()) return false;
        return true;
    };
    auto as_expression = [&]() {
        out.expr = &e;
        out.rest.assign(path.begin() + static_cast<std::ptrdiff_t>(from), path.end());
        return out;
    };
    if (from >= path.size()) return as_expression();
    const bool is_time = e.kind == ast::ExprKind::Ref && e.ref.simple() && e.ref.parts[0].ident == "time" &&
                         !(ctx.locals && ctx.locals->count("time")) && !(ctx.inst && ctx.inst->members.count("time"));
    switch (e.kind) {
        case ast::ExprKind::Ref: {
            if (is_time) break;
            Resolved r = resolve(e.ref, ctx);
            if (r.local) break;
            const Member* m = r.member;
            std::string name = r.name;
            for (std::size_t i = from; i < path.size(); ++i) {
                const Selector& s = path[i];
                if (s.field.empty()) {
                    if (m->kind != Member::Kind::Array || s.index < 1 ||
                        static_cast<std::size_t>(s.index) > m->elements.size())
                        fail(rule::flatten_type_mismatch, where,
                             fmt::format("'{}' has no element {}", name, s.index));
                    m = &m->elements[static_cast<std::size_t>(s.index - 1)];
                    name += fmt::format("[{}]", s.index);
                    continue;
                }
                if (m->kind != Member::Kind::Object)
                    fail(rule::flatten_type_mismatch, where,
                         fmt::format("'{}' is not a record, so it has no field '{}'", name, s.field));
                auto it = m->object->members.find(s.field);
                if (it == m->object->members.end())
                    fail(rule::flatten_type_mismatch, where,
                         fmt::format("'{}' has no field '{}' (records of different classes?)", name, s.field));
                m = &it->second;
                name += "." + s.field;
            }
            out.member = m;
            out.name = name;
            return out;
        }
        case ast::ExprKind::Array:
            if (e.iterators.empty() && path[from].field.empty()) {
                const long k = path[from].index;
                if (k < 1 || static_cast<std::size_t>(k) > e.operands.size())
                    fail(rule::flatten_type_mismatch, where,
                         fmt::format("'{}' has {} elements, not {}", ast::to_modelica(e), e.operands.size(), k));
                return reach(*e.operands[static_cast<std::size_t>(k - 1)], ctx, path, from + 1, where);
            }
            break;
        case ast::ExprKind::If: {
            // Conditions known when flattening choose the branch.
            const std::size_t n = e.operands.size();
            bool dynamic = false;
            for (std::size_t i = 0; i + 1 < n && !dynamic; i += 2) {
                ConditionPtr c = fold(condition(*e.operands[i], ctx));
                if (c->kind != Condition::Kind::Constant) dynamic = true;
                else if (c->value) return reach(*e.operands[i + 1], ctx, path, from, where);
            }
            if (!dynamic) return reach(*e.operands[n - 1], ctx, path, from, where);
            if (only_indices()) return as_expression();
            fail(rule::flatten_unsupported_construct, e.range,
                 fmt::format("'{}' is a record-valued if-expression whose condition is not known when flattening; "
                             "write the if-expression for each field instead",
                             ast::to_modelica(e)));
        }
        case ast::ExprKind::Call: {
            if (path[from].field.empty()) break;
            std::optional<TypeInfo> ct = record_constructor(e, ctx);
            if (!ct) {
                if (e.ref.global || !lookup_first(e.ref.parts[0].ident, lex_of(ctx))) break;
                if (std::optional<ClassHit> fn = user_function(e, ctx))
                    fail(rule::flatten_unsupported_construct, e.range,
                         fmt::format("'{}' returns a record (of the function '{}'); records returned by functions are "
                                     "outside the subset",
                                     ast::to_modelica(e), fn->cls->name));
                break;
            }
            std::vector<RecordField> rf = record_fields(lookup_, ct->cls);
            std::map<std::string, const ast::Expr*> args;
            std::string error;
            SourceRange at = e.range;
            if (!constructor_arguments(e, rf, args, error, at))
                fail(rule::flatten_type_mismatch, at,
                     fmt::format("the record constructor call '{}': {}", ast::to_modelica(e), error));
            return reach_constructed(ct->cls, args, ctx, ct->mod, path, from, where, ast::to_modelica(e));
        }
        default:
            break;
    }
    if (only_indices()) return as_expression();
    std::string field;
    for (std::size_t i = from; i < path.size() && field.empty(); ++i) field = path[i].field;
    fail(rule::flatten_unsupported_construct, e.range,
         fmt::format("the field '{}' of '{}': a record value is a record component or a record constructor call "
                     "here",
                     field, ast::to_modelica(e)));
}

std::vector<RecordLeaf> Flattener::record_leaves(ClassHit record, SourceRange where) {
    std::vector<RecordLeaf> out;
    std::function<void(ClassHit, const std::string&, std::vector<Selector>&, int)> walk =
        [&](ClassHit rec, const std::string& prefix, std::vector<Selector>& path, int depth) {
            if (depth > 32)
                fail(rule::flatten_recursive_class, where, fmt::format("record '{}' contains itself", rec.cls->name));
            for (const RecordField& f : record_fields(lookup_, rec)) {
                if (f.is_protected) continue;
                std::vector<const ast::ClassDef*> st;
                TypeInfo t = resolve_type(f.clause->type_name, f.lex, st, f.clause->type_name.range);
                if (!f.decl->dims.empty() || !f.clause->type_dims.empty() || !t.dims.empty())
                    fail(rule::flatten_unsupported_construct, f.decl->range,
                         fmt::format("the array field '{}' of the record '{}' passed to a function (only scalar fields "
                                     "are passed)",
                                     f.name, rec.cls->name));
                path.push_back(Selector{0, f.name});
                if (t.builtin) {
                    if (t.base != BaseType::String)
                        out.push_back({prefix + f.name, path, t.base == BaseType::Boolean, t.base == BaseType::Integer});
                } else if (t.cls.cls->kind == ast::ClassKind::Record) {
                    walk(t.cls, prefix + f.name + ".", path, depth + 1);
                }
                path.pop_back();
            }
        };
    std::vector<Selector> path;
    walk(record, "", path, 0);
    return out;
}

Flattener::Reached Flattener::reach_constructed(ClassHit rec, const std::map<std::string, const ast::Expr*>& args,
                                                const Ctx& actx, const ModPtr& defaults,
                                                const std::vector<Selector>& path, std::size_t from, SourceRange where,
                                                const std::string& what) {
    const std::string& f = path[from].field;
    if (auto it = args.find(f); it != args.end()) return reach(*it->second, actx, path, from + 1, where);
    if (ModPtr sm = sub(defaults, f); sm && sm->binding) {
        Ctx sc;
        sc.lex = sm->binding_lex;
        return reach(*sm->binding, sc, path, from + 1, where);
    }
    std::vector<RecordField> rf = record_fields(lookup_, rec);
    const RecordField* field = nullptr;
    for (const RecordField& g : rf)
        if (g.name == f) field = &g;
    if (!field) fail(rule::flatten_type_mismatch, where, fmt::format("the record '{}' has no field '{}'", rec.cls->name, f));
    // The field's default, as in the constructor function: the numeric
    // fields before it (given, or by their own defaults) are its variables.
    std::map<std::string, Value> locals;
    for (const RecordField& g : rf) {
        if (&g == field) break;
        std::vector<const ast::ClassDef*> st;
        TypeInfo gt = resolve_type(g.clause->type_name, g.lex, st, g.clause->type_name.range);
        if (!gt.builtin || (gt.base != BaseType::Real && gt.base != BaseType::Integer) || !g.decl->dims.empty() ||
            !g.clause->type_dims.empty())
            continue;
        if (auto it = args.find(g.name); it != args.end()) {
            locals[g.name] = value(*it->second, actx);
        } else if (g.decl->mod && g.decl->mod->binding) {
            Ctx gc;
            gc.locals = &locals;
            gc.lex = g.lex;
            locals[g.name] = value(*g.decl->mod->binding, gc);
        }
    }
    record_locals_.push_back(std::move(locals));
    Ctx rc;
    rc.locals = &record_locals_.back();
    rc.lex = field->lex;
    const ast::Modification* dm = field->decl->mod.get();
    if (dm && dm->binding) return reach(*dm->binding, rc, path, from + 1, where);
    // A nested record field without a binding: its declaration's modifiers
    // (`friction(tau = 1)`) are the arguments of its own constructor.
    std::vector<const ast::ClassDef*> st;
    TypeInfo ft = resolve_type(field->clause->type_name, field->lex, st, field->clause->type_name.range);
    if (!ft.builtin && ft.cls.cls->kind == ast::ClassKind::Record && from + 1 < path.size()) {
        std::map<std::string, const ast::Expr*> nested;
        if (dm)
            for (const ast::ElementModification& em : dm->arguments)
                if (em.name.parts.size() == 1 && em.mod && em.mod->binding && !em.component)
                    nested[em.name.parts[0].ident] = em.mod->binding.get();
        return reach_constructed(ft.cls, nested, rc, ft.mod, path, from + 1, where, what);
    }
    fail(rule::flatten_type_mismatch, where,
         fmt::format("'{}' gives no value to the field '{}', and its declaration has none", what, f));
}

Value Flattener::selected_value(const ast::Expr& e, const Ctx& ctx, const std::vector<Selector>& path,
                                SourceRange where, const std::string& target) {
    Value v;
    std::vector<Selector> rest;
    if (path.empty()) {
        v = value(e, ctx);
    } else {
        Reached r = reach(e, ctx, path, 0, where);
        v = r.member ? member_value(*r.member, r.ctx, where, r.name) : value(*r.expr, r.ctx);
        rest = std::move(r.rest);
    }
    for (const Selector& s : rest) {
        std::optional<Value> part = v.element(s.index);
        if (!part)
            fail(rule::flatten_type_mismatch, where,
                 fmt::format("the binding of '{}' has shape {}, which does not fit the array", target, v.shape()));
        v = *part;
    }
    return v;
}

ConditionPtr Flattener::variable_condition(int v, SourceRange use) {
    const FlatVariable& var = model_->variables[static_cast<std::size_t>(v)];
    if (var.type != BaseType::Boolean)
        fail(rule::flatten_type_mismatch, use, fmt::format("'{}' is not a Boolean", var.name));
    if (var.variability == Variability::Parameter || var.variability == Variability::Constant) {
        auto n = numeric_value(param_value(v, use));
        if (!n)
            fail(rule::flatten_unsupported_construct, use,
                 fmt::format("Boolean parameter '{}' without a value", model_->variables[static_cast<std::size_t>(v)].name));
        return condition_constant(!n->is_zero(), use);
    }
    auto c = std::make_shared<Condition>();
    c->kind = Condition::Kind::Variable;
    c->variable = v;
    c->range = use;
    return c;
}

ConditionPtr Flattener::selected_condition(const ast::Expr& e, const Ctx& ctx, const std::vector<Selector>& path,
                                           SourceRange where, const std::string& target) {
    if (path.empty()) return condition(e, ctx);
    Reached r = reach(e, ctx, path, 0, where);
    if (r.member) {
        if (r.member->kind != Member::Kind::Scalar)
            fail(rule::flatten_type_mismatch, where, fmt::format("'{}' is not a Boolean, the type of '{}'", r.name, target));
        return variable_condition(r.member->variable, where);
    }
    if (!r.rest.empty())
        fail(rule::flatten_unsupported_construct, where,
             fmt::format("the element of a Boolean array expression that '{}' takes; give each element its own value",
                         target));
    return condition(*r.expr, r.ctx);
}

bool Flattener::record_valued(const ast::Expr& e, const Ctx& ctx) {
    switch (e.kind) {
        case ast::ExprKind::Ref: {
            if (e.ref.simple() && e.ref.parts[0].ident == "time" && !(ctx.locals && ctx.locals->count("time")) &&
                !(ctx.inst && ctx.inst->members.count("time")))
                return false;
            if (ctx.locals && !e.ref.global && ctx.locals->count(e.ref.parts[0].ident)) return false;
            if (ctx.bool_locals && !e.ref.global && ctx.bool_locals->count(e.ref.parts[0].ident)) return false;
            Resolved r = resolve(e.ref, ctx);
            if (r.local) return false;
            const Member* m = r.member;
            while (m->kind == Member::Kind::Array && !m->elements.empty()) m = &m->elements.front();
            return m->kind == Member::Kind::Object && m->object->is_record;
        }
        case ast::ExprKind::Call:
            return record_constructor(e, ctx).has_value();
        case ast::ExprKind::If:
            return e.operands.size() >= 2 && record_valued(*e.operands[1], ctx);
        default:
            return false;
    }
}

void Flattener::record_equation(const ast::Equation& eq, const EqCtx& ec) {
    const Ctx& ctx = ec.ctx;
    // The fields come from the side that is a record component.
    const Member* shape = nullptr;
    std::string shape_name;
    for (const ast::Expr* side : {eq.lhs.get(), eq.rhs.get()}) {
        if (shape || side->kind != ast::ExprKind::Ref || !record_valued(*side, ctx)) continue;
        Resolved r = resolve(side->ref, ctx);
        shape = r.member;
        shape_name = r.name;
    }
    if (!shape)
        fail(rule::flatten_unsupported_construct, eq.range,
             fmt::format("the record equation '{} = {}' has no record component on either side; one side must be a "
                         "record component, whose fields the equation relates",
                         ast::to_modelica(*eq.lhs), ast::to_modelica(*eq.rhs)));
    struct Leaf {
        std::vector<Selector> path;
        int variable;
    };
    std::vector<Leaf> leaves;
    std::vector<Selector> path;
    std::function<void(const Member&)> collect = [&](const Member& m) {
        switch (m.kind) {
            case Member::Kind::Scalar:
                if (model_->variables[static_cast<std::size_t>(m.variable)].type != BaseType::String)
                    leaves.push_back({path, m.variable});
                return;
            case Member::Kind::Array:
                for (std::size_t k = 0; k < m.elements.size(); ++k) {
                    path.push_back(Selector{static_cast<long>(k + 1), {}});
                    collect(m.elements[k]);
                    path.pop_back();
                }
                return;
            case Member::Kind::Object:
                for (const Instance::MemberEntry* e : m.object->member_order) {
                    path.push_back(Selector{0, e->first});
                    collect(e->second);
                    path.pop_back();
                }
                return;
        }
    };
    collect(*shape);
    for (const Leaf& leaf : leaves) {
        const FlatVariable& var = model_->variables[static_cast<std::size_t>(leaf.variable)];
        std::string field;
        for (const Selector& s : leaf.path) field += s.field.empty() ? fmt::format("[{}]", s.index) : "." + s.field;
        const std::string target = shape_name + field;
        if (var.type == BaseType::Boolean || (var.type == BaseType::Integer && var.variability == Variability::Discrete)) {
            // A discrete field: defined like a Boolean or Integer variable by an equation.
            Reached l = reach(*eq.lhs, ctx, leaf.path, 0, eq.range);
            if (!l.member || l.member->kind != Member::Kind::Scalar)
                fail(rule::flatten_unsupported_construct, eq.range,
                     fmt::format("the discrete field '{}' of a record equation must be a variable on the left side",
                                 target));
            const int lv = l.member->variable;
            const FlatVariable& lvar = model_->variables[static_cast<std::size_t>(lv)];
            if (lvar.variability != Variability::Discrete)
                fail(rule::flatten_type_mismatch, eq.range,
                     fmt::format("'{}' is a {}; it cannot be defined by an equation", lvar.name,
                                 lvar.variability == Variability::Parameter  ? "parameter"
                                 : lvar.variability == Variability::Constant ? "constant"
                                                                             : "continuous variable"));
            if (!ec.active.empty())
                fail(rule::flatten_unsupported_construct, eq.range,
                     "a discrete record field defined inside an if-equation with a non-parameter condition");
            if (lvar.type == BaseType::Boolean) {
                RelationDefinition rd;
                rd.variable = lv;
                rd.condition = fold(selected_condition(*eq.rhs, ctx, leaf.path, eq.range, target));
                rd.range = eq.range;
                model_->relation_definitions.push_back(rd);
            } else {
                Value rv = selected_value(*eq.rhs, ctx, leaf.path, eq.range, target);
                if (!rv.is_scalar())
                    fail(rule::flatten_type_mismatch, eq.range, fmt::format("the Integer '{}' is defined by an array", target));
                define_integer_value(lv, rv.elems[0], eq.range);
            }
            continue;
        }
        Value l = selected_value(*eq.lhs, ctx, leaf.path, eq.range, target);
        Value r = selected_value(*eq.rhs, ctx, leaf.path, eq.range, target);
        add_equation(l, r, &eq, eq.range, ec, "equation");
    }
}

}  // namespace modeaudit::flat_impl
