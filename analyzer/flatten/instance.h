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

#include "common/heap_optional.h"
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

// One step from a binding's value to the part of it a component takes: an
// element of an array (`index`, 1-based) or a field of a record (`field`).
// `R rs[2] = {R(a = 1), R(a = 2)}` gives rs[2].a the path [2, a].
struct Selector {
    long index = 0;
    std::string field;  // empty: an index
};

// A modification on its way down the instance tree. Bindings remember the
// instance they were written in: `R = 2*R0` is evaluated where it was written.
struct ModNode {
    std::map<std::string, std::shared_ptr<ModNode>> args;
    std::vector<std::string> arg_order;     // first-seen order, for determinism
    const ast::Expr* binding = nullptr;
    Instance* binding_scope = nullptr;
    const LexScope* binding_lex = nullptr;  // the class it is written in (null: binding_scope's class)
    std::vector<Selector> binding_path;     // the part of the binding's value taken (records.h)
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
    // An `outer` component (Modelica 3.6, 5.4): the same variables or object
    // as the inner element it refers to (inner_outer.h). Walks that emit
    // equations or connector equations skip it, so that they appear once.
    bool outer = false;
    SourceRange declaration;
    // An object of an expandable connector class (below Instance).
    bool expandable_connector() const;
};

// An element declared `inner`, as the outer elements below it find it.
struct InnerElement {
    const Member* member = nullptr;
    bool builtin = false;              // of a built-in type (Real, ...): then `base` (a BaseType)
    int base = 0;
    const ast::ClassDef* cls = nullptr;  // otherwise its class
    const LexScope* lex = nullptr;
    std::string type_name;             // as written, for messages
    SourceRange declaration;
};

// What few instances have: inner elements and conditional components.
struct InstanceExtras {
    // The inner elements this instance declares, by name (5.4). For `inner
    // outer x` the inner part is an instance of its own, held in inner_parts
    // (x itself, in Instance::members, is the outer part).
    std::map<std::string, InnerElement> inners;
    std::map<std::string, Member> inner_parts;
    std::set<std::string> absent;      // conditional components whose condition is false
    std::set<std::string> conditional; // conditional components whose condition is true
};

struct Instance {
    std::string path;                  // "" for the model itself, "r1", "c[2]"
    const LexScope* lex = nullptr;     // the class's scope, for lookups inside it
    const ast::ClassDef* cls = nullptr;
    Instance* parent = nullptr;
    bool is_connector = false;
    bool is_package = false;           // holds the constants of a class used from outside it
    // A record instance (Modelica 3.6, 4.7, 12.6), or one nested in a record:
    // the type prefixes of its declaration (parameter, constant, discrete,
    // input, output) apply to each of its components.
    bool is_record = false;
    ast::TypePrefix record_prefix;
    std::map<std::string, Member> members;
    // The members in declaration order, as their entries in `members` (a
    // map's entries stay where they are): no second copy of each name, and
    // no lookup by name to walk them.
    // Change the two only through add_member and remove_member.
    using MemberEntry = std::pair<const std::string, Member>;
    std::vector<const MemberEntry*> member_order;
    void add_member(const std::string& name, Member m) {
        member_order.push_back(&*members.insert_or_assign(name, std::move(m)).first);
    }
    void remove_member(const std::string& name) {
        std::erase_if(member_order, [&](const MemberEntry* e) { return e->first == name; });
        members.erase(name);
    }
    int depth = 0;
    // The rare parts (InstanceExtras) on the heap, made on first write: a
    // model has an instance per component, a hundred thousand in a large
    // one, and few of them declare inner elements or conditional components.
    HeapOptional<InstanceExtras> extras_;
    InstanceExtras& extras() {
        if (!extras_) extras_ = InstanceExtras{};
        return *extras_;
    }
    const std::map<std::string, InnerElement>& inners() const { return extras_ ? extras_->inners : none().inners; }
    const std::map<std::string, Member>& inner_parts() const {
        return extras_ ? extras_->inner_parts : none().inner_parts;
    }
    const std::set<std::string>& absent() const { return extras_ ? extras_->absent : none().absent; }
    const std::set<std::string>& conditional() const { return extras_ ? extras_->conditional : none().conditional; }

    std::string qualify(const std::string& local) const {
        return path.empty() ? local : path + "." + local;
    }
    // An instance of an expandable connector class (Modelica 3.6, 9.1.3).
    bool expandable() const { return cls && cls->expandable; }

private:
    static const InstanceExtras& none() {
        static const InstanceExtras empty;
        return empty;
    }
};

inline bool Member::expandable_connector() const {
    return kind == Kind::Object && is_connector && object && object->expandable();
}

}  // namespace modeaudit::flat
