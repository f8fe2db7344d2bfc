// Records (Modelica 3.6, 4.7 and 12.6): the fields of a record class and the
// arguments of its constructor.
//
// Part of the flatten stage, used by the flattener while instantiating. A
// record component is an instance like any other (its fields are flat
// variables `r.a`, read as `r.a`); what is particular to records is how a
// whole record gets a value:
//  - a binding `R r = R(a = 1)` (or the modifier `data = R(...)`) is the
//    record constructor function of 12.6: its named and positional
//    arguments become modifiers of the fields, and the fields not given keep
//    their own declaration's value (evaluated in the record, so that a
//    default written in terms of other fields uses their values);
//  - a binding `R r = other` (a record component) gives each field the
//    corresponding field of `other` (a binding with a path, instance.h's
//    Selector), except the fields that are not inputs of the constructor
//    (final or constant with a value, protected), whose own bindings give
//    the same values;
//  - an equation `r1 = r2` (or `r = R(...)`) is one equation per scalar
//    field, in declaration order.
// A record input of a function is its scalar fields (function_compiler.h's
// RecordInput). A record returned by a function, a record-valued
// if-expression whose condition is not known when flattening and operator
// records are outside the subset and refused where they are used.
//
// This header holds what needs no flattener state; records.cpp also
// implements the Flattener's record methods (flattener_impl.h: the binding
// of a whole record, the part of a value a binding path reaches, record
// equations).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "flatten/instance.h"
#include "flatten/lookup.h"
#include "parse/ast.h"

namespace modeaudit::flat {

struct RecordField {
    std::string name;
    const ast::ComponentClause* clause = nullptr;
    const ast::ComponentDecl* decl = nullptr;
    const LexScope* lex = nullptr;  // the scope of the class declaring it
    bool is_protected = false;
    // An input of the record constructor (12.6): public, not final, and not
    // a constant with a value.
    bool input = false;
};

// Whether a class is a record (after short class definitions `record S = R;`).
bool is_record_class(Lookup& lookup, ClassHit cls);

// The fields of a record class, inherited ones first (in the order of its
// extends clauses), each once.
std::vector<RecordField> record_fields(Lookup& lookup, ClassHit record);

// The argument given for each input of a constructor call `R(1, b = 2)`:
// positional arguments in the order of the inputs, then named ones. On a
// misfit (too many, an unknown or non-input name, a field given twice)
// returns false with `error` and the argument's range in `where`.
bool constructor_arguments(const ast::Expr& call, const std::vector<RecordField>& fields,
                           std::map<std::string, const ast::Expr*>& out, std::string& error, SourceRange& where);

}  // namespace modeaudit::flat
