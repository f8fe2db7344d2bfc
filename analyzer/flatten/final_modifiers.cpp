#include "flatten/final_modifiers.h"

namespace modeaudit::flat {

std::optional<FinalViolation> final_violation(const ModPtr& outer, const ModPtr& inner) {
    if (!outer || !inner) return std::nullopt;
    if (inner->final && (outer->binding || !outer->arg_order.empty()))
        return FinalViolation{"", outer->range, inner->range};
    for (const std::string& name : outer->arg_order) {
        auto it = inner->args.find(name);
        if (it == inner->args.end()) continue;
        if (auto v = final_violation(outer->args.at(name), it->second)) {
            v->path = v->path.empty() ? name : name + "." + v->path;
            return v;
        }
    }
    return std::nullopt;
}

}  // namespace modeaudit::flat
