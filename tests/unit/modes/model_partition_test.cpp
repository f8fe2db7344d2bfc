// Unit tests of the independent parts of a flat model
// (modes/model_partition.h): independent switching cells are one part each
// (with what cannot switch in one more part), renumbered but with the whole
// model's symbols; whatever joins two cells outside the coupling (an
// initial equation, a when/elsewhen chain, a condition on time alone used
// by both) keeps the model whole.
#include <gtest/gtest.h>

#include <string>

#include "generators/generators.h"
#include "modes/model_partition.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;

std::vector<std::string> names(const FlatModel& m) {
    std::vector<std::string> out;
    for (const FlatVariable& v : m.variables) out.push_back(v.name);
    return out;
}

TEST(ModelPartition, IndependentCellsAreOnePartEachAndTheRestOneMore) {
    FrontEnd fe(R"(model Cells
  parameter Real C = 2;
  Real v1(start = 1, fixed = true), v2(start = 0, fixed = true), i;
  Real w1(start = 1, fixed = true), w2(start = 0, fixed = true), j;
  Boolean a(start = false), b(start = false);
  Real r(start = 3, fixed = true);
equation
  C*der(v1) = -i;
  der(v2) = i;
  if a then v1 = v2; else i = 0; end if;
  when time >= 0.25 then a = true; end when;
  der(w1) = -j;
  der(w2) = j;
  j = if b then w1 - w2 else 0;
  when time >= 0.5 then b = true; end when;
  der(r) = -r;
end Cells;)",
                "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const FlatModel& flat = fe.flat();
    std::vector<ModelPart> parts = split_model(flat);
    ASSERT_EQ(parts.size(), 3u);
    // The rest first (r), then the cells in the order of their variables.
    EXPECT_FALSE(parts[0].switching);
    EXPECT_EQ(names(parts[0].model), std::vector<std::string>({"r"}));
    EXPECT_EQ(parts[0].model.equations.size(), 1u);
    EXPECT_TRUE(parts[1].switching);
    // (C's value is substituted when flattening: no equation reads it.)
    EXPECT_EQ(names(parts[1].model), std::vector<std::string>({"v1", "v2", "i", "a"}));
    EXPECT_EQ(names(parts[2].model), std::vector<std::string>({"w1", "w2", "j", "b"}));
    ASSERT_EQ(parts[1].model.whens.size(), 1u);
    EXPECT_EQ(parts[1].model.whens[0].actions[0].variable, 3);  // a, renumbered
    // The same symbols: an equation of the part is the whole model's.
    const ModelPart& cell = parts[1];
    for (std::size_t k = 0; k < cell.variables.size(); ++k)
        EXPECT_TRUE(cell.model.symbols.variable(static_cast<int>(k))
                        .is_equal(flat.symbols.variable(cell.variables[k])));
    for (const FlatEquation& e : cell.model.equations)
        for (const auto& [c, value] : e.active_when) {
            ASSERT_LT(static_cast<std::size_t>(c), cell.model.conditions.size());
            EXPECT_EQ(cell.model.conditions[static_cast<std::size_t>(c)]->kind, Condition::Kind::Variable);
            EXPECT_EQ(cell.model.conditions[static_cast<std::size_t>(c)]->variable, 3);
        }
    auto der_v1 = cell.model.symbols.find_derivative(0, 1);
    ASSERT_TRUE(der_v1);
    EXPECT_TRUE(der_v1->is_equal(*flat.symbols.find_derivative(cell.variables[0], 1)));
    EXPECT_TRUE(cell.model.symbols.time().is_equal(flat.symbols.time()));
}

TEST(ModelPartition, TheGeneratedCellsSplitOneEach) {
    FrontEnd fe(generators::switch_cells(4), "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    std::vector<ModelPart> parts = split_model(fe.flat());
    ASSERT_EQ(parts.size(), 4u);  // no rest: every variable sits in a cell
    for (const ModelPart& p : parts) {
        EXPECT_TRUE(p.switching);
        EXPECT_EQ(p.model.equations.size(), 4u);  // two capacitors, both branches of the switch
        EXPECT_EQ(p.model.whens.size(), 1u);
    }
}

TEST(ModelPartition, WhatJoinsCellsOutsideTheCouplingKeepsTheModelWhole) {
    const std::string cells = R"(
  Real x(start = 1, fixed = true), y(start = 2);
  Boolean a(start = false), b(start = false);
equation
  der(x) = if a then -x else 0;
  der(y) = if b then -y else 0;
)";
    const char* joins[] = {
        // an initial equation relating the two cells
        "initial equation\n  y = 2*x;\nequation\n  when x > 2 then a = true; end when;\n  when y > 2 then b = true; end when;\n",
        // a when/elsewhen chain over both
        "  when x > 2 then\n    a = true;\n  elsewhen y > 2 then\n    b = true;\n  end when;\n",
    };
    for (const char* join : joins) {
        FrontEnd fe("model J" + cells + join + "end J;", "flatten");
        ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
        EXPECT_TRUE(split_model(fe.flat()).empty()) << join;
    }
    FrontEnd apart("model J" + cells + "  when x > 2 then a = true; end when;\n  when y > 2 then b = true; end when;\nend J;",
                   "flatten");
    ASSERT_TRUE(apart.state.flat) << apart.diagnostics();
    EXPECT_EQ(split_model(apart.flat()).size(), 2u);
    FrontEnd one(generators::switch_cells(1), "flatten");
    ASSERT_TRUE(one.state.flat);
    EXPECT_TRUE(split_model(one.flat()).empty());  // one switching part: nothing to split
}

}  // namespace
}  // namespace modeaudit
