// Unit tests of diagnostics as data: the compiler-style text form of the
// output contract, the registry check, severities, kinds and the bound.
#include <gtest/gtest.h>

#include "common/diagnostics.h"
#include "common/internal_error.h"

namespace modeaudit {
namespace {

SourceRange at(SourceManager& sm, std::uint32_t file, std::uint32_t offset) {
    SourceLocation b = sm.locate(file, offset);
    return {b, b};
}

TEST(Diagnostics, FormatsLikeACompilerWithNotes) {
    SourceManager sm;
    auto f = sm.add("models/Rope.mo", "model Rope\n  Real x;\nend Rope;\n");
    DiagnosticSink sink;
    sink.report(rule::parse_syntax_error, at(sm, f, 13), "expected ';'", {"first note", "second"});
    ASSERT_EQ(sink.size(), 1u);
    EXPECT_EQ(format_diagnostic(sink.all()[0], sm),
              "models/Rope.mo:2:3: error: expected ';' [parse-syntax-error]\n"
              "  note: first note\n"
              "  note: second\n");
}

TEST(Diagnostics, WithoutALocationNamesTheTool) {
    SourceManager sm;
    DiagnosticSink sink;
    sink.report(rule::parse_syntax_error, {}, "no location");
    EXPECT_EQ(format_diagnostic(sink.all()[0], sm), "modeaudit: error: no location [parse-syntax-error]\n");
}

TEST(Diagnostics, InputErrorsAreToldApartFromFindings) {
    DiagnosticSink sink;
    EXPECT_FALSE(sink.has_errors());
    EXPECT_FALSE(sink.has_input_errors());
    sink.report(rule::parse_syntax_error, {}, "bad");
    EXPECT_TRUE(sink.has_errors());
    EXPECT_TRUE(sink.has_input_errors());
    EXPECT_EQ(sink.count(Severity::error), 1u);
    EXPECT_EQ(sink.count(Severity::warning), 0u);
}

TEST(Diagnostics, SuppressedFindingsDoNotCount) {
    DiagnosticSink sink;
    sink.report(rule::parse_syntax_error, {}, "bad").suppressed = true;
    EXPECT_FALSE(sink.has_errors());
    EXPECT_EQ(sink.size(), 1u);
}

// A stage's `catch (const std::exception&)` (around GiNaC's lsolve, which
// throws logic_error for an expected failure) must never swallow a tool bug:
// InternalError is outside the std::exception hierarchy.
TEST(Diagnostics, InternalErrorIsNotCaughtAsAStdException) {
    auto stage_like = [] {
        try {
            MODEAUDIT_ASSERT(false, "broken invariant");
        } catch (const std::exception&) {
            return std::string("swallowed");
        }
        return std::string("not thrown");
    };
    try {
        std::string got = stage_like();
        ADD_FAILURE() << "the internal error was " << got;
    } catch (const InternalError& e) {
        EXPECT_NE(std::string(e.what()).find("broken invariant"), std::string::npos);
    }
}

TEST(Diagnostics, UnregisteredRuleIsAnInternalError) {
    DiagnosticSink sink;
    Rule invented{"made-up-rule", Severity::error, RuleKind::finding, "", ""};
    EXPECT_THROW(sink.report(invented, {}, "x"), InternalError);
}

TEST(Diagnostics, TheLimitDropsFindingsButKeepsTheFirstInputError) {
    DiagnosticSink sink;
    sink.set_limit(2);
    Rule note_rule = rule::parse_syntax_error;
    sink.report(rule::parse_nesting_too_deep, {}, "1").suppressed = true;
    sink.report(rule::parse_nesting_too_deep, {}, "2").suppressed = true;
    sink.report(rule::parse_syntax_error, {}, "kept although past the limit");
    sink.report(note_rule, {}, "dropped");
    EXPECT_EQ(sink.size(), 3u);
    EXPECT_EQ(sink.dropped(), 1u);
    EXPECT_TRUE(sink.has_input_errors());
}

}  // namespace
}  // namespace modeaudit
