// Unit tests of records (flatten/records.h, Modelica 3.6, 4.7 and 12.6): the
// prefixes of a record component reach its fields; defaults, modifiers,
// extends and nested records; whole-record bindings through the record
// constructor (named, positional, nested) or another record component;
// arrays of records; record equations field by field; and the refusals
// (records through functions, record-valued if-expressions decided only at
// run time, constructor arguments that fit no input).
#include <gtest/gtest.h>

#include <algorithm>

#include "flatten/expression_builder.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;
using GiNaC::ex;

const char* kRecords = R"(
  partial record Rating
    parameter Real V = 100;
    parameter Real I = 10;
  end Rating;
  record Friction
    parameter Real tau = 0;
    parameter Real w = 100;
    final parameter Real d = tau/w;
  end Friction;
  record Data
    extends Rating;
    parameter Real R = 0.5;
    parameter Real L = 2*R "a default written in terms of another field";
    parameter Friction friction(tau = 1);
    parameter Real tab[2] = {1, 2};
    final parameter Real k = (V - R*I)/100;
  end Data;
  record Balance
    Real el;
    Real mech;
  end Balance;
)";

const FlatVariable& variable(const FrontEnd& fe, const std::string& name) {
    int v = fe.flat().find_variable(name);
    if (v < 0) throw std::runtime_error("no variable " + name);
    return fe.flat().variables[static_cast<std::size_t>(v)];
}

double number(const FrontEnd& fe, const std::string& name) {
    const FlatVariable& var = variable(fe, name);
    if (!var.value) throw std::runtime_error("no value for " + name);
    return numeric_value(*var.value)->to_double();
}

// An equation of the flat model whose residual is `residual` up to a factor.
bool has_equation(const FrontEnd& fe, const ex& residual) {
    for (const FlatEquation& e : fe.flat().equations)
        if (testing::proportional(e.residual(), residual)) return true;
    return false;
}

bool mentions(const FrontEnd& fe, const std::string& text) { return fe.diagnostics().find(text) != std::string::npos; }

// The flat equations that come from the source line holding `snippet`.
std::size_t equations_from(const FrontEnd& fe, const std::string& snippet) {
    const std::string_view text = fe.state.sources.contents(fe.state.file);
    const std::size_t at = text.find(snippet);
    if (at == std::string_view::npos) throw std::runtime_error("no " + snippet);
    const std::uint32_t line = fe.state.sources.locate(fe.state.file, static_cast<std::uint32_t>(at)).line;
    std::size_t n = 0;
    for (const FlatEquation& e : fe.flat().equations) n += e.range.begin.line == line ? 1 : 0;
    return n;
}

TEST(Records, ThePrefixesOfARecordComponentReachItsFieldsAndDefaultsUseTheOtherFields) {
    FrontEnd fe(std::string(kRecords) + R"(
  model M
    parameter Data d(R = 1, I = 20, friction(w = 50));
    Data free;
    constant Data fixed;
  end M;)", "flatten", "M");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_EQ(variable(fe, "d.V").variability, Variability::Parameter);  // inherited through extends
    EXPECT_EQ(variable(fe, "d.friction.d").variability, Variability::Parameter);  // nested record
    EXPECT_DOUBLE_EQ(number(fe, "d.V"), 100);
    EXPECT_DOUBLE_EQ(number(fe, "d.I"), 20);
    EXPECT_DOUBLE_EQ(number(fe, "d.L"), 2);                  // 2*R with R = 1
    EXPECT_DOUBLE_EQ(number(fe, "d.k"), (100.0 - 20) / 100);  // final field from the modified ones
    EXPECT_DOUBLE_EQ(number(fe, "d.friction.d"), 1.0 / 50);
    EXPECT_DOUBLE_EQ(number(fe, "d.tab[2]"), 2);
    // A record whose fields are declared parameters keeps them parameters;
    // `constant` makes them constants.
    EXPECT_EQ(variable(fe, "free.R").variability, Variability::Parameter);
    EXPECT_EQ(variable(fe, "fixed.R").variability, Variability::Constant);
    EXPECT_EQ(variable(fe, "fixed.friction.tau").variability, Variability::Constant);
}

TEST(Records, TheRecordConstructorGivesAWholeRecordItsFields) {
    FrontEnd fe(std::string(kRecords) + R"(
  model M
    parameter Data named = Data(R = 2, tab = {5, 6}, friction = Friction(tau = 4, w = 8));
    parameter Data positional = Data(50, 5, 1) "V, I, R: the inputs in declaration order";
    parameter Data copied = named "another record: field by field";
    parameter Data[2] list = {Data(R = 3), Data(R = 4)};
    parameter Data[2] lists = list;
    parameter Data each_[2](each R = 7);
    parameter Data modified(friction(tau = 5)) = named "the binding gives every input field";
  end M;)", "flatten", "M");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(number(fe, "named.R"), 2);
    EXPECT_DOUBLE_EQ(number(fe, "named.L"), 4);   // not given: its default, with R = 2
    EXPECT_DOUBLE_EQ(number(fe, "named.tab[1]"), 5);
    EXPECT_DOUBLE_EQ(number(fe, "named.friction.d"), 0.5);
    EXPECT_DOUBLE_EQ(number(fe, "named.k"), (100.0 - 2 * 10) / 100);
    EXPECT_DOUBLE_EQ(number(fe, "positional.V"), 50);
    EXPECT_DOUBLE_EQ(number(fe, "positional.I"), 5);
    EXPECT_DOUBLE_EQ(number(fe, "positional.R"), 1);
    EXPECT_DOUBLE_EQ(number(fe, "copied.R"), 2);
    EXPECT_DOUBLE_EQ(number(fe, "copied.tab[2]"), 6);
    EXPECT_DOUBLE_EQ(number(fe, "copied.friction.tau"), 4);
    EXPECT_DOUBLE_EQ(number(fe, "copied.friction.d"), 0.5);
    EXPECT_DOUBLE_EQ(number(fe, "list[2].R"), 4);
    EXPECT_DOUBLE_EQ(number(fe, "list[2].L"), 8);
    EXPECT_DOUBLE_EQ(number(fe, "lists[1].L"), 6);
    EXPECT_DOUBLE_EQ(number(fe, "each_[2].R"), 7);
    EXPECT_DOUBLE_EQ(number(fe, "modified.friction.tau"), 4);
    // A constructor leaves the fields it does not give at the record's
    // defaults, not at the declaration's modifiers (Data's friction(tau = 1)).
    EXPECT_DOUBLE_EQ(number(fe, "positional.friction.tau"), 1);
}

TEST(Records, ADataSetPassedDownByAModifierIsReadInEquations) {
    FrontEnd fe(std::string(kRecords) + R"(
  model Motor
    parameter Data data;
    Real i(start = 0, fixed = true);
    Real w;
  equation
    data.L*der(i) = data.V - data.R*i;
    w = data.k*i - data.friction.d;
  end Motor;
  model M
    parameter Data motorData(R = 0.25, I = 40, friction(tau = 2, w = 200));
    Motor motor(data = motorData);
  end M;)", "flatten", "M");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(number(fe, "motor.data.R"), 0.25);
    EXPECT_DOUBLE_EQ(number(fe, "motor.data.k"), (100.0 - 0.25 * 40) / 100);
    ex i = fe.var("motor.i"), w = fe.var("motor.w");
    EXPECT_TRUE(has_equation(fe, ex(GiNaC::numeric(1, 2)) * fe.der("motor.i") - (100 - GiNaC::numeric(1, 4) * i)))
        << fe.diagnostics();
    EXPECT_TRUE(has_equation(fe, w - (GiNaC::numeric(9, 10) * i - GiNaC::numeric(1, 100))));
}

TEST(Records, ARecordEquationIsOneEquationPerField) {
    FrontEnd fe(std::string(kRecords) + R"(
  model M
    Real x(start = 1, fixed = true);
    Balance a;
    Balance b;
  equation
    der(x) = -x;
    a = Balance(el = 2*x, mech = x^2);
    b = a;
  end M;)", "flatten", "M");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    ex x = fe.var("x");
    EXPECT_TRUE(has_equation(fe, fe.value("a.el") - 2 * x)) << fe.diagnostics();
    EXPECT_TRUE(has_equation(fe, fe.value("a.mech") - GiNaC::pow(x, 2)));
    // b = a: b's fields are a's (aliases).
    EXPECT_EQ(fe.value("b.mech"), fe.value("a.mech"));
    EXPECT_EQ(fe.value("b.el"), fe.value("a.el"));
    EXPECT_EQ(equations_from(fe, "a = Balance("), 2u) << "one equation per field";
}

TEST(Records, BooleanAndIntegerFieldsAndParameterConditions) {
    FrontEnd fe(R"(
  record Options
    parameter Boolean useLoss = false;
    parameter Integer n = 2;
  end Options;
  model M
    parameter Options o = Options(useLoss = true, n = 3);
    parameter Options p = o;
    Real x(start = 1, fixed = true);
  equation
    der(x) = if p.useLoss then -p.n*x else 0;
  end M;)", "flatten", "M");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(number(fe, "p.useLoss"), 1);
    EXPECT_DOUBLE_EQ(number(fe, "p.n"), 3);
    EXPECT_TRUE(has_equation(fe, fe.der("x") + 3 * fe.var("x")));
}

TEST(Records, AStringFieldIsALabelAndNoNumber) {
    // Material data sets carry their names (`parameter String label`).
    FrontEnd fe(R"(
  record Material
    parameter String label = "iron";
    parameter Real mu = 1000;
  end Material;
  model M
    parameter Material m = Material(label = "steel", mu = 800);
    parameter Material n = m;
    String note = "a description";
    Real x(start = 1, fixed = true);
  equation
    der(x) = -x/n.mu;
  end M;)", "flatten", "M");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(number(fe, "n.mu"), 800);
    EXPECT_TRUE(has_equation(fe, fe.der("x") + fe.var("x") / 800));

    FrontEnd used(R"(
  model M
    parameter String s = "abc";
    Real x = s;
  end M;)", "flatten", "M");
    EXPECT_FALSE(used.state.flat);
    EXPECT_TRUE(mentions(used, "'s' is a String; it cannot be used as a number")) << used.diagnostics();
}

TEST(Records, AnIfExpressionKnownWhenFlatteningChoosesTheRecord) {
    FrontEnd fe(std::string(kRecords) + R"(
  model M
    parameter Boolean big = true;
    parameter Data d = if big then Data(R = 9) else Data(R = 1);
  end M;)", "flatten", "M");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(number(fe, "d.R"), 9);
    EXPECT_DOUBLE_EQ(number(fe, "d.L"), 18);
}

TEST(Records, AFieldOfAConstructorCallIsItsArgumentOrTheConstructorsDefault) {
    // A record equation whose right side is a constructor: the fields not
    // given take the record's defaults, evaluated with the given fields
    // (12.6), nested records' defaults through their declarations' modifiers.
    FrontEnd fe(std::string(kRecords) + R"(
  model M
    Real R(start = 1, fixed = true);
    Data d;
  equation
    der(R) = -R;
    d = Data(R = R);
  end M;)", "flatten", "M");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    // d's fields are parameters (declared so in Data): the equations relate their values.
    ex R = fe.var("R");
    EXPECT_TRUE(has_equation(fe, 1 - 2 * R)) << "d.L = 2*R with R the given argument: " << fe.diagnostics();
    EXPECT_TRUE(has_equation(fe, GiNaC::numeric(95, 100) - (1 - R / 10))) << "d.k = (V - R*I)/100, a final field";
    EXPECT_EQ(equations_from(fe, "d = Data(R = R)"), 10u) << "one equation per scalar field of Data";
}

TEST(Records, ARecordInputOfAFunctionIsItsScalarFields) {
    // Inlined symbolically (control flow known), and evaluated numerically
    // (a branch on the model's variable), the MSL's brush voltage drop style.
    FrontEnd fe(std::string(kRecords) + R"(
  record Brush
    parameter Real V = 0.5;
    parameter Real I = 2;
    parameter Boolean on = true;
  end Brush;
  function loss
    input Real R;
    input Friction f "the final field d is passed too";
    input Real i;
    output Real p;
  algorithm
    p := R*i^2 + f.d;
  end loss;
  function drop
    input Brush b;
    input Real i;
    output Real v;
  algorithm
    if not b.on then
      v := 0;
    elseif i > b.I then
      v := b.V;
    else
      v := b.V*i/b.I;
    end if;
  end drop;
  model M
    parameter Data d(R = 3);
    parameter Brush brush(V = 1);
    Real i = time;
    Real p = loss(d.R, d.friction, i);
    Real q = loss(i = 2, f = Friction(tau = 4), R = 5);
    Real v = drop(brush, i);
    Real w = drop(brush, 3);
  end M;)", "flatten", "M");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    ex i = fe.var("i");
    EXPECT_TRUE(has_equation(fe, fe.var("p") - (3 * GiNaC::pow(i, 2) + GiNaC::numeric(1, 100)))) << fe.diagnostics();
    EXPECT_TRUE(has_equation(fe, fe.var("q") - (20 + GiNaC::numeric(4, 100))));
    EXPECT_TRUE(has_equation(fe, fe.var("w") - 1));  // 3 > I: V
    // v: a call of the compiled function (its branch depends on i).
    bool called = false;
    for (const FlatEquation& e : fe.flat().equations)
        if (e.residual().has(fe.var("v")) && !e.residual().has(GiNaC::pow(i, 2))) called = e.residual().has(i);
    EXPECT_TRUE(called) << fe.diagnostics();

    FrontEnd arrays(std::string(kRecords) + R"(
  function first
    input Data d;
    output Real t;
  algorithm
    t := d.tab[1];
  end first;
  model M
    parameter Data d;
    Real t = first(d);
  end M;)", "flatten", "M");
    EXPECT_FALSE(arrays.state.flat);
    EXPECT_TRUE(mentions(arrays, "the array field 'tab' of the record 'Data' passed to a function")) << arrays.diagnostics();
}

TEST(Records, RecordsReturnedFromFunctionsAreRefused) {
    FrontEnd in(std::string(kRecords) + R"(
  function withRecordOutput
    input Real r;
    output Data d;
  algorithm
    d.R := r;
  end withRecordOutput;
  model M
    Real x = withRecordOutput(2);
  end M;)", "flatten", "M");
    EXPECT_FALSE(in.state.flat);
    EXPECT_TRUE(in.has("flatten-unsupported-construct")) << in.diagnostics();
    EXPECT_TRUE(mentions(in, "'d' of function 'withRecordOutput' is a record (class 'Data'); records returned from "
                             "functions or held in their protected variables are outside the subset"))
        << in.diagnostics();

    FrontEnd out(std::string(kRecords) + R"(
  function make
    input Real r;
    output Data d;
  algorithm
    d.R := r;
  end make;
  function make2
    input Real r;
    output Balance b;
  algorithm
    b.el := r;
    b.mech := r;
  end make2;
  model M
    Balance b;
  equation
    b = make2(2);
  end M;)", "flatten", "M");
    EXPECT_FALSE(out.state.flat);
    EXPECT_TRUE(out.has("flatten-unsupported-construct")) << out.diagnostics();
    EXPECT_TRUE(mentions(out, "'make2(2)' returns a record (of the function 'make2')")) << out.diagnostics();
}

TEST(Records, ARecordValuedIfExpressionDecidedOnlyAtRunTimeIsRefused) {
    FrontEnd fe(std::string(kRecords) + R"(
  model M
    Balance b;
  equation
    b = if time > 1 then Balance(el = 1, mech = 2) else Balance(el = 0, mech = 0);
  end M;)", "flatten", "M");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_TRUE(fe.has("flatten-unsupported-construct")) << fe.diagnostics();
    EXPECT_TRUE(mentions(fe, "record-valued if-expression whose condition is not known when flattening"))
        << fe.diagnostics();
}

TEST(Records, ConstructorArgumentsThatFitNoInputAreRefused) {
    auto refused = [](const std::string& binding, const std::string& why) {
        FrontEnd fe(std::string(kRecords) + "model M parameter Data d = " + binding + "; end M;", "flatten", "M");
        EXPECT_FALSE(fe.state.flat) << binding;
        EXPECT_TRUE(fe.has("flatten-type-mismatch")) << binding << ": " << fe.diagnostics();
        EXPECT_TRUE(mentions(fe, why)) << binding << ": " << fe.diagnostics();
    };
    refused("Data(Rx = 1)", "the record has no field 'Rx'");
    refused("Data(k = 1)", "the field 'k' is final, so it is no input of the record constructor");
    refused("Data(1, 2, 3, 4, Friction(), {1, 2}, 5)", "too many arguments: the record constructor has 6 inputs");
    refused("Data(R = 1, R = 2)", "the field 'R' is given twice");
    refused("Friction(tau = 1)", "lacks the field 'V'");
}

TEST(Records, OnlyRecordsTakeAWholeBindingAndAConstructorIsNoNumber) {
    FrontEnd model(std::string(kRecords) + R"(
  model Part
    Real x = 1;
  end Part;
  model M
    Part a;
    Part b = a;
  end M;)", "flatten", "M");
    EXPECT_FALSE(model.state.flat);
    EXPECT_TRUE(mentions(model, "a binding of the whole component 'b' (a model value) is not supported"))
        << model.diagnostics();

    FrontEnd number_(std::string(kRecords) + R"(
  model M
    Real x = Friction(tau = 1);
  end M;)", "flatten", "M");
    EXPECT_FALSE(number_.state.flat);
    EXPECT_TRUE(mentions(number_, "constructs a record value, used here where a number"))
        << number_.diagnostics();
}

}  // namespace
}  // namespace modeaudit
