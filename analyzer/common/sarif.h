// SARIF 2.1.0 output for code scanning (../shared/design/output-contract.md,
// "SARIF"; README.md, "SARIF for code scanning").
//
// One log with ONE run covering every model of a `check` call: code
// scanning services refuse more than a few runs per upload and repeated
// categories, so many models never mean many runs. What a code scanning
// service needs beyond the schema is here too:
//   - every rule with `shortDescription`, `fullDescription` (the rule page's
//     "What it means" paragraph) and `help` (the whole page, as text and as
//     Markdown), from the doc pages embedded in the binary (common/rules.h);
//   - artifact URIs relative to a source root, with `uriBaseId` "%SRCROOT%"
//     (a file outside the root keeps an absolute file: URI, standard input
//     a relative URI without base);
//   - `columnKind` "unicodeCodePoints", columns counted in code points (the
//     pipeline counts bytes; common/text_sanitize.h converts);
//   - `partialFingerprints` that do not move when lines are added above a
//     finding (see sarif_fingerprint);
//   - `automationDetails.id` "<category>/", so that uploads of different
//     categories do not replace each other's alerts;
//   - `invocations` with the exit code and `executionSuccessful`, and a
//     notification for each model that could not be analysed at all;
//   - every string sanitized (invalid UTF-8 and control characters replaced
//     by U+FFFD): paths and messages carry the user's bytes.
// Deterministic: no timestamp, no absolute path of the source root, no
// dependence on the order the models were run in beyond the order given.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "common/json_output.h"

namespace modeaudit {

struct SarifOptions {
    std::string tool_version;
    std::string information_uri;        // the tool's home page; empty: omitted (optional in SARIF)
    std::filesystem::path source_root;  // URIs relative to it; empty: the current directory
    std::string category = "modeaudit";  // automationDetails.id = category + "/"
};

// One analysed model: its sources (the model file is the first one) and its
// findings. `path` is the model's path as given (may be "-" for stdin).
struct SarifModel {
    std::string path;
    const SourceManager* sources = nullptr;  // null: the file could not be read
    const DiagnosticSink* sink = nullptr;
    std::string failure;  // why the model could not be analysed at all (unreadable, ...)
};

struct SarifInvocation {
    int exit_code = 0;
    bool execution_successful = true;  // false: some model could not be analysed
};

Json sarif_log(std::span<const SarifModel> models, const SarifOptions& options, const SarifInvocation& invocation);

// One model's findings, with default options (tests, and `check` of one model).
Json diagnostics_to_sarif(const DiagnosticSink& sink, const SourceManager& sm, const std::string& version);

// The rule's reportingDescriptor: id, name, descriptions, help, level.
Json sarif_rule(const Rule& rule);

// An artifactLocation for `path` (as given on the command line): relative
// to `root` with uriBaseId %SRCROOT% when the path lies under it, else an
// absolute file: URI; "<stdin>" and "-" give the relative URI "stdin"
// without a base.
Json sarif_artifact_location(const std::string& path, const std::filesystem::path& root);

// The fingerprint of a finding: SHA-256 over the rule id, the artifact URI,
// the text of the finding's first line with its whitespace collapsed (not
// the line number, so that an edit above does not change it), and the
// message. Findings with equal fingerprints within one run get ":2", ":3"
// appended in order.
std::string sarif_fingerprint(const Diagnostic& d, const SourceManager& sm, const std::string& uri);

}  // namespace modeaudit
