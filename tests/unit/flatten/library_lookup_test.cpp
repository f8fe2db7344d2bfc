// Unit tests of lookup through packages, imports and libraries
// (flatten/lookup.h), and of the instantiation constructs that come with
// libraries: package constants, conditional components, enumerations and
// StateSelect, `within`, refusals only where a class is used. Libraries are
// written into temporary directories by the tests themselves.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "flatten/expression_builder.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

namespace fs = std::filesystem;
using testing::FrontEnd;
using GiNaC::ex;

struct TempDir {
    fs::path path;
    TempDir() {
        std::string templ = (fs::temp_directory_path() / "modeaudit-lookup-XXXXXX").string();
        path = mkdtemp(templ.data());
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    void write(const std::string& rel, const std::string& text) const {
        fs::create_directories((path / rel).parent_path());
        std::ofstream(path / rel) << text;
    }
};

// A small library in the layout of a standard one.
struct Lib : TempDir {
    Lib() {
        write("Lib/package.mo", "within;\npackage Lib\n  constant Real g = 9.81;\nend Lib;\n");
        write("Lib/package.order", "Constants\nUnits\nInterfaces\nParts\ng\n");
        write("Lib/Constants.mo",
              "within Lib;\npackage Constants\n  constant Real pi = 3.25;\n"
              "  constant Real two_pi = 2*pi;\n  parameter Real notConstant = 1;\nend Constants;\n");
        write("Lib/Units.mo", "within Lib;\npackage Units\n  type Voltage = Real(unit = \"V\");\n"
                              "  type Mode = enumeration(Off, Low, High);\nend Units;\n");
        write("Lib/Interfaces/package.mo", "within Lib;\npackage Interfaces\n  import SI = Lib.Units;\nend Interfaces;\n");
        write("Lib/Interfaces/Pin.mo",
              "within Lib.Interfaces;\nconnector Pin\n  SI.Voltage v;\n  flow Real i;\nend Pin;\n");
        write("Lib/Interfaces/Heated.mo",
              "within Lib.Interfaces;\npartial model Heated\n  parameter Boolean useHeat = false;\n"
              "  Pin heat(final v = T) if useHeat;\n  Real T;\nend Heated;\n");
        write("Lib/Parts.mo",
              "within Lib;\npackage Parts\n  import Lib.Constants.*;\n"
              "  model Osc\n    parameter Real w = two_pi;\n    Real x(start = 1, fixed = true), v(start = 0, fixed = true);\n"
              "  equation\n    der(x) = v;\n    der(v) = -w^2*x;\n  end Osc;\n"
              "  model Part\n    extends Lib.Interfaces.Heated;\n    Lib.Interfaces.Pin p;\n"
              "  equation\n    p.v = T;\n  end Part;\n"
              "  model Unused\n    Real y;\n  equation\n    y = ext(time);\n  end Unused;\n"
              "  function ext\n    input Real u;\n    output Real y;\n  external \"C\" y = ext_c(u);\n  end ext;\n"
              "end Parts;\n");
    }
    std::vector<std::string> libs() const { return {path.string()}; }
};

double value_of(const FrontEnd& fe, const std::string& name) {
    int v = fe.flat().find_variable(name);
    if (v < 0) throw std::runtime_error("no variable " + name);
    auto n = numeric_value(*fe.flat().variables[static_cast<std::size_t>(v)].value);
    return n->to_double();
}

TEST(LibraryLookup, FullNamesAndPackageConstants) {
    Lib lib;
    FrontEnd fe("model M\n  parameter Real a = Lib.Constants.pi + Lib.g;\n  Lib.Parts.Osc o;\nend M;\n",
                lib.libs(), "flatten", "");
    ASSERT_FALSE(fe.result.stopped_on_input_error) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(value_of(fe, "a"), 3.25 + 9.81);
    // two_pi through the unqualified import of Lib.Constants in Lib.Parts.
    EXPECT_DOUBLE_EQ(value_of(fe, "o.w"), 6.5);
}

TEST(LibraryLookup, TheFourKindsOfImport) {
    Lib lib;
    const char* model =
        "model M\n"
        "  import Lib.Constants;\n"            // qualified
        "  import Lib.Constants.two_pi;\n"     // single
        "  import Lib.Units.*;\n"              // unqualified
        "  import P = Lib.Parts;\n"            // renaming
        "  parameter Real a = Constants.pi;\n"
        "  parameter Real b = two_pi;\n"
        "  Voltage u = 1;\n"
        "  P.Osc o;\n"
        "end M;\n";
    FrontEnd fe(model, lib.libs(), "flatten", "");
    ASSERT_FALSE(fe.result.stopped_on_input_error) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(value_of(fe, "a"), 3.25);
    EXPECT_DOUBLE_EQ(value_of(fe, "b"), 6.5);
    const FlatVariable& u = fe.flat().variables[static_cast<std::size_t>(fe.flat().find_variable("u"))];
    ASSERT_TRUE(u.unit);
    EXPECT_EQ(*u.unit, "V");
}

TEST(LibraryLookup, DeclaredButNotReachableSaysHowToWriteIt) {
    Lib lib;
    FrontEnd fe("model M\n  parameter Real a = Constants.pi;\nend M;\n", lib.libs(), "flatten", "");
    ASSERT_TRUE(fe.result.stopped_on_input_error);
    std::string d = fe.diagnostics();
    EXPECT_NE(d.find("'Constants.pi' is not declared"), std::string::npos) << d;
    EXPECT_NE(d.find("declared as 'Lib.Constants.pi'"), std::string::npos) << d;
    EXPECT_NE(d.find("import Lib.Constants;"), std::string::npos) << d;
}

TEST(LibraryLookup, OnlyConstantsOfPackagesCanBeUsed) {
    Lib lib;
    FrontEnd fe("model M\n  parameter Real a = Lib.Constants.notConstant;\nend M;\n", lib.libs(), "flatten", "");
    ASSERT_TRUE(fe.result.stopped_on_input_error);
    EXPECT_NE(fe.diagnostics().find("is not a constant"), std::string::npos) << fe.diagnostics();
}

TEST(LibraryLookup, AClassNameWithoutAModelFile) {
    Lib lib;
    FrontEnd fe("", lib.libs(), "flatten", "Lib.Parts.Osc");
    ASSERT_FALSE(fe.result.stopped_on_input_error) << fe.diagnostics();
    EXPECT_EQ(fe.flat().name, "Osc");
    EXPECT_GE(fe.flat().find_variable("x"), 0);
    FrontEnd missing("", lib.libs(), "flatten", "Lib.Parts.Nothing");
    ASSERT_TRUE(missing.result.stopped_on_input_error);
    EXPECT_NE(missing.diagnostics().find("no such class in the file or the libraries"), std::string::npos);
}

// A package that extends a class it declares itself (the Compliance
// suite's root: `extends Icons.TestPackage;`): the base name is looked up
// in the package, its inherited elements excluded (Modelica 3.6, 7.1.1).
TEST(LibraryLookup, APackageExtendsAClassItDeclares) {
    TempDir dir;
    dir.write("Own/package.mo",
              "within;\npackage Own\n  extends Icons.Base;\n  package Icons\n    partial package Base\n"
              "      constant Real k = 2;\n    end Base;\n  end Icons;\n"
              "  model M\n    parameter Real a = k;\n    Real x(start = 1, fixed = true);\n"
              "  equation\n    der(x) = -a*x;\n  end M;\nend Own;\n");
    FrontEnd fe("", {dir.path.string()}, "flatten", "Own.M");
    ASSERT_FALSE(fe.result.stopped_on_input_error) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(value_of(fe, "a"), 2);  // k inherited by Own from its own Icons.Base
}

// The search for where an unresolved name is declared reads packages the
// model never uses; their own parse errors are not reported with it.
TEST(LibraryLookup, TheHintSearchDoesNotReportUnrelatedFiles) {
    TempDir dir;
    dir.write("Pack/package.mo", "within;\npackage Pack\nend Pack;\n");
    dir.write("Pack/Broken/package.mo", "within Pack;\npackage Broken\n  model B\n    Real x = (;\n  end B;\nend Broken;\n");
    dir.write("Pack/Parts/package.mo", "within Pack;\npackage Parts\n  model Wanted\n  end Wanted;\nend Parts;\n");
    FrontEnd fe("model M\n  Wanted w;\nend M;\n", {dir.path.string()}, "flatten", "");
    ASSERT_TRUE(fe.result.stopped_on_input_error);
    const std::string d = fe.diagnostics();
    EXPECT_NE(d.find("declared as 'Pack.Parts.Wanted'"), std::string::npos) << d;
    EXPECT_FALSE(fe.has("parse-syntax-error")) << d;
}

TEST(LibraryLookup, UnusedClassesAreNeverRefusedUsedOnesAreWithTheirLocation) {
    Lib lib;
    // Lib.Parts holds an external function; Osc does not use it.
    FrontEnd ok("model M\n  Lib.Parts.Osc o;\nend M;\n", lib.libs(), "flatten", "");
    EXPECT_FALSE(ok.result.stopped_on_input_error) << ok.diagnostics();
    FrontEnd bad("model M\n  Lib.Parts.Unused u;\nend M;\n", lib.libs(), "flatten", "");
    ASSERT_TRUE(bad.result.stopped_on_input_error);
    ASSERT_TRUE(bad.has("flatten-unsupported-construct")) << bad.diagnostics();
    std::string d = bad.diagnostics();
    EXPECT_NE(d.find("Parts.mo:25:3:"), std::string::npos) << d;  // the external clause, where it is written
    // The same within the model's own file.
    FrontEnd own("function f\n  input Real u;\n  output Real y;\nalgorithm\n  y := u;\n"
                 "  while y > 1 loop\n    y := y/2;\n  end while;\nend f;\n"
                 "model M\n  Real x(start = 1, fixed = true);\nequation\n  der(x) = -x;\nend M;\n",
                 "flatten");
    EXPECT_FALSE(own.result.stopped_on_input_error) << own.diagnostics();
}

TEST(LibraryLookup, ConditionalComponentsAndTheirConnections) {
    Lib lib;
    const char* model =
        "model M\n"
        "  Lib.Parts.Part off;\n"
        "  Lib.Parts.Part on(useHeat = true);\n"
        "  Lib.Interfaces.Pin a, b;\n"
        "equation\n"
        "  connect(off.heat, a) \"dropped\";\n"
        "  connect(on.heat, b);\n"
        "  off.T = 1;\n"
        "  on.T = 2;\n"
        "  a.v = 0;\n"
        "  b.i = 0;\n"
        "end M;\n";
    FrontEnd fe(model, lib.libs(), "flatten", "");
    ASSERT_FALSE(fe.result.stopped_on_input_error) << fe.diagnostics();
    EXPECT_LT(fe.flat().find_variable("off.heat.v"), 0);
    EXPECT_GE(fe.flat().find_variable("on.heat.v") + fe.flat().find_variable("b.v") + 1, 0);
    // Using an absent component outside connect is an error that says why.
    FrontEnd use(
        "model M\n  Lib.Parts.Part off;\n  Real y;\nequation\n  off.T = 1;\n  y = off.heat.v;\nend M;\n",
        lib.libs(), "flatten", "");
    ASSERT_TRUE(use.result.stopped_on_input_error);
    EXPECT_NE(use.diagnostics().find("condition is false"), std::string::npos) << use.diagnostics();
}

TEST(LibraryLookup, ConditionMustBeKnownWhenFlattening) {
    FrontEnd fe("connector C\n  Real v;\n  flow Real i;\nend C;\n"
                "model M\n  Boolean b = time > 1;\n  C c if b;\nend M;\n",
                "flatten");
    ASSERT_TRUE(fe.result.stopped_on_input_error);
    EXPECT_NE(fe.diagnostics().find("must be a parameter expression"), std::string::npos) << fe.diagnostics();
}

TEST(LibraryLookup, EnumerationsLiteralsComparisonsAndInteger) {
    Lib lib;
    const char* model =
        "model M\n"
        "  import Lib.Units.Mode;\n"
        "  parameter Mode m = Mode.High;\n"
        "  parameter Integer k = Integer(Mode.Low);\n"
        "  parameter Boolean high = m == Mode.High;\n"
        "  parameter Boolean ordered = Mode.Off < Mode.Low;\n"
        "  Mode state(start = Mode.Off);\n"
        "  Real x(start = 1, fixed = true, stateSelect = StateSelect.prefer);\n"
        "equation\n"
        "  der(x) = if m == Mode.High then -2*x else -x;\n"
        "  when x < 0.5 then\n"
        "    state = Mode.Low;\n"
        "  end when;\n"
        "end M;\n";
    FrontEnd fe(model, lib.libs(), "flatten", "");
    ASSERT_FALSE(fe.result.stopped_on_input_error) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(value_of(fe, "m"), 3);
    EXPECT_DOUBLE_EQ(value_of(fe, "k"), 2);
    EXPECT_DOUBLE_EQ(value_of(fe, "high"), 1);
    EXPECT_DOUBLE_EQ(value_of(fe, "ordered"), 1);
    FrontEnd wrong("model M\n  parameter Real a = StateSelect.sometimes;\nend M;\n", "flatten");
    ASSERT_TRUE(wrong.result.stopped_on_input_error);
}

TEST(LibraryLookup, WithinPlacesTheModelFileInAPackage) {
    Lib lib;
    FrontEnd fe("within Lib.Parts;\nmodel Mine\n  Osc o(w = two_pi);\n  parameter Real a = g;\nend Mine;\n",
                lib.libs(), "flatten", "");
    ASSERT_FALSE(fe.result.stopped_on_input_error) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(value_of(fe, "a"), 9.81);
    EXPECT_DOUBLE_EQ(value_of(fe, "o.w"), 6.5);
}

TEST(LibraryLookup, ConstantsOfTheModelFilesOwnPackages) {
    FrontEnd fe("package P\n  constant Real c = 2;\n  constant Real d = c + 1;\n"
                "  model M\n    parameter Real a = d;\n    parameter Real b = P.c;\n  end M;\nend P;\n",
                "flatten", "P.M");
    ASSERT_FALSE(fe.result.stopped_on_input_error) << fe.diagnostics();
    EXPECT_DOUBLE_EQ(value_of(fe, "a"), 3);
    EXPECT_DOUBLE_EQ(value_of(fe, "b"), 2);
}

TEST(LibraryLookup, FinalElementsCannotBeModifiedAgain) {
    const char* base =
        "connector Pin\n  Real v;\n  flow Real i;\nend Pin;\n"
        "model Part\n  final parameter Real k = 2;\n  Real T = 1;\n  Pin p(final v = T);\nequation\n  p.i = 0;\nend Part;\n";
    FrontEnd ok(std::string(base) + "model M\n  Part a;\nend M;\n", "flatten");
    EXPECT_FALSE(ok.result.stopped_on_input_error) << ok.diagnostics();
    FrontEnd decl(std::string(base) + "model M\n  Part a(k = 3);\nend M;\n", "flatten");
    ASSERT_TRUE(decl.result.stopped_on_input_error);
    EXPECT_NE(decl.diagnostics().find("'a.k' is final"), std::string::npos) << decl.diagnostics();
    FrontEnd nested(std::string(base) + "model M\n  Part a(p(v = 1));\nend M;\n", "flatten");
    ASSERT_TRUE(nested.result.stopped_on_input_error);
    EXPECT_NE(nested.diagnostics().find("'a.p.v' is final"), std::string::npos) << nested.diagnostics();
    FrontEnd ext(std::string(base) + "model Q\n  extends Part(final T = 5);\nend Q;\nmodel M\n  Q q(T = 6);\nend M;\n",
                 "flatten");
    ASSERT_TRUE(ext.result.stopped_on_input_error);
    EXPECT_NE(ext.diagnostics().find("'q.T' is final"), std::string::npos) << ext.diagnostics();
}

}  // namespace
}  // namespace modeaudit
