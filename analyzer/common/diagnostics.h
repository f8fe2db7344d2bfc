// Diagnostics as data.
//
// Every stage reports model problems into a DiagnosticSink as Diagnostic
// values (rule, severity, message, source range, notes). Nothing is printed
// by a stage: the command line prints them (text/JSON/SARIF), the report
// renders them, tests collect them. Order of the sink is the order of
// emission, which is deterministic because every stage iterates in a fixed
// order; printing sorts nothing.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/rules.h"
#include "common/source.h"

namespace modeaudit {

struct Diagnostic {
    std::string rule;  // a registered rule id
    Severity severity = Severity::error;
    RuleKind kind = RuleKind::finding;
    std::string message;
    SourceRange range;
    std::vector<std::string> notes;  // "transition taut=false -> taut=true is ...", shown indented
    bool suppressed = false;         // silenced by annotation(__ModeAudit(suppress = {...}))
};

class DiagnosticSink {
public:
    // Reports a finding of `rule` at its default severity.
    Diagnostic& report(const Rule& rule, SourceRange range, std::string message,
                       std::vector<std::string> notes = {});

    // Takes a finding another sink holds (of a part of the model analysed
    // on its own, pipeline/factorised.h), keeping its severity.
    void take(const Diagnostic& d);

    const std::vector<Diagnostic>& all() const { return diags_; }
    // For marking findings suppressed after the fact (rules/rule_checks.cpp).
    std::vector<Diagnostic>& mutable_all() { return diags_; }
    std::size_t count(Severity s) const;        // unsuppressed findings of this severity
    bool has_errors() const { return count(Severity::error) > 0; }
    bool has_input_errors() const;             // an unsuppressed error of kind `input`
    std::size_t size() const { return diags_.size(); }

    // Bound on how many diagnostics one run keeps (a file full of garbage
    // must not produce a million lines); the rest are counted.
    void set_limit(std::size_t limit) { limit_ = limit; }
    std::size_t dropped() const { return dropped_; }

private:
    std::vector<Diagnostic> diags_;
    std::size_t limit_ = 1000;
    std::size_t dropped_ = 0;
    Diagnostic overflow_;
};

// `file:line:col: severity: message [rule-id]` plus `  note: ...` lines.
std::string format_diagnostic(const Diagnostic& d, const SourceManager& sm);

}  // namespace modeaudit
