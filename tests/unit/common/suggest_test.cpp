#include "common/suggest.h"

#include <gtest/gtest.h>

namespace modeaudit {
namespace {

TEST(Suggest, EditDistanceCountsTranspositionsOnce) {
    EXPECT_EQ(edit_distance("check", "check"), 0u);
    EXPECT_EQ(edit_distance("chekc", "check"), 1u);
    EXPECT_EQ(edit_distance("--fromat", "--format"), 1u);
    EXPECT_EQ(edit_distance("", "abc"), 3u);
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(Suggest, ClosestCommandOrOption) {
    const std::vector<std::string> commands = {"check", "simulate", "report", "regress", "rules", "explain"};
    EXPECT_EQ(closest_match("chek", commands), "check");
    EXPECT_EQ(closest_match("simualte", commands), "simulate");
    EXPECT_EQ(closest_match("rule", commands), "rules");
    EXPECT_EQ(closest_match("regres", commands), "regress");
    EXPECT_EQ(closest_match("foo", commands), "");      // nothing close: no guess
    EXPECT_EQ(closest_match("deploy", commands), "");
    const std::vector<std::string> options = {"--format", "--output", "--model", "--files-from"};
    EXPECT_EQ(closest_match("--fromat", options), "--format");
    EXPECT_EQ(closest_match("--modle", options), "--model");
    EXPECT_EQ(closest_match("--files-form", options), "--files-from");
    EXPECT_EQ(closest_match("--verbose", options), "");
}

TEST(Suggest, TiesGoToTheFirstCandidate) {
    EXPECT_EQ(closest_match("ab", {"ac", "ad"}), "ac");
    EXPECT_EQ(closest_match("ab", {"ad", "ac"}), "ad");
}

}  // namespace
}  // namespace modeaudit
