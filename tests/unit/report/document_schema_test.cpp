// The documents the pipeline writes conform to the schema the report reads
// (report/document_schema.h): a member the report needs that a stage stops
// writing fails here, instead of showing as "n/a" in a report.
#include "report/document_schema.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace modeaudit {
namespace {

namespace fs = std::filesystem;

std::string join(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) out += l + "\n";
    return out;
}

Json read_json(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return Json::parse(s.str());
}

// Standard output of the modeaudit executable run with `args` in the source folder.
std::string run_tool(const std::string& args) {
    const std::string command = "cd '" MODEAUDIT_SOURCE_DIR "' && '" MODEAUDIT_EXE "' " + args + " 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    std::string out;
    std::array<char, 65536> buf{};
    std::size_t n;
    while (pipe && (n = fread(buf.data(), 1, buf.size(), pipe.get())) > 0) out.append(buf.data(), n);
    return out;
}

TEST(DocumentSchema, GoldenReportsConform) {
    for (const char* name : {"CupAndBall.json", "RLDC2.json"}) {
        const Json report = read_json(fs::path(MODEAUDIT_SOURCE_DIR) / "reports/golden" / name);
        ASSERT_TRUE(report.contains("simulation") && report["simulation"].is_object()) << name;
        EXPECT_EQ(join(document_schema_problems(report, &report["simulation"])), "") << name;
    }
}

// A spread of good models (impulsive, continuous, supplied, cascades,
// clutches, discrete logic, a library class): the whole corpus takes a
// minute single-threaded, which the corpus ctests already spend.
TEST(DocumentSchema, GoodCorpusModelsCheckDocumentsConform) {
    const Json doc = Json::parse(run_tool(
        "check corpus/good/cup_and_ball.mo corpus/good/rldc2_components.mo corpus/good/newtons_cradle_reinit.mo "
        "corpus/good/two_clutches_same_instant.mo corpus/good/plastic_chain.mo corpus/good/sample_and_hold.mo "
        "corpus/good/capacitors_switch.mo corpus/good/discrete --format json --no-progress"));
    ASSERT_TRUE(doc.contains("models") && doc["models"].size() >= 10u);
    std::string problems;
    for (Json m : doc["models"]) {
        // Not analysable alone (a file of library classes): no document of a model.
        if (m.contains("failure") || m.value("exit_code", 0) == 2) continue;
        m["tool"] = doc["tool"];              // the document of many names the tool once
        for (const std::string& p : document_schema_problems(m, nullptr))
            problems += m.value("file", std::string("?")) + ": " + p + "\n";
    }
    EXPECT_EQ(problems, "");
}

TEST(DocumentSchema, SimulationDocumentsConform) {
    for (const char* model : {"corpus/good/bouncing_ball.mo", "corpus/good/cup_and_ball.mo", "corpus/good/rldc2.mo"}) {
        const Json sim = Json::parse(run_tool(std::string("simulate ") + model + " --format json"));
        const Json check = Json::parse(run_tool(std::string("check ") + model + " --format json --no-progress"));
        EXPECT_EQ(join(document_schema_problems(check, &sim)), "") << model;
    }
}

TEST(DocumentSchema, AMissingOrMistypedMemberIsNamedByItsPath) {
    Json check = Json::parse(R"({"tool": {"name": "modeaudit", "version": "0"}, "model": "M", "stages_run": [],
      "modes": [{"id": "a", "status": "regular", "equations": 2, "unknowns": 2, "index": 1, "states": [],
                 "consistency": []},
                {"id": "b", "status": "structurally-singular"}],
      "transitions": [{"from": "a", "to": "b", "trigger": "state", "guard": "x", "verdict": "continuous",
                       "impulse_orders": {}, "restart": [], "undetermined": [], "conserved": "x"}],
      "diagnostics": []})");
    Json sim = Json::parse(R"({"model": "M", "stop_time": 1, "end_time": 1, "stopped_because": "stop-time",
      "events": [{"time": 0.5, "from": "a", "to": "b", "verdict": "continuous", "before": {}}],
      "final": {}, "diagnostics": [],
      "segments": [{"mode": "a", "begin": 0, "end": 0.5, "steps": 3, "rhs_evaluations": 4, "jacobian_evaluations": 1,
                    "max_constraint_drift": 0, "asserts": [{"message": "m", "violated": 0, "min_margin": 1}]}],
      "sensitivity": {"rtol": 1e-13, "same_events": true, "max_event_shift": 0}})");
    EXPECT_EQ(join(document_schema_problems(check, &sim)),
              "check.modes[0].dof: missing\n"
              "check.transitions[0].conserved: not an array\n"
              "simulation.events[0].after: missing\n"
              "simulation.segments[0].asserts[0].violated: not a boolean\n"
              "simulation.sensitivity.max_final_difference: missing\n");
}

}  // namespace
}  // namespace modeaudit
