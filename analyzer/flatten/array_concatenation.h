// Array concatenation (Modelica 3.6, 10.4.2): `cat(k, A, B, ...)` and the
// matrix constructor `[a, b; c, d]`, on flattened Values.
//
// Part of the flatten stage; pure functions of Values, used by the
// flattener's expression evaluation (the friction tables of the MSL's
// clutches and brakes, `mu_pos[:, 2] = [0, 0.5; 1, 0.3]`, are matrices
// written this way).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "flatten/expression_builder.h"

namespace modeaudit::flat {

// `v` with trailing dimensions of size 1 up to `ndims` dimensions
// (promote(A, n) of 10.4.2); v unchanged when it has that many already.
Value promote(const Value& v, std::size_t ndims);

// cat(k, parts...): the parts joined along dimension k (1-based); all
// parts must have the same number of dimensions and equal sizes in every
// other one. On a mismatch, nullopt and `error` says which part and why.
std::optional<Value> concatenate(std::size_t k, const std::vector<Value>& parts, std::string& error);

// `[row1; row2; ...]`, each row the list of its elements: each row is
// cat(2, ...) of its elements promoted to at least 2 dimensions, the
// result cat(1, ...) of the rows.
std::optional<Value> matrix(const std::vector<std::vector<Value>>& rows, std::string& error);

}  // namespace modeaudit::flat
