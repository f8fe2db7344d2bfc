// Unit tests of the report's detail sections (analyzer/report/): equations
// as LaTeX (latex_math.h), the signature matrix with its offsets, the
// mode-change array and its matching, the restart at the simulated left
// limits, the verification stage's verdicts (hand-made JSON in the shape
// that stage will write, so the rendering is tested before it exists), the
// mode graph (mode_graph.h) and the provenance line (sha256.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/latex_math.h"
#include "report/mode_graph.h"
#include "report/pdf.h"
#include "report/report.h"
#include "common/sha256.h"
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

fs::path fixture(const std::string& name) { return fs::path(MODEAUDIT_SOURCE_DIR) / "tests/unit/report" / name; }

fs::path fresh_dir(const std::string& name) {
    fs::path d = fs::path(::testing::TempDir()) / ("modeaudit-detail-" + std::to_string(getpid()) + "-" + name);
    fs::remove_all(d);
    return d;
}

bool program_available(const std::string& program, const char* flag = "--version") {
    ProcessOptions po;
    po.timeout_seconds = 30;
    return run_process({program, flag}, po).succeeded();
}

// The cup-and-ball fixture with the detail fields the check command adds
// (values as `check --format json` gives them for corpus/good/cup_and_ball.mo).
ReportInput detailed() {
    ReportInput in;
    in.check = Json::parse(read_text(fixture("cup_and_ball.check.json")));
    in.simulation = Json::parse(read_text(fixture("cup_and_ball.simulation.json")));
    in.model_file = "corpus/good/cup_and_ball.mo";
    Json& taut = in.check["modes"][1];
    taut["equations_text"] = Json::array({
        Json{{"name", "e1"}, {"residual", "der(x) - vx"}, {"line", 21}, {"origin", "equation"}},
        Json{{"name", "e2"}, {"residual", "der(y) - vy"}, {"line", 22}, {"origin", "equation"}},
        Json{{"name", "e3"}, {"residual", "der(vx) + lambda*x"}, {"line", 23}, {"origin", "equation"}},
        Json{{"name", "e4"}, {"residual", "der(vy) + lambda*y + 9.81"}, {"line", 24}, {"origin", "equation"}},
        Json{{"name", "e5"}, {"residual", "x^2 + y^2 - 1"}, {"line", 26}, {"origin", "equation"}},
    });
    Json n = nullptr;
    taut["signature"] = {
        {"equations", {"e1", "e2", "e3", "e4", "e5"}},
        {"variables", {"x", "y", "vx", "vy", "lambda"}},
        {"matrix", Json::array({Json::array({1, n, 0, n, n}), Json::array({n, 1, n, 0, n}),
                                Json::array({0, n, 1, n, 0}), Json::array({n, 0, n, 1, 0}),
                                Json::array({0, 0, n, n, n})})},
        {"c", {1, 1, 0, 0, 2}},
        {"d", {2, 2, 1, 1, 0}},
        {"transversal", {2, 1, 4, 3, 0}},
        {"value", 2},
        {"certificate", "holds"}};
    taut["regularity"] = {{"checked", true}, {"rank", 5}, {"size", 5}, {"exact", false}, {"constant", false},
                          {"condition", 12.5}, {"point_consistent", true}};
    Json& t = in.check["transitions"][0];
    t["array"] = {{"route", "direct to taut=true"},
                  {"height", 1},
                  {"rows", Json::array({
                               Json{{"equation", "e5"}, {"kind", "model"}, {"instant", 0}, {"status", "fact"},
                                    {"residual", "x^2 + y^2 - 1"}},
                               Json{{"equation", "e3@1"}, {"kind", "model"}, {"instant", 1}, {"status", "enabled"},
                                    {"residual", "der(vx)@1 + lambda@1*x@1"}},
                               Json{{"equation", "e1"}, {"kind", "model"}, {"instant", 0}, {"status", "disabled"},
                                    {"residual", "der(x) - vx"}},
                           })},
                  {"matched", true},
                  {"matching", Json::array({Json::array({"e3@1", "der(vx)@1"})})},
                  {"offsets", {{"lambda@1", 1}}}};
    return in;
}

std::string markdown_of(const ReportInput& in, const ModeGraphPicture* graph = nullptr) {
    ReportOptions o;
    o.reproducible = true;
    return render_markdown(in, o, nullptr, "", graph);
}

// ---- LaTeX math ---------------------------------------------------------------------------

TEST(ReportLatex, CanonicalTextBecomesMath) {
    EXPECT_EQ(tex::math("der(x) - vx"), "\\dot{x} - \\mathit{vx}");
    EXPECT_EQ(tex::math("x^2 + y^2 - L^2"), "x^{2} + y^{2} - L^{2}");
    EXPECT_EQ(tex::math("2*der(x)*x + 2*der(y)*y"), "2\\,\\dot{x}\\,x + 2\\,\\dot{y}\\,y");
    EXPECT_EQ(tex::math("der(vy) + lambda*y + 9.81 = 0"), "\\dot{\\mathit{vy}} + \\lambda\\,y + 9.81 = 0");
    EXPECT_EQ(tex::math("der(x,2)"), "\\ddot{x}");
    EXPECT_EQ(tex::math("der(r1.i, 4)"), "{\\mathit{r1.i}}^{(4)}");
    EXPECT_EQ(tex::math("sqrt(x^(1/2))"), "\\sqrt{x^{1/2}}");
    EXPECT_EQ(tex::math("sin(phi) - i_L/C"), "\\sin\\left(\\phi\\right) - i_{\\mathrm{L}}/C");
    EXPECT_EQ(tex::math("lambda >= 0"), "\\lambda \\ge 0");
    EXPECT_EQ(tex::math("(if s < 0 then 1 else 2)"), "\\left(\\text{if }s < 0\\text{ then }1\\text{ else }2\\right)");
    EXPECT_EQ(tex::math("1e-05*x"), "1\\cdot 10^{-5}\\,x");
    EXPECT_EQ(tex::math("my_func(a, b)"), "\\operatorname{my\\_func}\\left(a,\\ b\\right)");
    EXPECT_EQ(tex::math("der(a + b)"), "\\frac{d}{dt}\\left(a + b\\right)");
    EXPECT_EQ(tex::name("lambda"), "\\lambda");
    EXPECT_EQ(tex::name("a_b_c"), "\\mathit{a\\_b\\_c}");
    EXPECT_EQ(tex::math("der(x,2)@1 + i_L@12^2"), "\\ddot{x}_{[1]} + {i_{\\mathrm{L}}}_{[12]}^{2}");
}

TEST(ReportLatex, UntrustedTextCannotEscapeTheMath) {
    // Every character that TeX or Pandoc would interpret comes out as \char N.
    std::string m = tex::math("x$ + \\input{/etc/passwd} | #%&~ ^^ 'q' @1 λ≤");
    EXPECT_EQ(m.find('$'), std::string::npos) << m;
    EXPECT_EQ(m.find('|'), std::string::npos) << m;
    EXPECT_EQ(m.find("\\input"), std::string::npos) << m;
    EXPECT_NE(m.find("\\text{\\char36}"), std::string::npos) << m;   // $
    EXPECT_NE(m.find("\\text{\\char92}"), std::string::npos) << m;   // backslash
    EXPECT_NE(m.find("\\text{\\char123}"), std::string::npos) << m;  // {
    EXPECT_NE(m.find("\\text{\\char124}"), std::string::npos) << m;  // |
    EXPECT_NE(m.find("\\text{λ}"), std::string::npos) << m;
    // Braces come only from the converter: balanced.
    int depth = 0;
    for (std::size_t i = 0; i < m.size(); ++i) {
        if (m[i] == '\\' && i + 1 < m.size()) {
            ++i;
            continue;
        }
        depth += m[i] == '{' ? 1 : m[i] == '}' ? -1 : 0;
        ASSERT_GE(depth, 0) << m;
    }
    EXPECT_EQ(depth, 0) << m;
    // Unbalanced input parentheses do not unbalance the output's \left/\right.
    std::string u = tex::math("a) + (b");
    EXPECT_EQ(u, "a) + \\left(b\\right)");
}

// ---- per mode ---------------------------------------------------------------------------------

TEST(ReportDetail, ModeShowsEquationsWithLinesSignatureOffsetsAndRegularity) {
    std::string md = markdown_of(detailed());
    EXPECT_NE(md.find("| Row | Equation | Line | From |\n|-----|------------------------------------------------------------|-----|----------------|\n"
                      "| e1 | $\\dot{x} - \\mathit{vx} = 0$ | 21 | equation |\n"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| e5 | $x^{2} + y^{2} - 1 = 0$ | 26 | equation |\n"), std::string::npos);
    EXPECT_NE(md.find("| $\\Sigma$ | $x$ | $y$ | $\\mathit{vx}$ | $\\mathit{vy}$ | $\\lambda$ | $c_i$ |\n"),
              std::string::npos)
        << md;
    // Bold entries on the transversal, – for -infinity, c_i last, d_j as the last row.
    EXPECT_NE(md.find("| e1 | 1 | – | **0** | – | – | 1 |\n"), std::string::npos) << md;
    EXPECT_NE(md.find("| e5 | **0** | 0 | – | – | – | 2 |\n"), std::string::npos) << md;
    EXPECT_NE(md.find("| e3 | 0 | – | 1 | – | **0** | 0 |\n"), std::string::npos) << md;
    EXPECT_NE(md.find("| $d_j$ | 2 | 2 | 1 | 1 | 0 |   |\n"), std::string::npos) << md;
    EXPECT_NE(md.find("Certificate of the offsets (checked independently of the solver): holds"),
              std::string::npos);
    EXPECT_NE(md.find("- **Regularity:** Jacobian of the index-reduced system has rank 5 of 5 (floating point), "
                      "condition 12.5\n"),
              std::string::npos)
        << md;
    EXPECT_EQ(md.find("The matrix is"), std::string::npos);  // small: not cut
}

TEST(ReportDetail, BigSignatureMatrixIsCutAndSaysSo) {
    ReportInput in = detailed();
    Json& sig = in.check["modes"][1]["signature"];
    Json eqs = Json::array(), vars = Json::array(), entries = Json::array();
    for (int i = 0; i < 30; ++i) {
        eqs.push_back("e" + std::to_string(i + 1));
        vars.push_back("v" + std::to_string(i + 1));
        entries.push_back(Json::array({i, i, 1}));
    }
    sig = {{"equations", eqs}, {"variables", vars}, {"entries", entries}};  // sparse, no offsets
    std::string md = markdown_of(in);
    EXPECT_NE(md.find("The matrix is 30 × 30; the first 24 rows and 10 columns are shown"), std::string::npos) << md;
    EXPECT_NE(md.find("no offsets (the mode has no finite transversal)"), std::string::npos);
    EXPECT_NE(md.find("| e2 | – | 1 | – |"), std::string::npos) << md;
    EXPECT_EQ(md.find("| e25 |"), std::string::npos);
    EXPECT_EQ(md.find("$\\mathit{v11}$"), std::string::npos);
}

TEST(ReportDetail, ModeInvariantsOfTheVerificationStageAreShown) {
    ReportInput in = detailed();
    in.check["modes"][1]["invariants"] = Json::array(
        {Json{{"name", "E"}, {"rate", "0"}, {"status", "holds"}, {"residual", "0"}},
         Json{{"name", "p|q"}, {"rate", "-x*vx"}, {"status", "violated"}, {"residual", "x*vx"}}});
    std::string md = markdown_of(in);
    EXPECT_NE(md.find("| Quantity | Rate d/dt | Status | Residual |\n|----------|------------------------------|--------|------------------------------|\n| `E` | `0` | holds | `0` |\n"
                      "| p\\|q | `-x*vx` | violated | `x*vx` |\n"),
              std::string::npos)
        << md;
}

// ---- per transition -----------------------------------------------------------------------------

TEST(ReportDetail, TransitionShowsArrayMatchingAndOffsets) {
    std::string md = markdown_of(detailed());
    EXPECT_NE(md.find("#### Mode-change array\n\nRoute direct to taut=true, height $K = 1$"), std::string::npos) << md;
    EXPECT_NE(md.find("| Row | Kind | Instant | Status | Equation | Matched to |\n"), std::string::npos);
    EXPECT_NE(md.find("| `e5` | model | 0 | fact | $x^{2} + y^{2} - 1 = 0$ |   |\n"), std::string::npos) << md;
    EXPECT_NE(md.find("| `e3@1` | model | 1 | enabled | $\\dot{\\mathit{vx}}_{[1]} + "
                      "\\lambda_{[1]}\\,x_{[1]} = 0$ | `der(vx)@1` |\n"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("1 row enabled, 1 disabled, 1 fact.\n"), std::string::npos) << md;
    EXPECT_NE(md.find("Rescaling offsets (Z3, re-checked): impulsive variables `lambda@1` = 1, all others 0.\n"),
              std::string::npos)
        << md;
}

TEST(ReportDetail, ArrayWithoutMatchingSaysWhy) {
    ReportInput in = detailed();
    Json& a = in.check["transitions"][0]["array"];
    a["matched"] = false;
    a["matching"] = Json::array();
    a["why_not_matched"] = "the enabled equation T1@1 is left over";
    a.erase("offsets");
    std::string md = markdown_of(in);
    EXPECT_NE(md.find("The array has no perfect matching: the enabled equation T1\\@1 is left over.\n"),
              std::string::npos)
        << md;
    EXPECT_EQ(md.find("Rescaling offsets"), std::string::npos);
}

TEST(ReportDetail, RestartAtTheSimulatedLeftLimits) {
    std::string md = markdown_of(detailed());
    EXPECT_NE(md.find("#### Restart at the simulated left limits\n\nAt the first of 1 event of this transition "
                      "(t = 0.1), the left limits and the values the restart gave:\n\n"
                      "| Variable | Before (left limit) | After the restart | Change |\n"),
              std::string::npos)
        << md;
    ReportInput none = detailed();
    none.simulation->at("events") = Json::array();
    EXPECT_NE(markdown_of(none).find("The simulation did not take this transition.\n"), std::string::npos);
    none.simulation.reset();
    EXPECT_NE(markdown_of(none).find("#### Restart at the simulated left limits\n\nNot simulated"), std::string::npos);
}

TEST(ReportDetail, VerificationVerdictsAreRenderedWhenPresent) {
    ReportInput in = detailed();
    in.check["transitions"][0]["verification"] = {
        {"invariants",
         Json::array({Json{{"name", "L"}, {"expression", "x*vy - y*vx"}, {"kind", "conserved"},
                           {"status", "holds"}, {"before", 1.0}, {"after", 1.0}, {"jump", 0.0}},
                      Json{{"name", "E"}, {"expression", "(vx^2 + vy^2)/2 + g*y"}, {"kind", "nonincreasing"},
                           {"status", "holds"}, {"before", -5.348}, {"after", -7.348}, {"jump", -2.0}},
                      Json{{"name", "W"}, {"expression", "w"}, {"kind", "conserved"}, {"status", "not-evaluated"}}})},
        {"admissibility", Json::array({Json{{"condition", "lambda >= 0"}, {"status", "holds"}, {"value", 8.848}}})},
        {"impact_law", {{"status", "holds"}, {"message", "restitution within range"}, {"range", {0, 1}}}}};
    std::string md = markdown_of(in);
    EXPECT_NE(md.find("#### Conservation and admissibility\n\n| Quantity | Expression | Kind | Status | Before | After "
                      "| Jump |\n|--------|--------------------|-------------|--------|----------------|----------------|---------|\n| `L` | `x*vy - y*vx` | conserved | holds | 1 | 1 | 0 |\n"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| `E` | `(vx^2 + vy^2)/2 + g*y` | nonincreasing | holds | -5.348 | -7.348 | -2 |\n"),
              std::string::npos);
    EXPECT_NE(md.find("| `W` | `w` | conserved | not-evaluated |   |   |   |\n"), std::string::npos) << md;
    EXPECT_NE(md.find("Admissibility after the restart:\n\n| Condition | Status | Value |\n|---|---|---|\n"
                      "| `lambda >= 0` | holds | 8.848 |\n"),
              std::string::npos);
    EXPECT_NE(md.find("Impact law: **holds**: restitution within range (admissible range 0 to 1).\n"),
              std::string::npos)
        << md;
}

TEST(ReportDetail, VerificationNotCheckedOnlyWhenTheDocumentSaysSo) {
    ReportInput in = detailed();
    in.check["not_checked"] = Json::array({"verification"});
    in.check["transitions"][0]["verification"] = {{"invariants", Json::array()}};
    std::string md = markdown_of(in);
    EXPECT_NE(md.find("#### Conservation and admissibility\n\nNot checked (the verification stage is not built yet).\n"),
              std::string::npos)
        << md;
    in.check.erase("not_checked");
    in.check["transitions"][0].erase("verification");
    md = markdown_of(in);
    EXPECT_NE(md.find("#### Conservation and admissibility\n\nThe document gives no verification details"),
              std::string::npos)
        << md;
}

// ---- mode graph ----------------------------------------------------------------------------------

TEST(ReportModeGraph, DotSourceHasModesAndLabelledEdgesWithEscapedNames) {
    ReportInput in = detailed();
    std::string why;
    auto dot = mode_graph_dot(in.check, why);
    ASSERT_TRUE(dot) << why;
    EXPECT_NE(dot->find("  m0 [label=\"taut=false\", peripheries=2];\n  m1 [label=\"taut=true\"];\n"), std::string::npos)
        << *dot;
    EXPECT_NE(dot->find("  m0 -> m1 [label=\"1: impulsive\\nx^2 + y^2 - 1\", color=\"#1565c0\""), std::string::npos)
        << *dot;
    EXPECT_EQ(dot_quoted("a\"b\\N\nc"), "\"a\\\"b\\\\N c\"");
    in.check["modes"][1]["id"] = "evil\"]; m0 -> m0 [label=\"x";
    in.check["transitions"][0]["to"] = in.check["modes"][1]["id"];
    dot = mode_graph_dot(in.check, why);
    ASSERT_TRUE(dot);
    EXPECT_NE(dot->find("m1 [label=\"evil\\\"]; m0 -> m0 [label=\\\"x\"]"), std::string::npos) << *dot;
    EXPECT_NE(dot->find("  m0 -> m1 ["), std::string::npos);
    Json none = Json::object();
    EXPECT_FALSE(mode_graph_dot(none, why));
    Json many = {{"modes", Json::array()}};
    for (int i = 0; i < 41; ++i) many["modes"].push_back({{"id", "m" + std::to_string(i)}});
    EXPECT_FALSE(mode_graph_dot(many, why));
    EXPECT_NE(why.find("41 modes and 0 transitions are too many"), std::string::npos) << why;
}

TEST(ReportModeGraph, SummaryShowsThePictureOrWhyNot) {
    ModeGraphPicture g{"CupAndBall_modes.png", "CupAndBall_modes.dot", ""};
    std::string md = markdown_of(detailed(), &g);
    EXPECT_NE(md.find("![Mode graph: modes as boxes"), std::string::npos) << md;
    // No pandoc attribute after the picture (a code forge would show it as
    // text); the PDF's LaTeX header bounds its height instead (pdf.cpp).
    EXPECT_NE(md.find("](CupAndBall_modes.png)\n"), std::string::npos);
    EXPECT_EQ(md.find("{width="), std::string::npos);
    EXPECT_LT(md.find("](CupAndBall_modes.png)"), md.find("## Modes"));
    ModeGraphPicture missing{"", "CupAndBall_modes.dot", "Graphviz dot could not be started"};
    EXPECT_NE(markdown_of(detailed(), &missing).find("No mode graph picture: Graphviz dot could not be started.\n"),
              std::string::npos);
}

TEST(ReportModeGraph, DotDrawsAPngBesideTheReport) {
    if (!program_available("dot", "-V")) GTEST_SKIP() << "Graphviz dot is not installed";
    fs::path dir = fresh_dir("graph");
    ReportOptions o;
    o.output_dir = dir;
    o.pdf = false;
    o.reproducible = true;
    ReportInput in = detailed();
    in.trajectories_csv.reset();
    std::ostringstream err;
    ReportFiles files;
    ASSERT_EQ(write_report(in, o, err, &files), 0) << err.str();
    ASSERT_EQ(files.mode_graph, dir / "CupAndBall_modes.png");
    std::string png = read_text(files.mode_graph);
    ASSERT_GT(png.size(), 1000u);
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_TRUE(fs::exists(dir / "CupAndBall_modes.dot"));
    EXPECT_NE(read_text(files.markdown).find("](CupAndBall_modes.png)"), std::string::npos);
}

TEST(ReportModeGraph, MissingDotIsAClearErrorLikeMissingGnuplot) {
    fs::path dir = fresh_dir("no-dot");
    ReportOptions o;
    o.output_dir = dir;
    o.pdf = false;
    o.reproducible = true;
    o.dot = (dir / "no-such-dot").string();
    ReportInput in = detailed();
    in.trajectories_csv.reset();
    std::ostringstream err;
    EXPECT_EQ(write_report(in, o, err), 2);
    EXPECT_NE(err.str().find("modeaudit: error: cannot draw the mode graph: Graphviz dot"), std::string::npos)
        << err.str();
    EXPECT_NE(err.str().find("install Graphviz (Debian: graphviz)"), std::string::npos);
    std::string md = read_text(dir / "CupAndBall.md");
    EXPECT_NE(md.find("No mode graph picture: Graphviz dot"), std::string::npos) << md;
    EXPECT_TRUE(fs::exists(dir / "CupAndBall_modes.dot"));
    EXPECT_TRUE(fs::exists(dir / "CupAndBall.json"));
}

// ---- provenance --------------------------------------------------------------------------------

TEST(ReportProvenance, Sha256OfTheStandardsExamples) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(ReportProvenance, EveryReportNamesVersionsAndInputHashTheFooterAddsTimeAndCommand) {
    ReportInput in = detailed();
    in.model_sha256 = sha256_hex("model M end M;");
    ReportOptions o;
    o.tool_version = "9.9.9";
    o.library_versions = "GiNaC 1.8.6, Z3 4.8.12, SUNDIALS 6.4.1";
    o.reproducible = true;
    std::string md = render_markdown(in, o, nullptr, "");
    std::string line = "---\n\n*Provenance:* report by modeaudit 9.9.9 (GiNaC 1.8.6, Z3 4.8.12, SUNDIALS 6.4.1); "
                       "input `corpus/good/cup_and_ball.mo`, SHA-256 `" + in.model_sha256 + "`.\n";
    EXPECT_NE(md.find(line), std::string::npos) << md;
    EXPECT_EQ(md.find("Footer"), std::string::npos);
    o.reproducible = false;
    o.command_line = "modeaudit report 'a b.mo'";
    o.timestamp = "2030-01-02T03:04:05Z";
    std::string full = render_markdown(in, o, nullptr, "");
    EXPECT_NE(full.find(line + "\n*Footer, differs between runs (`--reproducible` leaves it out):* generated "
                               "2030-01-02T03:04:05Z by modeaudit 9.9.9; command `modeaudit report 'a b.mo'`.\n"),
              std::string::npos)
        << full;
}

TEST(ReportDetail, DescriptionIsShownAsText) {
    ReportInput in = detailed();
    in.check["description"] = "Rope \\input{x} <b>bold</b> $y$ ≤ λ";
    std::string md = markdown_of(in);
    EXPECT_NE(md.find("- **Description:** Rope \\\\input\\{x\\} \\<b\\>bold\\</b\\> \\$y\\$ ≤ λ\n"), std::string::npos)
        << md;
}

// The whole detailed report through Pandoc and pdflatex: the math, the
// description's markup and non-ASCII text come out as text in a PDF.
TEST(ReportDetail, DetailedReportMakesAPdfAndMarkupStaysText) {
    if (!program_available("pandoc")) GTEST_SKIP() << "pandoc is not installed";
    ReportInput in = detailed();
    in.check["description"] = "Seil \\input{/etc/passwd} <script>alert(1)</script> café ≤ λ Ω";
    in.check["modes"][1]["equations_text"][0]["residual"] = "der(x) - vx + \\input{y} + $z$";
    fs::path dir = fresh_dir("pdf");
    fs::create_directories(dir);
    ReportOptions o;
    o.reproducible = true;
    std::string md = render_markdown(in, o, nullptr, "");
    std::ofstream(dir / "r.md") << md;
    ProcessOptions run;
    run.working_dir = dir;
    PdfOptions po;
    ProcessResult tex = run_process(pandoc_arguments("r.md", "r.tex", latex_header(md, po), po), run);
    ASSERT_TRUE(tex.succeeded()) << tex.output;
    std::string t = read_text(dir / "r.tex");
    EXPECT_EQ(t.find("\\input{"), std::string::npos) << t;
    EXPECT_EQ(t.find("<script>"), std::string::npos);
    EXPECT_NE(t.find("\\textbackslash input\\{/etc/passwd\\}"), std::string::npos);
    EXPECT_NE(t.find("\\(\\dot{x} - \\mathit{vx}"), std::string::npos) << t;  // the math is math
    std::ostringstream err;
    EXPECT_TRUE(build_pdf(dir, "r.md", md, "r.pdf", po, err)) << err.str();
    EXPECT_EQ(read_text(dir / "r.pdf").substr(0, 4), "%PDF");
}

}  // namespace
}  // namespace modeaudit
