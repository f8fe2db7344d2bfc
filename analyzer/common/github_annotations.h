// GitHub Actions workflow annotations (`check --format github`).
//
// One workflow command per finding, which a GitHub Actions run shows as an
// annotation on the file and line (and in the pull request's diff):
//
//   ::error file=models/Rope.mo,line=23,col=5,endLine=23,endColumn=9,title=restart-undetermined::restart is ...
//
// Severities map to the commands `error`, `warning` and `notice`. The
// notes follow the message on lines of their own. Escaping follows the
// runner's rules for workflow commands: in the message (the data after
// `::`) `%`, CR and LF become %25, %0D, %0A; in a property value (file,
// title) `:` and `,` become %3A and %2C as well. Columns count code points
// (as SARIF's "unicodeCodePoints"). Text is sanitized first (invalid UTF-8
// and control characters replaced by U+FFFD, text_sanitize.h). Suppressed
// findings are not annotated. A finding without a place is annotated
// without `file`, its message starting with the model's path.
#pragma once

#include <string>
#include <string_view>

#include "common/diagnostics.h"
#include "common/source.h"

namespace modeaudit {

std::string github_escape_data(std::string_view text);
std::string github_escape_property(std::string_view text);

// The annotation lines of one model's findings (each ending in "\n").
std::string github_annotations(const std::string& model_path, const SourceManager& sources,
                               const DiagnosticSink& sink);

}  // namespace modeaudit
