// Where libraries are found: MODELICAPATH and --library (Modelica 3.6, section 13.3).
//
// Used by the class loader (class_loader.h) before the flatten stage. A
// library root is a directory searched for top-level classes: a top-level
// class A is the directory `A` holding `package.mo`, or the file `A.mo`; a
// directory or file named `A VERSION` (as an installed "Modelica 4.0.0")
// also counts. MODELICAPATH lists library roots separated by ':' (or ';');
// `--library PATH` either names such a root, or a library itself: a
// directory with `package.mo` or a single `.mo` file, whose top-level class
// is then known by that name. --library entries come before MODELICAPATH,
// in the order given.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace modeaudit::library {

struct LibraryPath {
    std::vector<std::filesystem::path> roots;                // searched in order
    std::map<std::string, std::filesystem::path> named;      // --library of a library itself
};

// Builds the path from the --library arguments and the value of
// MODELICAPATH (null or empty: none). A --library argument that is neither
// a directory nor a .mo file is reported in `problems` (one line each); a
// MODELICAPATH entry that is no directory is skipped.
LibraryPath make_library_path(const std::vector<std::string>& library_args, const char* modelicapath,
                              std::vector<std::string>& problems);

// Where a top-level class of this name lives: a package directory (holding
// package.mo) or a .mo file; nullopt when no root has it.
std::optional<std::filesystem::path> find_top_level(const LibraryPath& path, const std::string& name);

// The class name a library file or directory stands for: "Modelica" for
// "Modelica 4.0.0", "Lib" for "Lib.mo".
std::string class_name_of(const std::filesystem::path& entry);

// True when `text` is a dotted Modelica name such as `Lib.Examples.Foo`.
bool looks_like_class_name(const std::string& text);

}  // namespace modeaudit::library
