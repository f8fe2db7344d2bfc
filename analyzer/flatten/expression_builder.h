// Values of flattened expressions, and the operations of the expression
// language on them (part of the flatten stage).
//
// A Value is a scalar GiNaC expression or an array of them (row-major, with
// its dimensions): Modelica arithmetic is defined on both (section 10.6), and
// array equations expand to one scalar equation per element.
#pragma once

#include <ginac/ginac.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace modeaudit {

// GiNaC functions for Modelica built-ins that GiNaC lacks. They stay
// unevaluated on symbols and fold on numbers.
// abs(x): unlike GiNaC's abs (whose derivative divides by abs(x) and is
// undefined at 0, through conjugates), its derivative is sign(x)*x'.
DECLARE_FUNCTION_1P(ma_abs)
DECLARE_FUNCTION_2P(ma_min)
DECLARE_FUNCTION_2P(ma_max)
DECLARE_FUNCTION_1P(ma_sign)
DECLARE_FUNCTION_1P(ma_floor)
DECLARE_FUNCTION_1P(ma_ceil)
DECLARE_FUNCTION_2P(ma_div)
DECLARE_FUNCTION_2P(ma_mod)
DECLARE_FUNCTION_2P(ma_rem)
// noEvent marker (Modelica 3.6, 3.7.4): the flattener wraps each argument
// of an event-generating built-in written inside noEvent(...) (abs(x) ->
// abs(ma_noevent(x))), so that the simulation evaluates that occurrence
// plainly, with no crossing function (simulation/event_operators.h). It is
// the identity everywhere else: it folds on numbers and its derivative keeps
// the mark (d/dt ma_noevent(u) = ma_noevent(du/dt)), so the sign() that index
// reduction brings from a marked abs() is marked as well.
DECLARE_FUNCTION_1P(ma_noevent)
// An if-expression whose condition is a relation inside noEvent (Modelica
// 3.6, 3.7.4: taken literally, no event): ma_select(u, a, b) is a where
// u > 0 and b elsewhere; ma_select_ge(u, a, b) is a where u >= 0. No mode
// and no event: the simulation evaluates the chosen branch only (an
// unselected sqrt(x) of a negative x does not reach the result), and the
// derivative is the select of the branches' derivatives (each taken where
// its branch holds).
DECLARE_FUNCTION_3P(ma_select)
DECLARE_FUNCTION_3P(ma_select_ge)
// Placeholders until the connection sets are known (connections.h).
DECLARE_FUNCTION_1P(in_stream)
DECLARE_FUNCTION_1P(actual_stream)

// `e` with every argument of its event-generating built-ins (abs, sign, min,
// max, floor, ceil, div, mod, rem; integer() is floor) wrapped in ma_noevent:
// the value of noEvent(e).
GiNaC::ex mark_no_event(const GiNaC::ex& e);

struct Value {
    std::vector<std::size_t> dims;  // empty: scalar
    std::vector<GiNaC::ex> elems;   // one element for a scalar

    static Value scalar(GiNaC::ex e) { return Value{{}, {std::move(e)}}; }
    bool is_scalar() const { return dims.empty(); }
    std::size_t size() const { return elems.size(); }
    std::string shape() const;  // "scalar", "[3]", "[2, 2]"
    // Element k (1-based) along the first dimension; nullopt when out of range.
    std::optional<Value> element(long k) const;
};

// Exact rational of a Modelica real literal ("9.81" -> 981/100, "1e-3" -> 1/1000).
GiNaC::numeric parse_real_literal(const std::string& text);

// The numeric value of an expression free of symbols, if it has one.
std::optional<GiNaC::numeric> numeric_value(const GiNaC::ex& e);

// Options for subs() with a map of symbols (or exact subexpressions) to
// values: no pattern matching, and no scan of the map for products, which
// GiNaC otherwise makes on every call (quadratic on large models).
inline constexpr unsigned kExactSubs = GiNaC::subs_options::no_pattern | GiNaC::subs_options::pattern_is_not_product;

// The terms of an expression: the operands of a sum, or the expression itself.
std::vector<GiNaC::ex> terms_of(const GiNaC::ex& e);

// The degree of e in z when e is a polynomial in z (factors free of z are
// coefficients); nullopt otherwise: sqrt(z), z^(3/2), 1/z, sin(z). GiNaC's
// degree() throws on a non-integer power of z and counts sin(z) as degree 0.
std::optional<int> polynomial_degree(const GiNaC::ex& e, const GiNaC::ex& z);

// Whether a = k*b for a number k (k = 0 included); false when b is zero.
bool is_constant_multiple(const GiNaC::ex& a, const GiNaC::ex& b);

}  // namespace modeaudit
