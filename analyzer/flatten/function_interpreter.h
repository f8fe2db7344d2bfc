// Numeric evaluation of compiled user functions (function_ir.h).
//
// A plain tree-walking interpreter over doubles with Modelica's semantics
// for the statements of an algorithm body: assignments, if/elseif/else,
// for over a range (evaluated once on entry), while, break, return and
// assert. Bad input never crashes or hangs: a loop that runs more than
// `max_iterations` times in one call, a call chain deeper than `max_depth`
// (recursion), a division by zero, a failed assert, or a built-in outside
// its domain (sqrt of a negative number, log of a non-positive one) throws
// FunctionError with a message naming the function, the outermost call's
// argument values and the place in the body.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "flatten/function_ir.h"

namespace modeaudit::fn {

class FunctionError : public std::runtime_error {
public:
    enum class Kind { IterationLimit, RecursionDepth, DivisionByZero, Domain, Assert, Incomplete };
    FunctionError(Kind k, std::string msg, SourceRange where)
        : std::runtime_error(std::move(msg)), kind(k), range(where) {}
    Kind kind;
    SourceRange range;  // in the function's body
};

// The default of InterpreterLimits::max_iterations for the whole process
// (10,000,000): the fuzz harnesses lower it, so that an input whose loop
// does not end for the values tried (a Newton iteration on a negative
// argument) costs milliseconds per call, not a second.
std::size_t default_max_iterations();
void set_default_max_iterations(std::size_t n);

struct InterpreterLimits {
    std::size_t max_iterations = default_max_iterations();  // loop iterations in one outermost call
    std::size_t max_depth = 200;              // nested calls (recursion)
};

// All outputs of function `id` for these inputs (one per input, in order).
std::vector<double> call_function(int id, const std::vector<double>& inputs,
                                  const InterpreterLimits& limits = {});
// One output (0-based).
double call_function_output(int id, int output, const std::vector<double>& inputs,
                            const InterpreterLimits& limits = {});

// "f(1, 0.5)": a call with its arguments, for messages.
std::string describe_call(int id, const std::vector<double>& inputs);

}  // namespace modeaudit::fn
