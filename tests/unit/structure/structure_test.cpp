// The structure stage on the seeds' models: the pendulum (index 3, 2 degrees
// of freedom), the ball on a rope (seed 000, section 4.1), RLDC2's four diode
// modes (seed 000, section 5.1), the a + b example (section 4.1); and the
// differential test of the Sigma-method against Pantelides on every mode of
// the corpus.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "structure/pantelides.h"
#include "structure/structure.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;
using GiNaC::ex;

std::string corpus(const std::string& name) { return std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/" + name; }

bool same(const ex& a, const ex& b) { return (a - b).expand().is_zero(); }

bool has_equation(const std::vector<CompletedEquation>& eqs, const ex& r) {
    for (const CompletedEquation& c : eqs)
        if (same(c.residual, r) || same(c.residual, -r)) return true;
    return false;
}

TEST(Structure, CartesianPendulumIsIndexThreeWithTwoDegreesOfFreedom) {
    auto fe = FrontEnd::from_file(corpus("good/pendulum.mo"), "structure");
    ASSERT_TRUE(fe->state.structure) << fe->diagnostics();
    const ModeStructure& ms = fe->state.structure->modes.at(0);
    EXPECT_EQ(ms.status, ModeStatus::Regular);
    EXPECT_EQ(ms.sigma.index, 3);
    EXPECT_EQ(ms.sigma.dof, 2);
    ex x = fe->var("x"), y = fe->var("y");
    // Position constraint and its derivative (the velocity constraint).
    EXPECT_TRUE(has_equation(ms.consistency, x * x + y * y - 1));
    EXPECT_TRUE(has_equation(ms.consistency, 2 * x * fe->der("x") + 2 * y * fe->der("y")));
    EXPECT_TRUE(ms.regularity.checked);
    EXPECT_EQ(ms.regularity.rank, ms.regularity.size);
    EXPECT_TRUE(ms.regularity.point_consistent) << ms.regularity.point_note;
}

TEST(Structure, BallOnARopeModesAndTheTensionFromTheCompletedSystem) {
    auto fe = FrontEnd::from_file(corpus("good/cup_and_ball.mo"), "structure");
    ASSERT_TRUE(fe->state.structure) << fe->diagnostics();
    const ModeStructure& free_mode = fe->state.structure->modes.at(0);
    const ModeStructure& taut = fe->state.structure->modes.at(1);
    EXPECT_EQ(fe->modes().modes[0].id, "taut=false");
    EXPECT_EQ(free_mode.sigma.index, 1);
    std::vector<std::string> names;
    for (const auto& s : free_mode.states) names.push_back(s.get_name());
    EXPECT_EQ(names, (std::vector<std::string>{"x", "y", "vx", "vy"}));
    EXPECT_EQ(taut.sigma.index, 3);
    EXPECT_EQ(taut.sigma.dof, 2);
    ex x = fe->var("x"), y = fe->var("y"), vx = fe->var("vx"), vy = fe->var("vy"), lambda = fe->var("lambda");
    EXPECT_TRUE(has_equation(taut.consistency, x * x + y * y - 1));
    // Solve the index-reduced system for its leading variables: lambda must
    // be (v.v - g*y)/L^2 once der(x) = vx, der(y) = vy and the circle hold.
    GiNaC::lst eqs, unknowns;
    for (const auto& c : taut.reduced) eqs.append(c.residual == 0);
    for (const auto& l : taut.leading) unknowns.append(l);
    ex sol = GiNaC::lsolve(eqs, unknowns);
    ASSERT_EQ(sol.nops(), taut.leading.size());
    ex lam;
    for (std::size_t k = 0; k < sol.nops(); ++k)
        if (sol.op(k).lhs().is_equal(lambda)) lam = sol.op(k).rhs();
    GiNaC::exmap state{{fe->der("x"), vx}, {fe->der("y"), vy}};
    ex lam_state = GiNaC::normal(lam.subs(state));
    ex expected = vx * vx + vy * vy - GiNaC::numeric(981, 100) * y;  // L = 1
    EXPECT_TRUE(GiNaC::normal(lam_state * (x * x + y * y) - expected).is_zero()) << lam_state;
}

TEST(Structure, Rldc2EachDiodeModeHasItsReduction) {
    auto fe = FrontEnd::from_file(corpus("good/rldc2.mo"), "structure");
    ASSERT_TRUE(fe->state.structure) << fe->diagnostics();
    ex v1 = fe->var("v1"), v2 = fe->var("v2"), j1 = fe->var("j1"), j2 = fe->var("j2");
    auto ms_of = [&](const std::string& id) -> const ModeStructure& {
        for (std::size_t k = 0; k < fe->modes().modes.size(); ++k)
            if (fe->modes().modes[k].id == id) return fe->state.structure->modes[k];
        throw std::runtime_error(id);
    };
    // The undifferentiated consistency conditions, solved for every symbol
    // but `keep`, must give `target` = `value`: the seed's reduction.
    auto implies = [&](const ModeStructure& ms, const ex& target, const ex& keep, const ex& value) {
        GiNaC::lst eqs, unknowns;
        std::set<GiNaC::symbol, GiNaC::ex_is_less> syms;
        for (const CompletedEquation& c : ms.consistency) {
            if (c.order != 0) continue;
            eqs.append(c.residual == 0);
            for (GiNaC::const_preorder_iterator it = c.residual.preorder_begin(); it != c.residual.preorder_end(); ++it)
                if (GiNaC::is_a<GiNaC::symbol>(*it) && !it->is_equal(keep)) syms.insert(GiNaC::ex_to<GiNaC::symbol>(*it));
        }
        for (const auto& sym : syms) unknowns.append(sym);
        if (eqs.nops() == 0) return false;
        ex sol = GiNaC::lsolve(eqs, unknowns);
        for (std::size_t k = 0; k < sol.nops(); ++k)
            if (sol.op(k).lhs().is_equal(target)) return same(sol.op(k).rhs(), value);
        return false;
    };
    const ModeStructure& both_on = ms_of("off1=false,off2=false");
    EXPECT_EQ(both_on.status, ModeStatus::Regular);
    EXPECT_TRUE(implies(both_on, v1, v2, v2));  // v1 = v2, differentiated: der(v1) = der(v2)
    const ModeStructure& both_off = ms_of("off1=true,off2=true");
    EXPECT_EQ(both_off.status, ModeStatus::Regular);
    EXPECT_TRUE(implies(both_off, j1, j2, -j2));  // j1 + j2 = 0, differentiated to find V
    // One conducting: no constraint among the states (index 1, four degrees of freedom).
    for (const char* id : {"off1=false,off2=true", "off1=true,off2=false"}) {
        EXPECT_TRUE(ms_of(id).consistency.empty()) << id;
        EXPECT_EQ(ms_of(id).sigma.dof, 4) << id;
    }
    EXPECT_EQ(both_on.sigma.dof, 3);
    EXPECT_EQ(both_off.sigma.dof, 3);
}

TEST(Structure, APlusBIsNumericallySingularAndTheRegularVariantIsNot) {
    auto bad = FrontEnd::from_file(corpus("flawed/singular_a_plus_b.mo"), "structure");
    ASSERT_TRUE(bad->state.structure) << bad->diagnostics();
    const ModeStructure& ms = bad->state.structure->modes.at(0);
    EXPECT_TRUE(ms.dm.perfect());
    EXPECT_EQ(ms.status, ModeStatus::NumericallySingular);
    EXPECT_TRUE(ms.regularity.exact);
    EXPECT_EQ(ms.regularity.rank, 1u);
    ASSERT_EQ(ms.regularity.dependencies.size(), 1u);
    EXPECT_EQ(ms.regularity.dependencies[0], "in the Jacobian, the row of line 9 = 2 * (line 8)");
    ASSERT_TRUE(bad->has("structure-numerically-singular"));
    auto good = FrontEnd::from_file(corpus("good/regular_a_plus_b.mo"), "structure");
    ASSERT_TRUE(good->state.structure);
    EXPECT_EQ(good->state.structure->modes.at(0).status, ModeStatus::Regular);
    EXPECT_FALSE(good->has("structure-numerically-singular"));
}

TEST(Structure, AFailedNewtonStartIsNotASingularMode) {
    // pi*d^2/4 = A from d = 0: the derivative vanishes at the start, Newton
    // fails there. With A > 0 another start point reaches the solution and
    // the mode is regular at a consistent point.
    auto good = FrontEnd::from_file(corpus("good/near_miss/pipe_diameter.mo"), "structure");
    ASSERT_TRUE(good->state.structure) << good->diagnostics();
    const Regularity& r = good->state.structure->modes.at(0).regularity;
    EXPECT_EQ(good->state.structure->modes.at(0).status, ModeStatus::Regular);
    EXPECT_TRUE(r.point_consistent) << r.point_note;
    EXPECT_TRUE(r.conclusive);
    EXPECT_EQ(r.rank, r.size);
    bool found = false;
    for (const auto& [sym, value] : r.point)
        if (sym.get_name() == "d") {
            found = true;
            EXPECT_NEAR(std::abs(value), 0.015957691216057, 1e-12);
        }
    EXPECT_TRUE(found);
    EXPECT_FALSE(good->has("structure-numerically-singular"));
    EXPECT_FALSE(good->has("structure-regularity-inconclusive"));
    // With A < 0 there is no real solution: rank-deficient at the last point
    // tried, which is not consistent; not singular, but inconclusive.
    auto bad = FrontEnd::from_file(corpus("good/near_miss/pipe_area_negative.mo"), "structure");
    ASSERT_TRUE(bad->state.structure) << bad->diagnostics();
    const ModeStructure& ms = bad->state.structure->modes.at(0);
    EXPECT_EQ(ms.status, ModeStatus::Regular);
    EXPECT_FALSE(ms.regularity.point_consistent);
    EXPECT_FALSE(ms.regularity.conclusive);
    EXPECT_LT(ms.regularity.rank, ms.regularity.size);
    EXPECT_FALSE(bad->has("structure-numerically-singular"));
    EXPECT_TRUE(bad->has("structure-regularity-inconclusive"));
}

TEST(Structure, AJacobianWithAPoleAtTheConsistentPointIsInconclusiveNotAnInternalError) {
    // f = -k*|s|^0.5 with s held at 0: d|s|^0.5/ds = 0.5*sign(s)/|s|^0.5 has a
    // pole at every consistent point. GiNaC throws on the substitution; the
    // stage says the regularity is not established (before: exit 3).
    auto held = FrontEnd::from_file(corpus("good/near_miss/gap_held_at_kink.mo"), "structure");
    ASSERT_TRUE(held->state.structure) << held->diagnostics();
    const ModeStructure& ms = held->state.structure->modes.at(0);
    EXPECT_EQ(ms.status, ModeStatus::Regular);
    EXPECT_TRUE(ms.regularity.jacobian_undefined);
    EXPECT_FALSE(ms.regularity.conclusive);
    EXPECT_NE(ms.regularity.point_note.find("not defined at the consistent point"), std::string::npos)
        << ms.regularity.point_note;
    EXPECT_TRUE(held->has("structure-regularity-inconclusive"));
    // With the gap free (s + s^3 = x) another start point (x = 1) is
    // consistent with s != 0, where the Jacobian is defined: regular.
    auto free = FrontEnd::from_file(corpus("good/near_miss/gap_free_at_kink.mo"), "structure");
    ASSERT_TRUE(free->state.structure) << free->diagnostics();
    const Regularity& r = free->state.structure->modes.at(0).regularity;
    EXPECT_FALSE(r.jacobian_undefined);
    EXPECT_TRUE(r.point_consistent) << r.point_note;
    EXPECT_TRUE(r.conclusive);
    EXPECT_EQ(r.rank, r.size);
    for (const auto& [sym, value] : r.point)
        if (sym.get_name() == "s") EXPECT_GT(std::abs(value), 0.1);
    EXPECT_FALSE(free->has("structure-regularity-inconclusive"));
}

TEST(Structure, B6RectifierHasNoNumericallySingularMode) {
    // Issue 17 item 6: Ron = Goff = 1e-5 beside unit coefficients; every one
    // of the 64 modes has full rank, and equilibration lowers the condition.
    auto fe = FrontEnd::from_file(corpus("good/b6_rectifier.mo"), "structure");
    ASSERT_TRUE(fe->state.structure) << fe->diagnostics();
    ASSERT_EQ(fe->state.structure->modes.size(), 64u);
    for (std::size_t m = 0; m < 64; ++m) {
        const ModeStructure& ms = fe->state.structure->modes[m];
        EXPECT_EQ(ms.status, ModeStatus::Regular) << fe->modes().modes[m].id;
        EXPECT_EQ(ms.regularity.rank, ms.regularity.size) << fe->modes().modes[m].id;
        EXPECT_LE(ms.regularity.scaled_condition, ms.regularity.condition) << fe->modes().modes[m].id;
    }
    EXPECT_FALSE(fe->has("structure-numerically-singular"));
}

TEST(Structure, SigmaMethodAgreesWithPantelidesOnEveryCorpusMode) {
    namespace fs = std::filesystem;
    int compared = 0;
    for (const auto& entry : fs::recursive_directory_iterator(corpus(""))) {
        if (!entry.is_regular_file() || entry.path().extension() != ".mo") continue;
        auto fe = FrontEnd::from_file(entry.path().string(), "modes");
        if (!fe->state.modes) continue;
        for (const Mode& mode : fe->modes().modes) {
            SignatureMatrix s = build_signature(fe->flat(), mode);
            SigmaResult sr = sigma_method(s);
            PantelidesResult pr = pantelides(s);
            ASSERT_EQ(sr.well_posed, pr.ok) << entry.path() << " mode " << mode.id;
            if (!sr.well_posed) continue;
            EXPECT_EQ(sr.c, pr.differentiations) << entry.path() << " mode " << mode.id;
            EXPECT_EQ(sr.d, pr.highest_order) << entry.path() << " mode " << mode.id;
            EXPECT_EQ(sr.index, pr.index) << entry.path() << " mode " << mode.id;
            ++compared;
        }
    }
    EXPECT_GT(compared, 20);
}

}  // namespace
}  // namespace modeaudit
