#include "flatten/records.h"

#include <fmt/format.h>

#include <functional>
#include <set>

namespace modeaudit::flat {

namespace {

// Follows `record S = R(...)` to R; the class itself when it is not short.
ClassHit through_short_record(Lookup& lookup, ClassHit c) {
    for (int guard = 0; c.cls && c.cls->is_short && !c.cls->is_enumeration && guard < 64; ++guard) {
        const ast::ComponentRef& base = c.cls->short_base;
        if (base.parts.size() == 1 && !base.global) {
            const std::string& n = base.parts[0].ident;
            if (n == "Real" || n == "Integer" || n == "Boolean" || n == "String") return c;
        }
        c = lookup.lookup_class(base, c.lex && c.lex->parent ? c.lex->parent : lookup.top_scope());
    }
    return c;
}

}  // namespace

bool is_record_class(Lookup& lookup, ClassHit cls) {
    if (!cls.cls) return false;
    if (cls.cls->kind == ast::ClassKind::Record) return true;
    ClassHit t = through_short_record(lookup, cls);
    return t.cls && t.cls->kind == ast::ClassKind::Record;
}

std::vector<RecordField> record_fields(Lookup& lookup, ClassHit record) {
    std::vector<RecordField> out;
    std::set<std::string> seen;
    std::set<const ast::ClassDef*> visiting;
    std::function<void(ClassHit)> walk = [&](ClassHit c) {
        c = through_short_record(lookup, c);
        if (!c.cls || !visiting.insert(c.cls).second) return;
        for (const ast::Element& el : c.cls->elements)
            if (el.kind == ast::Element::Kind::Extends) walk(lookup.lookup_class(el.extends->base, c.lex));
        for (const ast::Element& el : c.cls->elements) {
            if (el.kind != ast::Element::Kind::Component || el.component->redeclare) continue;
            const ast::ComponentClause& cc = *el.component;
            for (const ast::ComponentDecl& d : cc.decls) {
                if (!seen.insert(d.name).second) continue;
                RecordField f;
                f.name = d.name;
                f.clause = &cc;
                f.decl = &d;
                f.lex = c.lex;
                f.is_protected = el.is_protected;
                const bool valued = d.mod && d.mod->binding;
                f.input = !el.is_protected && !cc.final && !(cc.prefix.constant && valued);
                out.push_back(f);
            }
        }
    };
    walk(record);
    return out;
}

bool constructor_arguments(const ast::Expr& call, const std::vector<RecordField>& fields,
                           std::map<std::string, const ast::Expr*>& out, std::string& error, SourceRange& where) {
    std::vector<const RecordField*> inputs;
    for (const RecordField& f : fields)
        if (f.input) inputs.push_back(&f);
    std::size_t pos = 0;
    for (const ast::FunctionArg& a : call.args) {
        where = a.range;
        if (!a.value) {
            error = "an empty argument";
            return false;
        }
        std::string name;
        if (a.name.empty()) {
            if (pos >= inputs.size()) {
                error = fmt::format("too many arguments: the record constructor has {} inputs", inputs.size());
                return false;
            }
            name = inputs[pos++]->name;
        } else {
            name = a.name;
            const RecordField* f = nullptr;
            for (const RecordField& g : fields)
                if (g.name == name) f = &g;
            if (!f) {
                error = fmt::format("the record has no field '{}'", name);
                return false;
            }
            if (!f->input) {
                error = fmt::format("the field '{}' is {}, so it is no input of the record constructor (Modelica "
                                    "3.6, 12.6)",
                                    name,
                                    f->is_protected ? "protected"
                                    : f->clause->final ? "final"
                                                       : "a constant with a value");
                return false;
            }
        }
        if (!out.emplace(name, a.value.get()).second) {
            error = fmt::format("the field '{}' is given twice", name);
            return false;
        }
    }
    return true;
}

}  // namespace modeaudit::flat
