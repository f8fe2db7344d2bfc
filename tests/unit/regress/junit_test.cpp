// The JUnit writer (regress/junit.h): suites per corpus folder, failure and
// error with their types, the first mismatch as the message, XML 1.0-safe
// text. The file against tests/support/junit.xsd: tests/cli/junit_check.py.
#include <gtest/gtest.h>

#include "regress/junit.h"

namespace modeaudit {
namespace {

ModelOutcome outcome(std::string name, std::string cls, bool passed, std::string error_type,
                     std::vector<std::string> mismatches) {
    ModelOutcome o;
    o.path = "corpus/" + name;
    o.name = std::move(name);
    o.class_name = std::move(cls);
    o.passed = passed;
    o.error_type = std::move(error_type);
    o.mismatches = std::move(mismatches);
    o.seconds = 0.25;
    return o;
}

TEST(JUnit, SuitesPerFolderFailuresAndErrors) {
    std::vector<ModelOutcome> models = {
        outcome("good/a.mo", "corpus.good", true, "", {}),
        outcome("flawed/b.mo", "corpus.flawed", false, "",
                {"unexpected: b.mo:3:1: error: x [parse-syntax-error]", "missing: structure-index-high"}),
        outcome("flawed/c.mo", "corpus.flawed", false, "timeout", {"timed out after 120 s"}),
    };
    JUnitRun run;
    run.name = "modeaudit regress, shard 1/2";
    run.seconds = 1.5;
    const std::string xml = junit_xml(models, run);
    EXPECT_NE(xml.find("<testsuites name=\"modeaudit regress, shard 1/2\" tests=\"3\" failures=\"1\" errors=\"1\" time=\"1.500\">"),
              std::string::npos) << xml;
    // Suites sorted by class name.
    EXPECT_LT(xml.find("<testsuite name=\"corpus.flawed\" tests=\"2\" failures=\"1\" errors=\"1\" skipped=\"0\" time=\"0.500\""),
              xml.find("<testsuite name=\"corpus.good\" tests=\"1\" failures=\"0\" errors=\"0\""));
    EXPECT_NE(xml.find("<testcase name=\"good/a.mo\" classname=\"corpus.good\" file=\"corpus/good/a.mo\" time=\"0.250\"/>"),
              std::string::npos);
    EXPECT_NE(xml.find("<failure type=\"unexpected-finding\" message=\"unexpected: b.mo:3:1: error: x [parse-syntax-error]\">"
                       "unexpected: b.mo:3:1: error: x [parse-syntax-error]\nmissing: structure-index-high\n</failure>"),
              std::string::npos) << xml;
    EXPECT_NE(xml.find("<error type=\"timeout\" message=\"timed out after 120 s\">"), std::string::npos);
    EXPECT_EQ(failure_type("missing: x"), "missing-finding");
    EXPECT_EQ(failure_type("line 3: status must be good or flawed"), "header");
}

TEST(JUnit, TextIsXml10Safe) {
    std::vector<ModelOutcome> models = {
        outcome("a\x01<&>\xFF.mo", "c\"q", false, "", {"missing: \"x\x02\"\nsecond line\x1b"}),
    };
    const std::string xml = junit_xml(models, {});
    EXPECT_EQ(xml.find("&#1;"), std::string::npos);
    EXPECT_EQ(xml.find('\x01'), std::string::npos);
    EXPECT_EQ(xml.find('\x02'), std::string::npos);
    EXPECT_EQ(xml.find('\x1b'), std::string::npos);
    EXPECT_EQ(xml.find('\xFF'), std::string::npos);
    EXPECT_NE(xml.find("name=\"a\xEF\xBF\xBD&lt;&amp;&gt;\xEF\xBF\xBD.mo\""), std::string::npos) << xml;
    EXPECT_NE(xml.find("classname=\"c&quot;q\""), std::string::npos);
    // A newline in an attribute stays a newline (a reference), not a space.
    EXPECT_NE(xml.find("message=\"missing: &quot;x\xEF\xBF\xBD&quot;&#10;second line\xEF\xBF\xBD\""), std::string::npos) << xml;
}

}  // namespace
}  // namespace modeaudit
