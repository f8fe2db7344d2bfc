// One-dimensional table objects: the Modelica Standard Library's
// interpolation table held in an external object, read as an expression.
//
// Part of the flatten stage. The MSL keeps a table given as a matrix in an
// external object (a class extending ExternalObject whose constructor calls
// the C function ModelicaStandardTables_CombiTable1D_init*) and reads it
// through functions that call ModelicaStandardTables_CombiTable1D_getValue
// (its friction characteristics: Clutch, Brake, OneWayClutch). No C code is
// called here: the constructor's arguments (the matrix, the columns, the
// smoothness and extrapolation literals) are recorded, and each call of the
// value function becomes the interpolation as an expression of its
// abscissa. Linear segments are selected by ma_select_ge on the abscissa
// against the breakpoints, like a relation inside noEvent: an external
// function's body generates no event (Modelica 3.6, 8.5), and the
// derivative is the selected segment's slope.
//
// Supported: a table read from the matrix (fileName "NoName"), linear
// segments (or any smoothness for a single row, whose value is constant),
// extrapolation by the last two points or by holding the last point.
// Anything else is named as unsupported where the model uses it.
#pragma once

#include <ginac/ginac.h>

#include <string>
#include <vector>

#include "parse/ast.h"

namespace modeaudit::flat {

struct Table1D {
    std::vector<std::vector<GiNaC::ex>> rows;  // the matrix: abscissa in column 1
    std::vector<long> columns;                 // the table columns the outputs read (1-based)
    std::string smoothness = "LinearSegments";       // the enumeration literal's name
    std::string extrapolation = "LastTwoPoints";     // the enumeration literal's name
};

// A class that extends ExternalObject and constructs a 1-D table.
bool is_table1d_class(const ast::ClassDef& cls);
// A function whose body calls ModelicaStandardTables_CombiTable1D_getValue.
bool is_table1d_value_function(const ast::ClassDef& fn);
// The nested `constructor` function of an external object class, or null.
const ast::ClassDef* external_object_constructor(const ast::ClassDef& cls);

// Why `t` cannot be read as an expression here ("" when it can): an empty
// matrix, a column out of range, an abscissa that is not a strictly
// increasing list of numbers, an unsupported smoothness or extrapolation.
std::string table_problem(const Table1D& t);

// Output `icol` (1-based into t.columns) of the table at abscissa u; t must
// have no table_problem and icol must be in range.
GiNaC::ex table_value(const Table1D& t, long icol, const GiNaC::ex& u);

}  // namespace modeaudit::flat
