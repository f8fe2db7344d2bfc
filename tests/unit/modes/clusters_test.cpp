// Unit tests of the switching clusters (modes/clusters.h): independent
// switches are clusters of their own with their local modes counted on
// their own, switches that meet through shared variables (a diode bridge)
// are one cluster whose local modes are the global ones, and the
// elimination of variables equal to a multiple of another
// (RelationConsistency::equal_quantities) resolves chains as a rescan would.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "generators/generators.h"
#include "modes/clusters_json.h"
#include "modes/relation_consistency.h"
#include "report/report.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;

std::string corpus_text(const std::string& rel) {
    std::ifstream in(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/" + rel);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(Clusters, IndependentSwitchingCellsAreOneClusterEach) {
    FrontEnd fe(generators::switch_cells(5));
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    ASSERT_EQ(ms.clusters.size(), 5u);
    for (std::size_t c = 0; c < 5; ++c) {
        ASSERT_EQ(ms.clusters[c].mode_variables.size(), 1u);
        EXPECT_EQ(ms.mode_variables[static_cast<std::size_t>(ms.clusters[c].mode_variables[0])].name,
                  "closed[" + std::to_string(c + 1) + "]");
        EXPECT_EQ(ms.clusters[c].local_modes, 2u);
        EXPECT_TRUE(ms.clusters[c].complete);
    }
    EXPECT_EQ(ms.global_mode_count(), 32.0);
    EXPECT_EQ(ms.long_mode_count(), 32u);  // the global enumeration agrees with the product
}

TEST(Clusters, JsonListsEachClusterAndTheProduct) {
    FrontEnd fe(generators::switch_cells(3));
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const Json j = clusters_to_json(fe.modes());
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["global_modes"].get<double>(), 8.0);
    EXPECT_NEAR(j["global_modes_log10"].get<double>(), std::log10(8.0), 1e-12);
    EXPECT_TRUE(j["complete"].get<bool>());
    ASSERT_EQ(j["clusters"].size(), 3u);
    EXPECT_EQ(j["clusters"][1]["mode_variables"][0].get<std::string>(), "closed[2]");
    EXPECT_EQ(j["clusters"][1]["local_modes"].get<std::size_t>(), 2u);
    // One cluster: no member (single-cluster output unchanged).
    FrontEnd one(corpus_text("good/capacitors_switch.mo"));
    ASSERT_TRUE(one.state.modes) << one.diagnostics();
    EXPECT_EQ(one.modes().clusters.size(), 1u);
    EXPECT_TRUE(clusters_to_json(one.modes()).is_null());
}

TEST(Clusters, ReportStatesTheProductAndARowPerCluster) {
    FrontEnd fe(generators::switch_cells(3));
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    ReportInput in;
    in.model_file = "cells.mo";
    in.check = Json{{"model", "SwitchCells"},
                    {"modes", Json::array({Json{{"id", fe.modes().modes[0].id}}})},
                    {"switching_clusters", clusters_to_json(fe.modes())},
                    {"transitions", Json::array()},
                    {"diagnostics", Json::array()}};
    ReportOptions o;
    o.reproducible = true;
    const std::string md = render_markdown(in, o, nullptr, "");
    EXPECT_NE(md.find("### Switching clusters"), std::string::npos) << md;
    EXPECT_NE(md.find("3 independent switching clusters; their local modes combine to 8 global modes"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| 2 | `closed[2]` | 2 |"), std::string::npos) << md;
    in.check.erase("switching_clusters");
    EXPECT_EQ(render_markdown(in, o, nullptr, "").find("Switching clusters"), std::string::npos);
}

TEST(Clusters, ProductBeyondTheModeLimitIsAnalysedClusterByCluster) {
    // 12 cells, at most 100 modes: the global enumeration would stop; the
    // clusters (2 local modes each, well within the limit) give 4096, and
    // each cell is analysed on its own (pipeline/factorised.h).
    PipelineState state;
    state.file = state.sources.add("cells.mo", generators::switch_cells(12));
    RunOptions options;
    options.modes.max_modes = 100;
    run_pipeline(state, options, "modes");
    ASSERT_TRUE(state.modes);
    const ModeSet& ms = *state.modes;
    EXPECT_TRUE(ms.complete);
    ASSERT_EQ(ms.clusters.size(), 12u);
    EXPECT_EQ(ms.global_mode_count(), 4096.0);
    EXPECT_EQ(state.parts.size(), 12u);
    for (const Diagnostic& d : state.sink.all()) EXPECT_NE(d.rule, "modes-limit-reached");
}

TEST(Clusters, DiodeBridgeIsOneCoupledCluster) {
    FrontEnd fe(corpus_text("good/b6_rectifier.mo"));
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    ASSERT_EQ(ms.clusters.size(), 1u);
    EXPECT_EQ(ms.clusters[0].mode_variables.size(), ms.mode_variables.size());
    EXPECT_EQ(ms.clusters[0].local_modes, ms.long_mode_count());
    EXPECT_EQ(ms.clusters[0].local_modes, 64u);
}

TEST(Clusters, DiodeCellsCountRelationDefinedSwitches) {
    // Each diode's `off = s < 0` is a relation-defined mode variable.
    FrontEnd fe(generators::diode_cells(3));
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    ASSERT_EQ(ms.clusters.size(), 3u);
    EXPECT_EQ(ms.global_mode_count(), static_cast<double>(ms.long_mode_count()));
}

TEST(Clusters, HysteresisPairSplitsIntoTwo) {
    FrontEnd fe(corpus_text("good/discrete/hysteresis_if_pre.mo"));
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    const ModeSet& ms = fe.modes();
    ASSERT_EQ(ms.clusters.size(), 2u);
    EXPECT_EQ(ms.global_mode_count(), 4.0);
}

TEST(Clusters, SingleModeModelHasNoClusters) {
    FrontEnd fe(generators::rc_ladder(3));
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    EXPECT_TRUE(fe.modes().clusters.empty());
    EXPECT_EQ(fe.modes().global_mode_count(), 1.0);
}

TEST(EqualQuantities, ChainResolvedToTheRepresentative) {
    // c = 2*b, b = 3*a, later equations first: the order of discovery must
    // not matter for the result (a rescan from the start each time).
    FrontEnd fe(R"(
model Chain
  Real a(start = 1, fixed = true), b, c, d;
equation
  c = 2*b;
  der(a) = -a + d;
  b = 3*a;
  d = 0;
end Chain;
)");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    const GiNaC::exmap same = RelationConsistency::equal_quantities(fe.flat());
    auto value = [&](const std::string& v) {
        auto it = same.find(fe.var(v));
        return it == same.end() ? GiNaC::ex(fe.var(v)) : it->second;
    };
    EXPECT_TRUE((value("c") - 6 * fe.var("a")).expand().is_zero()) << value("c");
    EXPECT_TRUE((value("b") - 3 * fe.var("a")).expand().is_zero()) << value("b");
    EXPECT_TRUE(value("d").is_zero()) << value("d");
    EXPECT_EQ(same.count(fe.var("a")), 0u);
}

}  // namespace
}  // namespace modeaudit
