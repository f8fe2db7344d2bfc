#include "flatten/lookup.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "flatten/builtin_classes.h"
#include "flatten/flatten_error.h"

namespace modeaudit::flat {

Lookup::Lookup(const ast::StoredDefinition& file, library::ClassLoader* loader, DiagnosticSink& sink)
    : file_(file), loader_(loader), sink_(sink) {
    if (loader_) loader_->register_definition(file_);
}

const ast::StoredDefinition* Lookup::definition(std::uint32_t file) const {
    if (file == file_.file) return &file_;
    return loader_ ? loader_->definition(file) : nullptr;
}

const LexScope* Lookup::top_scope() {
    if (scopes_.empty()) scopes_.push_back(LexScope{nullptr, nullptr});
    return &scopes_.front();
}

const LexScope* Lookup::scope_for(const ast::ClassDef* cls, const LexScope* parent) {
    auto it = scope_of_.find(cls);
    if (it != scope_of_.end()) return it->second;
    top_scope();
    scopes_.push_back(LexScope{cls, parent});
    scope_of_[cls] = &scopes_.back();
    return &scopes_.back();
}

const LexScope* Lookup::file_scope() {
    if (file_scope_) return file_scope_;
    if (!file_.within || file_.within->parts.empty() || resolving_within_) return top_scope();
    resolving_within_ = true;
    std::optional<ClassHit> pkg;
    try {
        pkg = lookup_class(*file_.within, top_scope());
    } catch (const FlattenAbort&) {
        resolving_within_ = false;
        throw;
    }
    resolving_within_ = false;
    file_scope_ = pkg->lex;
    return file_scope_;
}

const LexScope* Lookup::scope_in_file(const ast::ClassDef* target) {
    const LexScope* found = nullptr;
    std::function<bool(const ast::ClassDef*, const LexScope*)> locate = [&](const ast::ClassDef* c,
                                                                           const LexScope* parent) {
        const LexScope* s = scope_for(c, parent);
        if (c == target) {
            found = s;
            return true;
        }
        for (const ast::Element& el : c->elements)
            if (el.kind == ast::Element::Kind::Class && locate(el.class_def.get(), s)) return true;
        return false;
    };
    for (const auto& c : file_.classes)
        if (locate(c.get(), file_scope())) break;
    return found;
}

std::string Lookup::full_name(const LexScope* scope) const {
    std::string out;
    for (const LexScope* s = scope; s; s = s->parent) {
        if (!s->cls) continue;
        out = out.empty() ? s->cls->name : s->cls->name + "." + out;
    }
    return out;
}

ClassHit Lookup::through_short(ClassHit hit) {
    // `package SI = Lib.Units;`: a short class standing for a package or
    // model is looked through (types keep their short definition: they carry
    // modifiers and are resolved by the flattener).
    for (int guard = 0; hit.cls->is_short && !hit.cls->is_enumeration && guard < 32; ++guard) {
        if (hit.cls->kind != ast::ClassKind::Package) break;
        hit = lookup_class(hit.cls->short_base, hit.lex->parent ? hit.lex->parent : top_scope());
    }
    return hit;
}

std::optional<ClassHit> Lookup::find_in_class(const ast::ClassDef* cls, const LexScope* lex, const std::string& name,
                                              int depth) {
    if (depth > 32) return std::nullopt;
    if (!cls) {
        for (const auto& c : file_.classes)
            if (c->name == name) {
                if (file_.within && !resolving_within_) return ClassHit{c.get(), scope_for(c.get(), file_scope())};
                return ClassHit{c.get(), scope_for(c.get(), top_scope())};
            }
        if (loader_)
            if (const ast::ClassDef* c = loader_->top_level(name)) return ClassHit{c, scope_for(c, top_scope())};
        if (const ast::ClassDef* b = builtin_class(name)) return ClassHit{b, scope_for(b, top_scope())};
        return std::nullopt;
    }
    const ClassIndex& idx = index_of(cls);
    if (auto it = idx.classes.find(name); it != idx.classes.end())
        return ClassHit{it->second, scope_for(it->second, lex)};
    // Nested classes inherited through extends. The base class names are
    // looked up without the inherited elements of the class whose extends
    // are being followed (Modelica 3.6, 5.6.1): otherwise `package P extends
    // Lib.Icons.Package; ...` would search P's bases to find Lib.
    if (auto hit = first_in_bases<ClassHit>(cls, lex, [&](const ClassHit& base) {
            return find_in_class(base.cls, base.lex, name, depth + 1);
        }))
        return hit;
    // Members stored in files of their own (a package directory).
    if (loader_)
        if (const ast::ClassDef* m = loader_->member(cls, name)) return ClassHit{m, scope_for(m, lex)};
    return std::nullopt;
}

const Lookup::ClassIndex& Lookup::index_of(const ast::ClassDef* cls) {
    auto it = index_.find(cls);
    if (it != index_.end()) return it->second;
    ClassIndex& idx = index_[cls];
    for (const ast::Element& el : cls->elements) {
        switch (el.kind) {
            case ast::Element::Kind::Class: idx.classes.emplace(el.class_def->name, el.class_def.get()); break;
            case ast::Element::Kind::Component:
                for (const ast::ComponentDecl& d : el.component->decls)
                    idx.components.emplace(d.name, std::make_pair(el.component.get(), &d));
                break;
            case ast::Element::Kind::Import: idx.imports.push_back(el.import.get()); break;
            case ast::Element::Kind::Extends: idx.extends.push_back(el.extends.get()); break;
        }
    }
    return idx;
}

std::vector<std::string> Lookup::public_components(ClassHit cls) {
    std::vector<std::string> out;
    std::set<std::string> seen;
    std::set<const ast::ClassDef*> visiting;
    std::function<void(ClassHit)> walk = [&](ClassHit c) {
        c = through_short(c);
        if (!c.cls || !visiting.insert(c.cls).second) return;
        if (c.cls->is_short && !c.cls->is_enumeration) {
            // `model S = T(...)`: the components of T.
            walk(lookup_class(c.cls->short_base, c.lex->parent ? c.lex->parent : top_scope()));
            return;
        }
        for (const ast::Element& el : c.cls->elements)
            if (el.kind == ast::Element::Kind::Extends)
                walk(lookup_class(el.extends->base, c.lex));
        for (const ast::Element& el : c.cls->elements) {
            if (el.kind != ast::Element::Kind::Component || el.is_protected) continue;
            for (const ast::ComponentDecl& d : el.component->decls)
                if (seen.insert(d.name).second) out.push_back(d.name);
        }
    };
    walk(cls);
    return out;
}

std::optional<NameHit> Lookup::find_component(const ast::ClassDef* cls, const LexScope* lex,
                                              const std::string& name, int depth) {
    if (!cls || depth > 32) return std::nullopt;
    const ClassIndex& idx = index_of(cls);
    if (auto it = idx.components.find(name); it != idx.components.end()) {
        NameHit h;
        h.kind = NameHit::Kind::Component;
        h.cls = ClassHit{cls, lex};
        h.clause = it->second.first;
        h.decl = it->second.second;
        return h;
    }
    return first_in_bases<NameHit>(cls, lex, [&](const ClassHit& base) {
        return find_component(base.cls, base.lex, name, depth + 1);
    });
}

template <class Hit, class Find>
std::optional<Hit> Lookup::first_in_bases(const ast::ClassDef* cls, const LexScope* lex, Find&& find) {
    if (expanding_.count(cls)) return std::nullopt;
    expanding_.insert(cls);
    struct Done {
        std::set<const ast::ClassDef*>& s;
        const ast::ClassDef* c;
        ~Done() { s.erase(c); }
    } done{expanding_, cls};
    for (const ast::ExtendsClause* ext : index_of(cls).extends) {
        // Looked up in the class itself, its inherited elements excluded
        // (Modelica 3.6, 7.1.1; they are being found): a package may extend
        // a class it declares (`extends Icons.TestPackage;`).
        ClassHit base = lookup_class(ext->base, lex);
        if (base.cls && base.cls != cls)
            if (std::optional<Hit> hit = find(base)) return hit;
    }
    return std::nullopt;
}

std::optional<NameHit> Lookup::import_target(const ast::ComponentRef& name) {
    // Imported names are always full names (5.3.1).
    ast::ComponentRef global;
    global.global = true;
    global.range = name.range;
    for (const ast::NamePart& p : name.parts) global.parts.push_back(ast::NamePart{p.ident, {}, p.range});
    auto hit = lookup_element(global, top_scope());
    if (!hit || hit->parts != name.parts.size())
        fail(sink_, rule::flatten_undefined_name, name.range,
             fmt::format("the import names '{}', which is not declared; an import takes the full name of a "
                         "package or class", name.dotted()));
    return hit;
}

std::optional<NameHit> Lookup::first_part(const std::string& name, const LexScope* from, bool components) {
    for (const LexScope* s = from; s; s = s->parent) {
        if (auto hit = find_in_class(s->cls, s, name)) {
            NameHit h;
            h.kind = NameHit::Kind::Class;
            h.cls = *hit;
            h.parts = 1;
            return h;
        }
        if (!s->cls) continue;
        if (components)
            if (auto hit = find_component(s->cls, s, name)) {
                hit->parts = 1;
                return hit;
            }
        for (const ast::ImportClause* imp : index_of(s->cls).imports) {
            const ast::ImportClause& im = *imp;
            if (im.name.parts.empty()) continue;
            bool named = !im.alias.empty() ? im.alias == name
                                           : !im.wildcard && im.only.empty() && im.name.parts.back().ident == name;
            if (named) {
                auto hit = import_target(im.name);
                if (hit->kind == NameHit::Kind::Component && !components) continue;
                hit->parts = 1;
                return hit;
            }
            bool listed = im.wildcard || std::find(im.only.begin(), im.only.end(), name) != im.only.end();
            if (!listed) continue;
            auto pkg = import_target(im.name);
            if (pkg->kind != NameHit::Kind::Class) continue;
            ClassHit p = through_short(pkg->cls);
            if (auto hit = find_in_class(p.cls, p.lex, name)) {
                NameHit h;
                h.cls = *hit;
                h.parts = 1;
                return h;
            }
            if (components)
                if (auto hit = find_component(p.cls, p.lex, name)) {
                    hit->parts = 1;
                    return hit;
                }
        }
    }
    return std::nullopt;
}

std::optional<NameHit> Lookup::descend(NameHit hit, const ast::ComponentRef& ref) {
    for (std::size_t i = hit.parts; i < ref.parts.size(); ++i) {
        if (hit.kind != NameHit::Kind::Class) break;
        const std::string& id = ref.parts[i].ident;
        if (hit.cls.cls->is_enumeration) {
            auto k = enumeration_literal(*hit.cls.cls, id);
            if (!k) return std::nullopt;
            hit.kind = NameHit::Kind::Literal;
            hit.literal = *k;
            hit.parts = i + 1;
            continue;
        }
        ClassHit c = through_short(hit.cls);
        if (auto sub = find_in_class(c.cls, c.lex, id)) {
            hit.cls = *sub;
            hit.parts = i + 1;
            continue;
        }
        if (auto comp = find_component(c.cls, c.lex, id)) {
            comp->parts = i + 1;
            hit = *comp;
            continue;
        }
        return std::nullopt;
    }
    return hit;
}

std::optional<NameHit> Lookup::lookup_element(const ast::ComponentRef& ref, const LexScope* from) {
    if (ref.parts.empty()) return std::nullopt;
    std::optional<NameHit> first;
    if (ref.global) {
        if (auto c = find_in_class(nullptr, top_scope(), ref.parts[0].ident)) {
            first = NameHit{};
            first->cls = *c;
            first->parts = 1;
        }
    } else {
        first = first_part(ref.parts[0].ident, from, true);
    }
    if (!first) return std::nullopt;
    return descend(*first, ref);
}

std::optional<ClassHit> Lookup::lookup_first(const std::string& name, const LexScope* from) {
    auto hit = first_part(name, from, false);
    if (!hit || hit->kind != NameHit::Kind::Class) return std::nullopt;
    return hit->cls;
}

ClassHit Lookup::lookup_class(const ast::ComponentRef& ref, const LexScope* from) {
    if (ref.parts.empty()) fail(sink_, rule::flatten_undefined_name, ref.range, "empty class name");
    std::optional<ClassHit> hit =
        ref.global ? find_in_class(nullptr, top_scope(), ref.parts[0].ident) : lookup_first(ref.parts[0].ident, from);
    if (!hit) {
        std::vector<std::string> notes = unreachable_notes(ref);
        if (notes.empty() && ref.parts[0].ident == "Modelica")
            notes.push_back("the Modelica Standard Library is not bundled with modeaudit; put its directory on "
                            "MODELICAPATH or give it with --library DIR");
        fail(sink_, rule::flatten_undefined_name, ref.range,
             fmt::format("class '{}' is not defined; declare it, load the library that has it (--library, "
                         "MODELICAPATH) or correct the name",
                         ref.dotted()),
             notes);
    }
    for (std::size_t i = 1; i < ref.parts.size(); ++i) {
        ClassHit c = through_short(*hit);
        auto next = find_in_class(c.cls, c.lex, ref.parts[i].ident);
        if (!next)
            fail(sink_, rule::flatten_undefined_name, ref.parts[i].range,
                 fmt::format("class '{}' has no member class '{}'", full_name(c.lex), ref.parts[i].ident));
        hit = next;
    }
    return *hit;
}

std::optional<ClassHit> Lookup::find_in_file(const std::string& dotted) {
    const ast::ClassDef* cur = nullptr;
    std::size_t pos = 0;
    while (true) {
        std::size_t dot = dotted.find('.', pos);
        std::string part = dotted.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
        const ast::ClassDef* next = nullptr;
        if (!cur) {
            for (const auto& c : file_.classes)
                if (c->name == part) next = c.get();
        } else {
            for (const ast::Element& el : cur->elements)
                if (el.kind == ast::Element::Kind::Class && el.class_def->name == part) next = el.class_def.get();
        }
        if (!next) return std::nullopt;
        cur = next;
        if (dot == std::string::npos) break;
        pos = dot + 1;
    }
    return ClassHit{cur, scope_in_file(cur)};
}

std::optional<ClassHit> Lookup::lookup_full_name(const std::string& dotted) {
    ast::ComponentRef ref;
    ref.global = true;
    std::size_t pos = 0;
    while (true) {
        std::size_t dot = dotted.find('.', pos);
        ref.parts.push_back(
            ast::NamePart{dotted.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos), {}, {}});
        if (dot == std::string::npos) break;
        pos = dot + 1;
    }
    auto hit = lookup_element(ref, top_scope());
    if (!hit || hit->kind != NameHit::Kind::Class || hit->parts != ref.parts.size()) return std::nullopt;
    return hit->cls;
}

std::vector<std::string> Lookup::declared_elsewhere(const ast::ComponentRef& ref) {
    std::set<std::string> found;
    if (ref.parts.empty() || ref.global) return {};
    std::size_t visited = 0;
    constexpr std::size_t kMaxPackages = 400;  // a bound on the search on this error path
    std::function<void(ClassHit)> visit = [&](ClassHit pkg) {
        if (++visited > kMaxPackages || found.size() >= 3) return;
        if (auto first = find_in_class(pkg.cls, pkg.lex, ref.parts[0].ident)) {
            NameHit h;
            h.cls = *first;
            h.parts = 1;
            if (auto full = descend(h, ref); full && full->parts == ref.parts.size())
                found.insert(full_name(pkg.lex) + "." + ref.dotted());
        }
        if (auto comp = find_component(pkg.cls, pkg.lex, ref.parts[0].ident);
            comp && ref.parts.size() == 1 && comp->clause->prefix.constant)
            found.insert(full_name(pkg.lex) + "." + ref.dotted());
        for (const ast::Element& el : pkg.cls->elements)
            if (el.kind == ast::Element::Kind::Class && el.class_def->kind == ast::ClassKind::Package &&
                !el.class_def->is_short)
                visit(ClassHit{el.class_def.get(), scope_for(el.class_def.get(), pkg.lex)});
        if (loader_)
            for (const std::string& m : loader_->directory_members(pkg.cls))
                if (auto sub = find_in_class(pkg.cls, pkg.lex, m);
                    sub && sub->cls->kind == ast::ClassKind::Package && !sub->cls->is_short)
                    visit(*sub);
    };
    // Files the search reads for the first time may hold errors of their
    // own (a construct outside the subset in an unrelated package): they
    // are no finding of this model, which never uses them.
    const std::size_t reported = sink_.size();
    struct Forget {
        DiagnosticSink& sink;
        std::size_t keep;
        ~Forget() {
            if (sink.size() > keep) sink.mutable_all().resize(keep);
        }
    } forget{sink_, reported};
    try {
        for (const auto& c : file_.classes)
            if (c->kind == ast::ClassKind::Package) visit(ClassHit{c.get(), scope_for(c.get(), file_scope())});
        if (loader_) {
            std::set<std::string> tops;
            for (const auto& [name, p] : loader_->path().named) tops.insert(name);
            for (const auto& root : loader_->path().roots) {
                std::error_code ec;
                for (std::filesystem::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
                    tops.insert(library::class_name_of(it->path()));
            }
            for (const std::string& t : tops) {
                if (!library::looks_like_class_name(t)) continue;
                if (const ast::ClassDef* c = loader_->top_level(t); c && c->kind == ast::ClassKind::Package)
                    visit(ClassHit{c, scope_for(c, top_scope())});
            }
        }
    } catch (const FlattenAbort&) {
        // A problem met while searching for a hint is not this name's problem.
    }
    return {found.begin(), found.end()};
}

std::vector<std::string> Lookup::unreachable_notes(const ast::ComponentRef& ref) {
    std::vector<std::string> notes;
    std::vector<std::string> full = declared_elsewhere(ref);
    for (const std::string& f : full) {
        std::string pkg = f.substr(0, f.size() - ref.dotted().size() - 1);
        std::string head = pkg + "." + ref.parts[0].ident;
        notes.push_back(fmt::format("'{}' is declared as '{}' but is not visible as written here; write '{}', "
                                    "or add 'import {};' to the enclosing class",
                                    ref.dotted(), f, f, head));
    }
    return notes;
}

}  // namespace modeaudit::flat
