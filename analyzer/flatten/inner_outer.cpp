#include "flatten/inner_outer.h"

#include "flatten/flattener_impl.h"

#include <fmt/format.h>

#include "flatten/redeclaration.h"

namespace modeaudit::flat {

const InnerElement* find_inner(Instance& inst, const std::string& name,
                               const std::function<bool(Instance&)>& add_pending) {
    for (Instance* up = inst.parent; up; up = up->parent) {
        auto it = up->inners().find(name);
        if (it != up->inners().end()) return &it->second;
        if (!up->members.count(name) && add_pending(*up)) {
            it = up->inners().find(name);
            if (it != up->inners().end()) return &it->second;
        }
    }
    return nullptr;
}

std::optional<std::string> inner_type_refusal(Lookup& lookup, const std::string& name, bool outer_builtin,
                                              int outer_base, ClassHit outer_class, const std::string& outer_type,
                                              const InnerElement& inner) {
    if (outer_builtin || inner.builtin) {
        if (outer_builtin == inner.builtin && outer_base == inner.base) return std::nullopt;
        return fmt::format("the outer element '{}' of type '{}' refers to the inner element of type '{}', which is "
                           "not a subtype of it (Modelica 3.6, 5.4)",
                           name, outer_type, inner.type_name);
    }
    std::vector<std::string> missing = missing_components(lookup, outer_class, ClassHit{inner.cls, inner.lex});
    if (missing.empty()) return std::nullopt;
    std::string list;
    for (std::size_t i = 0; i < missing.size() && i < 5; ++i) list += (i ? ", '" : "'") + missing[i] + "'";
    return fmt::format("the outer element '{}' of class '{}' refers to an inner element of class '{}', which lacks "
                       "{}; the inner element's class must be a subtype of the outer's (Modelica 3.6, 5.4)",
                       name, outer_type, inner.type_name, list);
}

}  // namespace modeaudit::flat

// ---------------------------------------------------------------- the flattener's part

namespace modeaudit::flat_impl {

void Flattener::add_outer(Instance& inst, const LexScope* lex, const ast::ComponentClause& cc,
                          const ast::ComponentDecl& d, ModPtr outer, std::vector<const ast::ClassDef*>& stack,
                          bool modifiable) {
    const std::string name = inst.qualify(d.name);
    // An outer declaration takes no modification; its inner element has them (5.4).
    if (!modifiable && (d.mod || (outer && (outer->binding || !outer->arg_order.empty()))))
        fail(rule::flatten_type_mismatch, d.mod ? d.mod->range : outer->range,
             fmt::format("the outer element '{}' takes no modification; modify its inner element instead (Modelica "
                         "3.6, 5.4)",
                         name));
    TypeInfo t = resolve_type(cc.type_name, lex, stack, cc.type_name.range);
    if (t.is_connector)
        fail(rule::flatten_unsupported_construct, d.range,
             fmt::format("'{}' is an outer connector; outer connectors (connections through an inner connector) are "
                         "outside the subset",
                         name));
    // An inner declaration of an enclosing instance not added yet (declared
    // further down) is added now.
    auto pending = [&](Instance& up) -> bool {
        auto it = later_.find(&up);
        if (it == later_.end()) return false;
        auto c = it->second.pending.find(d.name);
        if (c == it->second.pending.end() || !c->second.clause->inner) return false;
        return add_on_demand(up, d.name, d.range);
    };
    const InnerElement* in = find_inner(inst, d.name, pending);
    if (!in)
        fail(rule::flatten_undefined_name, d.name_range,
             fmt::format("'{}' is declared outer, but no enclosing instance declares an inner '{}' (Modelica 3.6, "
                         "5.4)",
                         name, d.name),
             {fmt::format("declare 'inner {} {}' in the model that contains '{}'; modeaudit does not add a missing "
                          "inner element",
                          cc.type_name.dotted(), d.name, inst.path.empty() ? std::string("<model>") : inst.path)});
    if (auto why = inner_type_refusal(lookup_, name, t.builtin, static_cast<int>(t.base), t.cls,
                                      cc.type_name.dotted(), *in))
        fail(rule::flatten_type_mismatch, d.range, *why,
             {fmt::format("the inner element is declared at {}:{}:{}", sm_.path(in->declaration.begin.file),
                          in->declaration.begin.line, in->declaration.begin.column)});
    Member m = *in->member;
    m.outer = true;
    m.declaration = d.range;
    inst.add_member(d.name, std::move(m));
}

void Flattener::register_inner(Instance& inst, const LexScope* lex, const ast::ComponentClause& cc,
                               const ast::ComponentDecl& d, const TypeInfo& t, std::vector<const ast::ClassDef*>& stack) {
    InnerElement ie;
    ie.builtin = t.builtin;
    ie.base = static_cast<int>(t.base);
    ie.cls = t.cls.cls;
    ie.lex = t.cls.lex;
    ie.type_name = cc.type_name.dotted();
    ie.declaration = d.range;
    if (!cc.outer) {
        ie.member = &inst.members.at(d.name);
        inst.extras().inners[d.name] = ie;
        return;
    }
    // `inner outer x`: what was built is the inner part, for the elements
    // below; x itself refers to the inner element further up.
    inst.extras().inner_parts[d.name] = inst.members.at(d.name);
    inst.remove_member(d.name);
    ie.member = &inst.inner_parts().at(d.name);
    add_outer(inst, lex, cc, d, nullptr, stack, true);
    inst.extras().inners[d.name] = ie;
}

}  // namespace modeaudit::flat_impl
