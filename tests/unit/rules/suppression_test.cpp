// annotation(__ModeAudit(suppress = {...})) silences findings of the named
// rules: on the model everywhere, on an equation or component only inside it.
// A suppressed finding is kept (marked) but does not count as an error.
#include <gtest/gtest.h>

#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;

const char* kUnbalanced = R"(
model U
  Real x(start = 1), y; Boolean on(start = true);
equation
  der(x) = -x;
  if on then y = x; else y = 2*x; x = 0; end if %s;
  when x < 0.5 then on = false; end when;
  %s
end U;)";

std::string model(const char* eq_annotation, const char* model_annotation) {
    char buf[1024];
    std::snprintf(buf, sizeof buf, kUnbalanced, eq_annotation, model_annotation);
    return buf;
}

const Diagnostic* find(const FrontEnd& fe, std::string_view rule) {
    for (const Diagnostic& d : fe.state.sink.all())
        if (d.rule == rule) return &d;
    return nullptr;
}

TEST(Suppression, WithoutAnnotationBothFindingsAreErrors) {
    FrontEnd fe(model("", ""));
    ASSERT_TRUE(find(fe, "flatten-unbalanced-if"));
    EXPECT_FALSE(find(fe, "flatten-unbalanced-if")->suppressed);
    EXPECT_TRUE(fe.state.sink.has_errors());
}

TEST(Suppression, OnTheEquationSilencesOnlyThatRuleThere) {
    FrontEnd fe(model("annotation(__ModeAudit(suppress = {\"flatten-unbalanced-if\"}))", ""));
    ASSERT_TRUE(find(fe, "flatten-unbalanced-if")) << fe.diagnostics();
    EXPECT_TRUE(find(fe, "flatten-unbalanced-if")->suppressed);
    ASSERT_TRUE(find(fe, "modes-unbalanced"));
    EXPECT_FALSE(find(fe, "modes-unbalanced")->suppressed);  // located on the model, not the equation
    EXPECT_TRUE(fe.state.sink.has_errors());
}

TEST(Suppression, OnTheModelSilencesEverywhere) {
    FrontEnd fe(model("", "annotation(__ModeAudit(suppress = {\"flatten-unbalanced-if\", \"modes-unbalanced\"}));"));
    ASSERT_TRUE(find(fe, "modes-unbalanced")) << fe.diagnostics();
    EXPECT_TRUE(find(fe, "modes-unbalanced")->suppressed);
    EXPECT_TRUE(find(fe, "flatten-unbalanced-if")->suppressed);
    EXPECT_FALSE(fe.state.sink.has_errors());
}

TEST(Suppression, UnknownRuleIdIsAnError) {
    FrontEnd fe(model("", "annotation(__ModeAudit(suppress = {\"no-such-rule\"}));"));
    EXPECT_TRUE(fe.has("flatten-undefined-name")) << fe.diagnostics();
}

}  // namespace
}  // namespace modeaudit
