// The flattener's instantiation (flattener.cpp has the order of work):
// classes to instances, components with merged modifications, arrays,
// conditional components, package instances and their constants, one
// FlatVariable per scalar of a built-in type.
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

}  // namespace

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
            if (!inst.members.count(d.name) && !inst.absent().count(d.name) && !redeclared_conditional(inst, d.name))
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
    if (inst.members.count(d.name) || inst.absent().count(d.name))
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
    inst.add_member(d.name, std::move(m));
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
            inst.extras().conditional.insert(dc.decl->name);
        } else {
            if (inst.members.count(dc.decl->name) || inst.absent().count(dc.decl->name))
                fail(rule::flatten_type_mismatch, dc.decl->name_range,
                     fmt::format("'{}' is declared twice in '{}'", dc.decl->name, inst.cls->name));
            inst.extras().absent.insert(dc.decl->name);
        }
    }
}

bool Flattener::through_absent(const ast::ComponentRef& ref, const Ctx& ctx) {
    if (ref.global || !ctx.inst) return false;
    const Instance* in = ctx.inst;
    for (std::size_t i = 0; i < ref.parts.size() && in; ++i) {
        const ast::NamePart& part = ref.parts[i];
        if (in->absent().count(part.ident)) return true;
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

}  // namespace modeaudit::flat_impl
