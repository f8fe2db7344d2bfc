// Unit tests of replaceable components and their redeclarations
// (flatten/redeclaration.h): in an extends modifier, in a component
// modifier, as an element of a derived class; constraining clauses and
// their modifiers; the refusals (not replaceable, final, not a subtype,
// class redeclarations) at the redeclaration.
#include <gtest/gtest.h>

#include "flatten/expression_builder.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;
using GiNaC::ex;

// A signal source with a replaceable waveform, in the style of a standard library.
const char* kLib = R"(
  partial block Source
    parameter Real offset = 0;
    parameter Real startTime = 0;
    output Real y;
  end Source;
  block Const
    extends Source;
    parameter Real k = 1;
  equation
    y = offset + k;
  end Const;
  block Ramp
    extends Source;
    parameter Real slope = 1;
  equation
    y = offset + slope*time;
  end Ramp;
  block Other
    output Real z;
  equation
    z = 1;
  end Other;
  partial model VSource
    parameter Real offset = 0;
    Real v;
    replaceable Source signal(final offset = offset);
  equation
    v = signal.y;
  end VSource;
  model Constrained
    Real v;
    replaceable Const signal(k = 5) constrainedby Source(offset = 7);
  equation
    v = signal.y;
  end Constrained;
  model Fixed
    Real v;
    Const signal;
  equation
    v = signal.y;
  end Fixed;
)";

double number(const FrontEnd& fe, const std::string& name) {
    int v = fe.flat().find_variable(name);
    if (v < 0) throw std::runtime_error("no variable " + name);
    const FlatVariable& var = fe.flat().variables[static_cast<std::size_t>(v)];
    if (!var.value) throw std::runtime_error("no value for " + name);
    return numeric_value(*var.value)->to_double();
}

bool declared(const FrontEnd& fe, const std::string& name) { return fe.flat().find_variable(name) >= 0; }

TEST(Redeclaration, InAnExtendsModifierReplacesTheClassAndKeepsTheOriginalModifiers) {
    FrontEnd fe(std::string(kLib) + R"(
  model RampSource
    parameter Real s = 3;
    extends VSource(offset = 2, redeclare Ramp signal(final slope = s));
  end RampSource;)", "flatten", "RampSource");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(number(fe, "signal.slope"), 3);
    EXPECT_DOUBLE_EQ(number(fe, "signal.offset"), 2);  // the original declaration's `offset = offset`
    EXPECT_FALSE(declared(fe, "signal.k"));
}

TEST(Redeclaration, AsAnElementOfADerivedClass) {
    FrontEnd fe(std::string(kLib) + R"(
  model ConstSource
    extends VSource;
    redeclare Const signal(k = 4);
  end ConstSource;
  model Top
    ConstSource a(offset = 1);
    ConstSource b(signal(k = 6));
  end Top;)", "flatten", "Top");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(number(fe, "a.signal.k"), 4);
    EXPECT_DOUBLE_EQ(number(fe, "a.signal.offset"), 1);
    EXPECT_DOUBLE_EQ(number(fe, "b.signal.k"), 6);  // an outer modifier of the redeclared component
}

TEST(Redeclaration, InAComponentModifierAndTheOuterOneWins) {
    FrontEnd fe(std::string(kLib) + R"(
  model ConstSource
    extends VSource(redeclare Const signal(k = 4));
  end ConstSource;
  model Top
    ConstSource a(redeclare Ramp signal(slope = 9));
  end Top;)", "flatten", "Top");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(number(fe, "a.signal.slope"), 9);
    EXPECT_FALSE(declared(fe, "a.signal.k"));
}

TEST(Redeclaration, TheConstrainingClauseModifiersReplaceTheDeclarations) {
    FrontEnd fe(std::string(kLib) + R"(
  model Top
    Constrained kept;
    Constrained changed(redeclare Ramp signal(slope = 2));
  end Top;)", "flatten", "Top");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(number(fe, "kept.signal.k"), 5);
    EXPECT_DOUBLE_EQ(number(fe, "kept.signal.offset"), 7);
    // Redeclared: the constrainedby modifier stays, the declaration's k = 5 goes.
    EXPECT_DOUBLE_EQ(number(fe, "changed.signal.offset"), 7);
    EXPECT_DOUBLE_EQ(number(fe, "changed.signal.slope"), 2);
}

TEST(Redeclaration, OfABuiltInTypeWithANewBinding) {
    FrontEnd fe(R"(
  model S
    replaceable parameter Real k = 1;
  end S;
  model Top
    S s(redeclare parameter Real k = 2);
  end Top;)", "flatten", "Top");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(number(fe, "s.k"), 2);
}

TEST(Redeclaration, OfANonReplaceableComponentIsRefusedWhereItIsWritten) {
    FrontEnd fe(std::string(kLib) + "\n  model Top\n    Fixed f(redeclare Ramp signal);\n  end Top;", "flatten", "Top");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_TRUE(fe.has("flatten-type-mismatch")) << fe.diagnostics();
    EXPECT_NE(fe.diagnostics().find("'f.signal' is not replaceable"), std::string::npos) << fe.diagnostics();
    EXPECT_NE(fe.diagnostics().find("test.mo:45:13"), std::string::npos) << fe.diagnostics();
}

TEST(Redeclaration, OfAFinalComponentIsRefused) {
    FrontEnd fe(R"(
  model S
    final replaceable parameter Real k = 1;
  end S;
  model Top
    S s(redeclare parameter Real k = 2);
  end Top;)", "flatten", "Top");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_NE(fe.diagnostics().find("is declared final"), std::string::npos) << fe.diagnostics();
}

TEST(Redeclaration, WithAClassLackingTheConstrainingComponentsIsRefused) {
    FrontEnd fe(std::string(kLib) + "\n  model Top\n    Constrained c(redeclare Other signal);\n  end Top;", "flatten",
                "Top");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_NE(fe.diagnostics().find("lacks 'offset', 'startTime', 'y'"), std::string::npos) << fe.diagnostics();
}

TEST(Redeclaration, OfABuiltInTypeByAnotherIsRefused) {
    FrontEnd fe(R"(
  model S
    replaceable Real k = 1;
  end S;
  model Top
    S s(redeclare Boolean k = true);
  end Top;)", "flatten", "Top");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_NE(fe.diagnostics().find("not a subtype"), std::string::npos) << fe.diagnostics();
}

TEST(Redeclaration, AnElementRedeclaringWhatNoBaseDeclaresIsRefused) {
    FrontEnd fe(std::string(kLib) + R"(
  model Top
    extends Fixed;
    redeclare Ramp missing;
  end Top;)", "flatten", "Top");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_NE(fe.diagnostics().find("which none of its base classes declares"), std::string::npos)
        << fe.diagnostics();
}

TEST(Redeclaration, ClassRedeclarationsAreNamedOnlyWhereUsed) {
    const std::string text = R"(
  model Linear parameter Real k = 1; end Linear;
  model Holder
    replaceable model Law = Linear;
    Law law;
  end Holder;
  model Unused
    Holder h(redeclare model Law = Linear(k = 2));
  end Unused;
  model Top
    Holder h;
  end Top;)";
    FrontEnd ok(text, "flatten", "Top");
    ASSERT_TRUE(ok.state.flat) << ok.diagnostics();
    EXPECT_DOUBLE_EQ(number(ok, "h.law.k"), 1);
    FrontEnd refused(text, "flatten", "Unused");
    EXPECT_FALSE(refused.state.flat);
    EXPECT_NE(refused.diagnostics().find("test.mo:8:14: error: redeclaration of a class is not supported"),
              std::string::npos)
        << refused.diagnostics();
}

}  // namespace
}  // namespace modeaudit
