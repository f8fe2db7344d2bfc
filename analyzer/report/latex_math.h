// Equations of the review report as LaTeX math.
//
// The report renders from the contract's documents, where expressions are
// the canonical text of the flatten stage's printer (`2*der(x)*x + 2*y`,
// `der(x,2)`, `sqrt(a)`, `(if c then a else b)`, relations `a >= b`). This
// turns such text into the body of a `$...$` span for Pandoc: der(x) as
// \dot{x}, powers as superscripts, Greek names as letters, multi-letter
// names upright-italic (\mathit), known functions as operators.
//
// The text comes from the model and is untrusted: the result is built only
// from fixed LaTeX commands, letters, digits and `.,[]` of names and
// numbers, `\_`, `\char N` (any other ASCII character, shown as itself)
// and non-ASCII characters inside \text{} (declared by pdf.h). It never
// holds `$`, `|`, a backslash or a brace that came from the input, so it
// can neither end the math span nor a table cell, nor run a TeX command.
// Text the converter does not understand still comes out, character by
// character, as text.
#pragma once

#include <string>
#include <string_view>

namespace modeaudit::tex {

// The LaTeX math for canonical expression or relation text (no delimiters).
std::string math(std::string_view canonical);

// A variable name alone (`lambda` -> \lambda, `vx` -> \mathit{vx},
// `i_L` -> i_{\mathrm{L}}).
std::string name(std::string_view identifier);

}  // namespace modeaudit::tex
