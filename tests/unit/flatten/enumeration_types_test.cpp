// Unit tests of the type checks of enumeration values
// (flatten/enumeration_types.cpp, Modelica 3.6, 4.8.5): an enumeration
// value is not a number and two enumerations do not mix, in bindings and
// in comparisons; conversions with Integer() and comparisons within one
// enumeration pass.
#include <gtest/gtest.h>

#include <string>

#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;

std::string model(const std::string& body) {
    return "model T\n  type E = enumeration(one, two, three);\n  type F = enumeration(one, two);\n" + body +
           "\nend T;";
}

TEST(EnumerationTypes, BindingsOfAnotherTypeAreErrors) {
    struct Case {
        const char* body;
        const char* message;
    };
    const Case cases[] = {
        {"  parameter Integer a = E.three;", "'a' is an Integer but is bound to a value of the enumeration 'E'"},
        {"  parameter Real r[E] = {E.two, E.one, E.three};", "'r[1]' is a Real but is bound to a value of the enumeration 'E'"},
        {"  parameter E e = F.one;", "'e' is of the enumeration type 'E' but is bound to a value of the enumeration 'F'"},
        {"  parameter E e = 2;", "'e' is of the enumeration type 'E' but is bound to a number"},
        {"  parameter F f = F.two;\n  parameter E e = f;", "'e' is of the enumeration type 'E' but is bound to a value of the enumeration 'F'"},
        {"  parameter Real r = if true then E.one else E.two;", "'r' is a Real but is bound to a value of the enumeration 'E'"},
    };
    for (const Case& c : cases) {
        FrontEnd fe(model(c.body), "flatten");
        EXPECT_FALSE(fe.state.flat) << c.body;
        EXPECT_NE(fe.diagnostics().find(c.message), std::string::npos) << c.body << "\n" << fe.diagnostics();
        EXPECT_NE(fe.diagnostics().find("[flatten-type-mismatch]"), std::string::npos) << fe.diagnostics();
    }
}

TEST(EnumerationTypes, ComparisonsAcrossTypesAreErrors) {
    const char* bodies[] = {
        "  parameter Real a = if E.three == 0 then 1 else 2;",
        "  parameter Real b = if E.two > 1.2 then 1 else 2;",
        "  parameter Real c = if E.one == F.one then 1 else 2;",
    };
    for (const char* body : bodies) {
        FrontEnd fe(model(body), "flatten");
        EXPECT_FALSE(fe.state.flat) << body;
        EXPECT_NE(fe.diagnostics().find("values of an enumeration compare only with values of the same enumeration"),
                  std::string::npos)
            << body << "\n" << fe.diagnostics();
    }
}

TEST(EnumerationTypes, ConversionsAndComparisonsWithinOneTypePass) {
    FrontEnd fe(model(R"(  parameter Integer a = Integer(E.three);
  parameter Real w[E] = {1, 2, 3};
  parameter E e = E.two;
  parameter E g = e;
  parameter Real b = if e > E.one and Integer(g) == 2 then 1 else 0;
  E s(start = E.one, fixed = true);
  Real x(start = 0, fixed = true);
equation
  der(x) = if s == E.one then b + a else 0;
  when x > 1 then
    s = E.three;
  end when;)"),
                "flatten");
    EXPECT_TRUE(fe.state.flat) << fe.diagnostics();
}

}  // namespace
}  // namespace modeaudit
