#include "common/github_annotations.h"

#include <gtest/gtest.h>

#include "common/rules.h"

namespace modeaudit {
namespace {

TEST(GithubAnnotations, EscapesDataAndProperties) {
    EXPECT_EQ(github_escape_data("50% done\r\nnext: a,b"), "50%25 done%0D%0Anext: a,b");
    EXPECT_EQ(github_escape_property("C:\\m,1%\n"), "C%3A\\m%2C1%25%0A");
}

TEST(GithubAnnotations, OneLinePerFindingWithPlaceRuleAndNotes) {
    SourceManager sm;
    std::uint32_t f = sm.add("models/a,b.mo", "model M\n  Real λx = 1;\nend M;\n");
    DiagnosticSink sink;
    SourceRange r;
    r.begin = {f, 2, 10, 17};  // byte column 10 (x) is code point 9: λ takes two bytes
    r.end = {f, 2, 11, 18};    // code point 10
    sink.report(rule::restart_undetermined, r, "restart is undetermined: 100% sure", {"first note", "second"});
    Diagnostic& w = sink.report(rule::restart_impulsive, SourceRange{}, "no place");
    (void)w;
    Diagnostic& s = sink.report(rule::restart_impulsive, r, "suppressed one");
    s.suppressed = true;
    const std::string out = github_annotations("models/a,b.mo", sm, sink);
    EXPECT_EQ(out,
              "::error file=models/a%2Cb.mo,line=2,col=9,endLine=2,endColumn=10,title=restart-undetermined::"
              "restart is undetermined: 100%25 sure%0Anote: first note%0Anote: second\n"
              "::warning title=restart-impulsive::models/a,b.mo: no place\n");
}

}  // namespace
}  // namespace modeaudit
