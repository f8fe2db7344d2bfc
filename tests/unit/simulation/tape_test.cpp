// The compiled tape against independent routes to the same numbers
// (style.md, 8): GiNaC's own evaluation, finite differences of the taped
// residuals for the taped Jacobian, and point values inside the interval
// enclosures.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "flatten/expression_builder.h"
#include "simulation/tape.h"

namespace modeaudit::sim {
namespace {

using GiNaC::ex;
using GiNaC::symbol;

double ginac_value(const ex& e, const std::vector<symbol>& syms, const std::vector<double>& at) {
    GiNaC::exmap m;
    for (std::size_t k = 0; k < syms.size(); ++k) m[syms[k]] = at[k];
    return GiNaC::ex_to<GiNaC::numeric>(GiNaC::evalf(e.subs(m))).to_double();
}

// The inputs an output depends on: directly (an output that is an input),
// through instructions, and not through an expression that cancels.
TEST(Tape, KnowsWhichInputsItsOutputsUse) {
    symbol x("x"), y("y"), z("z"), w("w"), t("t");
    Tape tape({x, y, z, w, t}, {{x * x + y * y - 1, ex(z)}});
    EXPECT_TRUE(tape.uses_input(0));
    EXPECT_TRUE(tape.uses_input(1));
    EXPECT_TRUE(tape.uses_input(2));
    EXPECT_FALSE(tape.uses_input(3));
    EXPECT_FALSE(tape.uses_input(4));
    Tape cancels({x, y}, {{(x + y) - y}});
    EXPECT_TRUE(cancels.uses_input(0));
    EXPECT_FALSE(cancels.uses_input(1));
    EXPECT_FALSE(cancels.uses_input(7));
}

TEST(Tape, AgreesWithGinacEvaluation) {
    symbol x("x"), y("y"), z("z");
    const std::vector<ex> es{
        GiNaC::sin(x * y) + GiNaC::pow(x + y, 2) / (1 + GiNaC::pow(x, 2)) - GiNaC::exp(-y),
        GiNaC::sqrt(GiNaC::pow(x, 2) + 1) + GiNaC::atan2(y, x) + GiNaC::pow(x, 5) - GiNaC::numeric(981, 100),
        GiNaC::log(1 + z * z) * GiNaC::cos(z) - x / (y * z) + GiNaC::tanh(x - z) + GiNaC::pow(z, GiNaC::numeric(3, 2)),
        -x - y - 2 * z,
        GiNaC::abs(x - y) + GiNaC::Pi * z,
    };
    Tape tape({x, y, z}, {es});
    ASSERT_EQ(tape.output_count(), es.size());
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(0.1, 2.0);
    for (int trial = 0; trial < 20; ++trial) {
        std::vector<double> at{u(rng), u(rng) - 1.5, u(rng)};
        std::vector<double> out(es.size());
        tape.evaluate(at.data(), out.data());
        for (std::size_t k = 0; k < es.size(); ++k) {
            const double want = ginac_value(es[k], {x, y, z}, at);
            EXPECT_NEAR(out[k], want, 1e-13 * (1 + std::fabs(want))) << "expression " << k;
        }
    }
}

// Parameters keep the value set_parameters gave them between calls, in
// point and interval evaluation, and are 0 before.
TEST(Tape, ParametersAreSetOnceAndKept) {
    symbol x("x"), p("p"), q("q");
    Tape tape({x}, {p, q}, {{x * p + q, p * q + 2}});
    EXPECT_EQ(tape.input_count(), 1u);
    EXPECT_EQ(tape.parameter_count(), 2u);
    double out[2];
    const double at = 3;
    tape.evaluate(&at, out);
    EXPECT_EQ(out[0], 0.0);
    EXPECT_EQ(out[1], 2.0);
    const double values[2] = {1.5, -4};
    tape.set_parameters(values);
    for (int call = 0; call < 2; ++call) {
        tape.evaluate(&at, out);
        EXPECT_EQ(out[0], 3 * 1.5 - 4);
        EXPECT_EQ(out[1], 1.5 * -4 + 2);
    }
    Interval box(2, 3), res[2];
    tape.evaluate(&box, res);
    EXPECT_LE(res[0].lower(), 2 * 1.5 - 4);
    EXPECT_GE(res[0].upper(), 3 * 1.5 - 4);
    EXPECT_DOUBLE_EQ(res[1].lower(), -4.0);
    EXPECT_DOUBLE_EQ(res[1].upper(), -4.0);
}

// A sum and its negation round to exact negatives (GiNaC writes -c*(a - b)
// or c*(b - a) from run to run, so anything else would make results depend
// on the run).
TEST(Tape, ASumAndItsNegationAreExactNegatives) {
    symbol x("x"), y("y"), z("z");
    const ex s = GiNaC::numeric(1, 3) * x + y * y - z / 7 - GiNaC::numeric(5, 11) * x * z;
    Tape tape({x, y, z}, {{s, (-s).expand()}});
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-3, 3);
    for (int trial = 0; trial < 200; ++trial) {
        const double at[3] = {u(rng), u(rng), u(rng)};
        double out[2];
        tape.evaluate(at, out);
        ASSERT_EQ(out[0], -out[1]) << at[0] << " " << at[1] << " " << at[2];
    }
}

// x + y appears in three places and x*y in two products: one instruction each.
TEST(Tape, SharesCommonSubexpressions) {
    symbol x("x"), y("y"), z("z");
    Tape tape({x, y, z}, {{GiNaC::pow(x + y, 2) + GiNaC::sin(x + y), GiNaC::cos(x + y) * x * y, x * y * z}});
    int adds_xy = 0, muls_xy = 0;
    for (const Tape::Instruction& i : tape.instructions()) {
        const bool xy = (i.a == 0 && i.b == 1) || (i.a == 1 && i.b == 0);
        if (i.op == Tape::Op::Add && xy) ++adds_xy;
        if (i.op == Tape::Op::Mul && xy) ++muls_xy;
    }
    EXPECT_EQ(adds_xy, 1) << tape.listing();
    EXPECT_EQ(muls_xy, 1) << tape.listing();
}

// Groups: evaluating the first group runs a prefix of the code and writes
// only its outputs; the Jacobian group reuses the residual's registers.
TEST(Tape, GroupsAreIncrementalAndJacobianMatchesFiniteDifferences) {
    symbol x("x"), y("y"), z("z");
    const std::vector<symbol> in{x, y, z};
    const std::vector<ex> f{GiNaC::pow(x, 2) * y - GiNaC::sin(z), GiNaC::exp(x) * z + GiNaC::pow(y, 3) - x * y * z};
    std::vector<ex> jac;
    for (const ex& fi : f)
        for (const symbol& s : in) jac.push_back(fi.diff(s));
    Tape tape(in, {f, jac});
    ASSERT_EQ(tape.group_count(), 2u);
    EXPECT_EQ(tape.group_end(0), 2u);
    std::vector<double> at{0.7, -1.3, 0.4};
    std::vector<double> out(tape.output_count(), -12345.0);
    tape.evaluate(at.data(), out.data(), 1);
    for (std::size_t k = tape.group_end(0); k < out.size(); ++k) EXPECT_EQ(out[k], -12345.0);
    tape.evaluate(at.data(), out.data());
    const double h = 1e-6;
    for (std::size_t i = 0; i < f.size(); ++i)
        for (std::size_t j = 0; j < in.size(); ++j) {
            std::vector<double> p = at, m = at, fp(tape.output_count()), fm(tape.output_count());
            p[j] += h;
            m[j] -= h;
            tape.evaluate(p.data(), fp.data(), 1);
            tape.evaluate(m.data(), fm.data(), 1);
            EXPECT_NEAR(out[tape.group_end(0) + i * in.size() + j], (fp[i] - fm[i]) / (2 * h), 1e-8) << i << "," << j;
        }
}

TEST(Tape, IntervalEnclosuresContainThePointValues) {
    symbol x("x"), y("y");
    const std::vector<ex> es{GiNaC::sin(3 * x) * GiNaC::exp(y) - GiNaC::pow(x - y, 2), GiNaC::pow(x, 4) - x * y / 7,
                             GiNaC::sqrt(1 + x * x) * GiNaC::cos(y) + GiNaC::atan(x / (1 + y * y))};
    Tape tape({x, y}, {es});
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-2.0, 2.0), w(0.0, 0.5);
    for (int trial = 0; trial < 50; ++trial) {
        const double x0 = u(rng), y0 = u(rng), wx = w(rng), wy = w(rng);
        std::vector<Interval> box{Interval(x0, x0 + wx), Interval(y0, y0 + wy)};
        std::vector<Interval> enc(es.size());
        tape.evaluate(box.data(), enc.data());
        for (int s = 0; s <= 10; ++s) {
            std::vector<double> pt{x0 + wx * s / 10, y0 + wy * (10 - s) / 10}, val(es.size());
            tape.evaluate(pt.data(), val.data());
            for (std::size_t k = 0; k < es.size(); ++k) {
                EXPECT_LE(enc[k].lower(), val[k]) << "expression " << k;
                EXPECT_GE(enc[k].upper(), val[k]) << "expression " << k;
            }
        }
    }
}

// The rounding policy: 1/3 and e are no doubles, so their enclosures must
// have two distinct bounds around the nearest double; even powers of an
// interval straddling zero start at 0 (not x*x = [-2, 4]).
TEST(Tape, IntervalsAreRoundedOutwardAndEvenPowersAreTight) {
    symbol a("a"), b("b");
    Tape tape({a, b}, {{a / b, GiNaC::exp(a), GiNaC::pow(b, 2), a / 10}});
    std::vector<Interval> in{Interval(1.0), Interval(3.0)}, out(4);
    tape.evaluate(in.data(), out.data());
    EXPECT_LT(out[0].lower(), out[0].upper());
    EXPECT_LE(out[0].lower(), 1.0 / 3.0);
    EXPECT_GE(out[0].upper(), 1.0 / 3.0);
    EXPECT_LT(out[1].lower(), out[1].upper());
    EXPECT_LE(out[1].lower(), std::exp(1.0));
    EXPECT_GE(out[1].upper(), std::exp(1.0));
    EXPECT_LE(out[3].lower(), 0.1);
    EXPECT_GE(out[3].upper(), 0.1);
    std::vector<Interval> straddle{Interval(1.0), Interval(-1.0, 2.0)};
    tape.evaluate(straddle.data(), out.data());
    EXPECT_EQ(out[2].lower(), 0.0);
    EXPECT_EQ(out[2].upper(), 4.0);
}

// An if-expression taken literally (noEvent) evaluates its chosen branch
// only: the sqrt of a negative number in the other branch does not reach the
// result. Its enclosure is the branch the condition's enclosure decides, else
// the hull of both.
TEST(Tape, ALiteralSelectEvaluatesTheChosenBranch) {
    symbol u("u"), x("x");
    Tape tape({u, x}, {{modeaudit::ma_select(u, GiNaC::sqrt(x), 0), modeaudit::ma_select_ge(u, GiNaC::sqrt(x), -1)}});
    double out[2];
    const double neg[2] = {-1, -4};
    tape.evaluate(neg, out);
    EXPECT_EQ(out[0], 0);
    EXPECT_EQ(out[1], -1);
    const double zero[2] = {0, 4};
    tape.evaluate(zero, out);
    EXPECT_EQ(out[0], 0);  // u > 0 fails at 0
    EXPECT_EQ(out[1], 2);  // u >= 0 holds
    std::vector<Interval> box{Interval(-1.0, 1.0), Interval(1.0, 4.0)}, enc(2);
    tape.evaluate(box.data(), enc.data());
    EXPECT_LE(enc[0].lower(), 0.0);
    EXPECT_GE(enc[0].upper(), 2.0);
    EXPECT_LE(enc[1].lower(), -1.0);
    std::vector<Interval> decided{Interval(0.0, 1.0), Interval(1.0, 4.0)};
    tape.evaluate(decided.data(), enc.data());
    EXPECT_LE(enc[0].lower(), 0.0);  // u > 0 is not decided at u = 0
    EXPECT_EQ(enc[1].lower(), 1.0);  // u >= 0 is: sqrt([1, 4])
    EXPECT_EQ(enc[1].upper(), 2.0);
}

TEST(Tape, UnknownSymbolsAndFunctionsAreClearErrors) {
    symbol x("x"), q("q");
    try {
        Tape t({x}, {{x + q}});
        FAIL() << "expected a TapeError";
    } catch (const TapeError& e) {
        EXPECT_NE(std::string(e.what()).find("'q' has no value"), std::string::npos) << e.what();
    }
    try {
        Tape t({x}, {{GiNaC::zeta(x)}});
        FAIL() << "expected a TapeError";
    } catch (const TapeError& e) {
        EXPECT_NE(std::string(e.what()).find("zeta"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace modeaudit::sim
