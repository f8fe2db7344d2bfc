// polynomial_degree (flatten/expression_builder.h): the degree of an
// expression in a symbol where it is a polynomial in it, nothing where it is
// not. GiNaC's degree() throws on a non-integer power of the symbol (the
// check fuzzer's exit 3 in the mode-change array, on u2^v2 with u2 = 0 in a
// mode) and counts sin(z) as degree 0.
#include <gtest/gtest.h>

#include "flatten/expression_builder.h"

namespace modeaudit {
namespace {

TEST(PolynomialDegree, DegreeOfPolynomialsNothingForOtherExpressions) {
    GiNaC::symbol z("z"), y("y");
    EXPECT_EQ(polynomial_degree(3 * z * z + y * z + 1, z), 2);
    EXPECT_EQ(polynomial_degree(GiNaC::sin(y) * z + y, z), 1);  // a coefficient free of z
    EXPECT_EQ(polynomial_degree(y + 1, z), 0);
    EXPECT_EQ(polynomial_degree(GiNaC::sqrt(z) + 1, z), std::nullopt);
    EXPECT_EQ(polynomial_degree(GiNaC::pow(z, GiNaC::numeric(3, 2)), z), std::nullopt);
    EXPECT_EQ(polynomial_degree(GiNaC::pow(y, z), z), std::nullopt);
    EXPECT_EQ(polynomial_degree(z + GiNaC::sin(z), z), std::nullopt);
    EXPECT_EQ(polynomial_degree(1 / z, z), std::nullopt);
    EXPECT_THROW((void)(GiNaC::sqrt(z) + 1).degree(z), std::exception);  // why the helper exists
}

}  // namespace
}  // namespace modeaudit
