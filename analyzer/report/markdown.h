// Markdown building blocks of the review report (Pandoc's Markdown, which
// also reads well as CommonMark/GFM).
//
// Everything a model or another stage provides (names, guards, messages,
// descriptions) goes through one of these functions, so that it appears as
// text and is never interpreted: a message holding `\input{...}`, `<script>`
// or `$x$` shows those characters, in the Markdown and in the PDF. The PDF
// step also turns Pandoc's raw TeX/HTML extensions off (pdf.h), a second
// line of defence.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace modeaudit::md {

// Plain text: Markdown and TeX/HTML-significant ASCII punctuation
// backslash-escaped, line breaks turned into spaces (so that text stays in
// its table cell or list item).
std::string text(std::string_view s);

// An inline code span fenced with more backticks than the text holds.
// Line breaks become spaces. For use outside tables (see cell_code).
std::string code(std::string_view s);

// A code span usable in a pipe-table cell: GFM splits cells at `|` even in
// code, so text holding `|` is given as escaped plain text instead.
std::string cell_code(std::string_view s);

// A fenced code block (tildes, longer than any run in the lines).
std::string code_block(const std::vector<std::string>& lines);

// A pipe table; cells must already be Markdown (text()/code()/numbers).
// `widths`: relative column widths as the dash counts of the separator line
// (Pandoc sizes the columns of a table wider than the page by them);
// empty: three dashes each.
std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows,
                  const std::vector<int>& widths = {});

// `items` joined by ", " (or `none` when empty).
std::string join(const std::vector<std::string>& items, std::string_view none = "none");

}  // namespace modeaudit::md
