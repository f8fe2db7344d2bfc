// SARIF output against the SARIF 2.1.0 requirements (output-contract.md).
//
// Not the full JSON schema: Debian 12 has neither the SARIF 2.1.0 schema nor
// a C++ JSON Schema validator and the build has no network, so
// tests/support/sarif_validator.h checks the required properties and the
// schema's constraints on the objects we emit; what it covers is listed
// there. The validator is itself tested on broken logs, so that a pass means
// something.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "common/json_output.h"
#include "common/sarif.h"
#include "report/subprocess.h"
#include "support/sarif_validator.h"

namespace modeaudit {
namespace {

using testing::sarif_problems;

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += x + "\n";
    return s;
}

Json sample_log() {
    SourceManager sm;
    auto f = sm.add("dir/m.mo", "model M\n  x\nend M;\n");
    DiagnosticSink sink;
    SourceLocation b = sm.locate(f, 10), e = sm.locate(f, 11);
    sink.report(rule::parse_syntax_error, {b, e}, "expected a declaration", {"a note"});
    sink.report(rule::structure_index_high, {b, b}, "index 3");
    return diagnostics_to_sarif(sink, sm, "9.9.9");
}

TEST(SarifSchema, InProcessLogPasses) {
    Json log = sample_log();
    EXPECT_EQ(joined(sarif_problems(log)), "");
    EXPECT_EQ(log["runs"][0]["results"].size(), 2u);
}

TEST(SarifSchema, ValidatorRejectsBrokenLogs) {
    auto broken = [](auto edit) {
        Json log = sample_log();
        edit(log);
        return joined(sarif_problems(log));
    };
    EXPECT_NE(broken([](Json& l) { l["version"] = "2.0.0"; }).find("$.version"), std::string::npos);
    EXPECT_NE(broken([](Json& l) { l.erase("$schema"); }).find("$.$schema: is required"), std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["tool"]["driver"].erase("name"); }).find("driver.name: is required"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["tool"]["driver"]["rules"][0].erase("id"); }).find("rules[0].id: is required"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["tool"]["driver"]["rules"][1]["id"] = l["runs"][0]["tool"]["driver"]["rules"][0]["id"]; })
                  .find("repeats"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["results"][0]["level"] = "fatal"; }).find("results[0].level"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["results"][0]["message"].erase("text"); }).find("needs text"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["results"][0]["ruleId"] = "no-such-rule"; }).find("names no rule"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) {
                  l["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0;
              }).find("startLine: must be an integer >= 1"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) {
                  auto& r = l["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
                  r["startline"] = r["startLine"];
                  r.erase("startLine");
              }).find("startline: is not a property"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["results"][1].erase("locations"); }).find("locations: is required"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) {
                  l["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = 3;
              }).find("uri: must be a string"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["results"][0]["suppressions"] = Json::array({Json{{"kind", "x"}}}); })
                  .find("inSource or external"),
              std::string::npos);
}

TEST(SarifSchema, ValidatorRejectsWhatTheSchemaForbidsInTheObjectsWeEmit) {
    auto broken = [](auto edit) {
        Json log = sample_log();
        edit(log);
        return joined(sarif_problems(log));
    };
    auto region = [](Json& l) -> Json& { return l["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]; };
    auto artifact = [](Json& l) -> Json& {
        return l["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    };
    EXPECT_NE(broken([&](Json& l) { artifact(l)["uri"] = "my model.mo"; }).find("uri: must be a URI reference"),
              std::string::npos);
    EXPECT_NE(broken([&](Json& l) { artifact(l)["uri"] = "<stdin>"; }).find("uri: must be a URI reference"),
              std::string::npos);
    EXPECT_NE(broken([&](Json& l) { artifact(l)["uri"] = "a%zz.mo"; }).find("uri: must be a URI reference"),
              std::string::npos);
    EXPECT_NE(broken([&](Json& l) { artifact(l)["uri"] = "1c:x.mo"; }).find("uri: must be a URI reference"),
              std::string::npos);  // no scheme ("1c" is none), so a relative reference with ':' in its first segment
    EXPECT_EQ(broken([&](Json& l) { artifact(l)["uri"] = "file:///work/m.mo"; }), "");
    EXPECT_EQ(broken([&](Json& l) { artifact(l)["uri"] = "/work/my%20model.mo"; }), "");
    EXPECT_NE(broken([&](Json& l) { artifact(l)["index"] = -2; }).find("index: must be an integer >= -1"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["$schema"] = "json.schemastore.org/sarif"; }).find("$.$schema: must be an absolute URI"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["tool"]["driver"]["informationUri"] = "not a uri"; })
                  .find("informationUri: must be an absolute URI"),
              std::string::npos);
    EXPECT_NE(broken([&](Json& l) { region(l)["endLine"] = 1; region(l)["startLine"] = 3; }).find("endLine: must not be before"),
              std::string::npos);
    EXPECT_NE(broken([&](Json& l) { region(l)["endColumn"] = 1; region(l)["startColumn"] = 5; region(l)["endLine"] = region(l)["startLine"]; })
                  .find("endColumn: must not be before"),
              std::string::npos);
    EXPECT_NE(broken([&](Json& l) { region(l)["charLength"] = -1; }).find("charLength: must be an integer >= 0"),
              std::string::npos);
    EXPECT_NE(broken([&](Json& l) { region(l)["startColumn"] = 1.5; }).find("startColumn: must be an integer >= 1"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["tool"]["driver"]["rules"][0]["shortDescription"] = Json{{"markdown", "x"}}; })
                  .find("shortDescription.text: is required"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["tool"]["driver"]["rules"][0]["defaultConfiguration"]["rank"] = 101; })
                  .find("rank: must be a number from -1 to 100"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["tool"]["driver"]["rules"][0]["defaultConfiguration"]["enabled"] = "yes"; })
                  .find("enabled: must be a boolean"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["results"][0]["ruleIndex"] = -5; }).find("ruleIndex: must be an integer >= -1"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["results"][0]["baselineState"] = "old"; }).find("baselineState"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["results"][0]["message"]["arguments"] = Json::array({1}); })
                  .find("arguments: must hold strings"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) {
                  l["runs"][0]["results"][0]["suppressions"] =
                      Json::array({Json{{"kind", "inSource"}}, Json{{"kind", "inSource"}}});
              }).find("repeats an earlier suppression"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) {
                  l["runs"][0]["results"][0]["suppressions"] = Json::array({Json{{"kind", "inSource"}, {"status", "maybe"}}});
              }).find("suppressions[0].status"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["properties"] = Json{{"tags", Json::array({"a", "a"})}}; })
                  .find("tags: must hold unique strings"),
              std::string::npos);
    EXPECT_NE(broken([](Json& l) { l["runs"][0]["columnKind"] = "bytes"; }).find("columnKind"), std::string::npos);
}

// A path that is no URI as it stands is percent-encoded into the SARIF log;
// standard input is the relative URI "stdin".
TEST(SarifSchema, ArtifactUriIsPercentEncoded) {
    SourceManager sm;
    auto f = sm.add("my dir/<odd>:m.mo", "model M\n  x\nend M;\n");
    auto g = sm.add("<stdin>", "model M end M;\n");
    DiagnosticSink sink;
    sink.report(rule::parse_syntax_error, {sm.locate(f, 10), sm.locate(f, 11)}, "expected a declaration");
    sink.report(rule::parse_syntax_error, {sm.locate(g, 1), sm.locate(g, 2)}, "x");
    Json log = diagnostics_to_sarif(sink, sm, "9.9.9");
    EXPECT_EQ(log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
              "my%20dir/%3Codd%3E%3Am.mo");
    EXPECT_EQ(log["runs"][0]["results"][1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "stdin");
    EXPECT_EQ(joined(sarif_problems(log)), "");
}

// The executable's output on flawed corpus models, each firing other rules.
TEST(SarifSchema, CheckOutputOnFlawedModelsPasses) {
    const std::vector<std::string> models = {
        "corpus/flawed/parse/several_errors.mo",
        "corpus/flawed/parse/syntax_error_missing_semicolon.mo",
        "corpus/flawed/flatten/undefined_variable.mo",
        "corpus/flawed/flatten/continuous_assigned_in_when.mo",
        "corpus/flawed/modes/and_trigger.mo",
        "corpus/flawed/structure/pendulum_inconsistent_start.mo",
        "corpus/flawed/singular_a_plus_b.mo",
        "corpus/good/cup_and_ball.mo",
    };
    for (const std::string& m : models) {
        ProcessOptions o;
        o.working_dir = MODEAUDIT_SOURCE_DIR;
        o.timeout_seconds = 120;
        std::string out_file = ::testing::TempDir() + "/modeaudit-sarif-" + std::to_string(getpid()) + ".json";
        ProcessResult r = run_process({MODEAUDIT_EXE, "check", m, "--format", "sarif", "-o", out_file}, o);
        ASSERT_TRUE(r.started && !r.timed_out) << m << ": " << r.describe();
        EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2) << m << ": " << r.describe();
        std::ifstream in(out_file);
        Json log = Json::parse(in, nullptr, false);
        ASSERT_FALSE(log.is_discarded()) << m << ": not JSON";
        EXPECT_EQ(joined(sarif_problems(log)), "") << m;
        if (m.find("flawed/") != std::string::npos) {
            EXPECT_FALSE(log["runs"][0]["results"].empty()) << m << ": a flawed model with no result";
        }
    }
}

}  // namespace
}  // namespace modeaudit
