// The elementwise built-in functions of Modelica 3.6 (3.7.1 numeric and
// event-generating functions, 3.7.3 elementary functions): one table from
// the name to its GiNaC form, with the domain that flattening checks where
// the argument is known (sqrt of a negative number is an error there, not a
// complex value later). The calls with a form of their own (der, pre,
// noEvent, smooth, homotopy, Integer, semiLinear, min/max, sum, size,
// zeros/ones/fill, inStream/actualStream) stay in values.cpp.
#pragma once

#include <ginac/ginac.h>

#include <string_view>
#include <vector>

namespace modeaudit {

struct ElementwiseBuiltin {
    std::string_view name;
    int arity = 1;                                                       // 1 or 2 arguments
    GiNaC::ex (*unary)(const GiNaC::ex&) = nullptr;                      // arity 1
    GiNaC::ex (*binary)(const GiNaC::ex&, const GiNaC::ex&) = nullptr;  // arity 2
    // Arity 1: whether a known real argument has a real value, and the
    // sentence that says what it must be; null where every real has one.
    bool (*in_domain)(const GiNaC::numeric&) = nullptr;
    const char* domain_text = nullptr;
};

// The entry for `name`, or null when it is no elementwise built-in.
const ElementwiseBuiltin* elementwise_builtin(std::string_view name);

// Every entry, in the table's order (for tests and documentation).
const std::vector<ElementwiseBuiltin>& elementwise_builtins();

}  // namespace modeaudit
