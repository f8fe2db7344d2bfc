// The meta-test of the rule table (rules/rules.def): every row has a
// well-formed id, its doc page, an implementing source that mentions it, a
// flawed corpus model that expects it and a near-miss good model in the same
// family; ids are unique.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "common/rules.h"
#include "regress/expectations.h"

namespace modeaudit {
namespace {

namespace fs = std::filesystem;
const fs::path kRoot = MODEAUDIT_SOURCE_DIR;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Rules that no model file's content can fire: they concern the command
// line. Each is covered by a test in tests/CMakeLists.txt instead.
const std::set<std::string> kCliOnlyRules = {"parse-unreadable-file"};

struct CorpusIndex {
    std::set<std::string> expected_in_flawed;  // rules some flawed model expects
    std::set<std::string> expected_anywhere;   // rules some corpus model expects
    std::set<std::string> good_families;       // families with a good model
};

CorpusIndex index_corpus() {
    CorpusIndex idx;
    for (const auto& e : fs::recursive_directory_iterator(kRoot / "corpus")) {
        if (!e.is_regular_file() || e.path().extension() != ".mo") continue;
        CorpusExpectations ex = read_expectations(slurp(e.path()));
        for (const auto& d : ex.diagnostics) idx.expected_anywhere.insert(d.rule);
        if (ex.status == "flawed")
            for (const auto& d : ex.diagnostics) idx.expected_in_flawed.insert(d.rule);
        if (ex.status == "good") {
            // A good model is the near miss of every family it exercises.
            std::string rel = fs::relative(e.path(), kRoot / "corpus").string();
            idx.good_families.insert(rel);
        }
    }
    return idx;
}

TEST(RuleTable, IdsAreKebabCaseWithAKnownFamilyAndUnique) {
    std::set<std::string_view> seen;
    const std::regex id_form("^[a-z]+(-[a-z0-9]+)+$");
    const std::set<std::string> families = {"parse", "flatten", "modes", "structure", "restart",
                                            "verify", "sim", "report", "limit"};
    for (const Rule& r : all_rules()) {
        EXPECT_TRUE(std::regex_match(std::string(r.id), id_form)) << r.id;
        EXPECT_TRUE(families.count(std::string(r.family()))) << r.id;
        EXPECT_TRUE(seen.insert(r.id).second) << "duplicate rule id " << r.id;
        EXPECT_FALSE(r.summary.empty()) << r.id;
    }
}

TEST(RuleTable, EveryRuleHasItsDocPageEmbeddedAndOnDisk) {
    for (const Rule& r : all_rules()) {
        fs::path doc = kRoot / "rules" / std::string(r.family()) / (std::string(r.id) + ".md");
        EXPECT_TRUE(fs::exists(doc)) << doc;
        std::string_view embedded = rule_doc(r.id);
        EXPECT_FALSE(embedded.empty()) << r.id;
        EXPECT_EQ(embedded.substr(0, r.id.size() + 2), "# " + std::string(r.id)) << r.id;
        EXPECT_NE(embedded.find("## How to fix"), std::string_view::npos) << r.id;
    }
}

TEST(RuleTable, EveryRuleNamesASourceThatEmitsIt) {
    for (const Rule& r : all_rules()) {
        fs::path src = kRoot / std::string(r.source);
        ASSERT_TRUE(fs::exists(src)) << r.id << ": " << src;
        std::string text = slurp(src);
        // Either the id itself or its C++ name (rule::parse_syntax_error).
        std::string ident = std::string(r.id);
        for (char& c : ident)
            if (c == '-') c = '_';
        EXPECT_TRUE(text.find(std::string(r.id)) != std::string::npos ||
                    text.find("rule::" + ident) != std::string::npos)
            << r.id << " is not emitted by " << r.source;
    }
}

TEST(RuleTable, EveryRuleHasAFlawedCorpusModelThatExpectsIt) {
    CorpusIndex idx = index_corpus();
    for (const Rule& r : all_rules()) {
        if (kCliOnlyRules.count(std::string(r.id))) continue;
        if (r.severity != Severity::error) {
            // A note or warning is not a flaw: some corpus model must show it.
            EXPECT_TRUE(idx.expected_anywhere.count(std::string(r.id)))
                << r.id << " has no corpus model that expects it";
            continue;
        }
        EXPECT_TRUE(idx.expected_in_flawed.count(std::string(r.id)))
            << r.id << " has no flawed model in corpus/ that expects it";
    }
}

TEST(RuleTable, TheCorpusHasGoodModels) {
    CorpusIndex idx = index_corpus();
    EXPECT_FALSE(idx.good_families.empty());
}

}  // namespace
}  // namespace modeaudit
