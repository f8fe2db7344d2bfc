// Unit tests of inner and outer elements (flatten/inner_outer.h, Modelica
// 3.6, 5.4): the nearest enclosing inner element wins, whatever the order
// of declaration; an inner model's variables are read through the outer
// ones and its equations appear once; inner outer; an inner element in a
// base class; and the refusals (no inner element, a modified outer
// declaration, an inner element of another type, an outer connector).
#include <gtest/gtest.h>

#include <algorithm>

#include "flatten/expression_builder.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;
using GiNaC::ex;

const char* kParts = R"(
  model Env
    parameter Real T_amb = 293;
    Real g;
  equation
    g = 9.81 + 0*time;
  end Env;
  model Comp
    outer Env env;
    outer parameter Real T0;
    Real T(start = 300, fixed = true);
  equation
    der(T) = env.T_amb + T0 - T + 0*env.g;
  end Comp;
  model Sub
    inner outer parameter Real T0 = 1 "inner: for c; outer: the one above";
    Comp c;
    Real seen = T0 "the outer part: the T0 above";
  end Sub;
)";

bool has_equation(const FrontEnd& fe, const ex& residual) {
    for (const FlatEquation& e : fe.flat().equations)
        if (testing::proportional(e.residual(), residual)) return true;
    return false;
}

bool mentions(const FrontEnd& fe, const std::string& text) { return fe.diagnostics().find(text) != std::string::npos; }

TEST(InnerOuter, AnOuterElementReadsTheNearestInnerOneWhateverTheDeclarationOrder) {
    FrontEnd fe(std::string(kParts) + R"(
  model Top
    Comp c1 "declared before the inner elements it uses";
    Sub s;
    inner Env env(T_amb = 280);
    inner parameter Real T0 = 5;
  end Top;)", "flatten", "Top");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    // c1 sees Top's T0 (5), s.c sees the inner part of s.T0 (1); both see Top's env.
    EXPECT_TRUE(has_equation(fe, fe.der("c1.T") - (285 - fe.var("c1.T")))) << fe.diagnostics();
    EXPECT_TRUE(has_equation(fe, fe.der("s.c.T") - (281 - fe.var("s.c.T"))));
    // s's own reference to T0 is the outer part: Top's T0.
    EXPECT_TRUE(has_equation(fe, fe.var("s.seen") - 5));
    // No variables of their own for the outer elements.
    EXPECT_LT(fe.flat().find_variable("c1.env.g"), 0);
    EXPECT_LT(fe.flat().find_variable("c1.T0"), 0);
    EXPECT_GE(fe.flat().find_variable("s.T0"), 0);  // the inner part of s.T0
}

TEST(InnerOuter, TheInnerModelsEquationsAppearOnce) {
    FrontEnd fe(std::string(kParts) + R"(
  model Top
    inner Env env;
    inner parameter Real T0 = 0;
    Comp a;
    Comp b;
    Comp c;
  end Top;)", "flatten", "Top");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const ex g = fe.var("env.g");
    const auto defines_g = [&](const FlatEquation& e) { return e.residual().has(g) && !e.residual().has(fe.var("a.T")); };
    EXPECT_EQ(std::count_if(fe.flat().equations.begin(), fe.flat().equations.end(), defines_g), 1);
    for (const char* c : {"a", "b", "c"})
        EXPECT_TRUE(has_equation(fe, fe.der(std::string(c) + ".T") - (293 - fe.var(std::string(c) + ".T")))) << c;
}

TEST(InnerOuter, AnInnerElementOfABaseClassServesTheComponentsOfTheDerivedOne) {
    FrontEnd fe(std::string(kParts) + R"(
  partial model Base
    inner Env env(T_amb = 100);
    inner parameter Real T0 = 2;
  end Base;
  model Top
    extends Base;
    Comp c;
  end Top;)", "flatten", "Top");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_TRUE(has_equation(fe, fe.der("c.T") - (102 - fe.var("c.T"))));
}

TEST(InnerOuter, AnInnerElementOfADerivedClassServesTheComponentsOfItsBase) {
    // The base's components are instantiated first; the derived class's
    // inner elements are added when they ask for them.
    FrontEnd fe(std::string(kParts) + R"(
  partial model Base
    Comp c;
  end Base;
  model Top
    extends Base;
    inner Env env(T_amb = 10);
    inner parameter Real T0 = 1;
  end Top;)", "flatten", "Top");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_TRUE(has_equation(fe, fe.der("c.T") - (11 - fe.var("c.T"))));
}

TEST(InnerOuter, AMissingInnerElementIsRefusedAtTheOuterDeclaration) {
    FrontEnd fe(std::string(kParts) + R"(
  model Top
    inner Env env;
    Comp c;
  end Top;)", "flatten", "Top");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_TRUE(fe.has("flatten-undefined-name")) << fe.diagnostics();
    EXPECT_TRUE(mentions(fe, "'c.T0' is declared outer, but no enclosing instance declares an inner 'T0'"))
        << fe.diagnostics();
    EXPECT_TRUE(mentions(fe, "test.mo:10:26")) << fe.diagnostics();
}

TEST(InnerOuter, AnOuterDeclarationTakesNoModification) {
    FrontEnd fe(R"(
  model Comp
    outer parameter Real k = 2;
    Real x = k*time;
  end Comp;
  model Top
    inner parameter Real k = 1;
    Comp c;
  end Top;)", "flatten", "Top");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_TRUE(fe.has("flatten-type-mismatch")) << fe.diagnostics();
    EXPECT_TRUE(mentions(fe, "the outer element 'c.k' takes no modification")) << fe.diagnostics();
}

TEST(InnerOuter, TheInnerElementMustBeOfASubtypeOfTheOuterOne) {
    FrontEnd builtin(R"(
  model Comp
    outer parameter Integer n;
    Real x = n*time;
  end Comp;
  model Top
    inner parameter Real n = 1;
    Comp c;
  end Top;)", "flatten", "Top");
    EXPECT_FALSE(builtin.state.flat);
    EXPECT_TRUE(mentions(builtin, "of type 'Integer' refers to the inner element of type 'Real'"))
        << builtin.diagnostics();

    FrontEnd cls(std::string(kParts) + R"(
  model Thin
    parameter Real T_amb = 1;
  end Thin;
  model Top
    inner Thin env;
    inner parameter Real T0 = 0;
    Comp c;
  end Top;)", "flatten", "Top");
    EXPECT_FALSE(cls.state.flat);
    EXPECT_TRUE(cls.has("flatten-type-mismatch")) << cls.diagnostics();
    EXPECT_TRUE(mentions(cls, "which lacks 'g'")) << cls.diagnostics();
}

TEST(InnerOuter, AnOuterConnectorIsRefused) {
    FrontEnd fe(R"(
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  model Comp
    outer Pin ground;
  end Comp;
  model Top
    inner Pin ground;
    Comp c;
  equation
    ground.v = 0;
  end Top;)", "flatten", "Top");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_TRUE(fe.has("flatten-unsupported-construct")) << fe.diagnostics();
    EXPECT_TRUE(mentions(fe, "'c.ground' is an outer connector")) << fe.diagnostics();
}

}  // namespace
}  // namespace modeaudit
