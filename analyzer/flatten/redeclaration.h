// Replaceable components and their redeclarations (Modelica 3.6, 7.3).
//
// Part of the flatten stage. A component declared `replaceable` (with an
// optional `constrainedby` clause) can be given another class by
// `redeclare T x(...)`, written either in a modifier (of an extends clause
// or of a component: the MSL's voltage sources redeclare the signal source
// their base class declares) or as an element of a class that extends the
// declaring one. The parser keeps the new declaration (ast::ElementModification
// ::component, ast::ComponentClause::redeclare); the flattener carries it down
// the instance tree in ModNode::redeclare and, where the replaced component is
// instantiated, asks here what the replacement is:
//  - the original must be replaceable (7.3.2), and the new declaration keeps
//    the modifiers of the constraining clause, or of the original declaration
//    when there is none (the source's `offset = offset`);
//  - the new class must have every public component of the constraining
//    class (its plug-compatible subtype, 6.4, checked on component names and
//    connector-ness), else the redeclaration is refused where it is written.
// Redeclarations of classes (`redeclare model X = Y`) are outside the subset:
// the parser records them and the flattener names them where they are used.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "flatten/instance.h"
#include "flatten/lookup.h"
#include "parse/ast.h"

namespace modeaudit::flat {

struct Redeclaration {
    const ast::ComponentClause* clause = nullptr;  // the new declaration (one ComponentDecl)
    Instance* scope = nullptr;                     // the instance it is written in
    const LexScope* lex = nullptr;                 // the class it is written in
    SourceRange range;                             // the whole `redeclare ...` argument or element

    const ast::ComponentDecl& decl() const { return clause->decls.front(); }
};

// Why `original` cannot be redeclared (not replaceable, or final), for the
// message at the redeclaration; nullopt when it can.
std::optional<std::string> redeclaration_refusal(const ast::ComponentClause& original, const std::string& name);

// The modification a redeclared component keeps from its original
// declaration: the constraining clause's, else the declaration's own.
const ast::Modification* kept_modification(const ast::ComponentClause& original, const ast::ComponentDecl& decl);

// The constraining class of a replaceable component: its constrainedby
// class, else its declared class (looked up from `lex`).
ClassHit constraining_class(Lookup& lookup, const ast::ComponentClause& original, const LexScope* lex);

// The public components of `constraining` (inherited ones included) that the
// replacement class lacks among its public ones, in declaration order; an
// empty list when the replacement is plug-compatible as far as names go.
std::vector<std::string> missing_components(Lookup& lookup, ClassHit constraining, ClassHit replacement);

}  // namespace modeaudit::flat
