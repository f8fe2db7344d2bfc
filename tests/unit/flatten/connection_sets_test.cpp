// Unit tests of connection sets (flatten/connections.h) where their order
// and size matter: a Boolean set whose source is defined by an earlier set
// (a variable in two sets, inside and outside), and one large set of
// potential and flow variables (m-1 equalities, one balance, each variable
// once however often it is reached).
#include <gtest/gtest.h>

#include <string>

#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;

int defined_by_relation(const FlatModel& flat, const std::string& name) {
    const int v = flat.find_variable(name);
    for (const RelationDefinition& r : flat.relation_definitions)
        if (r.variable == v) return r.condition->kind == Condition::Kind::Variable ? r.condition->variable : -2;
    return -1;
}

TEST(ConnectionSets, ABooleanPassedThroughTakesItsValueFromTheSetBefore) {
    FrontEnd fe(R"(
connector BooleanInput = input Boolean;
connector BooleanOutput = output Boolean;
model Sign
  BooleanOutput y;
  Real x = sin(time);
equation
  y = x > 0;
end Sign;
model Pass
  BooleanInput u;
  BooleanOutput y;
equation
  connect(u, y);
end Pass;
model Top
  Sign s;
  Pass p;
  Pass q;
equation
  connect(s.y, p.u);
  connect(p.y, q.u);
end Top;
)",
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const FlatModel& flat = fe.flat();
    // Sets in the order of their first connection: {s.y, p.u} and
    // {p.y, q.u} (Top's), then {p.u, p.y} (inside p), then {q.u, q.y}.
    // s.y is defined by its relation, p.u by s.y, and p.y by p.u, which the
    // first set defined; {p.y, q.u} came before p.y was defined, so it is
    // an equation, and so is {q.u, q.y}.
    EXPECT_EQ(defined_by_relation(flat, "s.y"), -2);
    EXPECT_EQ(defined_by_relation(flat, "p.u"), flat.find_variable("s.y"));
    EXPECT_EQ(defined_by_relation(flat, "p.y"), flat.find_variable("p.u"));
    EXPECT_EQ(defined_by_relation(flat, "q.u"), -1);
    EXPECT_EQ(defined_by_relation(flat, "q.y"), -1);
    int equalities = 0;
    for (const FlatEquation& e : flat.equations) equalities += e.origin.rfind("connection: ", 0) == 0;
    EXPECT_EQ(equalities, 2);
}

TEST(ConnectionSets, OneLargeSetGivesEqualitiesAndOneBalance) {
    constexpr int n = 3000;
    const std::string text = R"(
connector Pin Real v; flow Real i; end Pin;
model Leak Pin p; parameter Real G = 2; equation p.i = G*p.v; end Leak;
model Source Pin p; equation p.v = 1; end Source;
model Star
  parameter Integer n = )" + std::to_string(n) + R"(;
  Leak l[n];
  Source s;
equation
  for k in 1:n loop connect(l[k].p, s.p); connect(s.p, l[k].p); end for;
end Star;
)";
    RunOptions options;
    options.progress = false;
    FrontEnd fe(text, options, "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const FlatModel& flat = fe.flat();
    // n + 1 potentials (each connection is written twice): n equalities,
    // which make all but one of them aliases of that one; one balance of
    // n + 1 flows.
    int balances = 0;
    for (const FlatEquation& e : flat.equations)
        if (e.origin.rfind("flow balance", 0) == 0) {
            ++balances;
            EXPECT_EQ(e.lhs.nops(), static_cast<std::size_t>(n + 1));
        }
    EXPECT_EQ(balances, 1);
    int potential_aliases = 0;
    int representative = -1;
    for (const FlatModel::Alias& a : flat.aliases)
        if (flat.variables[static_cast<std::size_t>(a.variable)].name.find(".p.v") != std::string::npos) {
            ++potential_aliases;
            if (representative < 0) representative = a.representative;
            EXPECT_EQ(a.representative, representative);
            EXPECT_EQ(a.sign, 1);
        }
    EXPECT_EQ(potential_aliases, n);
}

}  // namespace
}  // namespace modeaudit
