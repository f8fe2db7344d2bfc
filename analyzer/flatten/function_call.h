// A call of a compiled user function inside a model expression (flatten stage).
//
// `ma_call(key, a1, ..., an)` is a GiNaC function of 1 + n arguments (one
// registration per n, up to kMaxCallInputs): key = id * 64 + output
// selects the function of the registry (function_ir.h) and the output; the
// arguments are the inputs' expressions, so the call depends on all of them
// for the structure stage. On numbers (exact or floating) it evaluates
// through the interpreter; printed it shows the function's own name,
// `f(a1, ..., an)` or `f[2](...)` for its second output.
//
// Differentiation: with annotation(derivative = g) the partial derivative
// in input i is g(a1, ..., an, 0, ..., 1, ..., 0) (g is linear in its
// derivative inputs); without one it is the same call marked as the partial
// derivative in input i (inputs 1..7), evaluated by central differences, and
// once more for a second derivative (index reduction, then the simulation's
// Jacobian); a third derivative is `ma_noderiv(key, i)`, which no
// evaluation accepts.
#pragma once

#include <ginac/ginac.h>

#include <optional>
#include <string>
#include <vector>

namespace modeaudit {

inline constexpr std::size_t kMaxCallInputs = 12;

DECLARE_FUNCTION_2P(ma_noderiv)

// The expression of output `output` of function `id` applied to `args`.
// Evaluates at once when every argument is a real number (may throw
// fn::FunctionError then).
GiNaC::ex make_call(int id, int output, const std::vector<GiNaC::ex>& args);

struct CallInfo {
    int function = -1;
    int output = 0;
    int partial = 0;  // p1 + 8*p2 > 0: the partial derivative in input p1, then in p2 (central differences)
    std::vector<GiNaC::ex> args;
};
// Output `output` of function `id` (partial > 0: its partial derivative in
// that input, by central differences).
double call_value(int id, int partial, int output, const std::vector<double>& inputs);
// The call `e` is, if it is one.
std::optional<CallInfo> as_call(const GiNaC::ex& e);
// The function name a `ma_noderiv(key, i)` refers to, if `e` is one.
std::optional<std::string> noderiv_function(const GiNaC::ex& e);

// An exact rational equal to the finite double v.
GiNaC::numeric exact_double(double v);

}  // namespace modeaudit
