// Implicit iteration ranges (Modelica 3.6, 8.3.2.1): `for i loop ... end for`
// without `in range` iterates over the dimension that i subscripts. Every
// use of i as a subscript must name a dimension of the same size; the range
// is 1:n, or the literals of the enumeration of an `x[E]` dimension.
//
// Part of the flatten stage. This file finds the uses in the loop's body
// (a pure walk of the syntax tree); the flattener resolves the arrays they
// subscript and compares the sizes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "parse/ast.h"

namespace modeaudit::flat {

// `x[a, i]`: the iterator i subscripts dimension `position` (0-based) of the
// part `part` of `array`. Nested loops and comprehensions that bind the same
// name hide it, and their bodies give no uses.
struct IteratorUse {
    const ast::ComponentRef* array = nullptr;
    std::size_t part = 0;
    std::size_t position = 0;
    SourceRange where;  // the subscript
};

std::vector<IteratorUse> iterator_uses(const std::string& name, const std::vector<ast::Equation>& body);
std::vector<IteratorUse> iterator_uses(const std::string& name, const std::vector<ast::Statement>& body);
std::vector<IteratorUse> iterator_uses(const std::string& name, const ast::Expr& body);

}  // namespace modeaudit::flat
