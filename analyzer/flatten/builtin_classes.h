// The enumeration types every Modelica tool predefines (Modelica 3.6,
// section 4.9.5): StateSelect (the stateSelect attribute, accepted and not
// used by the audit) and AssertionLevel (the third argument of assert);
// and the empty base class ExternalObject (12.9.7).
// Found by name lookup after the model's classes and the libraries, as if
// declared at the top level.
#pragma once

#include <optional>
#include <string>

#include "parse/ast.h"

namespace modeaudit::flat {

// The predefined class of this name, or null.
const ast::ClassDef* builtin_class(const std::string& name);

// The 1-based position of a literal of an enumeration type, or nullopt.
std::optional<long> enumeration_literal(const ast::ClassDef& enumeration, const std::string& literal);

}  // namespace modeaudit::flat
