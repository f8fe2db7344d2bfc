// Unit tests of the report stage (analyzer/report/): the Markdown for the
// cup-and-ball fixtures (hand-written documents of the output contract:
// cup_and_ball.check.json, .simulation.json, .trajectories.csv; the
// trajectories are a hand-made free flight then a circular arc, only their
// shape matters), escaping, determinism, the plot script, gnuplot, the PDF
// and the errors when a helper program is missing.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/markdown.h"
#include "report/pdf.h"
#include "report/plots.h"
#include "report/report.h"
#include "report/subprocess.h"

namespace modeaudit {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

fs::path fixture(const std::string& name) {
    return fs::path(MODEAUDIT_SOURCE_DIR) / "tests/unit/report" / name;
}

ReportInput cup_and_ball(bool with_simulation = true) {
    ReportInput in;
    in.check = Json::parse(read_text(fixture("cup_and_ball.check.json")));
    in.model_file = "corpus/good/cup_and_ball.mo";
    if (with_simulation) {
        in.simulation = Json::parse(read_text(fixture("cup_and_ball.simulation.json")));
        in.trajectories_csv = read_text(fixture("cup_and_ball.trajectories.csv"));
    } else {
        in.simulation_not_run = "the simulation stage is not built yet";
    }
    return in;
}

// A fresh folder per test under the test temporary directory.
fs::path fresh_dir(const std::string& name) {
    // The process id keeps builds that run the suite at once apart.
    fs::path d = fs::path(::testing::TempDir()) /
                 ("modeaudit-report-" + std::to_string(getpid()) + "-" + name);
    fs::remove_all(d);
    return d;
}

bool program_available(const std::string& program) {
    ProcessOptions po;
    po.timeout_seconds = 30;
    return run_process({program, "--version"}, po).succeeded();
}

ReportOptions quiet_options(const fs::path& dir) {
    ReportOptions o;
    o.output_dir = dir;
    o.pdf = false;
    o.reproducible = true;
    return o;
}

std::string markdown_of(const ReportInput& in) {
    ReportOptions o;
    o.reproducible = true;
    std::string error;
    auto data = in.trajectories_csv ? parse_trajectories(*in.trajectories_csv, error) : std::nullopt;
    std::optional<PlotPlan> plan;
    if (data) plan = plan_plots("CupAndBall", *data, in.check, in.simulation ? &*in.simulation : nullptr, {});
    return render_markdown(in, o, plan ? &*plan : nullptr, "");
}

// ---- Markdown content ----------------------------------------------------------------

TEST(ReportMarkdown, SectionsComeInTheirOrder) {
    std::string md = markdown_of(cup_and_ball());
    std::vector<std::string> headings = {"# Audit report: CupAndBall\n", "## Summary\n", "## Modes\n",
                                         "### Mode `taut=false`\n", "### Mode `taut=true`\n",
                                         "## Transitions\n",
                                         "### Transition 1: `taut=false` to `taut=true`\n",
                                         "## Findings\n", "## Simulation\n", "### Events\n",
                                         "#### Event 1 at t = 0.1: `taut=false` to `taut=true`\n",
                                         "### Final values at t = 0.2\n", "### Trajectories\n"};
    std::size_t pos = 0;
    for (const std::string& h : headings) {
        std::size_t at = md.find(h, pos);
        ASSERT_NE(at, std::string::npos) << "missing or out of order: " << h << "\n" << md;
        pos = at + h.size();
    }
    EXPECT_NE(md.find("- **Model:** `CupAndBall`\n- **File:** `corpus/good/cup_and_ball.mo`\n"),
              std::string::npos);
    EXPECT_EQ(md.back(), '\n');
    EXPECT_EQ(md.find("\n\n\n"), std::string::npos);
}

// The first page: the verdict before anything else, each finding one line
// with its place, numbers to the digits the sensitivity rerun supports.
TEST(ReportMarkdown, VerdictComesFirstWithEachFindingOnOneLine) {
    ReportInput in = cup_and_ball();
    std::string md = markdown_of(in);
    const auto verdict = md.find("\n## Verdict\n");
    ASSERT_NE(verdict, std::string::npos) << md;
    EXPECT_LT(verdict, md.find("\n## Summary\n"));
    EXPECT_EQ(md.find("\n## ", md.find("\n# ") + 1), verdict) << "the verdict is the first section";
    const std::string page = md.substr(verdict, md.find("\n## Summary\n") - verdict);
    Json diag = in.check["diagnostics"][0];
    EXPECT_NE(page.find(fmt::format("- **{}** at `{}:{}:{}`: ", diag["severity"].get<std::string>(),
                                    diag["file"].get<std::string>(), diag["line"].get<int>(), diag["column"].get<int>())),
              std::string::npos)
        << page;
    EXPECT_NE(page.find("- **Transitions:** "), std::string::npos);
    EXPECT_NE(page.find("- **Simulation:** to t = "), std::string::npos);
    EXPECT_NE(page.find("significant digits"), std::string::npos);

    in.check["diagnostics"] = Json::array();
    in.simulation->erase("diagnostics");
    md = markdown_of(in);
    EXPECT_NE(md.find("## Verdict\n\n**Clean:** no findings.\n"), std::string::npos) << md;
}

TEST(ReportMarkdown, NumbersHaveNoNegativeZeroAndOnlySupportedDigits) {
    ReportInput in = cup_and_ball();
    Json& event = (*in.simulation)["events"][0];
    event["time"] = 0.09999999999872698;
    event["before"]["x"] = -0.0;
    event["after"]["x"] = -1e-300 * 1e-300;  // -0 too
    event["after"]["vx"] = 0.8000000000129966;
    (*in.simulation)["sensitivity"] = {{"rtol", 1e-13}, {"same_events", true}, {"max_event_shift", 1e-9},
                                       {"max_final_difference", 1e-9}};
    (*in.simulation)["end_time"] = 0.2;
    std::string md = markdown_of(in);
    EXPECT_EQ(md.find("| -0 |"), std::string::npos) << md;
    EXPECT_EQ(md.find("0.09999999999872698"), std::string::npos);
    EXPECT_EQ(md.find("0.8000000000129966"), std::string::npos);
    // rel 1e-9 / 0.2 = 5e-9: 8 digits
    EXPECT_NE(md.find("Numbers are shown to 8 significant digits"), std::string::npos) << md;
    EXPECT_NE(md.find("t = 0.1"), std::string::npos);
    in.simulation->erase("sensitivity");
    md = markdown_of(in);
    EXPECT_NE(md.find("Numbers are shown to 6 significant digits (no sensitivity rerun bounds them)"), std::string::npos);
}

TEST(ReportMarkdown, TransitionsNotTakenAreOneTable) {
    ReportInput in = cup_and_ball();
    Json quiet = in.check["transitions"][0];
    quiet["from"] = "taut=true";
    quiet["to"] = "taut=false";
    quiet["guard"] = "lambda";
    quiet["verdict"] = "continuous";
    in.check["transitions"].push_back(quiet);
    Json undetermined = quiet;
    undetermined["verdict"] = "undetermined";
    undetermined["from"] = "taut=false";
    undetermined["to"] = "slack=true";
    in.check["transitions"].push_back(undetermined);
    std::string md = markdown_of(in);
    EXPECT_NE(md.find("1 transition the simulation did not take, with a restart that needs no review"), std::string::npos)
        << md;
    EXPECT_NE(md.find("| 2 | `taut=true` | `taut=false` | `lambda` | continuous |"), std::string::npos) << md;
    EXPECT_EQ(md.find("### Transition 2:"), std::string::npos);
    EXPECT_NE(md.find("### Transition 1:"), std::string::npos);  // taken: its own section
    EXPECT_NE(md.find("### Transition 3:"), std::string::npos);  // not taken, but needs review
    // Without a simulation nothing is known to be not taken: every transition has its section.
    md = markdown_of(cup_and_ball(false));
    EXPECT_EQ(md.find("did not take, with a restart"), std::string::npos);
}

TEST(ReportMarkdown, SummaryTablesListModesTransitionsAndFindingsBySeverity) {
    std::string md = markdown_of(cup_and_ball());
    EXPECT_NE(md.find("2 modes, 1 transition; 1 finding (1 suppressed).\n"), std::string::npos) << md;
    EXPECT_NE(md.find("| Mode | Status | Equations | Unknowns | Index | DOF |\n|---|---|---|---|---|---|\n"
                      "| `taut=false` | regular | 5 | 5 | 1 | 4 |\n"
                      "| `taut=true` | regular | 5 | 5 | 3 | 2 |\n"),
              std::string::npos);
    EXPECT_NE(md.find("| 1 | `taut=false` | `taut=true` | state | impulsive |\n"), std::string::npos);
    EXPECT_NE(md.find("| error | 0 | 0 |\n| warning | 1 | 0 |\n| note | 0 | 1 |\n"), std::string::npos);
}

// The `report` command renders both documents from one run: a finding in
// both is counted and listed once.
TEST(ReportMarkdown, AFindingInBothDocumentsIsCountedOnce) {
    ReportInput in = cup_and_ball();
    (*in.simulation)["diagnostics"] = in.check["diagnostics"];
    std::string md = markdown_of(in);
    EXPECT_NE(md.find("2 modes, 1 transition; 1 finding (1 suppressed).\n"), std::string::npos) << md;
    EXPECT_EQ(md.find("### Findings of the simulation"), std::string::npos);
}

TEST(ReportMarkdown, ModesShowStatusIndexStatesAndConsistency) {
    std::string md = markdown_of(cup_and_ball());
    EXPECT_NE(md.find("- **Index:** 1; **degrees of freedom:** 4\n- **States:** `x`, `y`, `vx`, `vy`\n"
                      "- **Consistency conditions:** none\n"),
              std::string::npos);
    EXPECT_NE(md.find("- **Consistency conditions** (each = 0):\n    - `der(x) - vx`\n"), std::string::npos);
    EXPECT_NE(md.find("    - `2*der(x)*x + 2*der(y)*y`\n"), std::string::npos);
}

TEST(ReportMarkdown, TransitionShowsVerdictImpulseOrdersRestartAndStandardTool) {
    std::string md = markdown_of(cup_and_ball());
    EXPECT_NE(md.find("- **Trigger:** state event, guard `x^2 + y^2 - 1`\n"), std::string::npos);
    EXPECT_NE(md.find("- **Verdict:** **impulsive**: the mode change involves impulses"), std::string::npos);
    EXPECT_NE(md.find("- **Impulse orders:** `lambda` of order 1\n"), std::string::npos);
    EXPECT_NE(md.find("- **Undetermined values:** none\n"), std::string::npos);
    EXPECT_NE(md.find("- **Conserved quantities:** `x*vy - y*vx`\n"), std::string::npos);
    EXPECT_NE(md.find("- **What a standard Modelica tool does:** \n    - behaviour: keeps x, y, vx, vy "
                      "continuous at the event (no reinit in the model)\n"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("    - agrees: false\n"), std::string::npos);
    EXPECT_NE(md.find("- **Restart system:**\n\n~~~\nx+ = x-\ny+ = y-\nvx+ = vx- - alpha*x-\n"
                      "vy+ = vy- - alpha*y-\nx-*vx+ + y-*vy+ = 0\n~~~\n"),
              std::string::npos);
}

TEST(ReportMarkdown, TransitionWithoutAnalysisSaysSo) {
    ReportInput in = cup_and_ball();
    Json& t = in.check["transitions"][0];
    for (const char* k : {"verdict", "impulse_orders", "restart", "undetermined", "conserved", "standard_tool"})
        t.erase(k);
    std::string md = markdown_of(in);
    EXPECT_NE(md.find("- **Verdict:** not analysed (the transition analysis did not run)\n"), std::string::npos);
    EXPECT_NE(md.find("| 1 | `taut=false` | `taut=true` | state | not analysed |\n"), std::string::npos);
}

TEST(ReportMarkdown, EveryVerdictHasItsSentence) {
    for (const char* v : {"continuous", "supplied", "undetermined", "inconsistent", "unsupported"}) {
        ReportInput in = cup_and_ball();
        in.check["transitions"][0]["verdict"] = v;
        in.check["transitions"][0]["undetermined"] = Json::array({"vx", "vy"});
        std::string md = markdown_of(in);
        EXPECT_NE(md.find(std::string("- **Verdict:** **") + v + "**: "), std::string::npos) << v;
        EXPECT_EQ(md.find("a verdict this report does not know"), std::string::npos) << v;
        EXPECT_NE(md.find("- **Undetermined values:** `vx`, `vy`\n"), std::string::npos);
    }
}

TEST(ReportMarkdown, TimeTriggerAndAStandardToolSentence) {
    ReportInput in = cup_and_ball();
    Json& t = in.check["transitions"][0];
    t["trigger"] = "time";
    t["guard"] = "time - 0.1";
    t["standard_tool"] = "carries the states over; the rope constraint is then violated";
    t["impulse_orders"] = Json::object();
    std::string md = markdown_of(in);
    EXPECT_NE(md.find("- **Trigger:** time event, guard `time - 0.1`\n"), std::string::npos) << md;
    EXPECT_NE(md.find("- **What a standard Modelica tool does:** carries the states over; the rope "
                      "constraint is then violated\n"),
              std::string::npos);
    EXPECT_NE(md.find("- **Impulse orders:** none (no impulsive variable)\n"), std::string::npos);
}

TEST(ReportMarkdown, FindingsHaveRuleIdsAndLocationsAndSuppressedAreListedApart) {
    std::string md = markdown_of(cup_and_ball());
    EXPECT_NE(md.find("1. **warning** `structure-index-high` at `corpus/good/cup_and_ball.mo:24:5`: "
                      "the model has structural index 3 (above 2) in mode taut=true\n"
                      "    - note: mode taut=true: x\\^2 + y\\^2 = L\\^2 is differentiated twice\n"
                      "    - about the rule: `modeaudit explain structure-index-high`\n"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("Suppressed in the source (listed, not counted as findings):\n\n"
                      "1. **note** (suppressed) `flatten-restart-constraint` at "
                      "`corpus/good/cup_and_ball.mo:30:7`: a restart constraint inside when\n"),
              std::string::npos);
}

TEST(ReportMarkdown, NoFindingsAndNoLocation) {
    ReportInput in = cup_and_ball();
    in.check["diagnostics"] = Json::array();
    EXPECT_NE(markdown_of(in).find("## Findings\n\nNo findings.\n"), std::string::npos);
    in.check["diagnostics"] = Json::array({Json{{"rule", "modes-limit-reached"}, {"severity", "error"},
                                                {"message", "too many"}, {"file", nullptr},
                                                {"line", nullptr}, {"column", nullptr}}});
    EXPECT_NE(markdown_of(in).find("1. **error** `modes-limit-reached` at no source location: too many\n"),
              std::string::npos);
}

TEST(ReportMarkdown, SimulationHasEventTableBeforeAfterValuesAndFinalValues) {
    std::string md = markdown_of(cup_and_ball());
    EXPECT_NE(md.find("Simulated up to t = 0.2 (stop time 0.2); it stopped because the stop time was "
                      "reached (`stop-time`).\n"),
              std::string::npos);
    EXPECT_NE(md.find("| # | Time | From | To | Verdict |\n|---|----------------------|--------------------------|--------------------------|------------|\n"
                      "| 1 | 0.1 | `taut=false` | `taut=true` | impulsive |\n"),
              std::string::npos);
    EXPECT_NE(md.find("| `x` | 0.6 | 0.6 |   |\n| `y` | -0.8 | -0.8 |   |\n"
                      "| `vx` | 2 | 0.8 | changes |\n| `vy` | -1 | 0.6 | changes |\n"
                      "| `taut` | false | true | changes |\n"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| `lambda` | 10.2 |\n"), std::string::npos);
    EXPECT_NE(md.find("![States x, y, vx, vy over time; dashed vertical lines mark the events at t = 0.1]"
                      "(CupAndBall_plot_1.png)\n"),
              std::string::npos);
    EXPECT_NE(md.find("run `gnuplot CupAndBall_plots.gp` in this folder"), std::string::npos);
}

TEST(ReportMarkdown, WithoutSimulationSaysWhy) {
    std::string md = markdown_of(cup_and_ball(false));
    EXPECT_NE(md.find("## Simulation\n\nThe simulation was not run: the simulation stage is not built yet.\n"),
              std::string::npos)
        << md;
    EXPECT_EQ(md.find("### Events"), std::string::npos);
    ReportInput in = cup_and_ball(false);
    in.simulation_not_run.clear();
    EXPECT_NE(markdown_of(in).find("The simulation was not run: no simulation result was given.\n"),
              std::string::npos);
}

TEST(ReportMarkdown, ModelTextIsEscapedNotInterpreted) {
    ReportInput in = cup_and_ball(false);
    in.check["model"] = "Evil<script>alert(1)</script>";
    in.check["diagnostics"][0]["message"] = "see \\input{/etc/passwd} and $x$ and *bold* [link](http://x) @cite";
    in.check["modes"][0]["id"] = "mode`with`ticks";
    std::string md = markdown_of(in);
    EXPECT_NE(md.find("# Audit report: Evil\\<script\\>alert(1)\\</script\\>\n"), std::string::npos) << md;
    EXPECT_NE(md.find("see \\\\input\\{/etc/passwd\\} and \\$x\\$ and \\*bold\\* \\[link\\](http://x) \\@cite"),
              std::string::npos);
    EXPECT_NE(md.find("### Mode ``mode`with`ticks``\n"), std::string::npos);
    EXPECT_NE(md.find("- **Model:** `Evil<script>alert(1)</script>`\n"), std::string::npos);  // code: literal

    // Through Pandoc (when it is installed) the text stays text in LaTeX.
    if (!program_available("pandoc")) GTEST_SKIP() << "pandoc is not installed";
    fs::path dir = fresh_dir("escape");
    fs::create_directories(dir);
    std::ofstream(dir / "e.md") << md;
    PdfOptions po;
    std::vector<std::string> args = pandoc_arguments("e.md", "e.tex", "", po);
    ProcessOptions run;
    run.working_dir = dir;
    ProcessResult r = run_process(args, run);
    ASSERT_TRUE(r.succeeded()) << r.describe() << r.output;
    std::string tex = read_text(dir / "e.tex");
    EXPECT_NE(tex.find("\\textbackslash input\\{/etc/passwd\\}"), std::string::npos) << tex;
    EXPECT_EQ(tex.find("\\input{/etc"), std::string::npos);
    EXPECT_NE(tex.find("\\$x\\$ and *bold*"), std::string::npos);
    EXPECT_NE(tex.find("Evil\\textless script\\textgreater alert(1)"), std::string::npos);
}

TEST(ReportMarkdown, HelpersFenceAndEscape) {
    EXPECT_EQ(md::code("a`b"), "``a`b``");
    EXPECT_EQ(md::code("`a"), "`` `a ``");
    EXPECT_EQ(md::code("a\nb"), "`a b`");
    EXPECT_EQ(md::cell_code("a|b"), "a\\|b");
    EXPECT_EQ(md::code_block({"~~~ inner", "x"}), "~~~~\n~~~ inner\nx\n~~~~\n");
    EXPECT_EQ(md::text("a_b<c>\x01"), "a\\_b\\<c\\> ");
    EXPECT_EQ(md::table({"A", "B"}, {{"1"}}), "| A | B |\n|---|---|\n| 1 |   |\n");
    EXPECT_EQ(md::table({"A", "B"}, {{"1", "2"}}, {5, 1}), "| A | B |\n|-----|---|\n| 1 | 2 |\n");
}

// ---- JSON and determinism ----------------------------------------------------------------

TEST(ReportJson, IsTheCheckDocumentWithItsSimulation) {
    ReportInput in = cup_and_ball();
    Json j = Json::parse(render_report_json(in));
    EXPECT_EQ(j["model"], "CupAndBall");
    EXPECT_EQ(j["transitions"][0]["verdict"], "impulsive");
    EXPECT_EQ(j["simulation"]["events"][0]["after"]["vx"], 0.8);
    std::vector<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
    EXPECT_EQ(keys.front(), "tool");  // the contract's order is kept
    EXPECT_EQ(keys.back(), "simulation");

    Json none = Json::parse(render_report_json(cup_and_ball(false)));
    EXPECT_TRUE(none["simulation"].is_null());
    EXPECT_EQ(none["simulation_not_run"], "the simulation stage is not built yet");
}

TEST(ReportFiles, FileBaseIsASafeName) {
    EXPECT_EQ(report_file_base(Json{{"model", "CupAndBall"}}), "CupAndBall");
    EXPECT_EQ(report_file_base(Json{{"model", "Pkg.M"}}), "Pkg.M");
    EXPECT_EQ(report_file_base(Json{{"model", "'a/b; rm'"}}), "_a_b__rm_-138ed873");
    EXPECT_EQ(report_file_base(Json{{"model", "../x"}}), "report.._x-d6b96a97");
    // Names that differ only in replaced characters get distinct files.
    const std::string a = report_file_base(Json{{"model", "'Модель'"}});
    const std::string b = report_file_base(Json{{"model", "'Машина'"}});
    EXPECT_NE(a, b);
    EXPECT_EQ(a.size(), b.size());
    EXPECT_EQ(report_file_base(Json::object()), "report");
}

// A legal 250-character name (hardening round 3, item 7): the stem is cut to
// kMaxReportFileBase with the hash of the whole name, so every report file
// fits the file system's 255 bytes, and two long names that share their
// first 200 characters still get distinct files.
TEST(ReportFiles, LongNamesAreCutWithTheirHash) {
    const std::string long_a = std::string(249, 'A') + "a", long_b = std::string(249, 'A') + "b";
    const std::string a = report_file_base(Json{{"model", long_a}});
    const std::string b = report_file_base(Json{{"model", long_b}});
    EXPECT_EQ(a.size(), kMaxReportFileBase);
    EXPECT_NE(a, b);
    EXPECT_EQ(a.substr(0, 119), std::string(119, 'A'));
    EXPECT_EQ(a[119], '-');
    EXPECT_LE((a + "_trajectories.csv").size(), 255u);
    // At the limit, nothing is cut.
    const std::string exact(kMaxReportFileBase, 'B');
    EXPECT_EQ(report_file_base(Json{{"model", exact}}), exact);
}

TEST(ReportFiles, TwoReproducibleRunsAreByteIdentical) {
    fs::path a = fresh_dir("det-a"), b = fresh_dir("det-b");
    ReportOptions oa = quiet_options(a), ob = quiet_options(b);
    oa.plots = ob.plots = false;  // the Markdown must not depend on gnuplot here
    std::ostringstream err;
    ASSERT_EQ(write_report(cup_and_ball(), oa, err), 0) << err.str();
    ASSERT_EQ(write_report(cup_and_ball(), ob, err), 0) << err.str();
    for (const char* f : {"CupAndBall.md", "CupAndBall.json", "CupAndBall_plots.gp",
                          "CupAndBall_trajectories.csv"}) {
        ASSERT_TRUE(fs::exists(a / f)) << f;
        EXPECT_EQ(read_text(a / f), read_text(b / f)) << f;
    }
    // And again into the same folder.
    ASSERT_EQ(write_report(cup_and_ball(), oa, err), 0);
    EXPECT_EQ(read_text(a / "CupAndBall.md"), read_text(b / "CupAndBall.md"));
    EXPECT_EQ(read_text(a / "CupAndBall.md").find("Footer"), std::string::npos);
    EXPECT_NE(read_text(a / "CupAndBall.md").find("No plots: drawing was turned off"), std::string::npos);
}

TEST(ReportFiles, FooterHoldsTimestampAndVersionUnlessReproducible) {
    ReportOptions o;
    o.timestamp = "2030-01-02T03:04:05Z";
    o.tool_version = "9.9.9";
    o.command_line = "modeaudit report m.mo";
    std::string md = render_markdown(cup_and_ball(false), o, nullptr, "");
    EXPECT_NE(md.find("\n---\n\n*Provenance:* report by modeaudit 9.9.9; input `corpus/good/cup_and_ball.mo`.\n\n"
                      "*Footer, differs between runs (`--reproducible` leaves it out):* generated "
                      "2030-01-02T03:04:05Z by modeaudit 9.9.9; command `modeaudit report m.mo`.\n"),
              std::string::npos)
        << md;
    o.reproducible = true;
    std::string plain = render_markdown(cup_and_ball(false), o, nullptr, "");
    EXPECT_EQ(plain.find("Footer"), std::string::npos);
    EXPECT_EQ(plain.find("2030"), std::string::npos);
    EXPECT_EQ(md.substr(0, plain.size() - 1), plain.substr(0, plain.size() - 1));
}

// ---- plots ---------------------------------------------------------------------------------

TEST(ReportPlots, TrajectoriesParseAndBadInputIsNamed) {
    std::string error;
    auto t = parse_trajectories(read_text(fixture("cup_and_ball.trajectories.csv")), error);
    ASSERT_TRUE(t) << error;
    EXPECT_EQ(t->columns, (std::vector<std::string>{"time", "x", "y", "vx", "vy", "lambda"}));
    EXPECT_EQ(t->rows.size(), 21u);
    EXPECT_DOUBLE_EQ(t->rows[10][3], 2.0);

    EXPECT_FALSE(parse_trajectories("t,x\n0,1\n", error));
    EXPECT_NE(error.find("must start with 'time'"), std::string::npos);
    EXPECT_FALSE(parse_trajectories("time,x\n0,1\n0.1\n", error));
    EXPECT_EQ(error, "line 3: 1 fields, the header has 2");
    EXPECT_FALSE(parse_trajectories("time,x\n0,abc\n", error));
    EXPECT_EQ(error, "line 2: 'abc' is not a number");
    EXPECT_FALSE(parse_trajectories("time,x,x\n", error));
    EXPECT_FALSE(parse_trajectories("", error));
}

// RFC 4180: a quoted field may hold commas, and "" is one quote.
TEST(ReportPlots, TrajectoriesHeaderFieldsMayBeQuoted) {
    std::string error;
    auto t = parse_trajectories("time,\"'a,b'\",\"'say \"\"hi\"\"'\", x \n0,1,2,3\n", error);
    ASSERT_TRUE(t) << error;
    EXPECT_EQ(t->columns, (std::vector<std::string>{"time", "'a,b'", "'say \"hi\"'", "x"}));
    EXPECT_EQ(t->rows.size(), 1u);
}

TEST(ReportPlots, ScriptGroupsStatesMarksEventsAndQuotesNames) {
    ReportInput in = cup_and_ball();
    std::string error;
    auto data = parse_trajectories(*in.trajectories_csv, error);
    ASSERT_TRUE(data);
    PlotPlan plan = plan_plots("CupAndBall", *data, in.check, &*in.simulation, {});
    ASSERT_EQ(plan.figures.size(), 2u);
    EXPECT_EQ(plan.figures[0].variables, (std::vector<std::string>{"x", "y", "vx", "vy"}));
    EXPECT_EQ(plan.figures[0].title, "States x, y, vx, vy");
    EXPECT_EQ(plan.figures[1].variables, (std::vector<std::string>{"lambda"}));
    EXPECT_EQ(plan.figures[1].image, "CupAndBall_plot_2.png");
    EXPECT_EQ(plan.event_times, (std::vector<double>{0.1}));
    const std::string& s = plan.script;
    EXPECT_NE(s.find("if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {"), std::string::npos);
    EXPECT_NE(s.find("set terminal png size 1600,1000 noenhanced"), std::string::npos);
    EXPECT_NE(s.find("set arrow from 0.10000000000000001, graph 0 to 0.10000000000000001, graph 1 nohead"),
              std::string::npos);
    EXPECT_NE(s.find("set output 'CupAndBall_plot_1.png'\nset title 'States x, y, vx, vy'\nunset xzeroaxis\n"
                     "plot 'CupAndBall_trajectories.csv' skip 1 using 1:2 with lines title 'x', \\\n"
                     "     '' skip 1 using 1:3 with lines title 'y',"),
              std::string::npos)
        << s;
    EXPECT_NE(s.find("using 1:6 with lines title 'lambda'"), std::string::npos);

    Trajectories odd{{"time", "it's", "a.b", "a.c", "d1", "d2", "d3", "d4", "d5"}, {}};
    PlotPlan p2 = plan_plots("M", odd, Json::object(), nullptr, {});
    EXPECT_NE(p2.script.find("title 'it''s'"), std::string::npos);
    // By component prefix in order of first appearance, four curves at most.
    ASSERT_EQ(p2.figures.size(), 3u);
    EXPECT_EQ(p2.figures[0].variables, (std::vector<std::string>{"it's", "d1", "d2", "d3"}));
    EXPECT_EQ(p2.figures[1].variables, (std::vector<std::string>{"d4", "d5"}));
    EXPECT_EQ(p2.figures[2].variables, (std::vector<std::string>{"a.b", "a.c"}));
    EXPECT_EQ(p2.figures[2].title, "Solved variables a.b, a.c");
    PlotPlan p3 = plan_plots("M", odd, Json::object(), nullptr, {{"d1", "nope", "a.b"}, {"nope"}});
    ASSERT_EQ(p3.figures.size(), 1u);
    EXPECT_EQ(p3.figures[0].variables, (std::vector<std::string>{"d1", "a.b"}));
}

TEST(ReportPlots, GnuplotDrawsThePictures) {
    if (!program_available("gnuplot")) GTEST_SKIP() << "gnuplot is not installed";
    fs::path dir = fresh_dir("plots");
    ReportFiles files;
    std::ostringstream err;
    ASSERT_EQ(write_report(cup_and_ball(), quiet_options(dir), err, &files), 0) << err.str();
    ASSERT_EQ(files.plots.size(), 2u);
    for (const fs::path& p : files.plots) {
        std::string png = read_text(p);
        ASSERT_GT(png.size(), 1000u);
        EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << p;
    }
    EXPECT_NE(read_text(files.markdown).find("](CupAndBall_plot_2.png)"), std::string::npos);
}

TEST(ReportPlots, MissingGnuplotIsAClearErrorAndTheReportSaysSo) {
    fs::path dir = fresh_dir("no-gnuplot");
    ReportOptions o = quiet_options(dir);
    o.gnuplot = (dir / "no-such-gnuplot").string();
    std::ostringstream err;
    EXPECT_EQ(write_report(cup_and_ball(), o, err), 2);
    EXPECT_NE(err.str().find("cannot draw the plots: gnuplot"), std::string::npos) << err.str();
    EXPECT_NE(err.str().find("No such file or directory"), std::string::npos);
    std::string md = read_text(dir / "CupAndBall.md");
    EXPECT_NE(md.find("No plots: gnuplot"), std::string::npos);
    EXPECT_TRUE(fs::exists(dir / "CupAndBall_plots.gp"));
    EXPECT_TRUE(fs::exists(dir / "CupAndBall.json"));
}

TEST(ReportPlots, MalformedTrajectoriesAreReported) {
    fs::path dir = fresh_dir("bad-csv");
    ReportInput in = cup_and_ball();
    in.trajectories_csv = "time,x\n0,zz\n";
    std::ostringstream err;
    EXPECT_EQ(write_report(in, quiet_options(dir), err), 2);
    EXPECT_NE(err.str().find("the trajectories could not be read (line 2: 'zz' is not a number)"),
              std::string::npos);
    EXPECT_NE(read_text(dir / "CupAndBall.md").find("No plots: the trajectories could not be read"),
              std::string::npos);
}

// ---- PDF -----------------------------------------------------------------------------------

TEST(ReportPdf, HeaderDeclaresCharactersPdflatexLacks) {
    PdfOptions o;
    std::string h = latex_header("λ ≤ 1, café, ☃", o);
    EXPECT_NE(h.find("\\DeclareUnicodeCharacter{03BB}{\\ensuremath{\\lambda}}"), std::string::npos) << h;
    EXPECT_NE(h.find("\\DeclareUnicodeCharacter{2264}{\\ensuremath{\\leq}}"), std::string::npos);
    EXPECT_NE(h.find("\\DeclareUnicodeCharacter{2603}{[U+2603]}"), std::string::npos);
    EXPECT_EQ(h.find("00E9"), std::string::npos);  // é: inputenc knows it
    EXPECT_EQ(h.find("pdftrailerid"), std::string::npos);
    o.reproducible = true;
    EXPECT_NE(latex_header("", o).find("\\pdftrailerid{}"), std::string::npos);
}

TEST(ReportPdf, PandocArgumentsTurnRawMarkupOff) {
    std::vector<std::string> a = pandoc_arguments("M.md", "M.pdf", "", PdfOptions{});
    ASSERT_GE(a.size(), 3u);
    EXPECT_EQ(a[0], "pandoc");
    EXPECT_NE(a[1].find("-raw_tex-raw_html"), std::string::npos);
    EXPECT_EQ(a[a.size() - 1], "M.md");
    EXPECT_EQ(a[a.size() - 2], "--");
    EXPECT_EQ(a[a.size() - 3], "--output=M.pdf");
}

TEST(ReportPdf, PandocMakesAPdfThatIsReproducible) {
    if (!program_available("pandoc")) GTEST_SKIP() << "pandoc is not installed";
    ReportInput in = cup_and_ball();
    in.check["model"] = "CupAndBall";
    std::string latin;  // Latin-1 and Latin Extended-A, every letter (U+00AD soft hyphen aside)
    for (char32_t c = 0xA1; c < 0x180; ++c) {
        if (c == 0xAD) continue;
        if (c < 0x800) {
            latin += static_cast<char>(0xC0 | (c >> 6));
            latin += static_cast<char>(0x80 | (c & 0x3F));
        }
    }
    in.check["diagnostics"][0]["message"] = "Greek λ, ≤, é and \\input{x} <b>html</b> ☃ " + latin;
    in.check["transitions"][0]["restart"].push_back("λ+ ≥ 0 " + latin);  // in a code block too
    fs::path a = fresh_dir("pdf-a"), b = fresh_dir("pdf-b");
    ReportOptions oa = quiet_options(a), ob = quiet_options(b);
    oa.pdf = ob.pdf = true;
    std::ostringstream err;
    ReportFiles files;
    ASSERT_EQ(write_report(in, oa, err, &files), 0) << err.str();
    std::string pdf = read_text(files.pdf);
    ASSERT_GT(pdf.size(), 1000u);
    EXPECT_EQ(pdf.substr(0, 4), "%PDF");
    ASSERT_EQ(write_report(in, ob, err), 0) << err.str();
    EXPECT_TRUE(read_text(b / "CupAndBall.pdf") == pdf)
        << "the same Markdown gave different PDF bytes (pdf.h says when they are reproducible)";
}

TEST(ReportPdf, MissingPandocIsAClearErrorNotACrash) {
    fs::path dir = fresh_dir("no-pandoc");
    ReportOptions o = quiet_options(dir);
    o.pdf = true;
    o.plots = false;
    o.pandoc = "/nonexistent/bin/pandoc";
    std::ostringstream err;
    EXPECT_EQ(write_report(cup_and_ball(), o, err), 2);
    EXPECT_NE(err.str().find("modeaudit: error: cannot make the PDF: pandoc ('/nonexistent/bin/pandoc') "
                             "could not be started: No such file or directory; install pandoc"),
              std::string::npos)
        << err.str();
    EXPECT_NE(err.str().find("--no-pdf"), std::string::npos);
    EXPECT_TRUE(fs::exists(dir / "CupAndBall.md"));
    EXPECT_TRUE(fs::exists(dir / "CupAndBall.json"));
    EXPECT_FALSE(fs::exists(dir / "CupAndBall.pdf"));
}

TEST(ReportPdf, FailingPdfEngineIsReportedWithPandocsMessage) {
    if (!program_available("pandoc")) GTEST_SKIP() << "pandoc is not installed";
    fs::path dir = fresh_dir("bad-engine");
    ReportOptions o = quiet_options(dir);
    o.pdf = true;
    o.plots = false;
    o.pdf_engine = "no-such-latex";
    std::ostringstream err;
    EXPECT_EQ(write_report(cup_and_ball(), o, err), 2);
    EXPECT_NE(err.str().find("cannot make the PDF: pandoc exited with status"), std::string::npos) << err.str();
    EXPECT_NE(err.str().find("no-such-latex"), std::string::npos);
}

TEST(ReportFiles, UnwritableFolderIsAnError) {
    fs::path dir = fresh_dir("file-not-dir");
    fs::create_directories(dir.parent_path());
    std::ofstream(dir) << "a file";
    std::ostringstream err;
    EXPECT_EQ(write_report(cup_and_ball(), quiet_options(dir), err), 2);
    EXPECT_NE(err.str().find("cannot create the report folder"), std::string::npos) << err.str();
    fs::remove(dir);
}

}  // namespace
}  // namespace modeaudit
