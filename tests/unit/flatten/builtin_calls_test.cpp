// Unit tests of the table of elementwise built-in functions
// (flatten/builtin_calls.h): each name gives its GiNaC form, the domains
// that flattening checks, and names with forms of their own are not in it.
#include <gtest/gtest.h>

#include "flatten/builtin_calls.h"
#include "flatten/expression_builder.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using GiNaC::ex;

TEST(BuiltinCalls, EachNameGivesItsForm) {
    GiNaC::symbol x("x"), y("y");
    EXPECT_TRUE(elementwise_builtin("sin")->unary(x).is_equal(GiNaC::sin(x)));
    EXPECT_TRUE(elementwise_builtin("log10")->unary(ex(100)).evalf().is_equal(GiNaC::numeric(2).evalf()));
    EXPECT_TRUE(elementwise_builtin("integer")->unary(x).is_equal(ma_floor(x)));
    EXPECT_TRUE(elementwise_builtin("atan2")->binary(y, x).is_equal(GiNaC::atan2(y, x)));
    EXPECT_TRUE(elementwise_builtin("mod")->binary(y, x).is_equal(ma_mod(y, x)));
    EXPECT_EQ(elementwise_builtin("rem")->arity, 2);
    EXPECT_EQ(elementwise_builtins().size(), 22u);
    for (const char* own : {"der", "pre", "noEvent", "Integer", "semiLinear", "min", "max", "sum", "size", "inStream", "Sin"})
        EXPECT_EQ(elementwise_builtin(own), nullptr) << own;
}

TEST(BuiltinCalls, DomainsAreCheckedWhereTheArgumentIsKnown) {
    EXPECT_FALSE(elementwise_builtin("sqrt")->in_domain(GiNaC::numeric(-1)));
    EXPECT_TRUE(elementwise_builtin("sqrt")->in_domain(GiNaC::numeric(0)));
    EXPECT_FALSE(elementwise_builtin("log")->in_domain(GiNaC::numeric(0)));
    EXPECT_FALSE(elementwise_builtin("acos")->in_domain(GiNaC::numeric(3, 2)));
    EXPECT_EQ(elementwise_builtin("exp")->in_domain, nullptr);
    // Through the flattener: a known argument outside the domain is an error.
    testing::FrontEnd fe(R"(
model M
  parameter Real p = -1;
  Real y;
equation
  y = sqrt(p);
end M;)", "flatten");
    EXPECT_TRUE(fe.has("flatten-invalid-value")) << fe.diagnostics();
    testing::FrontEnd two(R"(
model M
  Real y[2];
equation
  y = mod({5, 7}, {2, 3, 4});
end M;)", "flatten");
    EXPECT_TRUE(two.has("flatten-type-mismatch")) << two.diagnostics();
}

}  // namespace
}  // namespace modeaudit
