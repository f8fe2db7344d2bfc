// Diagnostics as JSON and SARIF 2.1.0 (../shared/design/output-contract.md).
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

// A complete SARIF 2.1.0 log of one run over `artifact` (the model file).
Json diagnostics_to_sarif(const DiagnosticSink& sink, const SourceManager& sm,
                          const std::string& version);

// Doubles with 17 significant digits (round trip), as the contract requires.
std::string format_double(double v);

}  // namespace modeaudit
