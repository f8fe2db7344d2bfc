// libFuzzer harness: library loading (library/library_path.h,
// library/class_loader.h) over a library folder made from the bytes
// (fuzz_tree.h: package.mo and package.order files, folders, links that
// loop or dangle, odd names). Every class name the tree suggests is looked
// up as a top-level class and as a member of each package found; anything
// wrong is a diagnostic, an exception escaping is a crash.
#include <set>

#include "common/diagnostics.h"
#include "fuzz_common.h"
#include "fuzz_tree.h"
#include "library/class_loader.h"
#include "library/library_path.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    modeaudit::fuzz::run_or_abort([&] {
        modeaudit::fuzz::FuzzTree tree(data, size);
        std::vector<std::string> problems;
        modeaudit::library::LibraryPath path =
            modeaudit::library::make_library_path({tree.root().string()}, nullptr, problems);
        modeaudit::SourceManager sources;
        modeaudit::DiagnosticSink sink;
        modeaudit::ParseLimits limits;
        limits.max_file_bytes = 1 << 16;
        modeaudit::library::ClassLoader loader(sources, sink, path, limits);
        std::set<std::string> names = {"package", "Lib", "M"};
        for (const auto& e : tree.entries()) names.insert(e.stem().string());
        std::vector<const modeaudit::ast::ClassDef*> packages;
        for (const std::string& n : names)
            if (const modeaudit::ast::ClassDef* c = loader.top_level(n)) packages.push_back(c);
        for (std::size_t k = 0; k < packages.size() && k < 32; ++k) {
            (void)loader.full_name(packages[k]);
            (void)loader.directory_members(packages[k]);
            for (const std::string& n : names)
                if (const modeaudit::ast::ClassDef* c = loader.member(packages[k], n)) packages.push_back(c);
        }
    });
    return 0;
}
