// The PDF of the review report: Pandoc with a LaTeX engine (pdflatex from
// texlive-latex-recommended by default), run as a subprocess with an
// argument vector (subprocess.h).
//
// Safety: Pandoc reads the Markdown with raw TeX, raw HTML, raw attributes,
// backslash math, citations and smart quotes turned off, so that nothing a
// model provides can reach LaTeX as markup even if it slipped past md::text.
// Dollar math ($...$) is on: the report's equations are written by
// latex_math.h, whose output holds no character of the model's text that
// LaTeX would interpret, and md::text escapes every `$` of model text.
//
// Non-ASCII text: pdflatex with inputenc knows the Latin letters (é, ü, ...)
// but stops at Greek letters, <=, arrows and the like. The header declares
// every other code point that occurs in the Markdown: the common
// mathematical ones as their LaTeX symbols (U+03BB as \lambda, U+2264 as
// \leq, ...), any other as the visible text [U+XXXX], so that the PDF never
// fails on a character and never loses one silently.
//
// Determinism: with `reproducible`, SOURCE_DATE_EPOCH (the caller's, else 0)
// and FORCE_SOURCE_DATE=1 fix pdfTeX's creation and modification dates, and
// \pdftrailerid{} drops the /ID that pdfTeX otherwise derives from the
// time and Pandoc's temporary folder. With those, the same Markdown, the same
// pictures and the same TeX Live give byte-identical PDF files (checked on
// Debian 12 with pandoc 2.17 and TeX Live 2022); another TeX Live or Pandoc
// version may give other bytes. Without `reproducible` the PDF carries the
// real date. Only the Markdown and the JSON are promised byte-identical.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace modeaudit {

struct PdfOptions {
    std::string pandoc = "pandoc";        // program (PATH lookup when it holds no '/')
    std::string pdf_engine = "pdflatex";  // Pandoc's --pdf-engine
    bool reproducible = false;
    double timeout_seconds = 300;
};

// The LaTeX lines for Pandoc's header-includes (see above); for engines
// other than pdflatex only the determinism lines.
std::string latex_header(const std::string& markdown, const PdfOptions& options);

// The argument vector that turns `markdown_file` into `pdf_file` (both
// names relative to the folder Pandoc runs in).
std::vector<std::string> pandoc_arguments(const std::string& markdown_file,
                                          const std::string& pdf_file, const std::string& header,
                                          const PdfOptions& options);

// Runs Pandoc in `dir` on `markdown_file` (with `markdown` its text) to make
// `pdf_file`. Returns true when the PDF was written; otherwise writes one
// clear message (what failed, Pandoc's last lines, what to do) to `err`.
bool build_pdf(const std::filesystem::path& dir, const std::string& markdown_file,
               const std::string& markdown, const std::string& pdf_file,
               const PdfOptions& options, std::ostream& err);

}  // namespace modeaudit
