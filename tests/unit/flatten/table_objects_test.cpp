// One-dimensional table objects (flatten/table_objects.h): the
// interpolation expression on numbers, the problems refused, and a model
// that keeps its table in an external object, simulated against its closed
// form.
#include <gtest/gtest.h>

#include <cmath>

#include "flatten/expression_builder.h"
#include "flatten/table_objects.h"
#include "simulation/simulation.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using flat::Table1D;
using GiNaC::ex;
using testing::FrontEnd;

double at(const Table1D& t, long icol, double u) {
    const ex v = flat::table_value(t, icol, GiNaC::numeric(u)).evalf();
    EXPECT_TRUE(GiNaC::is_a<GiNaC::numeric>(v)) << v;
    return GiNaC::ex_to<GiNaC::numeric>(v).to_double();
}

Table1D three_rows() {
    Table1D t;
    t.rows = {{0, 0, 5}, {1, 2, 5}, {2, 3, 5}};
    t.columns = {3, 2};
    return t;
}

TEST(TableObjects, LinearSegmentsBetweenAndBeyondTheBreakpoints) {
    const Table1D t = three_rows();
    ASSERT_EQ(flat::table_problem(t), "");
    EXPECT_DOUBLE_EQ(at(t, 2, 0.5), 1);
    EXPECT_DOUBLE_EQ(at(t, 2, 1), 2);
    EXPECT_DOUBLE_EQ(at(t, 2, 1.5), 2.5);
    EXPECT_DOUBLE_EQ(at(t, 2, -1), -2);  // the first segment continued
    EXPECT_DOUBLE_EQ(at(t, 2, 4), 5);    // the last segment continued
    EXPECT_DOUBLE_EQ(at(t, 1, 1.3), 5);  // output 1 reads table column 3
}

TEST(TableObjects, HoldLastPointAndASingleRow) {
    Table1D t = three_rows();
    t.extrapolation = "HoldLastPoint";
    EXPECT_DOUBLE_EQ(at(t, 2, -1), 0);
    EXPECT_DOUBLE_EQ(at(t, 2, 4), 3);
    EXPECT_DOUBLE_EQ(at(t, 2, 1.5), 2.5);
    Table1D one;
    one.rows = {{0, 0.5}};
    one.columns = {2};
    one.smoothness = "ContinuousDerivative";  // any smoothness: one row is a constant
    ASSERT_EQ(flat::table_problem(one), "");
    EXPECT_DOUBLE_EQ(at(one, 1, 7), 0.5);
}

TEST(TableObjects, TheSlopeIsTheSelectedSegments) {
    const GiNaC::symbol u("u");
    const ex y = flat::table_value(three_rows(), 2, u);
    const ex dy = y.diff(u);
    EXPECT_DOUBLE_EQ(GiNaC::ex_to<GiNaC::numeric>(dy.subs(u == 0.5).evalf()).to_double(), 2);
    EXPECT_DOUBLE_EQ(GiNaC::ex_to<GiNaC::numeric>(dy.subs(u == 1.5).evalf()).to_double(), 1);
}

TEST(TableObjects, ProblemsAreNamed) {
    Table1D t = three_rows();
    t.rows[2][0] = 1;
    EXPECT_NE(flat::table_problem(t).find("not strictly increasing: table[3, 1] = 1 follows 1"), std::string::npos)
        << flat::table_problem(t);
    t = three_rows();
    t.rows[1][0] = GiNaC::symbol("p");
    EXPECT_NE(flat::table_problem(t).find("not a number known when flattening"), std::string::npos);
    t = three_rows();
    t.columns = {4};
    EXPECT_NE(flat::table_problem(t).find("column 4 is selected, but the table has 3 columns"), std::string::npos);
    t = three_rows();
    t.smoothness = "ConstantSegments";
    EXPECT_NE(flat::table_problem(t).find("smoothness = ConstantSegments is not supported"), std::string::npos);
    t = three_rows();
    t.extrapolation = "Periodic";
    EXPECT_NE(flat::table_problem(t).find("extrapolation = Periodic is not supported"), std::string::npos);
    t.rows.clear();
    EXPECT_EQ(flat::table_problem(t), "the table is an empty matrix");
}

// A table package in the standard library's style. Its enumerations list
// their literals in an order of their own: literals are matched by name.
const char* kTables = R"(
package Tables
  type Smoothness = enumeration(ConstantSegments, LinearSegments, ContinuousDerivative);
  type Extrapolation = enumeration(LastTwoPoints, HoldLastPoint, Periodic);
  class Table
    extends ExternalObject;
    function constructor
      input String tableName; input String fileName; input Real table[:, :]; input Integer columns[:];
      input Smoothness smoothness; input Extrapolation extrapolation = Extrapolation.LastTwoPoints;
      output Table t;
    external "C" t = ModelicaStandardTables_CombiTable1D_init2(fileName, tableName, table, size(table, 1),
      size(table, 2), columns, size(columns, 1), smoothness, extrapolation);
    end constructor;
    function destructor input Table t; external "C" ModelicaStandardTables_CombiTable1D_close(t); end destructor;
  end Table;
  function valueAt input Table table; input Integer icol; input Real u; output Real y;
  external "C" y = ModelicaStandardTables_CombiTable1D_getValue(table, icol, u);
  end valueAt;
end Tables;
)";

std::string braked(const std::string& file, const std::string& smoothness, const std::string& extrapolation) {
    return std::string(kTables) + R"(
model M
  parameter Real d[:, 3] = [0, 0, 5; 1, 2, 5; 2, 3, 5];
  parameter Tables.Smoothness smoothness = Tables.Smoothness.)" +
           smoothness + R"(;
  final parameter Tables.Table tab = Tables.Table("NoName", )" +
           file + R"(, d, {3, 2}, smoothness, Tables.Extrapolation.)" + extrapolation + R"();
  Real w(start = 2, fixed = true);
equation
  der(w) = -Tables.valueAt(tab, 2, w);
end M;
)";
}

TEST(TableObjects, AModelKeepingItsTableInAnExternalObjectSimulates) {
    FrontEnd fe(braked("if false then \"data.csv\" else \"NoName\"", "LinearSegments", "LastTwoPoints"),
                "structure", "M");
    ASSERT_TRUE(fe.state.structure) << fe.diagnostics();
    EXPECT_EQ(fe.modes().modes.size(), 1u);  // the breakpoint makes no mode
    SimulationOptions o;
    o.stop_time = 2;
    SimulationResult r = simulate(fe.flat(), fe.modes(), *fe.state.structure, o, supplied_restart(*fe.state.structure));
    ASSERT_EQ(r.stopped_because, StopReason::StopTime) << (r.messages.empty() ? "" : r.messages.front());
    EXPECT_TRUE(r.events.empty());
    // w' = -(w + 1) until w = 1 at t1 = ln 1.5, then w' = -2w.
    EXPECT_NEAR(r.final_values.at("w"), 2.25 * std::exp(-4.0), 1e-6);
}

TEST(TableObjects, UnsupportedTablesAreRefusedWhereTheyAreConstructed) {
    FrontEnd file(braked("\"data.csv\"", "LinearSegments", "LastTwoPoints"), "flatten", "M");
    EXPECT_FALSE(file.state.flat);
    EXPECT_NE(file.diagnostics().find("read from the file \"data.csv\""), std::string::npos) << file.diagnostics();
    FrontEnd spline(braked("\"NoName\"", "ContinuousDerivative", "LastTwoPoints"), "flatten", "M");
    EXPECT_FALSE(spline.state.flat);
    EXPECT_NE(spline.diagnostics().find("table 'tab': smoothness = ContinuousDerivative is not supported"),
              std::string::npos)
        << spline.diagnostics();
    FrontEnd periodic(braked("\"NoName\"", "LinearSegments", "Periodic"), "flatten", "M");
    EXPECT_NE(periodic.diagnostics().find("extrapolation = Periodic is not supported"), std::string::npos)
        << periodic.diagnostics();
}

TEST(TableObjects, OtherExternalObjectsStayRefused) {
    FrontEnd fe(R"(
      class Handle extends ExternalObject;
        function constructor output Handle h; external "C" h = open_handle(); end constructor;
        function destructor input Handle h; external "C" close_handle(h); end destructor;
      end Handle;
      model M
        Handle h = Handle();
        Real x(start = 1, fixed = true);
      equation
        der(x) = -x;
      end M;
    )",
                "flatten", "M");
    EXPECT_FALSE(fe.state.flat);
    EXPECT_TRUE(fe.has("flatten-unsupported-construct"));
    EXPECT_NE(fe.diagnostics().find("'h' is an external object"), std::string::npos) << fe.diagnostics();
}

}  // namespace
}  // namespace modeaudit
