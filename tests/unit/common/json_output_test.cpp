// Unit tests of the JSON and SARIF shapes of output-contract.md.
#include <gtest/gtest.h>

#include "common/json_output.h"
#include "common/sarif.h"

namespace modeaudit {
namespace {

TEST(JsonOutput, DiagnosticHasTheContractFields) {
    SourceManager sm;
    auto f = sm.add("m.mo", "model M\nend M;\n");
    DiagnosticSink sink;
    SourceLocation b = sm.locate(f, 8);
    sink.report(rule::parse_syntax_error, {b, b}, "msg", {"n1"});
    Json j = diagnostic_to_json(sink.all()[0], sm);
    EXPECT_EQ(j["rule"], "parse-syntax-error");
    EXPECT_EQ(j["severity"], "error");
    EXPECT_EQ(j["message"], "msg");
    EXPECT_EQ(j["file"], "m.mo");
    EXPECT_EQ(j["line"], 2);
    EXPECT_EQ(j["column"], 1);
    EXPECT_EQ(j["notes"], Json::array({"n1"}));
}

TEST(JsonOutput, SarifListsEveryRuleAndEachResultWithItsLocation) {
    SourceManager sm;
    auto f = sm.add("dir/m.mo", "model M\n  x\nend M;\n");
    DiagnosticSink sink;
    SourceLocation b = sm.locate(f, 10);
    sink.report(rule::parse_syntax_error, {b, b}, "expected a declaration");
    Json log = diagnostics_to_sarif(sink, sm, "9.9.9");
    EXPECT_EQ(log["version"], "2.1.0");
    ASSERT_EQ(log["runs"].size(), 1u);
    const Json& run = log["runs"][0];
    EXPECT_EQ(run["tool"]["driver"]["name"], "modeaudit");
    EXPECT_EQ(run["tool"]["driver"]["rules"].size(), all_rules().size());
    for (const Json& r : run["tool"]["driver"]["rules"]) {
        EXPECT_TRUE(r.contains("id"));
        EXPECT_FALSE(r["shortDescription"]["text"].get<std::string>().empty());
    }
    ASSERT_EQ(run["results"].size(), 1u);
    const Json& res = run["results"][0];
    EXPECT_EQ(res["ruleId"], "parse-syntax-error");
    EXPECT_EQ(res["level"], "error");
    EXPECT_EQ(res["message"]["text"], "expected a declaration");
    const Json& loc = res["locations"][0]["physicalLocation"];
    EXPECT_EQ(loc["artifactLocation"]["uri"], "dir/m.mo");
    EXPECT_EQ(loc["region"]["startLine"], 2);
    EXPECT_EQ(loc["region"]["startColumn"], 3);
}

TEST(JsonOutput, DoublesRoundTripWithSeventeenDigits) {
    EXPECT_EQ(format_double(0.1), "0.10000000000000001");
    EXPECT_EQ(std::stod(format_double(0.055317579971)), 0.055317579971);
}

}  // namespace
}  // namespace modeaudit
