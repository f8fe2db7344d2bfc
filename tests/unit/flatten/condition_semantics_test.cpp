// The shared meaning of relations and condition trees
// (flatten/condition_semantics.h): Kleene logic, the equality tolerance
// rule, signed margins and partial evaluation.
#include "flatten/condition_semantics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

namespace modeaudit {
namespace {

using K = Condition::Kind;
using Op = Condition::RelOp;

ConditionPtr leaf(int variable) {
    auto c = std::make_shared<Condition>();
    c->kind = K::Variable;
    c->variable = variable;
    return c;
}

ConditionPtr node(K kind, std::vector<ConditionPtr> operands) {
    auto c = std::make_shared<Condition>();
    c->kind = kind;
    c->operands = std::move(operands);
    return c;
}

// Leaves 0, 1, 2 are False, True, Unknown.
Truth by_index(const Condition& c) {
    return c.variable == 0 ? Truth::False : (c.variable == 1 ? Truth::True : Truth::Unknown);
}

TEST(ConditionSemantics, KleeneLogicDecidesWhatTheKnownOperandsDecide) {
    auto f = leaf(0), t = leaf(1), u = leaf(2);
    EXPECT_EQ(condition_truth(*node(K::And, {u, f}), by_index), Truth::False);
    EXPECT_EQ(condition_truth(*node(K::And, {u, t}), by_index), Truth::Unknown);
    EXPECT_EQ(condition_truth(*node(K::And, {t, t}), by_index), Truth::True);
    EXPECT_EQ(condition_truth(*node(K::Or, {u, t}), by_index), Truth::True);
    EXPECT_EQ(condition_truth(*node(K::Or, {f, u}), by_index), Truth::Unknown);
    EXPECT_EQ(condition_truth(*node(K::Or, {f, f}), by_index), Truth::False);
    EXPECT_EQ(condition_truth(*node(K::Not, {u}), by_index), Truth::Unknown);
    EXPECT_EQ(condition_truth(*node(K::Not, {node(K::And, {t, f})}), by_index), Truth::True);
}

TEST(ConditionSemantics, EveryOperandIsVisitedInOrder) {
    // Callers count the relations as they go (asserts read their margins
    // in the order of the tree), so an absorbing operand must not stop the walk.
    std::vector<int> seen;
    auto tree = node(K::Or, {leaf(1), node(K::And, {leaf(0), leaf(2)}), leaf(0)});
    condition_truth(*tree, [&](const Condition& c) {
        seen.push_back(c.variable);
        return by_index(c);
    });
    EXPECT_EQ(seen, (std::vector<int>{1, 0, 2, 0}));
}

TEST(ConditionSemantics, EqualityHoldsWithinTheRelativeBoundaryTolerance) {
    EXPECT_DOUBLE_EQ(relation_tolerance(0.5), 1e-10);
    EXPECT_DOUBLE_EQ(relation_tolerance(-1e4), 1e-6);
    EXPECT_DOUBLE_EQ(relation_tolerance(NAN), 1e-10);
    EXPECT_TRUE(relation_holds(Op::Eq, 5e-7, relation_tolerance(1e4)));
    EXPECT_FALSE(relation_holds(Op::Eq, 5e-7, relation_tolerance(1)));
    EXPECT_TRUE(relation_holds(Op::Ne, 5e-7, relation_tolerance(1)));
    // Inequalities compare with zero exactly: no tolerance moves a side.
    EXPECT_FALSE(relation_holds(Op::Lt, 0.0, 1e-3));
    EXPECT_TRUE(relation_holds(Op::Le, 0.0, 0));
    EXPECT_FALSE(relation_holds(Op::Gt, -1e-300, 1e-3));
    EXPECT_TRUE(relation_holds(Op::Ge, 1e-300, 0));
}

TEST(ConditionSemantics, ExactRelationsUseNoTolerance) {
    const GiNaC::numeric third(1, 3);
    EXPECT_TRUE(relation_holds(Op::Eq, third, GiNaC::numeric(2, 6)));
    EXPECT_FALSE(relation_holds(Op::Eq, third, GiNaC::numeric(333333333, 1000000000)));
    EXPECT_TRUE(relation_holds(Op::Lt, GiNaC::numeric(333333333, 1000000000), third));
}

TEST(ConditionSemantics, EnclosuresDecideOnlyWhenEveryPointAgrees) {
    EXPECT_EQ(relation_truth(Op::Lt, -2, -1, 0), Truth::True);
    EXPECT_EQ(relation_truth(Op::Lt, -1, 0, 0), Truth::Unknown);
    EXPECT_EQ(relation_truth(Op::Le, -1, 0, 0), Truth::True);
    EXPECT_EQ(relation_truth(Op::Ge, 0, 3, 0), Truth::True);
    EXPECT_EQ(relation_truth(Op::Gt, -1, 1, 0), Truth::Unknown);
    EXPECT_EQ(relation_truth(Op::Eq, -1e-11, 1e-11, 1e-10), Truth::True);
    EXPECT_EQ(relation_truth(Op::Eq, 1e-9, 2e-9, 1e-10), Truth::False);
    EXPECT_EQ(relation_truth(Op::Ne, -1e-9, 1e-9, 1e-10), Truth::Unknown);
    EXPECT_EQ(relation_truth(Op::Lt, NAN, 1, 0), Truth::Unknown);
}

TEST(ConditionSemantics, MarginsArePositiveWhereTheConditionHolds) {
    EXPECT_DOUBLE_EQ(relation_margin(Op::Gt, 2), 2);
    EXPECT_DOUBLE_EQ(relation_margin(Op::Lt, 2), -2);
    EXPECT_DOUBLE_EQ(relation_margin(Op::Eq, -3), -3);
    EXPECT_DOUBLE_EQ(relation_margin(Op::Ne, -3), 3);
    auto margin_by_index = [](const Condition& c) -> std::optional<double> {
        if (c.variable == 2) return std::nullopt;
        return c.variable == 0 ? -1.5 : 0.25;
    };
    EXPECT_EQ(condition_margin(*node(K::And, {leaf(1), leaf(0)}), margin_by_index), -1.5);
    EXPECT_EQ(condition_margin(*node(K::Or, {leaf(1), leaf(0)}), margin_by_index), 0.25);
    EXPECT_EQ(condition_margin(*node(K::Not, {leaf(0)}), margin_by_index), 1.5);
    EXPECT_FALSE(condition_margin(*node(K::Or, {leaf(1), leaf(2)}), margin_by_index).has_value());
}

TEST(ConditionSemantics, FoldingPropagatesConstantsAndSharesWhatStays) {
    auto decide_zero = [](const ConditionPtr& c) -> ConditionPtr {
        return c->variable == 0 ? condition_constant(false, c->range) : c;
    };
    auto x = leaf(5), y = leaf(6);
    // false and x -> false; false or x -> x; not false -> true.
    auto a = fold_condition(node(K::And, {leaf(0), x}), decide_zero);
    ASSERT_EQ(a->kind, K::Constant);
    EXPECT_FALSE(a->value);
    EXPECT_EQ(fold_condition(node(K::Or, {leaf(0), x}), decide_zero), x);
    auto n = fold_condition(node(K::Not, {leaf(0)}), decide_zero);
    ASSERT_EQ(n->kind, K::Constant);
    EXPECT_TRUE(n->value);
    // Nothing decided: the same node comes back.
    auto both = node(K::And, {x, y});
    EXPECT_EQ(fold_condition(both, decide_zero), both);
    // false or false -> false (an Or of no operands left).
    auto none = fold_condition(node(K::Or, {leaf(0), leaf(0)}), decide_zero);
    ASSERT_EQ(none->kind, K::Constant);
    EXPECT_FALSE(none->value);
}

}  // namespace
}  // namespace modeaudit
