// The flattener: instantiates the model class and produces the FlatModel.
//
// Order of work (each step only reads what the previous ones built):
//  1. report the constructs the parser recorded as unsupported outside any
//     class (those inside a class: when the model uses the class);
//  2. pick the model class (in the file, else in the libraries: lookup.h)
//     and instantiate it recursively: extends (with modifiers), components
//     (with merged modifications; conditional ones last), arrays; each
//     scalar of a built-in type becomes a FlatVariable; package constants
//     become constants of package instances when first used; a record's
//     fields take its prefixes, a whole-record binding becomes bindings of
//     its fields (records.h); an outer component is the Member of its inner
//     element (inner_outer.h);
//  3. evaluate parameters lazily (cycles detected), then attributes;
//  4. turn bindings, equations and algorithms into flat equations, relation
//     definitions, when-clauses and asserts (for-loops expanded, if-equations
//     with parameter conditions resolved, others given condition symbols);
//  5. resolve connections (connections.cpp) and eliminate aliases.
// A model problem that makes the input unusable is reported as an input
// error and ends the stage (FlattenAbort never leaves flatten() below).
// The Flattener class is declared in flattener_impl.h; its record and
// inner/outer methods are in records.cpp and inner_outer.cpp.
#include "flatten/flattener.h"

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

namespace modeaudit {

namespace flat {

ModPtr merge(const ModPtr& outer, const ModPtr& inner) {
    if (!outer) return inner;
    if (!inner) return outer;
    // An outer redeclaration replaces an inner one, with its modifiers.
    if (outer->redeclare && inner->redeclare) return outer;
    auto m = std::make_shared<ModNode>(*inner);
    if (outer->redeclare) m->redeclare = outer->redeclare;
    if (outer->binding) {
        m->binding = outer->binding;
        m->binding_scope = outer->binding_scope;
        m->binding_lex = outer->binding_lex;
        m->binding_path = outer->binding_path;
        m->range = outer->range;
    }
    m->each = outer->each || inner->each;
    m->final = outer->final || inner->final;
    for (const std::string& name : outer->arg_order) {
        auto it = m->args.find(name);
        if (it == m->args.end()) {
            m->args[name] = std::const_pointer_cast<ModNode>(
                std::static_pointer_cast<const ModNode>(outer->args.at(name)));
            m->arg_order.push_back(name);
        } else {
            it->second = std::const_pointer_cast<ModNode>(merge(outer->args.at(name), it->second));
        }
    }
    return m;
}

ModPtr sub(const ModPtr& m, const std::string& name) {
    if (!m) return nullptr;
    auto it = m->args.find(name);
    return it == m->args.end() ? nullptr : it->second;
}

}  // namespace flat

namespace flat_impl {

namespace {


// The modification for element k (1-based) of an array: `each` arguments
// apply to every element; others select element k of their array binding.
ModPtr select_element(const ModPtr& m, long k) {
    if (!m) return nullptr;
    auto r = std::make_shared<ModNode>(*m);
    if (r->binding && !r->each) r->binding_path.push_back(Selector{k, {}});
    for (auto& [name, a] : r->args)
        if (!a->each) a = std::const_pointer_cast<ModNode>(select_element(a, k));
    return r;
}

// `terminal()` (Modelica 3.6, 3.7.4.2): true at the final instant only.
bool is_terminal_call(const ast::Expr& e) {
    return e.kind == ast::ExprKind::Call && e.ref.dotted() == "terminal" && e.args.empty();
}
bool is_assert_call(const ast::Equation& e) {
    return e.kind == ast::EquationKind::Call && e.call && e.call->ref.dotted() == "assert";
}
bool is_assert_call(const ast::Statement& s) {
    return s.kind == ast::StatementKind::Call && s.call && s.call->ref.dotted() == "assert";
}
// `if terminal() then assert(...); ... end if;`, in an equation section or
// an algorithm: the asserts are checked at the final instant, as in `when
// terminal() then ... end when;`.
template <class Body>
bool terminal_asserts(const std::vector<ast::Branch<Body>>& branches) {
    if (branches.size() != 1 || !branches[0].condition || !is_terminal_call(*branches[0].condition)) return false;
    return std::all_of(branches[0].body.begin(), branches[0].body.end(),
                       [](const Body& b) { return is_assert_call(b); });
}

}  // namespace


// =========================================================================== classes

// The literals of an enumeration type are distinct and none is named
// like an attribute of the type (quantity, min, max, start, fixed), which
// `E.min` would then denote twice (Modelica 3.6, 4.9.5.1).
void Flattener::check_enumeration_literals(const ast::ClassDef& e) {
    std::set<std::string> seen;
    for (const std::string& l : e.enumeration_literals) {
        if (!seen.insert(l).second)
            fail(rule::flatten_type_mismatch, e.name_range,
                 fmt::format("the enumeration '{}' lists the literal '{}' twice", e.name, l));
        if (l == "quantity" || l == "min" || l == "max" || l == "start" || l == "fixed")
            fail(rule::flatten_type_mismatch, e.name_range,
                 fmt::format("the enumeration '{}' has a literal named '{}', the name of one of its attributes "
                             "(quantity, min, max, start, fixed); rename the literal",
                             e.name, l));
    }
}

TypeInfo Flattener::resolve_type(const ast::ComponentRef& ref, const LexScope* from,
                                 std::vector<const ast::ClassDef*>& stack, SourceRange where) {
    TypeInfo t;
    if (ref.parts.size() == 1 && !ref.global) {
        const std::string& n = ref.parts[0].ident;
        static const std::map<std::string, BaseType> builtins = {
            {"Real", BaseType::Real}, {"Integer", BaseType::Integer},
            {"Boolean", BaseType::Boolean}, {"String", BaseType::String}};
        auto b = builtins.find(n);
        if (b != builtins.end() && !lookup_first(n, from)) {
            t.builtin = true;
            t.base = b->second;
            return t;
        }
    }
    ClassHit hit = lookup_class(ref, from);
    int guard = 0;
    while (hit.cls->is_short) {
        if (++guard > 64 || std::find(stack.begin(), stack.end(), hit.cls) != stack.end())
            fail(rule::flatten_recursive_class, where,
                 fmt::format("class '{}' is defined in terms of itself", hit.cls->name));
        refuse_unsupported_in(*hit.cls);
        if (hit.cls->is_enumeration) {
            check_enumeration_literals(*hit.cls);
            // An enumeration is an Integer 1..n whose literals are its values.
            t.builtin = true;
            t.base = BaseType::Integer;
            t.enumeration = hit.cls;
            return t;
        }
        // The short class's own modification is inner to what came before.
        t.mod = merge(t.mod, to_mod(hit.cls->short_mod.get(), nullptr, hit.lex->parent));
        const ast::TypePrefix& p = hit.cls->short_prefix;
        t.prefix.input |= p.input;
        t.prefix.output |= p.output;
        t.prefix.flow |= p.flow;
        t.prefix.stream |= p.stream;
        t.prefix.parameter |= p.parameter;
        t.prefix.constant |= p.constant;
        t.prefix.discrete |= p.discrete;
        if (hit.cls->kind == ast::ClassKind::Connector) t.is_connector = true;
        // Dimensions of short classes are constant expressions.
        for (const ast::ExprPtr& d : hit.cls->short_dims) {
            if (!d || d->kind != ast::ExprKind::Integer)
                fail(rule::flatten_unsupported_construct, d ? d->range : hit.cls->range,
                     "array dimensions of a short class must be integer literals");
            long n = 0;
            auto [end, ec] = std::from_chars(d->text.data(), d->text.data() + d->text.size(), n);
            if (ec != std::errc() || end != d->text.data() + d->text.size() ||
                static_cast<std::size_t>(n) > options_.max_array_size)
                fail(rule::flatten_array_size, d->range,
                     fmt::format("array size {} of type '{}' is outside 0..{}", d->text, hit.cls->name,
                                 options_.max_array_size));
            t.dims.push_back(n);
        }
        const ast::ComponentRef& base = hit.cls->short_base;
        if (base.parts.size() == 1 && !base.global) {
            static const std::map<std::string, BaseType> builtins = {
                {"Real", BaseType::Real}, {"Integer", BaseType::Integer},
                {"Boolean", BaseType::Boolean}, {"String", BaseType::String}};
            auto b = builtins.find(base.parts[0].ident);
            if (b != builtins.end() && !lookup_first(base.parts[0].ident, hit.lex->parent)) {
                t.builtin = true;
                t.base = b->second;
                return t;
            }
        }
        hit = lookup_class(base, hit.lex->parent);
    }
    t.cls = hit;
    if (hit.cls->kind == ast::ClassKind::Connector) t.is_connector = true;
    return t;
}

// A class-level modification in the scope where it is written. Modifications
// of short type definitions carry literal values only (scope null).
ModPtr Flattener::to_mod(const ast::Modification* m, Instance* scope, const LexScope* lex) {
    if (!m) return nullptr;
    auto root = std::make_shared<ModNode>();
    root->range = m->range;
    if (m->binding) {
        root->binding = m->binding.get();
        root->binding_scope = scope;
        root->binding_lex = lex;
    }
    for (const ast::ElementModification& em : m->arguments) {
        // `p.v(start = 0)` is `p(v(start = 0))`.
        std::shared_ptr<ModNode> node = root;
        for (std::size_t i = 0; i < em.name.parts.size(); ++i) {
            const std::string& id = em.name.parts[i].ident;
            auto it = node->args.find(id);
            std::shared_ptr<ModNode> child;
            if (it == node->args.end()) {
                child = std::make_shared<ModNode>();
                node->args[id] = child;
                node->arg_order.push_back(id);
            } else {
                child = it->second;
            }
            node = child;
        }
        if (em.class_def)  // recorded by the parser and refused where its class is used
            fail(rule::flatten_unsupported_construct, em.range, "redeclaration of a class is not supported by modeaudit");
        ModPtr inner = to_mod(em.component ? em.component->decls.front().mod.get() : em.mod.get(), scope, lex);
        if (em.component) {
            // `redeclare T x(mods)`: the new declaration, with its modifiers.
            auto r = std::make_shared<Redeclaration>();
            r->clause = em.component.get();
            r->scope = scope;
            r->lex = lex ? lex : scope ? scope->lex : nullptr;
            r->range = em.range;
            auto with = inner ? std::make_shared<ModNode>(*inner) : std::make_shared<ModNode>();
            with->range = em.range;
            with->redeclare = r;
            inner = with;
        }
        if (inner) {
            ModPtr merged = merge(inner, node);
            *node = *merged;
        }
        node->each = em.each;
        node->final = em.final;
        node->range = em.range;
    }
    return root;
}

// =========================================================================== instantiation

void Flattener::instantiate(Instance& inst, ClassHit hit, ModPtr mod,
                            std::vector<const ast::ClassDef*>& stack, SourceRange where) {
    if (std::find(stack.begin(), stack.end(), hit.cls) != stack.end())
        fail(rule::flatten_recursive_class, where,
             fmt::format("class '{}' contains or extends itself", hit.cls->name),
             {fmt::format("instance '{}'", inst.path.empty() ? std::string("<model>") : inst.path)});
    if (static_cast<std::size_t>(inst.depth) > options_.max_instance_depth)
        fail(rule::flatten_recursive_class, where,
             fmt::format("components nested deeper than {} levels (at '{}')", options_.max_instance_depth,
                         inst.path));
    inst.cls = hit.cls;
    inst.lex = hit.lex;
    order_.push_back(&inst);
    stack.push_back(hit.cls);
    add_elements(inst, hit, mod, stack, where);
    add_conditional_components(inst, stack);
    stack.pop_back();
}

void Flattener::add_elements(Instance& inst, ClassHit hit, ModPtr mod,
                             std::vector<const ast::ClassDef*>& stack, SourceRange where) {
    const ast::ClassDef& cls = *hit.cls;
    refuse_unsupported_in(cls);
    if (cls.external_clause)
        fail(rule::flatten_unsupported_construct, *cls.external_clause,
             fmt::format("'{}' has an external clause; external code is not supported", cls.name));
    // `redeclare T x(...)` elements replace a component of a base class: they
    // go down to the bases as modifiers (inner to the instance's own).
    std::shared_ptr<ModNode> own_redeclarations;
    for (const ast::Element& el : cls.elements) {
        if (el.kind != ast::Element::Kind::Component || !el.component->redeclare) continue;
        if (!own_redeclarations) own_redeclarations = std::make_shared<ModNode>();
        for (const ast::ComponentDecl& d : el.component->decls) {
            auto r = std::make_shared<Redeclaration>();
            r->clause = el.component.get();
            r->scope = &inst;
            r->lex = hit.lex;
            r->range = d.range;
            ModPtr dm = to_mod(d.mod.get(), &inst, hit.lex);
            auto node = dm ? std::make_shared<ModNode>(*dm) : std::make_shared<ModNode>();
            node->range = d.range;
            node->redeclare = r;
            own_redeclarations->args[d.name] = node;
            own_redeclarations->arg_order.push_back(d.name);
        }
    }
    ModPtr base_mod = merge(mod, own_redeclarations);
    // The class's own components wait in later_ while its base classes are
    // instantiated: a base class's element may need one of them (its size,
    // or an inner element its components refer to, inner_outer.h).
    for (const ast::Element& el : cls.elements) {
        if (el.kind != ast::Element::Kind::Component) continue;
        const ast::ComponentClause& cc = *el.component;
        if (cc.redeclare) continue;  // replaces a component of a base class (checked below)
        for (const ast::ComponentDecl& d : cc.decls) {
            if (d.condition) continue;  // conditional: after all other elements (below)
            if (!later_[&inst]
                     .pending.emplace(d.name, DeferredComponent{hit.lex, &cc, &d, sub(mod, d.name), el.is_protected})
                     .second)
                fail(rule::flatten_type_mismatch, d.name_range,
                     fmt::format("'{}' is declared twice in '{}'", d.name, inst.cls->name));
        }
    }
    later_[&inst].stack = stack;
    // Base classes first: their elements come before the class's own.
    for (const ast::Element& el : cls.elements) {
        if (el.kind != ast::Element::Kind::Extends) continue;
        const ast::ExtendsClause& ext = *el.extends;
        const LexScope* lookup_from = hit.lex;
        ClassHit base = lookup_class(ext.base, lookup_from);
        if (std::find(stack.begin(), stack.end(), base.cls) != stack.end())
            fail(rule::flatten_recursive_class, ext.range,
                 fmt::format("'{}' extends '{}', which extends it back", cls.name, base.cls->name));
        ModPtr ext_mod = to_mod(ext.mod.get(), &inst, hit.lex);
        if (auto v = final_violation(mod, ext_mod)) refuse_final(inst.path, *v);
        ModPtr merged = merge(base_mod, ext_mod);
        if (base.cls->is_short) {
            // extends of a short class: follow to its long definition.
            std::vector<const ast::ClassDef*> st2 = stack;
            TypeInfo t = resolve_type(ext.base, lookup_from, st2, ext.range);
            if (t.builtin)
                fail(rule::flatten_unsupported_construct, ext.range,
                     "extending a built-in type in a model is not supported");
            base = t.cls;
            merged = merge(merged, t.mod);
        }
        stack.push_back(base.cls);
        add_elements(inst, base, merged, stack, ext.range);
        stack.pop_back();
        // What the extends clause modifies must exist in the base class.
        check_modifier_names(inst, to_mod(ext.mod.get(), &inst, hit.lex));
    }
    for (const ast::Element& el : cls.elements) {
        if (el.kind != ast::Element::Kind::Component || !el.component->redeclare) continue;
        // Replaced in a base class above (or refused there).
        for (const ast::ComponentDecl& d : el.component->decls)
            if (!inst.members.count(d.name) && !inst.absent.count(d.name) && !redeclared_conditional(inst, d.name))
                fail(rule::flatten_undefined_name, d.name_range,
                     fmt::format("'{}' redeclares '{}', which none of its base classes declares", cls.name, d.name));
    }
    for (const ast::Element& el : cls.elements)
        if (el.kind == ast::Element::Kind::Component && !el.component->redeclare)
            for (const ast::ComponentDecl& d : el.component->decls)
                if (d.condition) deferred_[&inst].push_back({hit.lex, el.component.get(), &d, sub(mod, d.name), el.is_protected});
    later_[&inst].stack = stack;
    for (const ast::Element& el : cls.elements) {
        if (el.kind != ast::Element::Kind::Component || el.component->redeclare) continue;
        for (const ast::ComponentDecl& d : el.component->decls) {
            if (d.condition) continue;
            auto& pending = later_[&inst].pending;
            auto it = pending.find(d.name);
            if (it == pending.end() || it->second.decl != &d) continue;  // added on demand already
            DeferredComponent dc = it->second;
            pending.erase(it);
            add_component(inst, dc.lex, *dc.clause, *dc.decl, dc.mod, dc.is_protected, stack);
        }
    }
    if (auto it = later_.find(&inst); it != later_.end() && it->second.pending.empty()) later_.erase(it);
    for (const ast::EquationSection& s : cls.equation_sections)
        sections_[&inst].push_back({&inst, &s, nullptr, hit.lex});
    for (const ast::AlgorithmSection& s : cls.algorithm_sections)
        sections_[&inst].push_back({&inst, nullptr, &s, hit.lex});
    (void)where;
}

void Flattener::add_component(Instance& inst, const LexScope* lex, const ast::ComponentClause& cc,
                              const ast::ComponentDecl& d, ModPtr outer, bool is_protected,
                              std::vector<const ast::ClassDef*>& stack) {
    adding_.insert({&inst, d.name});
    struct Done {
        std::set<std::pair<Instance*, std::string>>& s;
        std::pair<Instance*, std::string> k;
        ~Done() { s.erase(k); }
    } done{adding_, {&inst, d.name}};
    if (inst.members.count(d.name) || inst.absent.count(d.name))
        fail(rule::flatten_type_mismatch, d.name_range,
             fmt::format("'{}' is declared twice in '{}'", d.name, inst.cls->name));
    // `outer x` is the inner element x of an enclosing instance (inner_outer.h);
    // `inner outer x` is built as an inner element first (register_inner).
    if (cc.outer && !cc.inner) {
        add_outer(inst, lex, cc, d, outer, stack);
        return;
    }
    // A redeclaration replaces the declaration's class (redeclaration.h); the
    // original's modifiers (or its constraining clause's) stay.
    std::shared_ptr<const Redeclaration> redecl = outer ? outer->redeclare : nullptr;
    if (redecl) {
        if (auto why = redeclaration_refusal(cc, inst.qualify(d.name)))
            fail(rule::flatten_type_mismatch, redecl->range, *why,
                 {fmt::format("declared at {}:{}:{}", sm_.path(d.range.begin.file), d.range.begin.line,
                              d.range.begin.column)});
    }
    const ast::ComponentClause& tc = redecl ? *redecl->clause : cc;  // the declaration giving the class
    const LexScope* type_lex = redecl ? redecl->lex : lex;
    TypeInfo t = resolve_type(tc.type_name, type_lex, stack, tc.type_name.range);
    if (!t.builtin && (t.cls.cls->kind == ast::ClassKind::Function || t.cls.cls->kind == ast::ClassKind::Package))
        fail(rule::flatten_type_mismatch, tc.type_name.range,
             fmt::format("'{}' is a {}, not a type a component can have", tc.type_name.dotted(),
                         ast::class_kind_word(t.cls.cls->kind)));
    if (redecl) check_replacement(inst, cc, d, lex, *redecl, t);
    // Not redeclared, the declaration's modifiers go over its constraining clause's.
    ModPtr own = redecl ? to_mod(kept_modification(cc, d), &inst, lex)
                        : merge(to_mod(d.mod.get(), &inst, lex),
                                cc.constraining ? to_mod(cc.constraining->mod.get(), &inst, lex) : nullptr);
    if (cc.final && outer && (outer->binding || !outer->arg_order.empty()))
        refuse_final(inst.qualify(d.name), FinalViolation{"", outer->range, d.range});
    if (auto v = final_violation(outer, own)) refuse_final(inst.qualify(d.name), *v);
    if (auto v = final_violation(merge(outer, own), t.mod)) refuse_final(inst.qualify(d.name), *v);
    ModPtr eff = merge(outer, merge(own, t.mod));
    std::vector<long> dims;
    Ctx ctx{&inst, nullptr};
    ctx.lex = lex;
    // `x[:, 2] = [0, 0.5]`: a ':' size is the binding's (10.1).
    std::optional<Value> bound;
    std::size_t position = 0;  // of the dimension being sized, in the declaration
    auto binding_shape = [&](const ast::Expr& colon) -> long {
        if (!bound) {
            if (!eff || !eff->binding)
                fail(rule::flatten_array_size, colon.range,
                     fmt::format("the size ':' of '{}' comes from its binding, and '{}' has none here", d.name,
                                 inst.qualify(d.name)));
            Ctx bc{eff->binding_scope ? eff->binding_scope : &inst, nullptr};
            bc.lex = eff->binding_lex;
            bound = selected_value(*eff->binding, bc, eff->binding_path, eff->range, inst.qualify(d.name));
        }
        if (position >= bound->dims.size())
            fail(rule::flatten_array_size, colon.range,
                 fmt::format("the size ':' of dimension {} of '{}' comes from its binding, which has shape {}",
                             position + 1, inst.qualify(d.name), bound->shape()));
        return static_cast<long>(bound->dims[position]);
    };
    auto add_dims = [&](const std::vector<ast::ExprPtr>& ds) {
        for (const ast::ExprPtr& e : ds) {
            if (!e) fail(rule::flatten_array_size, d.range, fmt::format("the size of '{}' must be given", d.name));
            if (e->kind == ast::ExprKind::Colon) {
                dims.push_back(binding_shape(*e));
                ++position;
                continue;
            }
            ++position;
            if (std::optional<long> n = enumeration_extent(*e, ctx)) {  // `Real x[E]`
                dims.push_back(*n);
                continue;
            }
            ex size = scalar(*e, ctx, "an array size");
            auto num = numeric_value(size);
            if (!num || !num->is_integer())
                fail(rule::flatten_array_size, e->range,
                     fmt::format("the size of '{}' must be an integer known when flattening; '{}' is {}", d.name,
                                 ast::to_modelica(*e), canonical(size)));
            if (GiNaC::abs(*num) > GiNaC::numeric(static_cast<long>(options_.max_array_size)))
                fail(rule::flatten_array_size, e->range,
                     fmt::format("array size {} of '{}' is outside 0..{}", canonical(size), d.name,
                                 options_.max_array_size));
            long n = num->to_long();
            if (n < 0 || static_cast<std::size_t>(n) > options_.max_array_size)
                fail(rule::flatten_array_size, e->range,
                     fmt::format("array size {} of '{}' is outside 0..{}", n, d.name, options_.max_array_size));
            dims.push_back(n);
        }
    };
    if (redecl && (!redecl->clause->type_dims.empty() || !redecl->decl().dims.empty())) {
        // The new declaration's dimensions, in the scope it is written in.
        ctx = Ctx{redecl->scope, nullptr};
        ctx.lex = redecl->lex;
        add_dims(redecl->clause->type_dims);
        add_dims(redecl->decl().dims);
    } else {
        add_dims(cc.type_dims);
        add_dims(d.dims);
    }
    for (long n : t.dims) dims.push_back(n);
    std::size_t total = 1;
    for (long n : dims) {
        total *= static_cast<std::size_t>(std::max<long>(n, 1));
        if (total > options_.max_array_size)
            fail(rule::flatten_array_size, d.range,
                 fmt::format("'{}' would have more than {} elements", d.name, options_.max_array_size));
    }
    ast::TypePrefix prefix = cc.prefix;
    prefix.input |= t.prefix.input;
    prefix.output |= t.prefix.output;
    prefix.flow |= t.prefix.flow;
    prefix.stream |= t.prefix.stream;
    prefix.parameter |= t.prefix.parameter;
    prefix.constant |= t.prefix.constant;
    prefix.discrete |= t.prefix.discrete;
    if (redecl) {
        const ast::TypePrefix& np = redecl->clause->prefix;
        prefix.input |= np.input;
        prefix.output |= np.output;
        prefix.flow |= np.flow;
        prefix.stream |= np.stream;
        prefix.parameter |= np.parameter;
        prefix.constant |= np.constant;
        prefix.discrete |= np.discrete;
    }
    if (inst.is_record) {
        // `parameter R r`: the fields of r are parameters (Modelica 3.6, 4.5).
        const ast::TypePrefix& rp = inst.record_prefix;
        prefix.input |= rp.input;
        prefix.output |= rp.output;
        prefix.parameter |= rp.parameter;
        prefix.constant |= rp.constant;
        prefix.discrete |= rp.discrete;
    }
    Member m = make_member(inst, d.name, dims, 0, t, eff, prefix, redecl ? *redecl->clause : cc,
                           redecl ? redecl->decl() : d, is_protected, stack);
    inst.members[d.name] = std::move(m);
    inst.member_order.push_back(d.name);
    if (cc.inner) register_inner(inst, lex, cc, d, t, stack);
}

void Flattener::check_replacement(Instance& inst, const ast::ComponentClause& original, const ast::ComponentDecl& d,
                                  const LexScope* lex, const Redeclaration& redecl, const TypeInfo& t) {
    // The constraining type: a built-in one must stay the same base type; a
    // class must find each of its public components in the replacement.
    std::vector<const ast::ClassDef*> st;
    TypeInfo ct = original.constraining ? resolve_type(original.constraining->name, lex, st, original.constraining->range)
                                        : resolve_type(original.type_name, lex, st, original.type_name.range);
    std::string name = inst.qualify(d.name);
    if (ct.builtin || t.builtin) {
        if (ct.builtin != t.builtin || ct.base != t.base)
            fail(rule::flatten_type_mismatch, redecl.range,
                 fmt::format("the redeclaration of '{}' gives it class '{}', which is not a subtype of its "
                             "constraining type '{}' (Modelica 3.6, 7.3.2)",
                             name, redecl.clause->type_name.dotted(),
                             original.constraining ? original.constraining->name.dotted() : original.type_name.dotted()));
        return;
    }
    if (ct.is_connector != t.is_connector)
        fail(rule::flatten_type_mismatch, redecl.range,
             fmt::format("the redeclaration of '{}' replaces a {} by a {} (Modelica 3.6, 7.3.2)", name,
                         ct.is_connector ? "connector" : "non-connector", t.is_connector ? "connector" : "non-connector"));
    std::vector<std::string> missing = missing_components(lookup_, ct.cls, t.cls);
    if (!missing.empty()) {
        std::string list;
        for (std::size_t i = 0; i < missing.size() && i < 5; ++i) list += (i ? ", '" : "'") + missing[i] + "'";
        fail(rule::flatten_type_mismatch, redecl.range,
             fmt::format("the redeclaration of '{}' gives it class '{}', which lacks {} of its constraining class "
                         "'{}'; a replacement must have every public component of it (Modelica 3.6, 7.3.2)",
                         name, redecl.clause->type_name.dotted(), list, lookup_.full_name(ct.cls.lex)));
    }
}

Member Flattener::make_member(Instance& inst, const std::string& name, const std::vector<long>& dims,
                              std::size_t level, const TypeInfo& type, ModPtr mod,
                              const ast::TypePrefix& prefix, const ast::ComponentClause& cc,
                              const ast::ComponentDecl& d, bool is_protected,
                              std::vector<const ast::ClassDef*>& stack) {
    Member m;
    m.prefix = prefix;
    m.declaration = d.range;
    m.is_connector = type.is_connector;
    if (level < dims.size()) {
        m.kind = Member::Kind::Array;
        for (long k = 1; k <= dims[level]; ++k) {
            std::string en = level == 0 ? fmt::format("{}[{}", name, k) : fmt::format("{},{}", name, k);
            std::string full = level + 1 == dims.size() ? en + "]" : en;
            m.elements.push_back(make_member(inst, full, dims, level + 1, type, select_element(mod, k), prefix,
                                             cc, d, is_protected, stack));
        }
        return m;
    }
    if (type.builtin) {
        m.kind = Member::Kind::Scalar;
        m.variable = make_variable(inst, name, type, mod, prefix, cc, d, is_protected);
        return m;
    }
    m.kind = Member::Kind::Object;
    instances_.push_back(Instance{});
    Instance& child = instances_.back();
    child.path = inst.qualify(name);
    child.parent = &inst;
    child.depth = inst.depth + 1;
    child.is_connector = type.is_connector;
    if (table_object_member(m, child, type, mod, d)) return m;
    for (const ast::Element& el : type.cls.cls->elements)
        if (el.kind == ast::Element::Kind::Extends && el.extends->base.dotted() == "ExternalObject")
            fail(rule::flatten_unsupported_construct, d.range,
                 fmt::format("'{}' is an external object (class '{}' extends ExternalObject); external objects and "
                             "the external functions that use them are outside the subset, except the MSL's 1-D "
                             "interpolation table (a constructor calling ModelicaStandardTables_CombiTable1D_init*)",
                             child.path, type.cls.cls->name));
    // A record (4.7), or a component nested in one: the declaration's type
    // prefixes go to its fields; a binding of the whole record gives each
    // field its value (records.h).
    child.is_record = inst.is_record || type.cls.cls->kind == ast::ClassKind::Record;
    if (child.is_record) child.record_prefix = prefix;
    if (mod && mod->binding) {
        if (!child.is_record)
            fail(rule::flatten_unsupported_construct, mod->range,
                 fmt::format("a binding of the whole component '{}' (a {} value) is not supported; only a record "
                             "component takes a binding as a whole",
                             child.path, ast::class_kind_word(type.cls.cls->kind)));
        mod = record_binding_mods(mod, type.cls, child.path);
    }
    m.object = &child;
    instantiate(child, type.cls, mod, stack, d.range);
    check_modifier_names(child, mod);
    return m;
}

int Flattener::make_variable(Instance& inst, const std::string& name, const TypeInfo& type, ModPtr mod,
                             const ast::TypePrefix& prefix, const ast::ComponentClause& cc,
                             const ast::ComponentDecl& d, bool is_protected) {
    if (model_->variables.size() >= options_.max_variables)
        fail(rule::flatten_array_size, d.range,
             fmt::format("the model has more than {} scalar variables", options_.max_variables));
    FlatVariable v;
    v.name = inst.qualify(name);
    v.type = type.base;
    v.input = prefix.input;
    v.output = prefix.output;
    v.is_protected = is_protected;
    v.declared_discrete = prefix.discrete;
    v.description = d.description;
    v.range = d.range;
    if (prefix.constant)
        v.variability = Variability::Constant;
    else if (prefix.parameter)
        v.variability = Variability::Parameter;
    else if (prefix.discrete || type.base != BaseType::Real)
        v.variability = Variability::Discrete;
    else
        v.variability = Variability::Continuous;
    int index = model_->symbols.add_variable(v.name);
    MODEAUDIT_ASSERT(index == static_cast<int>(model_->variables.size()), "symbol table out of step");
    model_->variables.push_back(std::move(v));
    variable_enumeration_.resize(model_->variables.size());
    variable_enumeration_.back() = type.enumeration;
    params_.emplace_back();
    ParamState& ps = params_.back();
    if (mod && mod->binding) {
        ps.binding = mod->binding;
        ps.scope = mod->binding_scope;
        ps.lex = mod->binding_lex;
        ps.path = mod->binding_path;
        ps.range = mod->range;
        if (model_->variables[static_cast<std::size_t>(index)].variability != Variability::Constant &&
            model_->variables[static_cast<std::size_t>(index)].variability != Variability::Parameter)
            bindings_.push_back(
                {index, mod->binding, mod->binding_scope, mod->binding_path, mod->range, mod->binding_lex});
    }
    attributes_.push_back({index, mod, &d, &cc, &inst});
    return index;
}

void Flattener::refuse_unsupported_in(const ast::ClassDef& cls) {
    if (!checked_classes_.insert(&cls).second) return;
    const ast::StoredDefinition* def = lookup_.definition(cls.range.begin.file);
    if (!def) return;
    std::vector<const ast::UnsupportedUse*> uses = unsupported_in_class(*def, cls);
    if (uses.empty()) return;
    for (const ast::UnsupportedUse* u : uses)
        sink_.report(rule::flatten_unsupported_construct, u->range,
                     fmt::format("{} is not supported by modeaudit", u->what));
    throw FlattenAbort{};
}

Instance* Flattener::package_instance(const ClassHit& pkg) {
    auto it = package_instances_.find(pkg.cls);
    if (it != package_instances_.end()) return it->second;
    instances_.push_back(Instance{});
    Instance& p = instances_.back();
    p.path = lookup_.full_name(pkg.lex);
    p.lex = pkg.lex;
    p.cls = pkg.cls;
    p.is_package = true;
    package_instances_[pkg.cls] = &p;
    return &p;
}

const Member& Flattener::package_member(const NameHit& hit, SourceRange use) {
    if (!hit.clause->prefix.constant)
        fail(rule::flatten_undefined_name, use,
             fmt::format("'{}' is declared in '{}' but is not a constant; from outside a class only its "
                         "constants can be used (Modelica 3.6, 5.3)",
                         hit.decl->name, lookup_.full_name(hit.cls.lex)),
             {fmt::format("declared at {}:{}", hit.decl->range.begin.line, hit.decl->range.begin.column)});
    Instance* p = package_instance(hit.cls);
    auto it = p->members.find(hit.decl->name);
    if (it != p->members.end()) return it->second;
    std::vector<const ast::ClassDef*> stack;
    // The declaration's own text may hold refused constructs; the rest of the
    // package is not used.
    if (const ast::StoredDefinition* def = lookup_.definition(hit.decl->range.begin.file)) {
        bool refused = false;
        for (const ast::UnsupportedUse& u : def->unsupported)
            if (u.range.begin.file == hit.decl->range.begin.file &&
                u.range.begin.offset >= hit.clause->range.begin.offset &&
                u.range.begin.offset < hit.clause->range.end.offset) {
                sink_.report(rule::flatten_unsupported_construct, u.range,
                             fmt::format("{} is not supported by modeaudit", u.what));
                refused = true;
            }
        if (refused) throw FlattenAbort{};
    }
    add_component(*p, hit.cls.lex, *hit.clause, *hit.decl, nullptr, false, stack);
    // Its attributes now when the pass over all variables has run already.
    if (attributes_started_ && !in_attributes_) process_attributes();
    return p->members.at(hit.decl->name);
}

void Flattener::add_conditional_components(Instance& inst, std::vector<const ast::ClassDef*>& stack) {
    auto it = deferred_.find(&inst);
    if (it == deferred_.end()) return;
    std::vector<DeferredComponent> pending = std::move(it->second);
    deferred_.erase(it);
    for (const DeferredComponent& dc : pending) {
        Ctx ctx{&inst, nullptr};
        ctx.lex = dc.lex;
        ConditionPtr c = fold(condition(*dc.decl->condition, ctx));
        if (c->kind != Condition::Kind::Constant)
            fail(rule::flatten_type_mismatch, dc.decl->condition->range,
                 fmt::format("the condition of the conditional component '{}' must be a parameter expression "
                             "known when flattening (Modelica 3.6, 4.4.5)",
                             inst.qualify(dc.decl->name)));
        if (c->value) {
            add_component(inst, dc.lex, *dc.clause, *dc.decl, dc.mod, dc.is_protected, stack);
            inst.conditional.insert(dc.decl->name);
        } else {
            if (inst.members.count(dc.decl->name) || inst.absent.count(dc.decl->name))
                fail(rule::flatten_type_mismatch, dc.decl->name_range,
                     fmt::format("'{}' is declared twice in '{}'", dc.decl->name, inst.cls->name));
            inst.absent.insert(dc.decl->name);
        }
    }
}

bool Flattener::through_absent(const ast::ComponentRef& ref, const Ctx& ctx) {
    if (ref.global || !ctx.inst) return false;
    const Instance* in = ctx.inst;
    for (std::size_t i = 0; i < ref.parts.size() && in; ++i) {
        const ast::NamePart& part = ref.parts[i];
        if (in->absent.count(part.ident)) return true;
        auto it = in->members.find(part.ident);
        if (it == in->members.end()) return false;
        const Member* m = &it->second;
        // Subscripts do not change which class the elements have: follow the first element.
        while (m->kind == Member::Kind::Array && !m->elements.empty()) m = &m->elements.front();
        if (m->kind != Member::Kind::Object) return false;
        in = m->object;
    }
    return false;
}

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
        if (cur && !ref.global && !connecting_ && where->conditional.count(first.ident))
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
    if (!cur && where && !ref.global && where->absent.count(first.ident))
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
            if (it == cur->object->members.end() && cur->object->absent.count(part.ident))
                fail(rule::flatten_undefined_name, part.range,
                     fmt::format("'{}.{}' is a conditional component whose condition is false, so it does not "
                                 "exist; it may be used only in connect equations (which are then dropped)",
                                 name, part.ident));
            if (it == cur->object->members.end())
                fail(rule::flatten_undefined_name, part.range,
                     fmt::format("'{}' has no component '{}'", name, part.ident));
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
                case B::ElemPow: r = elementwise(a, b, [](const ex& x, const ex& y) { return GiNaC::pow(x, y); }, ok); break;
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
                    r = Value::scalar(GiNaC::pow(a.elems[0], b.elems[0]));
                    break;
                default: MODEAUDIT_UNREACHABLE("binary operator");
            }
            if (!ok)
                fail(rule::flatten_type_mismatch, e.range,
                     fmt::format("operands of '{}' have shapes {} and {}", ast::to_modelica(e), a.shape(), b.shape()));
            return r;
        }
        case ast::ExprKind::If: {
            // operands: c1, t1, c2, t2, ..., else
            std::size_t n = e.operands.size();
            Value result = value(*e.operands[n - 1], ctx);
            for (std::size_t i = n - 1; i >= 2; i -= 2) {
                const ast::Expr& c = *e.operands[i - 2];
                const ast::Expr& t = *e.operands[i - 1];
                ConditionPtr cond = fold(condition(c, ctx));
                if (cond->kind == Condition::Kind::Constant) {
                    if (cond->value) result = value(t, ctx);
                    continue;
                }
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
    if (fname == "sqrt") domain("the argument of sqrt must not be negative; it", [](const GiNaC::numeric& n) { return !n.is_negative(); });
    if (fname == "log" || fname == "log10")
        domain("the argument of log must be positive; it", [](const GiNaC::numeric& n) { return n.is_positive(); });
    if (fname == "asin" || fname == "acos")
        domain("the argument must lie in [-1, 1]; it", [](const GiNaC::numeric& n) { return GiNaC::abs(n) <= 1; });
    if (fname == "sin") return map1([](const ex& x) { return GiNaC::sin(x); });
    if (fname == "cos") return map1([](const ex& x) { return GiNaC::cos(x); });
    if (fname == "tan") return map1([](const ex& x) { return GiNaC::tan(x); });
    if (fname == "asin") return map1([](const ex& x) { return GiNaC::asin(x); });
    if (fname == "acos") return map1([](const ex& x) { return GiNaC::acos(x); });
    if (fname == "atan") return map1([](const ex& x) { return GiNaC::atan(x); });
    if (fname == "sinh") return map1([](const ex& x) { return GiNaC::sinh(x); });
    if (fname == "cosh") return map1([](const ex& x) { return GiNaC::cosh(x); });
    if (fname == "tanh") return map1([](const ex& x) { return GiNaC::tanh(x); });
    if (fname == "exp") return map1([](const ex& x) { return GiNaC::exp(x); });
    if (fname == "log") return map1([](const ex& x) { return GiNaC::log(x); });
    if (fname == "log10") return map1([](const ex& x) { return GiNaC::log(x) / GiNaC::log(GiNaC::ex(10)); });
    if (fname == "sqrt") return map1([](const ex& x) { return GiNaC::sqrt(x); });
    if (fname == "abs") return map1([](const ex& x) { return ma_abs(x); });
    if (fname == "sign") return map1([](const ex& x) { return ma_sign(x); });
    if (fname == "floor") return map1([](const ex& x) { return ma_floor(x); });
    if (fname == "ceil") return map1([](const ex& x) { return ma_ceil(x); });
    if (fname == "integer") return map1([](const ex& x) { return ma_floor(x); });
    if (fname == "Integer") {
        // Integer(e) of an enumeration value: its position, the value it already has here.
        nargs(1, 1);
        return value(arg(0), ctx);
    }
    auto two = [&](const std::function<ex(const ex&, const ex&)>& f) {
        nargs(2, 2);
        Value a = value(arg(0), ctx), b = value(arg(1), ctx);
        bool ok = true;
        Value r = elementwise(a, b, f, ok);
        if (!ok) fail(rule::flatten_type_mismatch, e.range, fmt::format("arguments of {}() differ in shape", fname));
        return r;
    };
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
    if (fname == "atan2") return two([](const ex& y, const ex& x) { return GiNaC::atan2(y, x); });
    if (fname == "div") return two([](const ex& a, const ex& b) { return ma_div(a, b); });
    if (fname == "mod") return two([](const ex& a, const ex& b) { return ma_mod(a, b); });
    if (fname == "rem") return two([](const ex& a, const ex& b) { return ma_rem(a, b); });
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
    if (function_stack_.size() >= 200)
        fail(rule::flatten_invalid_value, call.range,
             fmt::format("function calls nested deeper than 200 when evaluating '{}' (unbounded recursion?)", f.name));
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
        else if (out.empty())
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
        fe.suppress = ec.suppress;
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
        ec.suppress.insert(ec.suppress.end(), s.begin(), s.end());
        if (!s.empty()) model_->suppressions.push_back({eq.range, s});
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
    connects_.push_back(rec);
}

// =========================================================================== finishing

void Flattener::finish_attributes() {
    process_attributes();
    // By index: a check may add package constants.
    for (std::size_t v = 0; v < model_->variables.size(); ++v) check_binding_type(static_cast<int>(v));
    // Parameter values now (attributes first: a parameter without binding uses start).
    for (std::size_t v = 0; v < model_->variables.size(); ++v) {
        FlatVariable& var = model_->variables[v];
        if (var.variability == Variability::Parameter || var.variability == Variability::Constant)
            param_value(static_cast<int>(v), var.range);
    }
}

void Flattener::process_attributes() {
    attributes_started_ = true;
    in_attributes_ = true;
    // By index: evaluating an attribute may add package constants (and their attributes).
    for (; attributes_done_ < attributes_.size(); ++attributes_done_) {
        const PendingAttributes pa = attributes_[attributes_done_];
        // Re-fetched at each use: evaluating an attribute may add package
        // constants to model_->variables.
        auto V = [this, idx = static_cast<std::size_t>(pa.variable)]() -> FlatVariable& { return model_->variables[idx]; };
        Ctx ctx{pa.inst, nullptr};
        auto attr_value = [&](const char* name) -> std::optional<ex> {
            ModPtr m = sub(pa.mod, name);
            if (!m || !m->binding) return std::nullopt;
            Ctx c2{m->binding_scope ? m->binding_scope : pa.inst, nullptr};
            c2.lex = m->binding_lex;
            if (V().type == BaseType::Boolean && std::string(name) == "start") {
                ConditionPtr c = fold(condition(*m->binding, c2));
                if (c->kind != Condition::Kind::Constant)
                    fail(rule::flatten_type_mismatch, m->range, "the start value of a Boolean must be constant");
                return ex(c->value ? 1 : 0);
            }
            Value v = selected_value(*m->binding, c2, m->binding_path, m->range,
                                     fmt::format("attribute {} of '{}'", name, V().name));
            if (!v.is_scalar())
                fail(rule::flatten_type_mismatch, m->range,
                     fmt::format("attribute {} of '{}' has shape {}; use each", name, V().name, v.shape()));
            return v.elems[0];
        };
        if (pa.mod) {
            static const std::set<std::string> known = {"start", "fixed", "min", "max", "nominal", "unit",
                                                        "quantity", "displayUnit", "stateSelect", "unbounded"};
            for (const std::string& a : pa.mod->arg_order)
                if (!known.count(a))
                    fail(rule::flatten_undefined_name, pa.mod->args.at(a)->range,
                         fmt::format("'{}' has no attribute or component '{}'", V().name, a));
            V().start = attr_value("start");
            if (ModPtr f = sub(pa.mod, "fixed"); f && f->binding) {
                Ctx fc{f->binding_scope ? f->binding_scope : pa.inst, nullptr};
                fc.lex = f->binding_lex;
                ConditionPtr c = fold(condition(*f->binding, fc));
                if (c->kind != Condition::Kind::Constant)
                    fail(rule::flatten_type_mismatch, f->range, "fixed must be a constant Boolean");
                V().fixed = c->value;
            } else {
                V().fixed = V().variability == Variability::Parameter || V().variability == Variability::Constant;
            }
            V().min = attr_value("min");
            V().max = attr_value("max");
            V().nominal = attr_value("nominal");
            for (const char* attr : {"unit", "quantity", "displayUnit"}) {
                ModPtr u = sub(pa.mod, attr);
                if (!u || !u->binding) continue;
                if (u->binding->kind != ast::ExprKind::String)
                    fail(rule::flatten_type_mismatch, u->binding->range,
                         fmt::format("the attribute {} of '{}' takes a string, e.g. {} = \"m\"", attr, V().name, attr));
                if (std::string(attr) == "unit") V().unit = u->binding->text;
            }
        }
        // Component annotations: Evaluate = false; __ModeAudit(...).
        if (pa.decl->annotation) {
            for (const ast::ElementModification& em : pa.decl->annotation->arguments) {
                std::string n = em.name.dotted();
                if (n == "Evaluate" && em.mod && em.mod->binding && em.mod->binding->kind == ast::ExprKind::Boolean &&
                    !em.mod->binding->boolean && V().variability == Variability::Parameter)
                    V().kept_symbolic = true;
                if (n != "__ModeAudit" || !em.mod) continue;
                InvariantDecl inv;
                inv.range = em.range;
                bool any = false;
                for (const ast::ElementModification& a : em.mod->arguments) {
                    std::string an = a.name.dotted();
                    if (!a.mod || !a.mod->binding) continue;
                    const ast::Expr& b = *a.mod->binding;
                    if (an == "rate") {
                        inv.rate = scalar(b, ctx, "the declared rate");
                        any = true;
                    } else if (an == "atEvents") {
                        if (b.kind != ast::ExprKind::String ||
                            (b.text != "conserved" && b.text != "nonincreasing" && b.text != "nondecreasing"))
                            fail(rule::flatten_type_mismatch, b.range,
                                 "atEvents must be \"conserved\", \"nonincreasing\" or \"nondecreasing\"");
                        inv.at_events = b.text;
                        any = true;
                    } else if (an == "modes") {
                        if (b.kind != ast::ExprKind::Array)
                            fail(rule::flatten_type_mismatch, b.range, "modes = {\"id\", ...} takes strings");
                        for (const ast::ExprPtr& s : b.operands) {
                            if (s->kind != ast::ExprKind::String)
                                fail(rule::flatten_type_mismatch, s->range, "modes = {\"id\", ...} takes strings");
                            inv.modes.push_back(s->text);
                        }
                    } else if (an != "suppress") {
                        fail(rule::flatten_undefined_name, a.range,
                             fmt::format("unknown __ModeAudit argument '{}' (rate, atEvents, modes, suppress)", an));
                    }
                }
                if (any) V().invariant = inv;
            }
            V().suppress = suppressions(pa.decl->annotation.get(), ctx);
            if (!V().suppress.empty() &&
                (model_->suppressions.empty() || !(model_->suppressions.back().range == pa.decl->range)))
                model_->suppressions.push_back({pa.decl->range, V().suppress});
        }
    }
    in_attributes_ = false;
}

void Flattener::finish_bindings() {
    std::set<int> bound;
    for (const PendingBinding& b : bindings_) bound.insert(b.variable);
    for (std::size_t v = 0; v < model_->variables.size(); ++v) {
        FlatVariable& var = model_->variables[v];
        if (var.input && var.name.find('.') == std::string::npos && var.variability == Variability::Continuous &&
            !bound.count(static_cast<int>(v)))
            var.exogenous = true;
    }
    for (const PendingBinding& b : bindings_) {
        auto V = [this, idx = static_cast<std::size_t>(b.variable)]() -> FlatVariable& { return model_->variables[idx]; };
        Ctx ctx{b.scope, nullptr};
        ctx.lex = b.lex;
        if (V().type == BaseType::String) continue;  // no number (param_value)
        if (V().type == BaseType::Boolean) {
            RelationDefinition rd;
            rd.variable = b.variable;
            rd.condition = fold(selected_condition(*b.expr, ctx, b.path, b.range, V().name));
            rd.range = b.range;
            model_->relation_definitions.push_back(rd);
            continue;
        }
        if (V().variability == Variability::Discrete && V().type == BaseType::Integer && b.path.empty()) {
            define_integer(b.variable, *b.expr, ctx, b.range);
            continue;
        }
        if (V().variability == Variability::Discrete && V().type == BaseType::Integer &&
            std::any_of(b.path.begin(), b.path.end(), [](const Selector& x) { return !x.field.empty(); })) {
            // A field of a record binding (`r.n` of `R r = other`).
            Value iv = selected_value(*b.expr, ctx, b.path, b.range, V().name);
            if (!iv.is_scalar())
                fail(rule::flatten_type_mismatch, b.range, fmt::format("the Integer '{}' is defined by an array", V().name));
            define_integer_value(b.variable, iv.elems[0], b.range);
            continue;
        }
        if (V().variability == Variability::Discrete)
            fail(rule::flatten_unsupported_construct, b.range,
                 fmt::format("binding of the discrete variable '{}' outside when", V().name));
        Value v = selected_value(*b.expr, ctx, b.path, b.range, V().name);
        EqCtx ec;
        ec.ctx = ctx;
        add_equation(Value::scalar(model_->symbols.variable(b.variable)), v, nullptr, b.range, ec,
                     "binding of " + V().name);
    }
}

void Flattener::read_model_annotations(const ast::ClassDef& cls, Instance* inst) {
    Ctx ctx{inst, nullptr};
    for (const ast::ModificationPtr& ann : cls.annotations) {
        if (!ann) continue;
        for (const ast::ElementModification& em : ann->arguments) {
            if (em.name.dotted() == "experiment" && em.mod)
                for (const ast::ElementModification& a : em.mod->arguments)
                    if (a.name.dotted() == "StopTime" && a.mod && a.mod->binding) {
                        auto n = numeric_value(scalar(*a.mod->binding, ctx, "StopTime"));
                        if (!n || !n->is_real() || !n->is_positive())
                            fail(rule::flatten_type_mismatch, a.range, "StopTime must be a positive number");
                        if (!std::isfinite(n->to_double()) || n->to_double() > kMaxStopTime)
                            fail(rule::flatten_type_mismatch, a.range,
                                 fmt::format("StopTime = {} is above the largest stop time modeaudit simulates ({:g}): "
                                             "the time's rounding step would no longer be small against the event "
                                             "location tolerance; give a smaller StopTime (or --stop-time)",
                                             canonical(*n), kMaxStopTime));
                        model_->stop_time = n->to_double();
                    }
        }
        auto s = suppressions(ann.get(), ctx);
        model_->suppress.insert(model_->suppress.end(), s.begin(), s.end());
    }
}

void Flattener::walk_sections(Instance* inst) {
    auto it = sections_.find(inst);
    if (it != sections_.end()) {
        for (const PendingSection& ps : it->second) {
            if (ps.eqs) {
                EqCtx ec;
                ec.ctx = Ctx{inst, nullptr};
                ec.ctx.lex = ps.lex;
                ec.initial = ps.eqs->initial;
                equations(ps.eqs->equations, ec);
            } else {
                algorithm(*ps.alg, inst, ps.lex);
            }
        }
    }
    std::function<void(const Member&)> visit = [&](const Member& m) {
        if (m.outer) return;  // the inner element's sections are walked where it is declared
        if (m.kind == Member::Kind::Object) walk_sections(m.object);
        if (m.kind == Member::Kind::Array)
            for (const Member& e : m.elements) visit(e);
    };
    for (const std::string& name : inst->member_order) visit(inst->members.at(name));
    for (const auto& [name, m] : inst->inner_parts) visit(m);
}

std::unique_ptr<FlatModel> Flattener::run() {
    // 1. What the parser saw outside every class and the subset refuses;
    //    constructs inside classes are refused when the model uses the class.
    bool refused = false;
    for (const ast::UnsupportedUse* u : unsupported_outside_classes(tree_)) {
        sink_.report(rule::flatten_unsupported_construct, u->range,
                     fmt::format("{} is not supported by modeaudit", u->what));
        refused = true;
    }
    if (refused) return nullptr;

    // 2. The model class: --model NAME (or a class-name argument), looked up
    //    in the file and then the libraries; else the file's last model.
    ClassHit chosen_hit;
    if (!options_.model_name.empty()) {
        // The file's own classes first, then the libraries.
        const std::string& name = options_.model_name;
        std::optional<ClassHit> hit = lookup_.find_in_file(name);
        if (!hit) hit = lookup_.lookup_full_name(name);
        if (!hit) {
            sink_.report(rule::flatten_undefined_name, {},
                         fmt::format("--model {}: no such class in the file or the libraries (--library, "
                                     "MODELICAPATH)",
                                     options_.model_name));
            return nullptr;
        }
        chosen_hit = *hit;
    } else {
        for (const auto& c : tree_.classes)
            if (c->kind == ast::ClassKind::Model || c->kind == ast::ClassKind::Block ||
                c->kind == ast::ClassKind::Class)
                chosen_hit.cls = c.get();
        if (!chosen_hit.cls) {
            sink_.report(rule::flatten_undefined_name, {},
                         "the file has no top-level model, block or class to audit; use --model NAME");
            return nullptr;
        }
        chosen_hit.lex = lookup_.scope_in_file(chosen_hit.cls);
    }
    const ast::ClassDef* chosen = chosen_hit.cls;
    if (chosen->partial)
        fail(rule::flatten_type_mismatch, chosen->name_range,
             fmt::format("'{}' is partial; audit a model that extends it", chosen->name));
    if (chosen->kind == ast::ClassKind::Package || chosen->kind == ast::ClassKind::Function ||
        chosen->kind == ast::ClassKind::Connector || chosen->kind == ast::ClassKind::Record ||
        chosen->kind == ast::ClassKind::Type)
        fail(rule::flatten_type_mismatch, chosen->name_range,
             fmt::format("'{}' is a {}; choose a model with --model", chosen->name, ast::class_kind_word(chosen->kind)));

    model_ = std::make_unique<FlatModel>();
    model_->name = chosen->name;
    model_->description = chosen->description;
    model_->range = chosen->range;
    const LexScope* lex = chosen_hit.lex;
    MODEAUDIT_ASSERT(lex, "chosen class has no scope");

    instances_.push_back(Instance{});
    Instance& top = instances_.back();
    std::vector<const ast::ClassDef*> stack;
    instantiate(top, ClassHit{chosen, lex}, nullptr, stack, chosen->range);

    // 3.-4.
    finish_attributes();
    finish_bindings();
    read_model_annotations(*chosen, &top);
    walk_sections(&top);
    settle_when_assigned_reals();

    // 5. Connections, then inStream/actualStream, then aliases.
    if (!resolve_connections(*model_, top, connects_, sink_)) return nullptr;
    eliminate_aliases(*model_);
    return std::move(model_);
}

}  // namespace flat_impl

std::unique_ptr<FlatModel> flatten(const ast::StoredDefinition& tree, const SourceManager& sources,
                                   DiagnosticSink& sink, const FlattenOptions& options,
                                   library::ClassLoader* loader) {
    flat_impl::Flattener f(tree, sources, sink, options, loader);
    try {
        return f.run();
    } catch (const flat::FlattenAbort&) {
        return nullptr;
    } catch (const std::domain_error& e) {  // GiNaC's pole_error and the like, on the model's constants
        sink.report(rule::flatten_type_mismatch, tree.classes.empty() ? SourceRange{} : tree.classes.back()->name_range,
                    fmt::format("an expression of the model cannot be evaluated: {}", e.what()));
        return nullptr;
    }
}

}  // namespace modeaudit
