// Lazy loading of library classes (Modelica 3.6, section 13.4).
//
// Sits between the parse and flatten stages: the flattener asks for a
// top-level class or for a member of a package, and the loader finds the
// file that holds it (library_path.h), parses that one file and caches the
// tree. Nothing else is read: a class of a library is parsed only when a
// lookup reaches it, and flattened only when the model instantiates it, so
// that loading one example of a large library reads a few dozen files.
//
// A package stored as a directory holds `package.mo` (the package itself,
// with any classes written in it) and one file `B.mo` or subdirectory `B/`
// per further member; `package.order` only orders members for browsers and
// is not needed for lookup. Each file must define the class its name says,
// and its `within` clause must name the enclosing package; a file that
// breaks either rule is reported where it is read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "common/source.h"
#include "library/library_path.h"
#include "parse/ast.h"
#include "parse/parser.h"

namespace modeaudit::library {

class ClassLoader {
public:
    ClassLoader(SourceManager& sources, DiagnosticSink& sink, LibraryPath path, ParseLimits limits = {});

    // The top-level class `name` of a library, loaded on first use; null
    // when no library root has it.
    const ast::ClassDef* top_level(const std::string& name);
    // A member class of a package stored as a directory, kept in a file or
    // subdirectory of its own; null when there is none (or `package` was
    // not loaded from a directory).
    const ast::ClassDef* member(const ast::ClassDef* package, const std::string& name);
    // The names of the members a directory package keeps in files of its
    // own, sorted; empty for any other class. For messages only.
    std::vector<std::string> directory_members(const ast::ClassDef* package) const;
    // The full name of a class this loader read ("Lib.Sub.C"); empty otherwise.
    std::string full_name(const ast::ClassDef* cls) const;

    // The parsed file with this id (the model's own file once registered).
    const ast::StoredDefinition* definition(std::uint32_t file) const;
    void register_definition(const ast::StoredDefinition& def);

    std::size_t files_read() const { return trees_.size(); }
    const LibraryPath& path() const { return path_; }

private:
    const ast::ClassDef* load(const std::filesystem::path& entry, const std::string& name,
                              const std::string& enclosing);

    SourceManager& sources_;
    DiagnosticSink& sink_;
    LibraryPath path_;
    ParseLimits limits_;
    std::vector<std::unique_ptr<ast::StoredDefinition>> trees_;
    std::map<std::uint32_t, const ast::StoredDefinition*> by_file_;
    std::map<std::string, const ast::ClassDef*> top_;
    std::map<std::pair<const ast::ClassDef*, std::string>, const ast::ClassDef*> members_;
    std::map<const ast::ClassDef*, std::filesystem::path> directory_of_;
    std::map<const ast::ClassDef*, std::string> full_name_;
};

}  // namespace modeaudit::library
