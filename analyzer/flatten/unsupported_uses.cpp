#include "flatten/unsupported_uses.h"

namespace modeaudit::flat {

namespace {

bool inside(const SourceRange& inner, const SourceRange& outer) {
    return inner.begin.file == outer.begin.file && inner.begin.offset >= outer.begin.offset &&
           inner.begin.offset < outer.end.offset;
}

}  // namespace

std::vector<const ast::UnsupportedUse*> unsupported_in_class(const ast::StoredDefinition& def,
                                                             const ast::ClassDef& cls) {
    std::vector<const ast::UnsupportedUse*> out;
    for (const ast::UnsupportedUse& u : def.unsupported) {
        if (!inside(u.range, cls.range)) continue;
        bool nested = false;
        for (const ast::Element& el : cls.elements)
            if (el.kind == ast::Element::Kind::Class && inside(u.range, el.range) &&
                // the prefixes of a nested class (`replaceable model M ...`)
                // are part of the element, but only its definition is the
                // nested class's own text.
                inside(u.range, el.class_def->range))
                nested = true;
        if (!nested) out.push_back(&u);
    }
    return out;
}

std::vector<const ast::UnsupportedUse*> unsupported_outside_classes(const ast::StoredDefinition& def) {
    std::vector<const ast::UnsupportedUse*> out;
    for (const ast::UnsupportedUse& u : def.unsupported) {
        bool in = false;
        for (const auto& c : def.classes)
            if (inside(u.range, c->range)) in = true;
        if (!in) out.push_back(&u);
    }
    return out;
}

}  // namespace modeaudit::flat
