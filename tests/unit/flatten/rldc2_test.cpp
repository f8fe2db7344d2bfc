// RLDC2 written flat (corpus/good/rldc2.mo) and built from components with
// connect (corpus/good/rldc2_components.mo) flatten to equivalent systems:
// in each of the four diode modes, the linear equations restricted to the
// shared quantities (capacitor voltages, inductor currents, their
// derivatives, diode currents and voltages, the node voltage) have the same
// solution set once the component model's extra variables (pin potentials,
// resistor and inductor voltages, ...) are eliminated. Exact arithmetic.
#include <gtest/gtest.h>

#include <map>

#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;
using GiNaC::ex;
using GiNaC::numeric;
using Row = std::vector<numeric>;

// The value of a flat variable in terms of the symbols left after alias elimination.
ex value_of(const FrontEnd& fe, const std::string& name, int order = 0) {
    const FlatModel& f = fe.flat();
    int v = f.find_variable(name);
    EXPECT_GE(v, 0) << name;
    int rep = v, sign = 1;
    for (const auto& a : f.aliases)
        if (a.variable == v) rep = a.representative, sign = a.sign;
    if (order == 0) return sign * ex(f.symbols.variable(rep));
    auto d = f.symbols.find_derivative(rep, order);
    EXPECT_TRUE(d.has_value()) << name;
    return sign * ex(*d);
}

// Rank of rows by exact Gaussian elimination.
std::size_t rank(std::vector<Row> rows) {
    std::size_t r = 0;
    std::size_t cols = rows.empty() ? 0 : rows[0].size();
    for (std::size_t c = 0; c < cols && r < rows.size(); ++c) {
        std::size_t p = r;
        while (p < rows.size() && rows[p][c].is_zero()) ++p;
        if (p == rows.size()) continue;
        std::swap(rows[p], rows[r]);
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (i != r && !rows[i][c].is_zero()) {
                numeric f = rows[i][c] / rows[r][c];
                for (std::size_t k = c; k < cols; ++k) rows[i][k] -= f * rows[r][k];
            }
        ++r;
    }
    return r;
}

// Linear constraints of `eqs` on `shared` after eliminating every other
// symbol: rows [coefficients of shared..., constant].
std::vector<Row> projected(const std::vector<ex>& eqs, const std::vector<ex>& shared) {
    std::vector<ex> extras;
    auto is_shared = [&](const ex& s) {
        for (const ex& x : shared)
            if (x.is_equal(s)) return true;
        return false;
    };
    for (const ex& e : eqs)
        for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
            if (GiNaC::is_a<GiNaC::symbol>(*it) && !is_shared(*it)) {
                bool seen = false;
                for (const ex& x : extras) seen = seen || x.is_equal(*it);
                if (!seen) extras.push_back(*it);
            }
    std::vector<ex> cols = extras;
    cols.insert(cols.end(), shared.begin(), shared.end());
    std::vector<Row> rows;
    for (const ex& e0 : eqs) {
        ex e = e0.expand();
        Row row;
        ex rest = e;
        for (const ex& c : cols) {
            ex k = e.coeff(c, 1);
            EXPECT_TRUE(GiNaC::is_a<numeric>(k)) << "non-linear equation " << e;
            row.push_back(GiNaC::ex_to<numeric>(k));
            rest -= k * c;
        }
        rest = rest.expand();
        EXPECT_TRUE(GiNaC::is_a<numeric>(rest)) << "non-linear equation " << e;
        row.push_back(-GiNaC::ex_to<numeric>(rest));
        rows.push_back(row);
    }
    // Eliminate the extra columns.
    std::vector<bool> used(rows.size(), false);
    for (std::size_t c = 0; c < extras.size(); ++c) {
        std::size_t p = 0;
        while (p < rows.size() && (used[p] || rows[p][c].is_zero())) ++p;
        if (p == rows.size()) continue;
        used[p] = true;
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (i != p && !rows[i][c].is_zero()) {
                numeric f = rows[i][c] / rows[p][c];
                for (std::size_t k = 0; k < rows[i].size(); ++k) rows[i][k] -= f * rows[p][k];
            }
    }
    std::vector<Row> out;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (!used[i]) out.emplace_back(rows[i].begin() + static_cast<long>(extras.size()), rows[i].end());
    return out;
}

TEST(Rldc2, FlatAndComponentModelsHaveEquivalentModes) {
    auto flat = FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/rldc2.mo");
    auto comp = FrontEnd::from_file(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/rldc2_components.mo");
    ASSERT_TRUE(flat->state.modes) << flat->diagnostics();
    ASSERT_TRUE(comp->state.modes) << comp->diagnostics();
    ASSERT_EQ(flat->modes().modes.size(), 4u);
    ASSERT_EQ(comp->modes().modes.size(), 4u);
    EXPECT_EQ(flat->modes().transitions.size(), 8u);
    EXPECT_EQ(comp->modes().transitions.size(), 8u);

    // Shared quantities: flat name -> component name (derivatives of states too).
    const std::vector<std::pair<std::string, std::string>> names = {
        {"v1", "C1.v"}, {"v2", "C2.v"}, {"j1", "L1.i"}, {"j2", "L2.i"}, {"i1", "D1.i"}, {"i2", "D2.i"},
        {"u1", "D1.v"}, {"u2", "D2.v"}, {"V", "D1.p.v"}, {"s1", "D1.s"}, {"s2", "D2.s"}};
    const std::vector<std::pair<std::string, std::string>> states = {
        {"v1", "C1.v"}, {"v2", "C2.v"}, {"j1", "L1.i"}, {"j2", "L2.i"}};
    // Common fresh symbols for the shared quantities.
    std::vector<ex> shared;
    GiNaC::exmap to_flat_common, to_comp_common;
    auto bind = [&](const ex& in_flat, const ex& in_comp) {
        GiNaC::symbol s;
        shared.push_back(s);
        // value_of may carry a sign: x = sign*rep, so rep = sign*x.
        auto add = [&](GiNaC::exmap& m, const ex& value) {
            if (GiNaC::is_a<GiNaC::symbol>(value))
                m[value] = s;
            else
                m[value.op(0)] = GiNaC::ex(s) / value.op(1);  // value = rep * (-1)
        };
        add(to_flat_common, in_flat);
        add(to_comp_common, in_comp);
    };
    for (const auto& [f, c] : names) bind(value_of(*flat, f), value_of(*comp, c));
    for (const auto& [f, c] : states) bind(value_of(*flat, f, 1), value_of(*comp, c, 1));

    const char* ids[] = {"off1=false,off2=true", "off1=true,off2=true", "off1=false,off2=false",
                         "off1=true,off2=false"};
    const char* comp_ids[] = {"D1.off=false,D2.off=true", "D1.off=true,D2.off=true", "D1.off=false,D2.off=false",
                              "D1.off=true,D2.off=false"};
    int E = flat->flat().find_variable("E");
    for (int m = 0; m < 4; ++m) {
        std::vector<ex> fe, ce;
        for (const ModeEquation& e : flat->mode(ids[m]).equations)
            if (!e.residual.has(flat->flat().symbols.variable(E)))  // the energy readout is not in the circuit
                fe.push_back(e.residual.subs(to_flat_common));
        for (const ModeEquation& e : comp->mode(comp_ids[m]).equations) ce.push_back(e.residual.subs(to_comp_common));
        std::vector<Row> a = projected(fe, shared), b = projected(ce, shared);
        std::vector<Row> both = a;
        both.insert(both.end(), b.begin(), b.end());
        std::size_t ra = rank(a), rb = rank(b), rab = rank(both);
        EXPECT_EQ(ra, rb) << ids[m];
        EXPECT_EQ(rab, ra) << ids[m] << ": the two formulations impose different constraints";
        EXPECT_GT(ra, 0u);
    }
}

}  // namespace
}  // namespace modeaudit
