// Unit tests of the regress runner's process isolation: a model whose
// process crashes, hangs, throws or exits without a result fails alone,
// with a message saying which, and the models after it still run and are
// reported in file order.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "regress/runner.h"

namespace modeaudit {
namespace {

namespace fs = std::filesystem;

struct TempCorpus {
    fs::path dir;
    explicit TempCorpus(const std::vector<std::string>& names) {
        dir = fs::temp_directory_path() / ("modeaudit-regress-" + std::to_string(getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
        for (const std::string& n : names) std::ofstream(dir / n) << "// status: good\nmodel M end M;\n";
    }
    ~TempCorpus() { fs::remove_all(dir); }
};

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// What each child does, chosen by the model's file name.
ModelOutcome misbehave(const std::string& path) {
    if (ends_with(path, "b_aborts.mo")) std::abort();  // an assertion failure, an uncaught terminate
    if (ends_with(path, "c_hangs.mo")) std::this_thread::sleep_for(std::chrono::seconds(600));
    if (ends_with(path, "d_throws.mo")) throw std::runtime_error("boom");
    if (ends_with(path, "e_exits.mo")) _exit(3);
    ModelOutcome o;
    o.passed = true;
    o.compared_through = "parse";
    return o;
}

TEST(RegressRunner, CrashingHangingAndSilentModelsFailAloneAndTheRunGoesOn) {
    TempCorpus corpus({"a_passes.mo", "b_aborts.mo", "c_hangs.mo", "d_throws.mo", "e_exits.mo", "f_passes.mo"});
    for (int jobs : {1, 3}) {
        RegressOptions o;
        o.jobs = jobs;
        o.timeout_seconds = 1;
        o.run_model = misbehave;
        std::ostringstream out;
        RegressSummary s = regress_corpus(corpus.dir.string(), o, out);
        ASSERT_FALSE(s.setup_error) << s.setup_message;
        ASSERT_EQ(s.models.size(), 6u);
        EXPECT_EQ(s.passed, 2) << out.str();
        EXPECT_EQ(s.failed, 4) << out.str();
        EXPECT_TRUE(s.models[0].passed);
        EXPECT_TRUE(s.models[5].passed);
        auto first = [&](std::size_t k) { return s.models[k].mismatches.empty() ? "" : s.models[k].mismatches[0]; };
        EXPECT_EQ(first(1), "crashed with signal 6");
        EXPECT_EQ(first(2), "timed out after 1 s");
        EXPECT_EQ(first(3), "internal error: boom");
        EXPECT_EQ(first(4), "the model's process exited with status 3 and no result");
        // Reported in file order whatever the completion order.
        const std::string text = out.str();
        std::size_t at = 0;
        for (const char* n : {"a_passes", "b_aborts", "c_hangs", "d_throws", "e_exits", "f_passes"}) {
            const std::size_t p = text.find(n, at);
            ASSERT_NE(p, std::string::npos) << n << " missing or out of order:\n" << text;
            at = p;
        }
        EXPECT_TRUE(ends_with(text, "2 passed, 4 failed\n")) << text;
    }
}

}  // namespace
}  // namespace modeaudit
