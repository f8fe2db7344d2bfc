// Which of the constructs the parser recorded as outside the subset
// (ast::StoredDefinition::unsupported) belong to a class.
//
// Part of the flatten stage: a construct is refused only where the model
// really uses it, so the flattener asks, for each class it instantiates,
// extends, calls or takes a type from, for the constructs written in that
// class's own text; those of its nested classes belong to them, and those of
// classes the model never uses are never reported.
#pragma once

#include <vector>

#include "parse/ast.h"

namespace modeaudit::flat {

// The constructs written in `cls` itself (nested class definitions excluded),
// in source order. `def` is the file cls was parsed from.
std::vector<const ast::UnsupportedUse*> unsupported_in_class(const ast::StoredDefinition& def,
                                                             const ast::ClassDef& cls);

// The constructs written outside every top-level class of the file.
std::vector<const ast::UnsupportedUse*> unsupported_outside_classes(const ast::StoredDefinition& def);

}  // namespace modeaudit::flat
