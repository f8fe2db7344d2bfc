#include "library/class_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>

#include "common/rules.h"

namespace modeaudit::library {

namespace fs = std::filesystem;

ClassLoader::ClassLoader(SourceManager& sources, DiagnosticSink& sink, LibraryPath path, ParseLimits limits)
    : sources_(sources), sink_(sink), path_(std::move(path)), limits_(limits) {}

void ClassLoader::register_definition(const ast::StoredDefinition& def) { by_file_[def.file] = &def; }

const ast::StoredDefinition* ClassLoader::definition(std::uint32_t file) const {
    auto it = by_file_.find(file);
    return it == by_file_.end() ? nullptr : it->second;
}

std::string ClassLoader::full_name(const ast::ClassDef* cls) const {
    auto it = full_name_.find(cls);
    return it == full_name_.end() ? std::string() : it->second;
}

const ast::ClassDef* ClassLoader::top_level(const std::string& name) {
    if (auto it = top_.find(name); it != top_.end()) return it->second;
    const ast::ClassDef* cls = nullptr;
    if (auto entry = find_top_level(path_, name)) cls = load(*entry, name, "");
    top_[name] = cls;
    return cls;
}

const ast::ClassDef* ClassLoader::member(const ast::ClassDef* package, const std::string& name) {
    auto dir = directory_of_.find(package);
    if (dir == directory_of_.end()) return nullptr;
    auto key = std::make_pair(package, name);
    if (auto it = members_.find(key); it != members_.end()) return it->second;
    const ast::ClassDef* cls = nullptr;
    std::error_code ec;
    fs::path sub = dir->second / name;
    if (fs::is_regular_file(sub / "package.mo", ec))
        cls = load(sub, name, full_name(package));
    else if (fs::is_regular_file(dir->second / (name + ".mo"), ec))
        cls = load(dir->second / (name + ".mo"), name, full_name(package));
    members_[key] = cls;
    return cls;
}

std::vector<std::string> ClassLoader::directory_members(const ast::ClassDef* package) const {
    std::vector<std::string> out;
    auto dir = directory_of_.find(package);
    if (dir == directory_of_.end()) return out;
    std::error_code ec;
    for (fs::directory_iterator it(dir->second, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& p = it->path();
        if (p.extension() == ".mo" && p.filename() != "package.mo")
            out.push_back(p.stem().string());
        else if (std::error_code entry_ec; fs::is_regular_file(p / "package.mo", entry_ec))
            out.push_back(p.filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

const ast::ClassDef* ClassLoader::load(const fs::path& entry, const std::string& name,
                                       const std::string& enclosing) {
    std::error_code ec;
    bool directory = fs::is_directory(entry, ec);
    fs::path file = directory ? entry / "package.mo" : entry;
    std::string error;
    auto id = sources_.load(file.string(), error, limits_.max_file_bytes);
    if (!id) {
        sink_.report(rule::parse_unreadable_file, {},
                     fmt::format("cannot read the library file '{}': {}", file.string(), error));
        return nullptr;
    }
    trees_.push_back(parse_file(sources_, *id, sink_, limits_));
    const ast::StoredDefinition& tree = *trees_.back();
    by_file_[*id] = &tree;
    const ast::ClassDef* cls = nullptr;
    for (const auto& c : tree.classes)
        if (c->name == name) cls = c.get();
    SourceLocation start{*id, 1, 1, 0};
    if (!cls) {
        sink_.report(rule::flatten_undefined_name, SourceRange{start, start},
                     fmt::format("the library file '{}' should define the class '{}' (Modelica 3.6, 13.4)",
                                 file.string(), name));
        return nullptr;
    }
    std::string within = tree.within ? tree.within->dotted() : std::string();
    if (within != enclosing) {
        SourceRange where = tree.within ? tree.within->range : SourceRange{start, start};
        if (!where.valid()) where = SourceRange{start, start};
        sink_.report(rule::flatten_undefined_name, where,
                     enclosing.empty()
                         ? fmt::format("'{}' is a top-level library class, so its file must say 'within;' "
                                       "(it says 'within {}')",
                                       name, within)
                         : fmt::format("'{}' lies in the package '{}', so its file must say 'within {};'", name,
                                       enclosing, enclosing));
    }
    full_name_[cls] = enclosing.empty() ? name : enclosing + "." + name;
    if (directory) directory_of_[cls] = entry;
    return cls;
}

}  // namespace modeaudit::library
