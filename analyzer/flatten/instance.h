// Internal data of the flatten stage: lexical class scopes, modifications
// being merged, and the instance tree built while flattening.
//
// Not part of the stage's result (that is FlatModel); shared between the
// flattener, the expression builder and the connection resolver.
#pragma once

#include <ginac/ginac.h>

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "parse/ast.h"

namespace modeaudit::flat {

// A class definition together with the classes lexically enclosing it, for
// name lookup (Modelica 3.6, section 5.3).
struct LexScope {
    const ast::ClassDef* cls = nullptr;  // null: the file's top level
    const LexScope* parent = nullptr;
};

struct Instance;
struct Redeclaration;  // redeclaration.h

// A modification on its way down the instance tree. Bindings remember the
// instance they were written in: `R = 2*R0` is evaluated where it was written.
struct ModNode {
    std::map<std::string, std::shared_ptr<ModNode>> args;
    std::vector<std::string> arg_order;     // first-seen order, for determinism
    const ast::Expr* binding = nullptr;
    Instance* binding_scope = nullptr;
    const LexScope* binding_lex = nullptr;  // the class it is written in (null: binding_scope's class)
    std::vector<long> binding_subscript;    // pick an element of an array binding
    bool each = false;
    bool final = false;
    // `redeclare T x(...)`: the new declaration of the modified component
    // (its own modifiers are `args`/`binding` above); null otherwise.
    std::shared_ptr<const Redeclaration> redeclare;
    SourceRange range;
};
using ModPtr = std::shared_ptr<const ModNode>;

// Outer takes precedence over inner (the modifier written further out wins).
ModPtr merge(const ModPtr& outer, const ModPtr& inner);
// The modification of one argument, or null.
ModPtr sub(const ModPtr& m, const std::string& name);

struct Member {
    enum class Kind { Scalar, Object, Array } kind = Kind::Scalar;
    int variable = -1;                 // Scalar: flat variable index
    Instance* object = nullptr;        // Object
    std::vector<Member> elements;      // Array
    ast::TypePrefix prefix;
    bool is_connector = false;         // Object (or array of them) of a connector class
    SourceRange declaration;
};

struct Instance {
    std::string path;                  // "" for the model itself, "r1", "c[2]"
    const LexScope* lex = nullptr;     // the class's scope, for lookups inside it
    const ast::ClassDef* cls = nullptr;
    Instance* parent = nullptr;
    bool is_connector = false;
    bool is_package = false;           // holds the constants of a class used from outside it
    std::map<std::string, Member> members;
    std::set<std::string> absent;      // conditional components whose condition is false
    std::vector<std::string> member_order;
    int depth = 0;

    std::string qualify(const std::string& local) const {
        return path.empty() ? local : path + "." + local;
    }
};

}  // namespace modeaudit::flat
