// Unit tests of corpus expectations: the header grammar and the two-way
// comparison (a missing diagnostic fails, and so does an unexpected one).
#include <gtest/gtest.h>

#include "regress/expectations.h"

namespace modeaudit {
namespace {

TEST(Expectations, ReadsTheLeadingCommentBlockOnly) {
    auto ex = read_expectations(
        "// A model.\n"
        "// status: flawed\n"
        "// model: Inner\n"
        "// stage: parse\n"
        "// expect: parse-syntax-error at 7:3 \"expected ';'\"\n"
        "// expect: parse-nesting-too-deep at 9\n"
        "model M\n"
        "// expect: parse-invalid-encoding\n"
        "end M;\n");
    EXPECT_TRUE(ex.header_errors.empty());
    EXPECT_EQ(ex.status, "flawed");
    EXPECT_EQ(ex.model, "Inner");
    EXPECT_EQ(ex.stage, "parse");
    ASSERT_EQ(ex.diagnostics.size(), 2u);
    EXPECT_EQ(ex.diagnostics[0].rule, "parse-syntax-error");
    EXPECT_EQ(ex.diagnostics[0].line, 7u);
    EXPECT_EQ(ex.diagnostics[0].column, 3u);
    EXPECT_EQ(ex.diagnostics[0].message_contains, "expected ';'");
    EXPECT_EQ(ex.diagnostics[1].line, 9u);
    EXPECT_EQ(ex.diagnostics[1].column, 0u);
}

TEST(Expectations, RejectsMalformedHeaders) {
    EXPECT_FALSE(read_expectations("model M end M;").header_errors.empty());  // no status
    EXPECT_FALSE(read_expectations("// status: fine\n").header_errors.empty());
    EXPECT_FALSE(read_expectations("// status: flawed\n").header_errors.empty());  // no error expected
    EXPECT_FALSE(read_expectations("// status: good\n// expect: parse-syntax-error\n").header_errors.empty());
    EXPECT_FALSE(read_expectations("// status: flawed\n// expect: no-such-rule\n").header_errors.empty());
    EXPECT_FALSE(read_expectations("// status: flawed\n// expect: parse-syntax-error at x:y\n")
                     .header_errors.empty());
}

TEST(Expectations, PendingFindingsNameRulesNotBuiltYet) {
    auto ex = read_expectations("// status: flawed\n// pending: verify-not-conserved (verification stage)\n");
    EXPECT_TRUE(ex.header_errors.empty());
    ASSERT_EQ(ex.pending.size(), 1u);
    EXPECT_EQ(ex.pending[0], "verify-not-conserved");
    // Once a rule exists, a pending line must become an expect line.
    auto built = read_expectations("// status: flawed\n// pending: parse-syntax-error\n");
    ASSERT_FALSE(built.header_errors.empty());
    EXPECT_NE(built.header_errors[0].find("turn 'pending:' into 'expect:'"), std::string::npos);
    // A good model has nothing pending.
    EXPECT_FALSE(read_expectations("// status: good\n// pending: verify-not-conserved\n").header_errors.empty());
}

TEST(Expectations, ComparisonFailsOnMissingAndOnUnexpectedDiagnostics) {
    SourceManager sm;
    auto f = sm.add("m.mo", "line1\nline2\nline3\n");
    auto ex = read_expectations("// status: flawed\n// expect: parse-syntax-error at 2:3\n");
    ASSERT_TRUE(ex.header_errors.empty());

    DiagnosticSink none;
    auto m1 = compare_diagnostics(ex, none, sm);
    ASSERT_EQ(m1.size(), 1u);
    EXPECT_NE(m1[0].find("missing: parse-syntax-error at 2:3"), std::string::npos);

    DiagnosticSink right;
    SourceLocation l = sm.locate(f, 8);
    right.report(rule::parse_syntax_error, {l, l}, "x");
    EXPECT_TRUE(compare_diagnostics(ex, right, sm).empty());

    DiagnosticSink extra;
    extra.report(rule::parse_syntax_error, {l, l}, "x");
    extra.report(rule::parse_nesting_too_deep, {l, l}, "y");
    auto m3 = compare_diagnostics(ex, extra, sm);
    ASSERT_EQ(m3.size(), 1u);
    EXPECT_NE(m3[0].find("unexpected: m.mo:2:3: error: y [parse-nesting-too-deep]"), std::string::npos);

    DiagnosticSink wrong_place;
    SourceLocation l3 = sm.locate(f, 12);
    wrong_place.report(rule::parse_syntax_error, {l3, l3}, "x");
    EXPECT_EQ(compare_diagnostics(ex, wrong_place, sm).size(), 2u);
}

}  // namespace
}  // namespace modeaudit
