// SARIF for code scanning (common/sarif.h): rule help from the doc pages,
// repository-relative URIs, code-point columns, fingerprints that survive
// an edit above the finding, one run for many models, sanitized strings.
// The whole corpus's log against the schema and GitHub's ingestion rules is
// tests/cli/sarif_code_scanning.py.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/rules.h"
#include "common/sarif.h"
#include "support/sarif_validator.h"

namespace modeaudit {
namespace {

namespace fs = std::filesystem;

const Json& only_result(const Json& log) { return log["runs"][0]["results"][0]; }
const Json& region(const Json& result) { return result["locations"][0]["physicalLocation"]["region"]; }

TEST(Sarif, EveryRuleHasHelpAndFullDescriptionFromItsPage) {
    for (const Rule& r : all_rules()) {
        Json jr = sarif_rule(r);
        SCOPED_TRACE(std::string(r.id));
        EXPECT_EQ(jr["id"], std::string(r.id));
        EXPECT_EQ(jr["help"]["markdown"].get<std::string>(), std::string(rule_doc(r.id)));
        const std::string full = jr["fullDescription"]["text"].get<std::string>();
        EXPECT_GT(full.size(), 40u) << full;
        // The "What it means" paragraph, in plain text: no heading, no Markdown code marks.
        EXPECT_EQ(full.find('#'), std::string::npos);
        EXPECT_EQ(full.find('`'), std::string::npos);
        std::string page(rule_doc(r.id));  // the paragraph's lines are joined by spaces
        for (char& c : page) c = c == '\n' ? ' ' : c;
        EXPECT_NE(page.find("## What it means " + jr["fullDescription"]["markdown"].get<std::string>() + " "),
                  std::string::npos);
    }
    Json undetermined = sarif_rule(rule::restart_undetermined);
    EXPECT_EQ(undetermined["name"], "RestartUndetermined");
    EXPECT_EQ(undetermined["fullDescription"]["text"].get<std::string>().rfind("At this mode change the model does not determine", 0), 0u);
}

TEST(Sarif, UrisAreRelativeToTheSourceRootWithABase) {
    const fs::path root = fs::temp_directory_path() / "repo";
    Json in = sarif_artifact_location((root / "models/a b.mo").string(), root);
    EXPECT_EQ(in["uri"], "models/a%20b.mo");
    EXPECT_EQ(in["uriBaseId"], "%SRCROOT%");
    Json dotted = sarif_artifact_location((root / "x/../models/./m.mo").string(), root);
    EXPECT_EQ(dotted["uri"], "models/m.mo");
    Json out = sarif_artifact_location((root.parent_path() / "elsewhere/m.mo").string(), root);
    EXPECT_FALSE(out.contains("uriBaseId"));
    EXPECT_EQ(out["uri"].get<std::string>().rfind("file:///", 0), 0u) << out;
    Json std_in = sarif_artifact_location("-", root);
    EXPECT_EQ(std_in, Json({{"uri", "stdin"}}));
    // Relative to the current directory by default.
    Json rel = sarif_artifact_location("corpus/good/m.mo", {});
    EXPECT_EQ(rel["uri"], "corpus/good/m.mo");
    EXPECT_EQ(rel["uriBaseId"], "%SRCROOT%");
}

TEST(Sarif, ColumnsCountCodePoints) {
    SourceManager sm;
    // "été" in a comment before the finding: 3 code points in 5 bytes.
    auto f = sm.add("m.mo", "model M // \xC3\xA9t\xC3\xA9\n  Real x; Real y;\nend M; // \xC3\xA9t\xC3\xA9 y\n");
    DiagnosticSink sink;
    const std::string text(sm.contents(f));
    auto at = [&](std::size_t nth_y) {
        std::size_t p = 0;
        for (std::size_t k = 0; k <= nth_y; ++k) p = text.find('y', p + (k ? 1 : 0));
        return static_cast<std::uint32_t>(p);
    };
    sink.report(rule::structure_index_high, {sm.locate(f, at(1)), sm.locate(f, at(1) + 1)}, "on line 3");
    Json log = diagnostics_to_sarif(sink, sm, "1.0.0");
    EXPECT_EQ(log["runs"][0]["columnKind"], "unicodeCodePoints");
    const Json& r = region(only_result(log));
    EXPECT_EQ(r["startLine"], 3);
    EXPECT_EQ(sm.locate(f, at(1)).column, 17u);  // bytes
    EXPECT_EQ(r["startColumn"], 15);             // code points
    EXPECT_EQ(r["endColumn"], 16);
}

TEST(Sarif, FingerprintsSurviveLinesAddedAbove) {
    auto fingerprint = [](const std::string& prefix, const std::string& message) {
        SourceManager sm;
        auto f = sm.add("m.mo", prefix + "model M\n  Real x;\nend M;\n");
        DiagnosticSink sink;
        const std::uint32_t off = static_cast<std::uint32_t>(prefix.size() + 10);
        sink.report(rule::structure_index_high, {sm.locate(f, off), sm.locate(f, off)}, message);
        return only_result(diagnostics_to_sarif(sink, sm, "1.0.0"))["partialFingerprints"]["modeauditFinding/v1"]
            .get<std::string>();
    };
    const std::string a = fingerprint("", "x at line 2");
    EXPECT_EQ(a.size(), 64u);
    EXPECT_EQ(a, fingerprint("// a comment\n\n", "x at line 4"));     // moved down two lines
    EXPECT_NE(a, fingerprint("", "y at line 2"));                      // another finding
}

TEST(Sarif, RepeatedFindingsGetDistinctFingerprints) {
    SourceManager sm;
    auto f = sm.add("m.mo", "model M\n  Real x;\nend M;\n");
    DiagnosticSink sink;
    for (int k = 0; k < 3; ++k) sink.report(rule::structure_index_high, {sm.locate(f, 10), sm.locate(f, 10)}, "same");
    Json log = diagnostics_to_sarif(sink, sm, "1.0.0");
    const Json& rs = log["runs"][0]["results"];
    const std::string base = rs[0]["partialFingerprints"]["modeauditFinding/v1"];
    EXPECT_EQ(rs[1]["partialFingerprints"]["modeauditFinding/v1"], base + ":2");
    EXPECT_EQ(rs[2]["partialFingerprints"]["modeauditFinding/v1"], base + ":3");
}

TEST(Sarif, OneRunCoversEveryModelWithTheInvocation) {
    SourceManager a, b;
    auto fa = a.add("corpus/a.mo", "model A\n  Real x;\nend A;\n");
    b.add("corpus/b.mo", "model B end B;\n");
    DiagnosticSink sa, sb;
    sa.report(rule::structure_index_high, {a.locate(fa, 10), a.locate(fa, 10)}, "index 4");
    sb.report(rule::structure_index_high, {}, "a finding about the whole model");
    std::vector<SarifModel> models = {{"corpus/a.mo", &a, &sa, ""},
                                      {"corpus/b.mo", &b, &sb, ""},
                                      {"corpus/missing.mo", nullptr, nullptr, "corpus/missing.mo: cannot be read"}};
    SarifOptions o;
    o.tool_version = "1.2.3";
    o.category = "models/nightly";
    o.information_uri = "https://modeaudit.test/";
    Json log = sarif_log(models, o, {2, false});
    ASSERT_EQ(log["runs"].size(), 1u);
    const Json& run = log["runs"][0];
    EXPECT_EQ(run["automationDetails"]["id"], "models/nightly/");
    EXPECT_EQ(run["tool"]["driver"]["informationUri"], "https://modeaudit.test/");
    EXPECT_EQ(run["artifacts"].size(), 3u);
    ASSERT_EQ(run["results"].size(), 2u);
    EXPECT_EQ(run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["index"], 0);
    // A finding without a place is on its model's first line.
    const Json& whole = run["results"][1]["locations"][0]["physicalLocation"];
    EXPECT_EQ(whole["artifactLocation"]["uri"], "corpus/b.mo");
    EXPECT_EQ(whole["artifactLocation"]["index"], 1);
    EXPECT_EQ(whole["region"]["startLine"], 1);
    const Json& inv = run["invocations"][0];
    EXPECT_EQ(inv["exitCode"], 2);
    EXPECT_EQ(inv["executionSuccessful"], false);
    ASSERT_EQ(inv["toolExecutionNotifications"].size(), 1u);
    EXPECT_EQ(inv["toolExecutionNotifications"][0]["message"]["text"], "corpus/missing.mo: cannot be read");
    std::string problems;
    for (const std::string& p : testing::sarif_problems(log)) problems += p + "\n";
    EXPECT_EQ(problems, "");
}

TEST(Sarif, StringsAreSanitized) {
    SourceManager sm;
    auto f = sm.add("bad\xFF name.mo", "model M\n  Real x;\nend M;\n");
    DiagnosticSink sink;
    sink.report(rule::structure_index_high, {sm.locate(f, 10), sm.locate(f, 10)}, "a\x01 \x1B[2Jb \xC3", {"note\x7F"});
    Json log = diagnostics_to_sarif(sink, sm, "1.0.0");
    const std::string dumped = log.dump();  // throws on invalid UTF-8 if any is left
    const Json& r = only_result(log);
    EXPECT_EQ(r["message"]["text"], "a\xEF\xBF\xBD \xEF\xBF\xBD[2Jb \xEF\xBF\xBD\nnote: note\xEF\xBF\xBD");
    EXPECT_EQ(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "bad%FF%20name.mo");
    EXPECT_EQ(dumped.find("\\u0001"), std::string::npos);
}

}  // namespace
}  // namespace modeaudit
