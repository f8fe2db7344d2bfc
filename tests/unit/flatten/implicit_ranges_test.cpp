// Unit tests of implicit iteration ranges (flatten/implicit_ranges.h,
// Modelica 3.6, 8.3.2.1): the uses of an iterator as a subscript, the range
// they give (an Integer size, an enumeration's literals), with several
// iterators and in functions; uses of different sizes, and no use at all,
// are errors at the loop.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "flatten/expression_builder.h"
#include "flatten/implicit_ranges.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;

TEST(ImplicitRanges, FindsTheSubscriptsTheIteratorIsUsedIn) {
    FrontEnd fe(R"(model M
  Real x[3], y[2, 3], z[3];
equation
  for i loop
    x[i] = y[1, i] + sum(z[i] for i in 1:3);
    for i in 1:2 loop
      z[i] = 0;
    end for;
    x[i + 1] = 0;
  end for;
end M;)",
                "parse");
    const ast::Equation& loop = fe.state.tree->classes[0]->equation_sections[0].equations[0];
    std::vector<flat::IteratorUse> uses = flat::iterator_uses("i", loop.body);
    // x[i] and y[1, i]; the comprehension and the nested loop bind their
    // own i, and i + 1 is not the iterator itself.
    ASSERT_EQ(uses.size(), 2u);
    EXPECT_EQ(uses[0].array->dotted(), "x");
    EXPECT_EQ(uses[0].position, 0u);
    EXPECT_EQ(uses[1].array->dotted(), "y");
    EXPECT_EQ(uses[1].position, 1u);
    EXPECT_EQ(uses[1].where.begin.line, 5);
    EXPECT_EQ(uses[1].where.begin.column, 17);
    EXPECT_TRUE(flat::iterator_uses("j", loop.body).empty());
}

std::map<std::string, std::string> equations_of(const FrontEnd& fe) {
    std::map<std::string, std::string> eq;
    for (const FlatEquation& e : fe.flat().equations) eq[canonical(e.lhs)] = canonical(e.rhs);
    return eq;
}

TEST(ImplicitRanges, GiveTheSizeOrTheEnumerationOfTheSubscriptedDimension) {
    FrontEnd fe(R"(model R
  type E = enumeration(one, two);
  Real x[3, 2, 3], y[3, 3, 2];
  Real e[E];
  Real m[3, 2];
equation
  for i, j, k loop
    y[i, k, j] = i*j*k;
    x[i, j, k] = 2*y[k, i, j];
  end for;
  for n loop
    e[n] = 10*Integer(n);
  end for;
  for i in 1:3, j loop
    m[i, j] = i*j;
  end for;
end R;)",
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    std::map<std::string, std::string> eq = equations_of(fe);
    EXPECT_EQ(eq.size(), 18u + 18u + 2u + 6u);
    EXPECT_EQ(eq["y[3,3,2]"], "18");
    EXPECT_EQ(eq["x[2,1,3]"], "2*y[3,2,1]");
    EXPECT_EQ(eq["e[2]"], "20");
    EXPECT_EQ(eq["m[3,2]"], "6");
}

// Inside a when-clause the loop gives one assignment per element.
TEST(ImplicitRanges, WorkInWhenClauses) {
    FrontEnd fe(R"(model W
  Real x(start = 0, fixed = true);
  discrete Real h[3](each start = 0, each fixed = true);
equation
  der(x) = 1;
  when x > 0.5 then
    for i loop
      h[i] = i*x;
    end for;
  end when;
end W;)",
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    std::ostringstream printed;
    dump_flat(fe.flat(), printed);
    EXPECT_NE(printed.str().find("h[3] := 3*x"), std::string::npos) << printed.str();
}

TEST(ImplicitRanges, UsesOfDifferentSizesOrNoUseAreErrorsAtTheLoop) {
    FrontEnd sizes("model S\n  Real x[3], y[4];\nequation\n  for i loop\n    x[i] = y[i];\n  end for;\nend S;",
                   "flatten");
    EXPECT_FALSE(sizes.state.flat);
    EXPECT_NE(sizes.diagnostics().find(
                  "5:14: error: 'i' subscripts a dimension of size 4 here and one of size 3 at 5:7"),
              std::string::npos)
        << sizes.diagnostics();
    FrontEnd none("model N\n  Real x[2];\nequation\n  for i loop\n    x = {i, i};\n  end for;\nend N;", "flatten");
    EXPECT_FALSE(none.state.flat);
    EXPECT_NE(none.diagnostics().find("4:7: error: 'for i' has no range, and 'i' is not used as a subscript"),
              std::string::npos)
        << none.diagnostics();
    FrontEnd beyond("model B\n  Real x[2];\nequation\n  for i loop\n    x[1, i] = 0;\n  end for;\nend B;", "flatten");
    EXPECT_FALSE(beyond.state.flat);
    EXPECT_NE(beyond.diagnostics().find("'x' has 1 dimension; subscript 2 is beyond them"), std::string::npos)
        << beyond.diagnostics();
}

}  // namespace
}  // namespace modeaudit
