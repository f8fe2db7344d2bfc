#include "flatten/inner_outer.h"

#include <fmt/format.h>

#include "flatten/redeclaration.h"

namespace modeaudit::flat {

const InnerElement* find_inner(Instance& inst, const std::string& name,
                               const std::function<bool(Instance&)>& add_pending) {
    for (Instance* up = inst.parent; up; up = up->parent) {
        auto it = up->inners.find(name);
        if (it != up->inners.end()) return &it->second;
        if (!up->members.count(name) && add_pending(*up)) {
            it = up->inners.find(name);
            if (it != up->inners.end()) return &it->second;
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
