#include "common/diagnostics.h"

#include <fmt/format.h>

#include "common/internal_error.h"

namespace modeaudit {

Diagnostic& DiagnosticSink::report(const Rule& rule, SourceRange range, std::string message,
                                   std::vector<std::string> notes) {
    MODEAUDIT_ASSERT(find_rule(rule.id).has_value(), "diagnostic of an unregistered rule");
    Diagnostic d{std::string(rule.id), rule.severity, rule.kind, std::move(message), range,
                 std::move(notes), false};
    // Past the limit only the first input error is still kept: it decides
    // the exit code, so it must never be dropped.
    bool keep_anyway = rule.kind == RuleKind::input && rule.severity == Severity::error &&
                       !has_input_errors();
    if (diags_.size() >= limit_ && !keep_anyway) {
        ++dropped_;
        overflow_ = Diagnostic{};
        return overflow_;
    }
    diags_.push_back(std::move(d));
    return diags_.back();
}

void DiagnosticSink::take(const Diagnostic& d) {
    std::optional<Rule> rule = find_rule(d.rule);
    MODEAUDIT_ASSERT(rule.has_value(), "diagnostic of an unregistered rule");
    Diagnostic& copy = report(*rule, d.range, d.message, d.notes);
    copy.severity = d.severity;
    copy.suppressed = d.suppressed;
}

std::size_t DiagnosticSink::count(Severity s) const {
    std::size_t n = 0;
    for (const Diagnostic& d : diags_)
        if (!d.suppressed && d.severity == s) ++n;
    return n;
}

bool DiagnosticSink::has_input_errors() const {
    for (const Diagnostic& d : diags_)
        if (!d.suppressed && d.kind == RuleKind::input && d.severity == Severity::error) return true;
    return false;
}

std::string format_diagnostic(const Diagnostic& d, const SourceManager& sm) {
    std::string where;
    if (d.range.valid())
        where = fmt::format("{}:{}:{}: ", sm.path(d.range.begin.file), d.range.begin.line,
                            d.range.begin.column);
    else
        where = "modeaudit: ";
    std::string out = fmt::format("{}{}: {} [{}]{}\n", where, severity_name(d.severity), d.message,
                                  d.rule, d.suppressed ? " (suppressed)" : "");
    for (const std::string& n : d.notes) out += fmt::format("  note: {}\n", n);
    return out;
}

}  // namespace modeaudit
