// Unit tests of array concatenation (flatten/array_concatenation.h):
// promote, cat along each dimension, the matrix constructor's rows, the
// shape mismatches; and, through the flattener, ':' sizes taken from
// bindings written with them.
#include <gtest/gtest.h>

#include "flatten/array_concatenation.h"
#include "flatten/expression_builder.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;
using GiNaC::ex;

Value vec(std::vector<int> xs) {
    Value v;
    v.dims = {xs.size()};
    for (int x : xs) v.elems.push_back(x);
    return v;
}

Value mat(std::size_t r, std::size_t c, std::vector<int> xs) {
    Value v;
    v.dims = {r, c};
    for (int x : xs) v.elems.push_back(x);
    return v;
}

std::vector<int> ints(const Value& v) {
    std::vector<int> out;
    for (const ex& x : v.elems) out.push_back(static_cast<int>(numeric_value(x)->to_int()));
    return out;
}

TEST(ArrayConcatenation, PromoteAddsTrailingOnes) {
    EXPECT_EQ(flat::promote(Value::scalar(3), 2).dims, (std::vector<std::size_t>{1, 1}));
    EXPECT_EQ(flat::promote(vec({1, 2}), 2).dims, (std::vector<std::size_t>{2, 1}));
    EXPECT_EQ(flat::promote(mat(2, 2, {1, 2, 3, 4}), 2).dims, (std::vector<std::size_t>{2, 2}));
}

TEST(ArrayConcatenation, CatAlongTheFirstAndSecondDimension) {
    std::string error;
    auto a = mat(2, 2, {1, 2, 3, 4}), b = mat(1, 2, {5, 6}), c = mat(2, 1, {7, 8});
    auto rows = flat::concatenate(1, {a, b}, error);
    ASSERT_TRUE(rows) << error;
    EXPECT_EQ(rows->dims, (std::vector<std::size_t>{3, 2}));
    EXPECT_EQ(ints(*rows), (std::vector<int>{1, 2, 3, 4, 5, 6}));
    auto cols = flat::concatenate(2, {a, c}, error);
    ASSERT_TRUE(cols) << error;
    EXPECT_EQ(cols->dims, (std::vector<std::size_t>{2, 3}));
    EXPECT_EQ(ints(*cols), (std::vector<int>{1, 2, 7, 3, 4, 8}));
    auto v = flat::concatenate(1, {vec({1}), vec({2, 3})}, error);
    ASSERT_TRUE(v) << error;
    EXPECT_EQ(ints(*v), (std::vector<int>{1, 2, 3}));
}

TEST(ArrayConcatenation, MismatchedShapesAreNamed) {
    std::string error;
    EXPECT_FALSE(flat::concatenate(1, {mat(1, 2, {1, 2}), mat(1, 3, {1, 2, 3})}, error));
    EXPECT_NE(error.find("argument 2 has shape [1, 3]"), std::string::npos) << error;
    EXPECT_FALSE(flat::concatenate(3, {mat(1, 2, {1, 2})}, error));
    EXPECT_FALSE(flat::concatenate(1, {vec({1}), mat(1, 1, {1})}, error));
}

TEST(ArrayConcatenation, MatrixConstructorRowsAndBlocks) {
    std::string error;
    // [1, 2; 3, 4]
    auto m = flat::matrix({{Value::scalar(1), Value::scalar(2)}, {Value::scalar(3), Value::scalar(4)}}, error);
    ASSERT_TRUE(m) << error;
    EXPECT_EQ(m->dims, (std::vector<std::size_t>{2, 2}));
    EXPECT_EQ(ints(*m), (std::vector<int>{1, 2, 3, 4}));
    // [{1, 2}, {3, 4}]: two column vectors side by side.
    auto cols = flat::matrix({{vec({1, 2}), vec({3, 4})}}, error);
    ASSERT_TRUE(cols) << error;
    EXPECT_EQ(cols->dims, (std::vector<std::size_t>{2, 2}));
    EXPECT_EQ(ints(*cols), (std::vector<int>{1, 3, 2, 4}));
    // [A, c; r, 9] with blocks.
    auto blocks = flat::matrix({{mat(2, 2, {1, 2, 3, 4}), vec({5, 6})}, {mat(1, 2, {7, 8}), Value::scalar(9)}}, error);
    ASSERT_TRUE(blocks) << error;
    EXPECT_EQ(blocks->dims, (std::vector<std::size_t>{3, 3}));
    EXPECT_EQ(ints(*blocks), (std::vector<int>{1, 2, 5, 3, 4, 6, 7, 8, 9}));
    EXPECT_FALSE(flat::matrix({{Value::scalar(1), Value::scalar(2)}, {Value::scalar(3)}}, error));
    EXPECT_NE(error.find("the rows do not fit"), std::string::npos) << error;
}

double number(const FrontEnd& fe, const std::string& name) {
    int v = fe.flat().find_variable(name);
    if (v < 0) throw std::runtime_error("no variable " + name);
    return numeric_value(*fe.flat().variables[static_cast<std::size_t>(v)].value)->to_double();
}

TEST(ArrayConcatenation, ColonSizesComeFromTheBinding) {
    FrontEnd fe(R"(
  model Table
    parameter Real mu[:, 2] = [0, 0.5];
    parameter Integer n = size(mu, 1);
    parameter Real last = mu[n, 2];
  end Table;
  model Top
    Table a;
    Table b(mu = [0, 0.5; 1, 0.25; 2, 0.125]);
    Table c(mu = cat(1, [0, 1], [2, 3]));
    parameter Real v[:] = {1, 2, 3};
  end Top;)", "flatten", "Top");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(number(fe, "a.n"), 1);
    EXPECT_DOUBLE_EQ(number(fe, "b.n"), 3);
    EXPECT_DOUBLE_EQ(number(fe, "b.last"), 0.125);
    EXPECT_DOUBLE_EQ(number(fe, "c.mu[2,1]"), 2);
    EXPECT_DOUBLE_EQ(number(fe, "v[3]"), 3);
}

TEST(ArrayConcatenation, ColonSizeWithoutBindingOrOfTheWrongShapeIsRefused) {
    FrontEnd none("model M\n  parameter Real mu[:, 2];\nend M;\n", "flatten");
    EXPECT_FALSE(none.state.flat);
    EXPECT_NE(none.diagnostics().find("test.mo:2:21: error: the size ':' of 'mu' comes from its binding"),
              std::string::npos)
        << none.diagnostics();
    FrontEnd shape("model M\n  parameter Real mu[2, :] = {1, 2};\nend M;\n", "flatten");
    EXPECT_FALSE(shape.state.flat);
    EXPECT_NE(shape.diagnostics().find("which has shape [2]"), std::string::npos) << shape.diagnostics();
}

}  // namespace
}  // namespace modeaudit
