// Which models a call runs on (common/model_selection.h): files, folders,
// lists, duplicates, an empty selection, shards and JUnit names.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "common/model_selection.h"

namespace modeaudit {
namespace {

namespace fs = std::filesystem;

struct TempTree {
    fs::path dir;
    TempTree() {
        dir = fs::temp_directory_path() / ("modeaudit-selection-" + std::to_string(getpid()));
        fs::remove_all(dir);
        for (const char* f : {"corpus/good/b.mo", "corpus/good/a.mo", "corpus/flawed/restart/c.mo", "corpus/top.mo",
                              "corpus/notes.txt", "empty/readme.md"}) {
            fs::create_directories((dir / f).parent_path());
            std::ofstream(dir / f) << "model M end M;\n";
        }
    }
    ~TempTree() { fs::remove_all(dir); }
    std::string operator()(const std::string& rel) const { return (dir / rel).string(); }
};

std::vector<std::string> paths(const ModelSelection& s) {
    std::vector<std::string> out;
    for (const SelectedModel& m : s.models) out.push_back(m.path);
    return out;
}

TEST(ModelSelection, FoldersFilesAndListsInArgumentOrder) {
    TempTree t;
    std::istringstream none;
    ModelSelection s = select_models({{t("corpus/top.mo"), t("corpus/good")}, "", true}, none);
    ASSERT_EQ(s.error, "");
    EXPECT_EQ(paths(s), (std::vector<std::string>{t("corpus/top.mo"), t("corpus/good/a.mo"), t("corpus/good/b.mo")}));
    EXPECT_EQ(s.models[0].root, "");
    EXPECT_EQ(s.models[1].root, t("corpus/good"));

    // A list on standard input: comments, blank lines, CRLF, duplicates.
    std::istringstream list("# models\n\n" + t("corpus/good/b.mo") + "\r\n  " + t("corpus/good/../good/b.mo") + "\n" +
                            t("corpus/flawed") + "\n");
    s = select_models({{}, "-", true}, list);
    ASSERT_EQ(s.error, "");
    EXPECT_EQ(paths(s), (std::vector<std::string>{t("corpus/good/b.mo"), t("corpus/flawed/restart/c.mo")}));

    std::ofstream(t("list.txt")) << t("corpus/top.mo") << "\n";
    s = select_models({{t("corpus/top.mo")}, t("list.txt"), true}, none);
    EXPECT_EQ(paths(s), std::vector<std::string>{t("corpus/top.mo")});  // named twice, run once
}

TEST(ModelSelection, AnEmptySelectionIsAnError) {
    TempTree t;
    std::istringstream none, empty_list("# nothing\n\n");
    EXPECT_NE(select_models({{}, "", true}, none).error.find("no model given"), std::string::npos);
    EXPECT_NE(select_models({{t("empty")}, "", true}, none).error.find("no .mo file"), std::string::npos);
    EXPECT_NE(select_models({{}, "-", true}, empty_list).error.find("no model selected"), std::string::npos);
    EXPECT_NE(select_models({{}, t("no-such-list"), true}, none).error.find("cannot read the list"), std::string::npos);
    std::istringstream list("a.mo\n");
    EXPECT_NE(select_models({{"-"}, "-", true}, list).error.find("both"), std::string::npos);
    EXPECT_NE(select_models({{"-"}, "", false}, none).error.find("not a model here"), std::string::npos);
}

TEST(ModelSelection, ShardsCoverEveryModelExactlyOnce) {
    std::vector<SelectedModel> models;
    for (int k = 0; k < 23; ++k) models.push_back({"m" + std::to_string(k) + ".mo", ""});
    for (std::size_t n : {1u, 2u, 4u, 7u, 23u, 30u}) {
        std::multiset<std::string> seen;
        std::size_t smallest = models.size(), largest = 0;
        for (std::size_t k = 1; k <= n; ++k) {
            std::vector<SelectedModel> part = shard_of(models, {k, n});
            smallest = std::min(smallest, part.size());
            largest = std::max(largest, part.size());
            for (const SelectedModel& m : part) seen.insert(m.path);
        }
        EXPECT_EQ(seen.size(), models.size()) << n;
        for (const SelectedModel& m : models) EXPECT_EQ(seen.count(m.path), 1u) << m.path << " in " << n << " shards";
        EXPECT_LE(largest - smallest, 1u) << n;
    }
}

TEST(ModelSelection, ShardSyntax) {
    std::string error;
    auto s = parse_shard("2/4", error);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->index, 2u);
    EXPECT_EQ(s->total, 4u);
    for (const char* bad : {"0/4", "5/4", "1/0", "2", "a/4", "2/4x", "-1/4", "/4", "2/"}) {
        error.clear();
        EXPECT_FALSE(parse_shard(bad, error)) << bad;
        EXPECT_NE(error.find("K/N"), std::string::npos) << bad;
    }
}

TEST(ModelSelection, JUnitNamesAreRelativeToTheCorpus) {
    SelectedModel under{"corpus/flawed/restart/c.mo", "corpus"};
    EXPECT_EQ(relative_name(under), "flawed/restart/c.mo");
    EXPECT_EQ(class_name(under), "corpus.flawed.restart");
    SelectedModel top{"corpus/top.mo", "corpus/"};
    EXPECT_EQ(relative_name(top), "top.mo");
    EXPECT_EQ(class_name(top), "corpus");
    SelectedModel file{"corpus/good/a.mo", ""};
    EXPECT_EQ(relative_name(file), "corpus/good/a.mo");
    EXPECT_EQ(class_name(file), "corpus.good");
    EXPECT_EQ(class_name({"a.mo", ""}), "models");
}

}  // namespace
}  // namespace modeaudit
