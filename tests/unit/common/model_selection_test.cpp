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
    // 2^64 - 1 would wrap the round robin's index around (hardening round 3,
    // item 6); at most 2^32 shards, and an empty text (an unset variable) is
    // no shard.
    for (const char* bad : {"0/4", "5/4", "1/0", "2", "a/4", "2/4x", "-1/4", "/4", "2/", "", "/", " 2/4", "+2/4",
                            "2/18446744073709551615", "1/4294967297", "99999999999999999999999/4"}) {
        error.clear();
        EXPECT_FALSE(parse_shard(bad, error)) << bad;
        EXPECT_NE(error.find("K/N"), std::string::npos) << bad;
    }
}

TEST(ModelSelection, TheLargestShardCountStillCoversEveryModel) {
    std::string error;
    auto s = parse_shard("4294967296/4294967296", error);
    ASSERT_TRUE(s) << error;
    std::vector<SelectedModel> models(3, SelectedModel{"m.mo", ""});
    EXPECT_TRUE(shard_of(models, *s).empty());
    EXPECT_EQ(shard_of(models, {1, kMaxShards}).size(), 1u);
    EXPECT_EQ(shard_of(models, {3, kMaxShards}).size(), 1u);
}

// A link that loops (to itself, or two links to each other) or dangles in a
// models folder is skipped with a warning naming it; the other models run
// (hardening round 3, item 1: the throwing queries made it exit 3).
TEST(ModelSelection, LinkLoopsInAFolderAreSkippedWithAWarning) {
    TempTree t;
    fs::create_symlink("loop", t("corpus/good/loop"));
    fs::create_symlink("ping.mo", t("corpus/good/pong.mo"));
    fs::create_symlink("pong.mo", t("corpus/good/ping.mo"));
    fs::create_symlink("missing.mo", t("corpus/good/dangling.mo"));
    fs::create_directory_symlink(t("corpus/good"), t("corpus/good/self"));  // a folder link: not followed
    std::istringstream none;
    ModelSelection s = select_models({{t("corpus/good")}, "", true}, none);
    ASSERT_EQ(s.error, "");
    EXPECT_EQ(paths(s), (std::vector<std::string>{t("corpus/good/a.mo"), t("corpus/good/b.mo")}));
    std::string all;
    for (const std::string& w : s.warnings) all += w + "\n";
    for (const char* name : {"loop", "ping.mo", "pong.mo", "dangling.mo"})
        EXPECT_NE(all.find(std::string("corpus/good/") + name + "'"), std::string::npos) << name << " in\n" << all;
    EXPECT_EQ(s.warnings.size(), 4u) << all;
}

// A list is read line by line with bounds (item 3): a line longer than a
// path can be, a NUL byte or a list over the size limit is refused at once,
// with its line number and without echoing it.
TEST(ModelSelection, ListLinesAreBounded) {
    std::istringstream none;
    std::istringstream long_line("a.mo\n" + std::string(kMaxListLine + 1, 'x') + "\nb.mo\n");
    ModelSelection s = select_models({{}, "-", true}, long_line);
    EXPECT_NE(s.error.find("line 2 is longer than 4096 bytes"), std::string::npos) << s.error;
    EXPECT_LT(s.error.size(), 300u);
    std::istringstream exact(std::string(kMaxListLine, 'y') + "\n");
    EXPECT_EQ(select_models({{}, "-", true}, exact).error.find("longer"), std::string::npos);
    std::istringstream nul(std::string("a.mo\nb\0.mo\n", 11));
    EXPECT_NE(select_models({{}, "-", true}, nul).error.find("line 2 holds a NUL byte"), std::string::npos);
    ModelSelectionRequest small{{}, "-", true};
    small.max_list_bytes = 10;
    std::istringstream big("a.mo\nb.mo\nc.mo\n");
    EXPECT_NE(select_models(small, big).error.find("larger than the input size limit of 10 bytes (--max-input-size)"),
              std::string::npos);
    EXPECT_NE(select_models({{}, "/dev/zero", true}, none).error.find("NUL byte"), std::string::npos);
    TempTree t;
    EXPECT_NE(select_models({{}, t("corpus"), true}, none).error.find("is a folder"), std::string::npos);
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
