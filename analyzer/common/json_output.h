// Diagnostics as JSON (../shared/design/output-contract.md); SARIF is in
// common/sarif.h.
//
// Shared by every output path (check, simulate, report, regress) so that a
// diagnostic has one JSON shape everywhere.
#pragma once

#include <nlohmann/json.hpp>

#include "common/diagnostics.h"

namespace modeaudit {

// An ordered JSON object type: members keep insertion order, so output is
// deterministic and reads in the contract's order.
using Json = nlohmann::ordered_json;

Json diagnostic_to_json(const Diagnostic& d, const SourceManager& sm);
Json diagnostics_to_json(const DiagnosticSink& sink, const SourceManager& sm);

// A document as the outputs write it (every JSON and SARIF file): indented
// by `indent`, bytes that are not UTF-8 replaced by U+FFFD instead of an
// exception, bidirectional format characters as \uXXXX escapes
// (common/text_sanitize.h), and a final newline.
std::string json_document(const Json& j, int indent = 2);

// Doubles with 17 significant digits (round trip), as the contract requires.
std::string format_double(double v);

}  // namespace modeaudit
