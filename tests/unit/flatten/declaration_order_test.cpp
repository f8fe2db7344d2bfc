// Declaration order does not matter (Modelica 3.6, 5.3): an array size or a
// ':' binding that uses a component declared further down, in the same
// instance or in the one a modifier is written in, adds that component on
// demand; sizes that depend on each other are named as such.
#include <gtest/gtest.h>

#include "flatten/expression_builder.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;

double number(const FrontEnd& fe, const std::string& name) {
    int v = fe.flat().find_variable(name);
    if (v < 0) throw std::runtime_error("no variable " + name);
    return numeric_value(*fe.flat().variables[static_cast<std::size_t>(v)].value)->to_double();
}

TEST(DeclarationOrder, SizesAndColonBindingsMayUseLaterDeclarations) {
    FrontEnd fe(R"(model M
  Real x[n](each start = 1, each fixed = true);
  parameter Real t[:] = 2*u;
  parameter Integer n = size(u, 1);
  parameter Real u[3] = {1, 2, 3};
equation
  der(x) = -t.*x;
end M;
)", "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(number(fe, "n"), 3);
    EXPECT_DOUBLE_EQ(number(fe, "t[3]"), 6);
    EXPECT_GE(fe.flat().find_variable("x[3]"), 0);
}

TEST(DeclarationOrder, AModifierMayUseALaterSiblingOfItsInstance) {
    FrontEnd fe(R"(
model C
  parameter Integer n = 1;
  Real x[n];
equation
  x = fill(1, n);
end C;
model M
  C a(n = b.n);
  C b(n = 2);
end M;
)", "flatten", "M");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_GE(fe.flat().find_variable("a.x[2]"), 0);
    EXPECT_LT(fe.flat().find_variable("a.x[3]"), 0);
}

TEST(DeclarationOrder, SizesThatDependOnEachOtherAreNamed) {
    FrontEnd fe("model M\n  Real x[size(y, 1)];\n  Real y[size(x, 1)];\nequation\n  x = y;\nend M;\n", "flatten");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_TRUE(fe.has("flatten-recursive-class")) << fe.diagnostics();
    EXPECT_NE(fe.diagnostics().find("needs its own size or value"), std::string::npos) << fe.diagnostics();
}

}  // namespace
}  // namespace modeaudit
