// Unit tests of the report's first-page physics and run statistics
// (report/key_physics.h) and of the plots of the sampled quantities
// (report/plots.h), on hand-made documents in the contract's shape.
#include <gtest/gtest.h>

#include <cmath>

#include "report/document_text.h"
#include "report/key_physics.h"
#include "report/plots.h"
#include "report/report.h"

namespace modeaudit {
namespace {

Json check_document() {
    return Json::parse(R"({
      "model": "Rope",
      "units": {"x": "m", "vx": "m/s"},
      "modes": [
        {"id": "taut=false", "states": ["x", "vx"],
         "invariants": [{"name": "E", "rate": "0", "status": "holds"}]},
        {"id": "taut=true", "states": ["x", "vx"],
         "invariants": [{"name": "E", "rate": "0", "status": "holds"}]}
      ],
      "transitions": [
        {"from": "taut=false", "to": "taut=true", "verdict": "impulsive", "impulse_orders": {"lambda": 1},
         "verification": {"invariants": [{"name": "K", "kind": "nonincreasing"}],
                          "admissibility": [{"condition": "lambda >= 0", "message": "pull, not push"}]}},
        {"from": "taut=true", "to": "taut=false", "verdict": "continuous", "impulse_orders": {}}
      ]
    })");
}

Json simulation_document() {
    return Json::parse(R"({
      "end_time": 1.0,
      "events": [
        {"time": 0.1, "from": "taut=false", "to": "taut=true", "verdict": "impulsive",
         "before": {"x": 0.6, "vx": 2.0, "lambda": 0.0}, "after": {"x": 0.6, "vx": 0.8, "lambda": 8.848},
         "verification": {"invariants": [{"name": "K", "kind": "nonincreasing", "before": 2.5, "after": 0.5,
                                          "jump": -2.0000000000001, "status": "holds"}],
                          "admissibility": [{"condition": "lambda >= 0", "value": 8.848, "status": "holds"}]}},
        {"time": 0.5, "from": "taut=true", "to": "taut=false", "verdict": "continuous, impulsive",
         "steps": [
           {"from": "taut=true", "to": "taut=false", "verdict": "continuous",
            "before": {"x": 0.7, "vx": 1.0}, "after": {"x": 0.7, "vx": 1.0}},
           {"from": "taut=false", "to": "taut=true", "verdict": "impulsive",
            "before": {"x": 0.7, "vx": 1.0}, "after": {"x": 0.7, "vx": -1.0},
            "verification": {"admissibility": [{"condition": "lambda >= 0", "value": -0.25, "status": "violated"}]}}
         ]}
      ],
      "segments": [
        {"mode": "taut=false", "begin": 0, "end": 0.1, "steps": 26, "rhs_evaluations": 33,
         "jacobian_evaluations": 1, "max_constraint_drift": 0.0, "asserts": []},
        {"mode": "taut=true", "begin": 0.1, "end": 0.5, "steps": 100, "rhs_evaluations": 120,
         "jacobian_evaluations": 2, "max_constraint_drift": 1.7e-14,
         "asserts": [{"message": "pull, not push", "violated": false, "min_margin": 7.5}]},
        {"mode": "taut=true", "begin": 0.5, "end": 1.0, "steps": 11, "rhs_evaluations": 12,
         "jacobian_evaluations": 0, "max_constraint_drift": 3e-15,
         "asserts": [{"message": "pull, not push", "violated": false, "min_margin": 2.25}]}
      ],
      "sensitivity": {"rtol": 1e-13, "same_events": true, "max_event_shift": 1.14e-12,
                      "max_final_difference": 8.4e-11}
    })");
}

ReportInput input() {
    ReportInput in;
    in.check = check_document();
    in.simulation = simulation_document();
    return in;
}

TEST(KeyPhysics, RestartsWithImpulsiveVariablesAndStateJumps) {
    doc::set_significant_digits(6);
    const std::string md = key_physics_section(input());
    EXPECT_EQ(md.rfind("## Key physics\n\n**Restarts** (3 restart steps)", 0), 0u) << md;
    // The first event: lambda impulsive, vx jumps; x does not (not listed).
    EXPECT_NE(md.find("| 1 | 0.1 | `taut=false` → `taut=true` | impulsive | `lambda` | `vx` 2 → 0.8 |\n"),
              std::string::npos)
        << md;
    // A cascade: each step is a row of its event; a step without a jump says none.
    EXPECT_NE(md.find("| 2 | 0.5 | `taut=true` → `taut=false` | continuous | none | none |\n"), std::string::npos);
    EXPECT_NE(md.find("| 2 | 0.5 | `taut=false` → `taut=true` | impulsive | `lambda` | `vx` 1 → -1 |\n"),
              std::string::npos);
}

TEST(KeyPhysics, QuantitiesFlowSignsSensitivityAndTotals) {
    doc::set_significant_digits(6);
    const std::string md = key_physics_section(input());
    // The change is an estimate: two digits.
    EXPECT_NE(md.find("| 1 | `K` | nonincreasing | 2.5 | 0.5 | -2 | holds |\n"), std::string::npos) << md;
    EXPECT_NE(md.find("- `E`: d/dt = `0` **holds** in 2 modes (`taut=false`, `taut=true`)\n"), std::string::npos);
    // The smallest margin over the segments (7.5, 2.25) and over the restarts (8.848, -0.25).
    EXPECT_NE(md.find("| pull, not push | along the modes (2) | 2.25 | holds |\n"), std::string::npos) << md;
    EXPECT_NE(md.find("| `lambda >= 0` (pull, not push) | after the restarts (2) | -0.25 | **violated** |\n"),
              std::string::npos);
    EXPECT_NE(md.find("- **Sensitivity:** rerun at rtol 1e-13: the same events in the same order; event times moved "
                      "by at most 1.1e-12 s, final values by at most 8.4e-11.\n"),
              std::string::npos);
    EXPECT_NE(md.find("- **Run:** 3 mode segments, 137 integration steps, 2 events, 165 right-hand sides, 3 Jacobians; "
                      "largest constraint drift 1.7e-14"),
              std::string::npos);
}

TEST(KeyPhysics, WithoutSimulationOnlyTheFlow) {
    ReportInput in;
    in.check = check_document();
    const std::string md = key_physics_section(in);
    EXPECT_NE(md.find("The simulation was not run"), std::string::npos);
    EXPECT_NE(md.find("- `E`: d/dt = `0` **holds**"), std::string::npos);
    EXPECT_EQ(md.find("**Restarts**"), std::string::npos);
}

TEST(KeyPhysics, RunStatisticsTablePerSegment) {
    doc::set_significant_digits(6);
    const std::string md = run_statistics_table(simulation_document());
    EXPECT_NE(md.find("| 2 | `taut=true` | 0.1 | 0.5 | 100 | 120 | 2 | 1.7e-14 |\n"), std::string::npos) << md;
    EXPECT_NE(md.find("| 3 | `taut=true` | 0.5 | 1 | 11 | 12 | 0 | 3e-15 |\n"), std::string::npos);
    EXPECT_EQ(run_statistics_table(Json::object()), "");
}

TEST(KeyPhysics, ManyRestartsAreCutWithTheCountSaid) {
    ReportInput in;
    in.check = check_document();
    Json sim = Json::parse(R"({"events": [], "segments": []})");
    for (int k = 0; k < 25; ++k)
        sim["events"].push_back({{"time", 0.01 * k}, {"from", "taut=false"}, {"to", "taut=true"}, {"verdict", "impulsive"},
                                 {"before", {{"vx", 1.0}}}, {"after", {{"vx", 0.5}}}});
    in.simulation = sim;
    const std::string md = key_physics_section(in);
    EXPECT_NE(md.find("The first 10 of 25 restart steps are shown"), std::string::npos) << md;
    EXPECT_EQ(md.find("| 11 |"), std::string::npos);
}

TEST(ReportPlots, SampledQuantitiesByKindWithUnitsAndDescriptions) {
    Trajectories t{{"time", "x", "vx", "lambda", "E", "K", "guard(1)", "margin(1)", "residual(consistency)"}, {}};
    Json sim = simulation_document();
    sim["sampled_columns"] = {{"guard(1)", "x^2 - 1"}, {"margin(1)", "pull, not push"}};
    PlotPlan p = plan_plots("Rope", t, check_document(), &sim, {});
    ASSERT_EQ(p.figures.size(), 6u);
    EXPECT_EQ(p.figures[0].title, "States x, vx");
    EXPECT_EQ(p.figures[0].legends, (std::vector<std::string>{"x [m]", "vx [m/s]"}));
    // E declared with a rate, K with a law at events: both declared quantities.
    EXPECT_EQ(p.figures[1].title, "Declared quantities E, K");
    EXPECT_EQ(p.figures[2].title, "Solved variables lambda");
    EXPECT_EQ(p.figures[3].title, "Guards guard(1)");
    EXPECT_EQ(p.figures[3].legends, (std::vector<std::string>{"guard(1): x^2 - 1"}));
    EXPECT_EQ(p.figures[4].legends, (std::vector<std::string>{"margin(1): pull, not push"}));
    EXPECT_EQ(p.figures[5].title, "Constraint residual residual(consistency)");
    EXPECT_NE(p.script.find("title 'x [m]'"), std::string::npos);
    EXPECT_NE(p.script.find("set title 'Guards guard(1)'\nset xzeroaxis lt -1\n"), std::string::npos);
    std::string error;
    auto parsed = parse_trajectories("time,x,guard(1)\n0,1,nan\n0.1,2,-0.5\n", error);
    ASSERT_TRUE(parsed) << error;
    EXPECT_TRUE(std::isnan(parsed->rows[0][2]));  // a quantity not defined in the sample's mode
}

TEST(ReportPlots, ManyGuardsAreCutTheFiredOnesFirst) {
    Trajectories t{{"time", "x"}, {}};
    Json sim = Json::parse(R"({"events": [{"time": 0.5, "guards": ["g11"]}], "sampled_columns": {}})");
    for (int k = 1; k <= 12; ++k) {
        t.columns.push_back("guard(" + std::to_string(k) + ")");
        sim["sampled_columns"]["guard(" + std::to_string(k) + ")"] = "g" + std::to_string(k);
    }
    PlotPlan p = plan_plots("M", t, check_document(), &sim, {});
    ASSERT_EQ(p.figures.size(), 3u);  // the states, then two figures of guards
    EXPECT_EQ(p.figures[1].variables, (std::vector<std::string>{"guard(11)", "guard(1)", "guard(2)", "guard(3)"}));
    EXPECT_EQ(p.figures[2].variables, (std::vector<std::string>{"guard(4)", "guard(5)", "guard(6)", "guard(7)"}));
    EXPECT_EQ(p.not_drawn, (std::vector<std::string>{"4 guards"}));
}

TEST(ReportPlots, AFactorisedModelsStatesAreItsClustersAndAtMostEightFiguresOfThem) {
    // A model analysed in independent parts: its states are in its
    // clusters' local modes (the top-level modes are empty); 40 cells of
    // two states give 20 figures of four, of which 8 are drawn.
    Json check = Json::parse(R"({"modes": [], "switching_clusters": {"factorised": true, "clusters": [],
                                  "unswitched": {"modes": [{"states": ["r"]}]}}})");
    Trajectories t{{"time"}, {}};
    for (int k = 1; k <= 40; ++k) {
        const std::string a = "v1[" + std::to_string(k) + "]", b = "v2[" + std::to_string(k) + "]";
        check["switching_clusters"]["clusters"].push_back({{"modes", Json::array({{{"states", {a, b}}}})}});
        t.columns.push_back(a);
        t.columns.push_back(b);
    }
    t.columns.push_back("r");
    PlotPlan p = plan_plots("M", t, check, nullptr, {});
    ASSERT_EQ(p.figures.size(), 8u);
    for (const PlotFigure& f : p.figures) EXPECT_EQ(f.title.rfind("States ", 0), 0u) << f.title;
    EXPECT_EQ(p.figures[0].variables, (std::vector<std::string>{"v1[1]", "v2[1]", "v1[2]", "v2[2]"}));
    EXPECT_EQ(p.not_drawn, (std::vector<std::string>{"49 states"}));  // 81 states, 32 drawn
}

}  // namespace
}  // namespace modeaudit
