#include "flatten/builtin_classes.h"

#include <algorithm>
#include <map>
#include <memory>

namespace modeaudit::flat {

namespace {

std::unique_ptr<ast::ClassDef> enumeration(const std::string& name, std::vector<std::string> literals) {
    auto c = std::make_unique<ast::ClassDef>();
    c->kind = ast::ClassKind::Type;
    c->name = name;
    c->is_short = true;
    c->is_enumeration = true;
    c->enumeration_literals = std::move(literals);
    return c;
}

const std::map<std::string, std::unique_ptr<ast::ClassDef>>& table() {
    static const auto* t = [] {
        auto* m = new std::map<std::string, std::unique_ptr<ast::ClassDef>>;
        (*m)["StateSelect"] = enumeration("StateSelect", {"never", "avoid", "default", "prefer", "always"});
        (*m)["AssertionLevel"] = enumeration("AssertionLevel", {"error", "warning"});
        // The base class of external objects (12.9.7): empty; the classes
        // that extend it are refused or read (table_objects.h) by the flattener.
        auto object = std::make_unique<ast::ClassDef>();
        object->kind = ast::ClassKind::Class;
        object->name = "ExternalObject";
        (*m)["ExternalObject"] = std::move(object);
        return m;
    }();
    return *t;
}

}  // namespace

const ast::ClassDef* builtin_class(const std::string& name) {
    auto it = table().find(name);
    return it == table().end() ? nullptr : it->second.get();
}

std::optional<long> enumeration_literal(const ast::ClassDef& e, const std::string& literal) {
    auto it = std::find(e.enumeration_literals.begin(), e.enumeration_literals.end(), literal);
    if (it == e.enumeration_literals.end()) return std::nullopt;
    return static_cast<long>(it - e.enumeration_literals.begin()) + 1;
}

}  // namespace modeaudit::flat
