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
// The Flattener class is declared in flattener_impl.h; this file has the
// classes (type resolution, modifiers) and the finishing steps, and the
// other concepts have a file each: instantiation.cpp (step 2), values.cpp
// (step 3 and expressions), function_inlining.cpp, conditions.cpp,
// equations.cpp, when_clauses.cpp, algorithms.cpp (step 4), records.cpp,
// inner_outer.cpp, enumeration_types.cpp and table_objects.cpp.
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
            check_double_range(v.elems[0], m->range, fmt::format("the {} value of '{}'", name, V().name));
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
            std::vector<std::string> suppress = suppressions(pa.decl->annotation.get(), ctx);
            if (!suppress.empty() &&
                (model_->suppressions.empty() || !(model_->suppressions.back().range == pa.decl->range)))
                model_->suppressions.push_back({pa.decl->range, std::move(suppress)});
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
    for (const Instance::MemberEntry* e : inst->member_order) visit(e->second);
    for (const auto& [name, m] : inst->inner_parts()) visit(m);
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
    // What only instantiation and the equations needed (a parameter state
    // and the pending attributes, bindings and sections per variable or
    // instance) goes before the connections: their sets and equations then
    // take the memory it held instead of fresh pages.
    std::deque<ParamState>().swap(params_);
    std::vector<PendingAttributes>().swap(attributes_);
    attributes_done_ = 0;
    std::vector<PendingBinding>().swap(bindings_);
    sections_.clear();

    // 5. Connections, then inStream/actualStream, then aliases. The
    //    instance tree and the connect records are freed as soon as the
    //    connections no longer read them, before their equations are built.
    auto release_instances = [this] {
        std::vector<ConnectRecord>().swap(connects_);
        std::vector<const ast::ClassDef*>().swap(variable_enumeration_);
        package_instances_.clear();
        deferred_.clear();
        later_.clear();
        std::vector<Instance*>().swap(order_);
        std::deque<Instance>().swap(instances_);
    };
    if (!resolve_connections(*model_, top, connects_, sink_, variable_enumeration_, release_instances)) return nullptr;
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
