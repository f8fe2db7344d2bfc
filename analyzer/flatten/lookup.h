// Name lookup through classes, packages, imports and libraries (Modelica
// 3.6, section 5.3).
//
// Part of the flatten stage, below instantiation: given the lexical scope a
// name is written in, finds the class it denotes (a component's type, a base
// class, a function), or the package element it denotes when it is not a
// component of the instance (a package constant `Lib.Constants.pi`, an
// enumeration literal `StateSelect.prefer`). The search goes from the scope
// outwards through enclosing classes, each with its imports (qualified
// `import A.B;`, single `import A.B.C;`, unqualified `import A.B.*;`,
// renaming `import X = A.B;`), then the top level: the model's own file,
// then the libraries (library/class_loader.h, loaded as the lookup reaches
// them), then the predefined enumerations (builtin_classes.h).
//
// A name that is declared but not reachable as written (`Constants.pi`
// without an import) is reported with the full name it has and the two
// ways to write it.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/diagnostics.h"
#include "flatten/instance.h"
#include "library/class_loader.h"
#include "parse/ast.h"

namespace modeaudit::flat {

struct ClassHit {
    const ast::ClassDef* cls = nullptr;
    const LexScope* lex = nullptr;  // the scope of cls itself
};

// What a (dotted) name denotes when it is not a component of an instance.
struct NameHit {
    enum class Kind { Class, Component, Literal } kind = Kind::Class;
    ClassHit cls;                             // Class: it; Component: the class declaring it; Literal: the enumeration
    const ast::ComponentClause* clause = nullptr;  // Component
    const ast::ComponentDecl* decl = nullptr;      // Component
    long literal = 0;                         // Literal: 1-based position
    std::size_t parts = 0;                    // parts of the reference covered by the hit
};

class Lookup {
public:
    // `loader` may be null (no libraries).
    Lookup(const ast::StoredDefinition& file, library::ClassLoader* loader, DiagnosticSink& sink);

    const LexScope* top_scope();
    // The scope enclosing the model file's top-level classes: its `within`
    // package, else the top level.
    const LexScope* file_scope();
    const LexScope* scope_for(const ast::ClassDef* cls, const LexScope* parent);
    // The scope of a class written in the model's own file (null if absent).
    const LexScope* scope_in_file(const ast::ClassDef* cls);

    std::optional<ClassHit> find_in_class(const ast::ClassDef* cls, const LexScope* lex, const std::string& name,
                                          int depth = 0);
    std::optional<ClassHit> lookup_first(const std::string& name, const LexScope* from);
    // The class a name denotes; reports flatten-undefined-name and aborts
    // when there is none.
    ClassHit lookup_class(const ast::ComponentRef& ref, const LexScope* from);
    // A class of the model's own file by its name there ("M", "P.M").
    std::optional<ClassHit> find_in_file(const std::string& dotted);
    // A class given by its full name on the command line; nullopt when none.
    std::optional<ClassHit> lookup_full_name(const std::string& dotted);
    // A name that is no component of the instance: a class, a constant
    // declared in a class (usually a package), or an enumeration literal.
    std::optional<NameHit> lookup_element(const ast::ComponentRef& ref, const LexScope* from);

    // "Lib.Sub.C" for the scope of class C.
    std::string full_name(const LexScope* scope) const;
    // The full names under which `ref` is declared in the model's file and
    // the libraries, when it is not reachable as written from `from`; for
    // messages. At most a few, sorted.
    std::vector<std::string> declared_elsewhere(const ast::ComponentRef& ref);
    // A note for an unresolved name: where it is declared and how to write it.
    std::vector<std::string> unreachable_notes(const ast::ComponentRef& ref);

    // The parsed file a class comes from (for constructs refused per class).
    const ast::StoredDefinition* definition(std::uint32_t file) const;

    // The names of the public components of a class, inherited ones first
    // (in the order of its extends clauses), each once.
    std::vector<std::string> public_components(ClassHit cls);

private:
    std::optional<NameHit> first_part(const std::string& name, const LexScope* from, bool components);
    std::optional<NameHit> descend(NameHit hit, const ast::ComponentRef& ref);
    std::optional<NameHit> find_component(const ast::ClassDef* cls, const LexScope* lex, const std::string& name,
                                          int depth = 0);
    std::optional<NameHit> import_target(const ast::ComponentRef& name);
    // `find(base class, its scope)` on each class `cls` extends, in order,
    // the first hit; nothing while cls's own extends are being followed
    // (a cycle, or a base name looked up from inside them).
    template <class Hit, class Find>
    std::optional<Hit> first_in_bases(const ast::ClassDef* cls, const LexScope* lex, Find&& find);
    // Follows `package P = Q;` to Q.
    ClassHit through_short(ClassHit hit);

    // The elements of a class by name (the first of each name), built on
    // first use: lookups are then independent of the class's size, which
    // keeps flattening linear in a model of many thousand declarations.
    struct ClassIndex {
        std::unordered_map<std::string, const ast::ClassDef*> classes;
        std::unordered_map<std::string, std::pair<const ast::ComponentClause*, const ast::ComponentDecl*>> components;
        std::vector<const ast::ImportClause*> imports;
        std::vector<const ast::ExtendsClause*> extends;
    };
    const ClassIndex& index_of(const ast::ClassDef* cls);

    const ast::StoredDefinition& file_;
    std::unordered_map<const ast::ClassDef*, ClassIndex> index_;
    library::ClassLoader* loader_;
    DiagnosticSink& sink_;
    std::deque<LexScope> scopes_;
    std::map<const ast::ClassDef*, const LexScope*> scope_of_;
    const LexScope* file_scope_ = nullptr;
    bool resolving_within_ = false;
    std::set<const ast::ClassDef*> expanding_;  // classes whose extends are being followed
};

}  // namespace modeaudit::flat
