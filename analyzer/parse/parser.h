// The parse stage: Modelica text to an AST (ast.h).
//
// First stage of the pipeline. A hand-written lexer (lexer.h) and a
// recursive-descent parser following the grammar of Modelica 3.6 Appendix A,
// restricted to the subset of ../shared/design/input-language.md. Every node
// gets its source range. On a syntax error the parser reports
// `parse-syntax-error`, skips to a synchronisation point (`;`, `end`, a
// section keyword) and goes on, so that several errors in one file are all
// reported; after ParseLimits::max_errors it stops. Nesting (expressions,
// parentheses, classes, equations) is bounded by ParseLimits::max_depth, and
// exceeding it is `parse-nesting-too-deep`, never a stack overflow.
#pragma once

#include <cstddef>
#include <memory>

#include "common/diagnostics.h"
#include "common/source.h"
#include "parse/ast.h"

namespace modeaudit {

struct ParseLimits {
    std::size_t max_depth = 200;   // nesting of expressions, equations and classes
    std::size_t max_errors = 20;   // syntax errors reported before giving up on the file
    // Bytes of a file read at most (--max-input-size): the model file, and
    // each library file the class loader reads (library/class_loader.h).
    std::size_t max_file_bytes = std::size_t{64} << 20;
};

// Parses one file. Always returns a tree (possibly partial); the caller must
// check sink.has_input_errors() before trusting it as complete.
std::unique_ptr<ast::StoredDefinition> parse_file(const SourceManager& sources, std::uint32_t file,
                                                  DiagnosticSink& sink,
                                                  const ParseLimits& limits = {});

}  // namespace modeaudit
