// Printing the AST back as text: expressions in Modelica syntax (for messages
// and dumps) and the whole tree in a canonical, deterministic indented form
// (for `--dump-after=parse` and parser tests).
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "parse/ast.h"

namespace modeaudit::ast {

// Modelica syntax with minimal parentheses, e.g. `-c * velocity`, `der(x)`, `a[i + 1].b`.
std::string to_modelica(const Expr& e);
std::string to_modelica(const ComponentRef& r);  // with subscripts

// The keyword of a class kind: "model", "connector", ...
std::string_view class_kind_word(ClassKind k);

// Canonical tree dump: one node per line, indented by two spaces per level.
void dump(const StoredDefinition& tree, std::ostream& out);

}  // namespace modeaudit::ast
