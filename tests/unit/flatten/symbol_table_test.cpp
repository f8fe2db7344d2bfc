// Unit tests of the flat model's symbol table (flatten/flat_model.h): what
// a symbol stands for, found by the symbol itself (a copy too) through the
// table's hash index, by name for a symbol made outside the table, and
// still right after many symbols (the index grows, hashes may collide) and
// in a subset table.
#include <gtest/gtest.h>

#include <string>

#include "flatten/flat_model.h"

namespace modeaudit {
namespace {

using Role = SymbolTable::Meaning::Role;

TEST(SymbolTable, EachRoleIsFoundFromItsSymbolAndFromACopy) {
    SymbolTable t;
    const int x = t.add_variable("x");
    const int y = t.add_variable("y");
    const int c = t.add_condition("cond#1");
    const GiNaC::symbol dy2 = t.derivative(y, 2);  // a copy, not the table's object
    const GiNaC::symbol& px = t.pre(x);

    auto m = t.meaning(t.variable(y));
    ASSERT_TRUE(m);
    EXPECT_EQ(m->role, Role::Variable);
    EXPECT_EQ(m->index, y);
    m = t.meaning(dy2);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->role, Role::Derivative);
    EXPECT_EQ(m->index, y);
    EXPECT_EQ(m->order, 2);
    m = t.meaning(px);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->role, Role::Pre);
    EXPECT_EQ(m->index, x);
    m = t.meaning(t.condition(c));
    ASSERT_TRUE(m);
    EXPECT_EQ(m->role, Role::Condition);
    EXPECT_EQ(m->index, c);
    m = t.meaning(t.time());
    ASSERT_TRUE(m);
    EXPECT_EQ(m->role, Role::Time);
}

TEST(SymbolTable, ASymbolMadeOutsideTheTableStandsForTheOneOfItsName) {
    SymbolTable t;
    t.add_variable("a");
    const int b = t.add_variable("b");
    t.derivative(b, 1);
    auto m = t.meaning(GiNaC::symbol("b"));
    ASSERT_TRUE(m);
    EXPECT_EQ(m->role, Role::Variable);
    EXPECT_EQ(m->index, b);
    m = t.meaning(GiNaC::symbol("der(b)"));
    ASSERT_TRUE(m);
    EXPECT_EQ(m->role, Role::Derivative);
    // Symbols added after a lookup by name are found by name too.
    const int late = t.add_variable("late");
    m = t.meaning(GiNaC::symbol("late"));
    ASSERT_TRUE(m);
    EXPECT_EQ(m->index, late);
    EXPECT_FALSE(t.meaning(GiNaC::symbol("nowhere")));
    EXPECT_FALSE(t.meaning(GiNaC::symbol("time")));  // only the table's own time symbol is time
}

TEST(SymbolTable, ManySymbolsKeepTheirMeanings) {
    constexpr int n = 50000;
    SymbolTable t;
    for (int i = 0; i < n; ++i) t.add_variable("v" + std::to_string(i));
    for (int i = 0; i < n; i += 7) t.derivative(i, 1);
    for (int i = 0; i < n; ++i) {
        auto m = t.meaning(t.variable(i));
        ASSERT_TRUE(m) << i;
        ASSERT_EQ(m->role, Role::Variable);
        ASSERT_EQ(m->index, i);
    }
    for (int i = 0; i < n; i += 7) {
        auto m = t.meaning(t.derivative(i, 1));
        ASSERT_TRUE(m) << i;
        ASSERT_EQ(m->role, Role::Derivative);
        ASSERT_EQ(m->index, i);
        ASSERT_EQ(m->order, 1);
    }
}

TEST(SymbolTable, ASubsetNumbersItsVariablesAndKeepsTheirSymbols) {
    SymbolTable t;
    for (int i = 0; i < 10; ++i) t.add_variable("w" + std::to_string(i));
    t.derivative(7, 1);
    t.pre(3);
    const SymbolTable s = t.subset({7, 3}, {});
    auto m = s.meaning(t.variable(7));
    ASSERT_TRUE(m);
    EXPECT_EQ(m->index, 0);
    m = s.meaning(t.derivative(7, 1));
    ASSERT_TRUE(m);
    EXPECT_EQ(m->role, Role::Derivative);
    EXPECT_EQ(m->index, 0);
    m = s.meaning(t.pre(3));
    ASSERT_TRUE(m);
    EXPECT_EQ(m->role, Role::Pre);
    EXPECT_EQ(m->index, 1);
    EXPECT_FALSE(s.meaning(t.variable(5)));
}

}  // namespace
}  // namespace modeaudit
