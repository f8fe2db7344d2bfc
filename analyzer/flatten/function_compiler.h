// User functions: their parts, and their compilation for numeric evaluation
// (flatten stage).
//
// collect_function gathers what a function declares, its base functions'
// elements first (`extends` in a function, Modelica 3.6, 12.2): inputs,
// outputs and protected variables in declaration order, and the algorithm
// sections. The flattener inlines a function symbolically from these parts
// where it can (function_inlining.cpp); compile_function turns them into the
// interpreter's form (function_ir.h) where it cannot.
//
// External functions: those of the Modelica.Math package are declared
// `external "builtin"` (or "C") and call the C library's function of the
// same name; external_builtin names that built-in, and the flattener maps
// the call to it. Any other external function is refused, naming it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/rules.h"
#include "flatten/function_ir.h"
#include "flatten/lookup.h"
#include "parse/ast.h"

namespace modeaudit::flat {

struct FunctionVariable {
    std::string name;
    const ast::ComponentClause* clause = nullptr;
    const ast::ComponentDecl* decl = nullptr;
    const LexScope* lex = nullptr;  // where the declaration is written
    bool input = false, output = false;
    bool boolean = false, integer = false;
};

// An input of record type (Modelica 3.6, 12.6): one scalar input per field,
// named "r.a", "r.sub.b" (the body reads them as r.a, r.sub.b); the
// argument's fields are taken by `paths`.
struct RecordInput {
    std::string name;
    std::vector<std::string> leaves;           // the scalar inputs, as in `inputs`
    std::vector<std::vector<Selector>> paths;  // each leaf's field path in the argument
};

// A scalar field of a record, for RecordInput.
struct RecordLeaf {
    std::string name;  // "a", "sub.b"
    std::vector<Selector> path;
    bool boolean = false, integer = false;
};

struct FunctionParts {
    ClassHit fn;
    std::vector<FunctionVariable> variables;  // declaration order, bases first
    // Scalar inputs (record inputs as their fields), and outputs.
    std::vector<std::string> inputs, outputs;
    // The inputs as declared (a record input once), for matching arguments.
    std::vector<std::string> declared_inputs;
    std::vector<RecordInput> record_inputs;
    const RecordInput* record_input(const std::string& name) const;
    std::vector<std::pair<const ast::AlgorithmSection*, const LexScope*>> algorithms;
    const FunctionVariable* find(const std::string& name) const;
};

// What the compiler needs from the flattener.
class FunctionHost {
public:
    virtual ~FunctionHost() = default;
    [[noreturn]] virtual void refuse(const Rule& r, SourceRange where, std::string msg) = 0;
    virtual ClassHit find_class(const ast::ComponentRef& ref, const LexScope* from) = 0;
    // The numeric value of a name that is not a variable of the function (a
    // constant of a package, an enumeration literal); refuses otherwise.
    virtual double constant(const ast::Expr& ref, const LexScope* from) = 0;
    // Refuses the unsupported constructs written in the class (once).
    virtual void check_class(const ast::ClassDef& cls) = 0;
    // The scalar fields of a record class (refusing array and String fields).
    virtual std::vector<RecordLeaf> record_leaves(ClassHit record, SourceRange where) = 0;
    // Compiled functions of this flattening, by class.
    std::map<const ast::ClassDef*, int> compiled;
};

// Whether a type name denotes Boolean / Integer (the built-in names).
bool is_boolean_type(const ast::ComponentRef& type);
bool is_integer_type(const ast::ComponentRef& type);

FunctionParts collect_function(const ClassHit& fn, FunctionHost& host);

// The built-in a Modelica.Math-style external function calls, if it is one
// ("sin", "atan2", ...).
std::optional<std::string> external_builtin(const ast::ClassDef& fn);

// The annotation(derivative = g) of a function: g's name, if any.
const ast::ComponentRef* derivative_annotation(const ast::ClassDef& fn);

// Compiles the function (and those it calls) into the registry; its id.
int compile_function(const ClassHit& fn, FunctionHost& host);

}  // namespace modeaudit::flat
