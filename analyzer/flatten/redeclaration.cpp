#include "flatten/redeclaration.h"

#include <fmt/format.h>

#include <set>

namespace modeaudit::flat {

std::optional<std::string> redeclaration_refusal(const ast::ComponentClause& original, const std::string& name) {
    if (original.final)
        return fmt::format("'{}' is declared final and cannot be redeclared (Modelica 3.6, 7.3.2)", name);
    if (!original.replaceable && !original.redeclare)
        return fmt::format("'{}' is not replaceable; only a component declared 'replaceable' can be redeclared "
                           "(Modelica 3.6, 7.3.2)",
                           name);
    if (original.redeclare && !original.replaceable)
        return fmt::format("'{}' was redeclared without 'replaceable' and cannot be redeclared again "
                           "(Modelica 3.6, 7.3.2)",
                           name);
    return std::nullopt;
}

const ast::Modification* kept_modification(const ast::ComponentClause& original, const ast::ComponentDecl& decl) {
    if (original.constraining) return original.constraining->mod.get();
    return decl.mod.get();
}

ClassHit constraining_class(Lookup& lookup, const ast::ComponentClause& original, const LexScope* lex) {
    const ast::ComponentRef& name = original.constraining ? original.constraining->name : original.type_name;
    return lookup.lookup_class(name, lex);
}

std::vector<std::string> missing_components(Lookup& lookup, ClassHit constraining, ClassHit replacement) {
    std::vector<std::string> has = lookup.public_components(replacement);
    std::set<std::string> present(has.begin(), has.end());
    std::vector<std::string> missing;
    for (const std::string& n : lookup.public_components(constraining))
        if (!present.count(n)) missing.push_back(n);
    return missing;
}

}  // namespace modeaudit::flat
