// `final` (Modelica 3.6, section 7.2.6): an element declared or modified
// with `final` cannot be modified again from outside.
//
// Part of the flatten stage: before the flattener merges an outer
// modification into an inner one (a component's declaration, an extends
// clause's modifiers, a type's), it asks here whether the outer one touches
// anything the inner one made final.
#pragma once

#include <optional>
#include <string>

#include "flatten/instance.h"

namespace modeaudit::flat {

struct FinalViolation {
    std::string path;       // "T" or "p.v": the element, relative to the modified one ("" for itself)
    SourceRange modified;   // where the outer modification is written
    SourceRange final_at;   // where it was made final
};

// The first element (in outer's order) that `outer` modifies although
// `inner` made it final; nullopt when there is none.
std::optional<FinalViolation> final_violation(const ModPtr& outer, const ModPtr& inner);

}  // namespace modeaudit::flat
