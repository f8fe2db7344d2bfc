// The rule registry, generated from the one table in rules/rules.def.
//
// Every diagnostic names a rule of this registry; a stage cannot invent a
// rule id on the fly. The registry feeds `modeaudit rules`, `explain`,
// SARIF's rule list and the meta-test of the rule table.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace modeaudit {

enum class Severity { note, warning, error };

// `input` rules mean the input cannot be analysed (exit code 2); `finding`
// rules are results of the audit (exit code 1 when of severity error).
enum class RuleKind { input, finding };

struct Rule {
    std::string_view id;
    Severity severity;
    RuleKind kind;
    std::string_view source;  // file implementing the rule, relative to the project root
    std::string_view summary;

    std::string_view family() const { return id.substr(0, id.find('-')); }
};

namespace rule {
#define MODEAUDIT_RULE(ident, id, severity, kind, source, summary) \
    inline constexpr Rule ident{id, Severity::severity, RuleKind::kind, source, summary};
#include "rules.def"
#undef MODEAUDIT_RULE
}  // namespace rule

// All rules in table order.
std::span<const Rule> all_rules();
std::optional<Rule> find_rule(std::string_view id);
// The rule's doc page (Markdown), embedded at build time from
// rules/<family>/<id>.md; empty when the page is missing.
std::string_view rule_doc(std::string_view id);

std::string_view severity_name(Severity s);

}  // namespace modeaudit
