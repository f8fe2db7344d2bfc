within Drives;
package Tables "Interpolation tables kept in an external object, read through an external function"
  type Smoothness = enumeration(
    ConstantSegments "piecewise constant",
    LinearSegments "piecewise linear",
    ContinuousDerivative "spline") "How the table is interpolated (literals in an order of this library's own)";
  type Extrapolation = enumeration(
    LastTwoPoints "continue the first and last segments",
    HoldLastPoint "hold the first and last values",
    Periodic "repeat the table") "How the table is read outside its abscissa";

  class Table1D "One-dimensional table held by external code"
    extends ExternalObject;

    function constructor "Hand the matrix to the external code"
      input String tableName "table in a file (unused for a matrix)";
      input String fileName "file to read, NoName for the matrix";
      input Real table[:, :] "abscissa in column 1";
      input Integer columns[:] "the columns read";
      input Smoothness smoothness;
      input Extrapolation extrapolation = Extrapolation.LastTwoPoints;
      output Table1D object;
    external "C" object = ModelicaStandardTables_CombiTable1D_init2(fileName, tableName, table,
      size(table, 1), size(table, 2), columns, size(columns, 1), smoothness, extrapolation);
    end constructor;

    function destructor "Release the external table"
      input Table1D object;
    external "C" ModelicaStandardTables_CombiTable1D_close(object);
    end destructor;
  end Table1D;

  function valueAt "Value of output column icol at abscissa u"
    input Table1D table;
    input Integer icol;
    input Real u;
    output Real y;
  external "C" y = ModelicaStandardTables_CombiTable1D_getValue(table, icol, u);
  end valueAt;
end Tables;
