// The abstract syntax tree of the Modelica subset.
//
// Output of the parse stage, input of the flatten stage. The tree mirrors the
// grammar of the Modelica Language Specification 3.6 (Appendix A) closely
// enough that every construct of the subset (../shared/design/input-language.md)
// has a node, and carries a SourceRange on every node so that later stages can
// point back at the user's text. Constructs that the grammar has but the
// subset refuses (`external`, class redeclarations, `while`, `enumeration(:)`, ...) are
// parsed where cheap and recorded in StoredDefinition::unsupported, so that
// the flattener names them in one `flatten-unsupported-construct` finding
// each, when the model uses the class they are written in
// (flatten/unsupported_uses.h), instead of the parser failing with a
// confusing syntax error.
//
// The tree is plain data, built once by the parser and then only read.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/source.h"

namespace modeaudit::ast {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct Modification;
using ModificationPtr = std::unique_ptr<Modification>;

// ---------------------------------------------------------------- expressions

// One part of a component reference: `p` or `x[i, 2]`.
struct NamePart {
    std::string ident;              // quoted identifiers keep their quotes: 'my var'
    std::vector<ExprPtr> subscripts;  // a lone `:` subscript is an Expr of kind Colon
    SourceRange range;
};

// `a.b[1].c`, or with a leading dot for a global name `.Modelica.X`.
struct ComponentRef {
    std::vector<NamePart> parts;
    bool global = false;
    SourceRange range;

    bool simple() const { return parts.size() == 1 && parts[0].subscripts.empty(); }
    // "a.b[...].c": identifiers joined by '.', subscripts not shown.
    std::string dotted() const;
};

enum class ExprKind {
    Integer,   // unsigned integer literal: text holds the digits
    Real,      // unsigned real literal: text holds it as written (exact conversion later)
    String,    // text holds the value with escapes resolved
    Boolean,   // boolean_value
    Ref,       // component reference: ref
    Call,      // function call: ref is the function name, args the arguments
               // (der(x), pre(x), sin(x), reinit(x, e), Line(points = ...), ...)
    Unary,     // uop applied to operands[0]
    Binary,    // operands[0] bop operands[1]
    If,        // operands = cond1, then1, cond2, then2, ..., else  (elseif chains flattened)
    Array,     // {a, b, c}: operands
    Matrix,    // [a, b; c, d]: rows, each an Array of its elements
    Range,     // a:b or a:b:c: operands = start, [step,] stop; has_step says which
    Colon,     // a lone ':' as a subscript
    End,       // `end` inside a subscript
    Tuple,     // (a, b) on the left of a multiple assignment; empty slots are null
};

enum class UnaryOp { Minus, Plus, Not, ElemMinus, ElemPlus };

enum class BinaryOp {
    Add, Sub, Mul, Div, Pow,
    ElemAdd, ElemSub, ElemMul, ElemDiv, ElemPow,
    Lt, Le, Gt, Ge, Eq, Ne,
    And, Or,
};

struct FunctionArg {
    std::string name;  // empty for a positional argument
    ExprPtr value;
    SourceRange range;
};

// `f(e for i in 1:n)`: a reduction / comprehension iterator.
struct ForIterator {
    std::string name;
    ExprPtr range;  // null for an implicit range `for i` (unsupported later)
    SourceRange loc;
};

struct Expr {
    ExprKind kind = ExprKind::Integer;
    SourceRange range;

    std::string text;       // Integer / Real / String literal text
    bool boolean = false;   // Boolean literal
    ComponentRef ref;       // Ref, and the function name of Call
    UnaryOp uop = UnaryOp::Minus;
    BinaryOp bop = BinaryOp::Add;
    bool has_step = false;  // Range
    std::vector<ExprPtr> operands;
    std::vector<FunctionArg> args;          // Call
    std::vector<ForIterator> iterators;     // Call with a comprehension: f(e for i in r);
                                            // also Array {e for i in r}: operands = {e}
};

// ---------------------------------------------------------------- modifications

// One argument of a class modification: `[each] [final] name [modification] ["descr"]`.
// A redeclaration argument `redeclare [each] [final] [replaceable] Type x(...)`
// carries the new declaration in `component` (one declaration; `name` is x,
// `mod` null); `redeclare model X = Y` carries the short class in
// `class_def` (recorded as unsupported by the parser).
struct ComponentClause;
struct ClassDef;
struct ConstrainingClause;
struct ElementModification {
    bool each = false;
    bool final = false;
    bool redeclare = false;   // `redeclare` (or `replaceable`, which also replaces)
    bool replaceable = false;
    ComponentRef name;       // may be dotted: `p.v(start = 0)` modifies p.v
    ModificationPtr mod;     // null for a bare name (`annotation(Evaluate)` style)
    std::shared_ptr<ComponentClause> component;   // a component redeclaration
    std::shared_ptr<ClassDef> class_def;          // a class redeclaration
    std::shared_ptr<ConstrainingClause> constraining;  // `replaceable ... constrainedby C(...)`
    std::string description;
    SourceRange range;
};

// `(args) = expr`, `(args)`, or `= expr` (also `:= expr`).
struct Modification {
    std::vector<ElementModification> arguments;
    ExprPtr binding;         // null when there is none
    SourceRange range;
};

// ---------------------------------------------------------------- equations

struct Equation;
struct Statement;

enum class EquationKind {
    Simple,   // lhs = rhs
    Connect,  // connect(lhs, rhs): both are Ref expressions
    If,       // branches (the last one's condition is null for `else`)
    For,      // for indices loop body end for
    When,     // branches: when / elsewhen
    Call,     // call: reinit(...), assert(...), terminate(...), or another call
};

template <typename Body>
struct Branch {
    ExprPtr condition;  // null for `else`
    std::vector<Body> body;
    SourceRange range;
};

struct Equation {
    EquationKind kind = EquationKind::Simple;
    SourceRange range;
    ExprPtr lhs, rhs;                        // Simple, Connect
    std::vector<Branch<Equation>> branches;  // If, When
    std::vector<ForIterator> indices;        // For
    std::vector<Equation> body;              // For
    ExprPtr call;                            // Call: an Expr of kind Call
    std::string description;
    ModificationPtr annotation;              // null when none
};

enum class StatementKind {
    Assign,    // lhs := rhs (lhs a Ref, or a Tuple for multiple outputs)
    Call,      // call (reinit, assert, terminate, or another function)
    If,        // branches
    For,       // indices, body
    While,     // branches[0] (condition, body): unsupported later
    When,      // branches: when / elsewhen
    Break,
    Return,
};

struct Statement {
    StatementKind kind = StatementKind::Assign;
    SourceRange range;
    ExprPtr lhs, rhs;
    std::vector<Branch<Statement>> branches;
    std::vector<ForIterator> indices;
    std::vector<Statement> body;
    ExprPtr call;
    std::string description;
    ModificationPtr annotation;
};

// ---------------------------------------------------------------- classes

struct TypePrefix {
    bool flow = false, stream = false;
    bool discrete = false, parameter = false, constant = false;
    bool input = false, output = false;
};

struct ComponentDecl {
    std::string name;
    std::vector<ExprPtr> dims;   // `x[3]`: declaration subscripts
    ModificationPtr mod;         // null when none
    ExprPtr condition;           // conditional component `if cond` (unsupported later)
    std::string description;
    ModificationPtr annotation;
    SourceRange range;           // the whole declaration
    SourceRange name_range;
};

// `constrainedby Name(mods)` after a replaceable element (Modelica 3.6, 7.3.2).
struct ConstrainingClause {
    ComponentRef name;
    ModificationPtr mod;  // null when none
    SourceRange range;
};

struct ComponentClause {
    TypePrefix prefix;
    ComponentRef type_name;
    std::vector<ExprPtr> type_dims;  // `Real[3] x`
    std::vector<ComponentDecl> decls;
    bool final = false, inner = false, outer = false, replaceable = false, redeclare = false;
    std::shared_ptr<ConstrainingClause> constraining;  // replaceable components only
    SourceRange range;
};

struct ExtendsClause {
    ComponentRef base;
    ModificationPtr mod;
    ModificationPtr annotation;
    SourceRange range;
};

struct ImportClause {
    std::string alias;          // `import A = B.C;` gives alias A, empty otherwise
    ComponentRef name;          // B.C
    bool wildcard = false;      // import B.*;
    std::vector<std::string> only;  // import B.{x, y};
    SourceRange range;
};

enum class ClassKind {
    Class, Model, Block, Connector, Record, Type, Package, Function, Operator,
};

struct ClassDef;

struct Element {
    enum class Kind { Component, Extends, Class, Import } kind = Kind::Component;
    bool is_protected = false;
    std::unique_ptr<ComponentClause> component;
    std::unique_ptr<ExtendsClause> extends;
    std::unique_ptr<ClassDef> class_def;
    std::unique_ptr<ImportClause> import;
    // Class elements: `replaceable model X = Y constrainedby Z;`, `redeclare ...`.
    bool replaceable = false, redeclare = false;
    std::shared_ptr<ConstrainingClause> constraining;
    SourceRange range;
};

struct EquationSection {
    bool initial = false;
    std::vector<Equation> equations;
    SourceRange range;
};

struct AlgorithmSection {
    bool initial = false;
    std::vector<Statement> statements;
    SourceRange range;
};

struct ClassDef {
    ClassKind kind = ClassKind::Model;
    std::string name;
    bool encapsulated = false, partial = false, final = false;
    bool expandable = false;  // expandable connector (unsupported later)
    bool pure = false, impure = false;
    std::string description;

    // Short class definition: `type Voltage = Real(unit = "V");`
    bool is_short = false;
    TypePrefix short_prefix;
    ComponentRef short_base;
    std::vector<ExprPtr> short_dims;
    ModificationPtr short_mod;
    // `type E = enumeration(a, b);`: literals in order (an Integer 1..n when flattening)
    bool is_enumeration = false;
    std::vector<std::string> enumeration_literals;

    std::vector<Element> elements;  // in source order
    std::vector<EquationSection> equation_sections;
    std::vector<AlgorithmSection> algorithm_sections;
    std::vector<ModificationPtr> annotations;  // every class-level annotation, in order
    std::optional<SourceRange> external_clause;  // `external ...;` seen here
    std::string external_language;               // "C", "builtin", ... (empty when not given)
    std::string external_name;                   // the external function called, when written

    SourceRange range;
    SourceRange name_range;
};

// A construct parsed but outside the subset; reported by the flattener.
struct UnsupportedUse {
    std::string what;  // e.g. "external function", "redeclare", "while loop"
    SourceRange range;
};

struct StoredDefinition {
    std::uint32_t file = 0;
    std::optional<ComponentRef> within;
    std::vector<std::unique_ptr<ClassDef>> classes;
    std::vector<UnsupportedUse> unsupported;
};

}  // namespace modeaudit::ast
