// Unit tests of initial equations of left limits (flatten/initial_pre.h):
// `pre(y) = e` of a discrete Boolean or Integer starts y; a value known only
// at the start is refused at the equation; a Real's pre() stays an
// initial equation.
#include <gtest/gtest.h>

#include "flatten/expression_builder.h"
#include "flatten/initial_pre.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;

TEST(InitialPre, RecognisesBothWritings) {
    FrontEnd fe("model M\n  Boolean b;\n  parameter Boolean s = true;\ninitial equation\n  pre(b) = s;\n"
                "  s = pre(b);\n  b = s;\n  pre(b) = pre(b);\nequation\n  b = pre(b);\nend M;\n",
                "parse");
    const ast::ClassDef& m = *fe.state.tree->classes[0];
    const auto& eqs = m.equation_sections[0].equations;
    auto a = flat::initial_pre_equation(eqs[0]);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->variable->dotted(), "b");
    EXPECT_EQ(a->value->ref.dotted(), "s");
    auto b = flat::initial_pre_equation(eqs[1]);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->variable->dotted(), "b");
    EXPECT_FALSE(flat::initial_pre_equation(eqs[2]));
    EXPECT_FALSE(flat::initial_pre_equation(eqs[3]));  // pre on both sides
}

TEST(InitialPre, StartsDiscreteBooleansAndIntegers) {
    FrontEnd fe(R"(model OnOff
  Real x(start = 0, fixed = true);
  Boolean y;
  Integer n;
  parameter Boolean y0 = true;
  parameter Integer n0 = 3;
initial equation
  pre(y) = y0;
  pre(n) = n0 + 1;
equation
  der(x) = if y then -1 else 1;
  y = pre(y) and x > -1 or x > 1;
  when y and not pre(y) then
    n = pre(n) + 1;
  end when;
end OnOff;
)", "modes");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const FlatVariable& y = fe.flat().variables[static_cast<std::size_t>(fe.flat().find_variable("y"))];
    EXPECT_TRUE(y.fixed);
    EXPECT_EQ(numeric_value(*y.start)->to_int(), 1);
    const FlatVariable& n = fe.flat().variables[static_cast<std::size_t>(fe.flat().find_variable("n"))];
    EXPECT_EQ(numeric_value(*n.start)->to_int(), 4);
    EXPECT_TRUE(fe.flat().initial_equations.empty());
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
}

TEST(InitialPre, AValueKnownOnlyAtTheStartIsRefused) {
    FrontEnd fe("model M\n  Real x(start = 1, fixed = true);\n  Boolean b;\ninitial equation\n  pre(b) = x > 0;\n"
                "equation\n  der(x) = -x;\n  b = pre(b) and x > 0.5;\nend M;\n",
                "flatten");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_NE(fe.diagnostics().find("test.mo:5:3: error: the initial equation gives pre(b) a value known only"),
              std::string::npos)
        << fe.diagnostics();
}

}  // namespace
}  // namespace modeaudit
