// Corpus models state their own expectations in their leading comment block.
//
//   // status: flawed                  good | flawed
//   // model: CupAndBall               optional: the class to audit
//   // stage: modes                    optional: compare up to this stage
//   // library: ../libraries/Circuits  optional, repeatable: as --library, relative to the model's folder
//   // expect: parse-syntax-error at 4:12 "expected ';'"
//   // expect: flatten-restart-constraint at 9:5
//
//   // pending: restart-inconsistent     a finding of a rule not built yet
//
// `expect:` names a rule, optionally `at LINE:COL` (or `at LINE`) and a
// quoted substring of the message. `pending:` names a rule that is not in the
// rule table yet (its stage is not built); it is listed by regress and not
// compared, and once the rule exists the header is an error until the line
// becomes an `expect:`. The comparison is exact in both
// directions: every emitted diagnostic must be expected, and every expected
// one emitted. A `flawed` model must expect at least one error; a `good`
// model none (pending findings count for a flawed model).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostics.h"
#include "common/source.h"

namespace modeaudit {

struct ExpectedDiagnostic {
    std::string rule;
    std::uint32_t line = 0;    // 0: any line
    std::uint32_t column = 0;  // 0: any column
    std::string message_contains;
    std::uint32_t header_line = 0;  // where the expectation is written
};

struct CorpusExpectations {
    std::string status;   // "good" or "flawed"
    std::string model;    // --model
    std::string stage;    // compare up to this stage; empty: as far as `check` goes
    std::vector<std::string> libraries;  // `// library: DIR` (relative to the model's folder), as --library
    std::vector<ExpectedDiagnostic> diagnostics;
    std::vector<std::string> pending;        // rule ids of stages not built yet
    std::vector<std::string> header_errors;  // malformed expectation lines
};

CorpusExpectations read_expectations(std::string_view text);

// Mismatches between what was expected and what the sink holds, each as one
// readable line; empty when they agree.
std::vector<std::string> compare_diagnostics(const CorpusExpectations& expected,
                                             const DiagnosticSink& sink, const SourceManager& sm);

}  // namespace modeaudit
