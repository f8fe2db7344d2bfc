// Unit tests of library loading: MODELICAPATH and --library
// (library_path.h), and the lazy class loader (class_loader.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "library/class_loader.h"
#include "library/library_path.h"

namespace modeaudit {
namespace {

namespace fs = std::filesystem;
using library::ClassLoader;
using library::LibraryPath;

// A fresh temporary directory, removed at the end of the test.
struct TempDir {
    fs::path path;
    TempDir() {
        std::string templ = (fs::temp_directory_path() / "modeaudit-lib-XXXXXX").string();
        path = mkdtemp(templ.data());
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    void write(const std::string& rel, const std::string& text) const {
        fs::create_directories((path / rel).parent_path());
        std::ofstream(path / rel) << text;
    }
};

TEST(LibraryPath, ModelicaPathListsRootsInOrder) {
    TempDir a, b;
    a.write("Lib/package.mo", "within;\npackage Lib end Lib;\n");
    b.write("Lib.mo", "within;\npackage Lib end Lib;\n");
    b.write("Other.mo", "package Other end Other;\n");
    std::vector<std::string> problems;
    std::string mp = a.path.string() + ":" + b.path.string() + ":/no/such/dir";
    LibraryPath p = library::make_library_path({}, mp.c_str(), problems);
    EXPECT_TRUE(problems.empty());
    ASSERT_EQ(p.roots.size(), 2u);  // the missing entry is skipped
    EXPECT_EQ(library::find_top_level(p, "Lib"), a.path / "Lib");  // the first root wins
    EXPECT_EQ(library::find_top_level(p, "Other"), b.path / "Other.mo");
    EXPECT_FALSE(library::find_top_level(p, "Missing"));
}

TEST(LibraryPath, VersionedDirectoriesAndNamedLibraries) {
    TempDir root, elsewhere;
    root.write("Lib 1.0.0/package.mo", "within;\npackage Lib end Lib;\n");
    root.write("Lib 2.1.0/package.mo", "within;\npackage Lib end Lib;\n");
    elsewhere.write("My Pkg 3/package.mo", "within;\npackage My end My;\n");
    std::vector<std::string> problems;
    LibraryPath p = library::make_library_path(
        {root.path.string(), (elsewhere.path / "My Pkg 3").string(), "/no/such/library"}, nullptr, problems);
    ASSERT_EQ(problems.size(), 1u);  // a --library that does not exist is an error
    EXPECT_NE(problems[0].find("/no/such/library"), std::string::npos);
    EXPECT_EQ(library::find_top_level(p, "Lib"), root.path / "Lib 2.1.0");
    EXPECT_EQ(library::find_top_level(p, "My"), elsewhere.path / "My Pkg 3");
    EXPECT_EQ(library::class_name_of("Modelica 4.0.0"), "Modelica");
    EXPECT_EQ(library::class_name_of("/x/Lib.mo"), "Lib");
}

TEST(LibraryPath, ClassNames) {
    EXPECT_TRUE(library::looks_like_class_name("Lib.Examples.Foo"));
    EXPECT_TRUE(library::looks_like_class_name("M"));
    EXPECT_FALSE(library::looks_like_class_name("model.mo.txt/"));
    EXPECT_FALSE(library::looks_like_class_name("Lib..Foo"));
    EXPECT_FALSE(library::looks_like_class_name("Lib."));
    EXPECT_FALSE(library::looks_like_class_name("1Lib"));
    EXPECT_FALSE(library::looks_like_class_name("dir/model"));
}

TEST(ClassLoader, ReadsOnlyTheFilesALookupReaches) {
    TempDir root;
    root.write("Big/package.mo", "within;\npackage Big\n  constant Real c = 1;\nend Big;\n");
    for (int i = 0; i < 40; ++i)
        root.write("Big/Sub" + std::to_string(i) + "/package.mo",
                   "within Big;\npackage Sub" + std::to_string(i) + "\nend Sub" + std::to_string(i) + ";\n");
    root.write("Big/Sub7/M.mo", "within Big.Sub7;\nmodel M\n  Real x;\nequation\n  x = 1;\nend M;\n");
    // A file with a syntax error that no lookup reaches.
    root.write("Big/Broken.mo", "within Big;\nmodel Broken\n  Real x = ;\nend Broken;\n");
    SourceManager sm;
    DiagnosticSink sink;
    std::vector<std::string> problems;
    ClassLoader loader(sm, sink, library::make_library_path({root.path.string()}, nullptr, problems));
    const ast::ClassDef* big = loader.top_level("Big");
    ASSERT_NE(big, nullptr);
    EXPECT_EQ(loader.files_read(), 1u);
    const ast::ClassDef* sub = loader.member(big, "Sub7");
    ASSERT_NE(sub, nullptr);
    const ast::ClassDef* m = loader.member(sub, "M");
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->name, "M");
    EXPECT_EQ(loader.full_name(m), "Big.Sub7.M");
    EXPECT_EQ(loader.files_read(), 3u);
    EXPECT_EQ(loader.member(big, "Sub7"), sub);  // cached
    EXPECT_EQ(loader.member(big, "Nothing"), nullptr);
    EXPECT_EQ(loader.files_read(), 3u);
    EXPECT_TRUE(sink.all().empty());  // Broken.mo was never parsed
    auto members = loader.directory_members(big);
    EXPECT_EQ(members.size(), 41u);
}

TEST(ClassLoader, WrongWithinAndWrongClassNameAreReported) {
    TempDir root;
    root.write("P/package.mo", "within;\npackage P\nend P;\n");
    root.write("P/A.mo", "within Q;\nmodel A\nend A;\n");
    root.write("P/B.mo", "within P;\nmodel NotB\nend NotB;\n");
    SourceManager sm;
    DiagnosticSink sink;
    std::vector<std::string> problems;
    ClassLoader loader(sm, sink, library::make_library_path({root.path.string()}, nullptr, problems));
    const ast::ClassDef* p = loader.top_level("P");
    ASSERT_NE(p, nullptr);
    EXPECT_NE(loader.member(p, "A"), nullptr);
    ASSERT_EQ(sink.all().size(), 1u);
    EXPECT_NE(sink.all()[0].message.find("must say 'within P;'"), std::string::npos);
    EXPECT_EQ(loader.member(p, "B"), nullptr);
    ASSERT_EQ(sink.all().size(), 2u);
    EXPECT_NE(sink.all()[1].message.find("should define the class 'B'"), std::string::npos);
}

}  // namespace
}  // namespace modeaudit
