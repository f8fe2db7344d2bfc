// Output files written safely and input files read without exceptions
// (common/files.h), and model text made safe for a terminal
// (common/terminal_text.h).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/files.h"
#include "common/terminal_text.h"

namespace modeaudit {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
    fs::path d = fs::temp_directory_path() / ("modeaudit-files-test-" + std::to_string(getpid()) + "-" + name);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(Files, WritesAtomicallyAndReplacesARegularFile) {
    fs::path d = fresh_dir("write");
    std::string error;
    ASSERT_TRUE(write_file_atomically(d / "a.txt", "one\n", &error)) << error;
    ASSERT_TRUE(write_file_atomically(d / "a.txt", "two\n", &error)) << error;
    EXPECT_EQ(slurp(d / "a.txt"), "two\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(d), fs::directory_iterator()), 1);  // no temporary left
}

TEST(Files, NeverWritesThroughAPlantedLink) {
    fs::path d = fresh_dir("planted");
    std::ofstream(d / "victim") << "precious";
    // The old fixed temporary name, and the destination itself.
    fs::create_symlink(d / "victim", d / "out.txt.tmp");
    std::string error;
    EXPECT_TRUE(write_file_atomically(d / "out.txt", "new", &error)) << error;
    EXPECT_EQ(slurp(d / "victim"), "precious");
    EXPECT_TRUE(fs::is_symlink(d / "out.txt.tmp"));
    fs::create_symlink(d / "victim", d / "link.txt");
    EXPECT_FALSE(write_file_atomically(d / "link.txt", "new", &error));
    EXPECT_NE(error.find("is a symbolic link"), std::string::npos) << error;
    EXPECT_EQ(slurp(d / "victim"), "precious");
    EXPECT_TRUE(fs::is_symlink(d / "link.txt"));
}

TEST(Files, RefusesDevicesPipesAndFolders) {
    fs::path d = fresh_dir("special");
    ASSERT_EQ(mkfifo((d / "pipe").c_str(), 0600), 0);
    fs::create_directory(d / "folder");
    std::string error;
    EXPECT_FALSE(write_file_atomically(d / "pipe", "x", &error));
    EXPECT_NE(error.find("a named pipe"), std::string::npos) << error;
    EXPECT_TRUE(fs::is_fifo(d / "pipe"));
    EXPECT_FALSE(write_file_atomically(d / "folder", "x", &error));
    EXPECT_NE(error.find("a folder"), std::string::npos) << error;
    EXPECT_EQ(destination_problem("/dev/null").find("a device") != std::string::npos, true);
    EXPECT_FALSE(write_file_atomically(d / "missing" / "x.txt", "x", &error));
    EXPECT_NE(error.find("No such file"), std::string::npos) << error;
}

TEST(Files, StagingFoldersAreFreshAndLeftoversOfDeadRunsGo) {
    fs::path d = fresh_dir("staging");
    std::string error;
    auto a = make_staging_folder(d, ".stage", error);
    auto b = make_staging_folder(d, ".stage", error);
    ASSERT_TRUE(a && b) << error;
    EXPECT_NE(*a, *b);
    EXPECT_EQ(fs::status(*a).permissions() & fs::perms::all, fs::perms::owner_all);
    // A leftover of a dead run (pid 2^22 + 1 is above Linux's pid_max) goes;
    // a planted link under a staging name stays, and its target is untouched.
    fs::create_directories(d / ".stage-4194305-AAAAAA" / "sub");
    std::ofstream(d / ".stage-4194305-AAAAAA" / "sub" / "f") << "x";
    fs::create_directory(d / "target");
    std::ofstream(d / "target" / "keep") << "x";
    fs::create_directory_symlink(d / "target", d / ".stage-4194306-BBBBBB");
    auto c = make_staging_folder(d, ".stage", error);
    ASSERT_TRUE(c) << error;
    EXPECT_FALSE(fs::exists(d / ".stage-4194305-AAAAAA"));
    EXPECT_TRUE(fs::is_symlink(d / ".stage-4194306-BBBBBB"));
    EXPECT_TRUE(fs::exists(d / "target" / "keep"));
    EXPECT_TRUE(fs::exists(*a));  // ours, and this process is alive
    remove_staging_folder(*a);
    EXPECT_FALSE(fs::exists(*a));
}

TEST(Files, ReadingReportsEveryConditionAsAnError) {
    fs::path d = fresh_dir("read");
    std::string text, error;
    fs::create_symlink("loop2", d / "loop1");
    fs::create_symlink("loop1", d / "loop2");
    EXPECT_FALSE(read_input_file((d / "loop1").string(), 1 << 20, text, error));
    EXPECT_NE(error.find("symbolic links"), std::string::npos) << error;
    EXPECT_FALSE(read_input_file(d.string(), 1 << 20, text, error));
    EXPECT_NE(error.find("directory"), std::string::npos) << error;
    EXPECT_FALSE(read_input_file("/dev/zero", 1 << 20, text, error));
    EXPECT_NE(error.find("input size limit"), std::string::npos) << error;
    EXPECT_FALSE(read_input_file("/proc/self/mem", 1 << 20, text, error));
    EXPECT_FALSE(error.empty());
    std::ofstream(d / "m.mo") << "model M end M;";
    EXPECT_TRUE(read_input_file((d / "m.mo").string(), 14, text, error)) << error;
    EXPECT_EQ(text, "model M end M;");
    EXPECT_FALSE(read_input_file((d / "m.mo").string(), 13, text, error));
}

TEST(TerminalText, EscapesControlsAndInvalidUtf8AndKeepsTheRest) {
    EXPECT_EQ(terminal_safe("plain text\n\tline"), "plain text\n\tline");
    EXPECT_EQ(terminal_safe("Модель 'x'"), "Модель 'x'");
    EXPECT_EQ(terminal_safe("a\x1b]0;pwned\x07z"), "a\\x1b]0;pwned\\x07z");
    EXPECT_EQ(terminal_safe("\x1b[2J"), "\\x1b[2J");
    EXPECT_EQ(terminal_safe("cr\rdel\x7f"), "cr\\x0ddel\\x7f");
    EXPECT_EQ(terminal_safe("c1 \xc2\x9b" "31m"), "c1 \\xc2\\x9b31m");  // CSI as U+009B
    EXPECT_EQ(terminal_safe("bad \xff\xc3"), "bad \\xff\\xc3");
    EXPECT_EQ(terminal_safe("overlong \xc0\xaf"), "overlong \\xc0\\xaf");
}

}  // namespace
}  // namespace modeaudit
