// Unit tests of run_process (analyzer/report/subprocess.h): arguments reach
// the program as they are (no shell), exit status, timeout, missing program,
// environment and working folder.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "report/subprocess.h"

namespace modeaudit {
namespace {

TEST(Subprocess, ArgumentsAreNotInterpretedByAShell) {
    ProcessResult r = run_process({"printf", "%s|", "a b", "$(echo no)", "; rm -rf x", "'\"`"});
    ASSERT_TRUE(r.succeeded()) << r.describe();
    EXPECT_EQ(r.output, "a b|$(echo no)|; rm -rf x|'\"`|");
}

TEST(Subprocess, ExitStatusAndStandardErrorAreCaptured) {
    ProcessResult r = run_process({"sh", "-c", "echo out; echo err >&2; exit 3"});
    EXPECT_TRUE(r.started);
    EXPECT_FALSE(r.succeeded());
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.describe(), "exited with status 3");
    EXPECT_NE(r.output.find("out\n"), std::string::npos);
    EXPECT_NE(r.output.find("err\n"), std::string::npos);
}

TEST(Subprocess, MissingProgramIsNotStarted) {
    ProcessResult r = run_process({"/nonexistent/program", "x"});
    EXPECT_FALSE(r.started);
    EXPECT_EQ(r.error, "No such file or directory");
    EXPECT_EQ(r.describe(), "could not be started: No such file or directory");
    EXPECT_FALSE(run_process({}).started);
}

TEST(Subprocess, MissingWorkingFolderIsNamed) {
    ProcessOptions o;
    o.working_dir = "/nonexistent/folder";
    ProcessResult r = run_process({"true"}, o);
    EXPECT_FALSE(r.started);
    EXPECT_EQ(r.error, "the folder '/nonexistent/folder' to run it in does not exist");
}

TEST(Subprocess, TimeoutKillsTheWholeProcessGroup) {
    ProcessOptions o;
    o.timeout_seconds = 0.3;
    auto start = std::chrono::steady_clock::now();
    // The grandchild `sleep` holds the output pipe open: it must be killed too.
    ProcessResult r = run_process({"sh", "-c", "sleep 30 & sleep 30; echo never"}, o);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(r.timed_out);
    EXPECT_FALSE(r.succeeded());
    EXPECT_LT(seconds, 10.0);
    EXPECT_EQ(r.output.find("never"), std::string::npos);
}

TEST(Subprocess, StragglerDoesNotHoldUpANormalExit) {
    ProcessOptions o;
    o.timeout_seconds = 20;
    auto start = std::chrono::steady_clock::now();
    ProcessResult r = run_process({"sh", "-c", "sleep 30 & echo done"}, o);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(r.succeeded()) << r.describe();
    EXPECT_LT(seconds, 10.0);
    EXPECT_NE(r.output.find("done"), std::string::npos);
}

TEST(Subprocess, EnvironmentAndWorkingFolder) {
    ProcessOptions o;
    o.env = {{"MODEAUDIT_TEST_VAR", "v a l"}};
    o.working_dir = "/";
    ProcessResult r = run_process({"sh", "-c", "printf '%s:' \"$MODEAUDIT_TEST_VAR\"; pwd"}, o);
    ASSERT_TRUE(r.succeeded()) << r.describe();
    EXPECT_EQ(r.output, "v a l:/\n");
}

TEST(Subprocess, OutputIsBounded) {
    ProcessOptions o;
    o.max_output = 100;
    ProcessResult r = run_process({"sh", "-c", "yes | head -c 100000"}, o);
    EXPECT_TRUE(r.succeeded());
    EXPECT_EQ(r.output.size(), 100u);
}

}  // namespace
}  // namespace modeaudit
