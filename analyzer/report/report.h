// The report stage: the review report a person signs off on.
//
// Last stage of the pipeline (parse -> ... -> simulation -> report). It is
// generated from the documents of the output contract
// (../shared/design/output-contract.md), not from the C++ results of the
// earlier stages: the check document (`check --format json`: modes,
// transitions with their verdicts, diagnostics), optionally the simulation
// document (`simulate --format json`) and the trajectories CSV (header
// `time,var1,...`). So the report depends only on the contract, can be
// re-rendered from saved documents, and is tested with hand-written ones
// (tests/unit/report/).
//
// It writes into the output folder:
//   <Model>.json               the check document with its `simulation` member
//   <Model>.md                 the review report (Markdown)
//   <Model>.pdf                the same through Pandoc and pdflatex (pdf.h)
//   <Model>_trajectories.csv   the trajectories as given,
//   <Model>_plots.gp           the gnuplot script that draws
//   <Model>_plot_N.png         the pictures (plots.h)
//   <Model>_modes.dot, .png    the mode graph, its Graphviz source and picture (mode_graph.h)
// The Markdown and the JSON are byte-identical for the same input and
// options when `reproducible` is set; otherwise they differ only in the
// footer, which holds the generation time and the command line and is
// marked as such. The provenance paragraph before it (tool and library
// versions, the input's SHA-256) is in every report.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/json_output.h"
#include "report/plots.h"

namespace modeaudit {

struct ReportInput {
    Json check;                                   // the check document
    std::optional<Json> simulation;               // the simulation document, if it ran
    std::optional<std::string> trajectories_csv;  // `time,var1,...`, if it ran
    // Why there is no simulation document ("the simulation stage is not
    // built yet", "the check found errors", ...); shown in the report.
    std::string simulation_not_run;
    // The model file as the user named it; empty: the check document's
    // `file` member, else the file of its first located diagnostic.
    std::string model_file;
    // SHA-256 of the model file's bytes (hex); empty: not shown.
    std::string model_sha256;
};

struct ReportOptions {
    std::filesystem::path output_dir = "modeaudit-report";
    bool pdf = true;            // false: --no-pdf
    bool plots = true;          // false: no gnuplot run (script and data are still written)
    bool reproducible = false;  // no footer; fixed dates in the PDF (pdf.h)
    std::string pandoc = "pandoc";
    std::string pdf_engine = "pdflatex";
    std::string gnuplot = "gnuplot";
    std::string dot = "dot";  // Graphviz, for the mode graph (mode_graph.h)
    double timeout_seconds = 300;  // per helper program run
    // Footer data (not in a reproducible report).
    std::string tool_version;  // empty: this build's version
    std::string timestamp;     // empty: SOURCE_DATE_EPOCH if set, else now (UTC, ISO 8601)
    std::string command_line;  // empty: not shown
    // "GiNaC 1.8.6, Z3 4.8.12, SUNDIALS 6.4.1": the libraries of the build
    // that produced the documents (shown in every report; empty: not shown).
    std::string library_versions;
    // Explicit plot groups (variable names); empty: plots.h's default grouping.
    std::vector<std::vector<std::string>> plot_groups;
};

// What write_report produced (paths inside output_dir).
// The prefix of the hidden folder inside output_dir where write_report makes
// the files before renaming them into place: PREFIX-PID-XXXXXX, fresh per
// run (mkdtemp), removed when it is done; one left by a killed run is
// removed by a later run (common/files.h).
inline constexpr const char* kReportStagingFolder = ".modeaudit-staging";

struct ReportFiles {
    std::filesystem::path markdown, json, pdf, plot_script, plot_data, mode_graph, mode_graph_source;
    std::vector<std::filesystem::path> plots;
};

// The file-name stem for a model: its name with anything but letters,
// digits, '_', '-' and '.' replaced by '_' ("report" when empty); when a
// character was replaced (or "report" put before a leading '.' or '-'), "-"
// and the first 8 hex digits of the name's SHA-256 follow, so distinct
// names never share files. A stem longer than kMaxReportFileBase is cut to
// that length, its last 9 characters "-" and the hash of the whole name.
inline constexpr std::size_t kMaxReportFileBase = 128;
std::string report_file_base(const Json& check);

// The report's JSON: the check document, then `simulation` (the document,
// or null with `simulation_not_run` giving the reason). Ends with "\n".
std::string render_report_json(const ReportInput& input);

// The mode graph picture as the Markdown refers to it.
struct ModeGraphPicture {
    std::string image;    // <Model>_modes.png, when it was drawn
    std::string source;   // <Model>_modes.dot, when it was written
    std::string problem;  // why there is no picture, when there is none
};

// The Markdown report. `plots`: the plan whose pictures exist (nullptr:
// none); `plot_problem`: why there are no pictures, if there are none;
// `graph`: the mode graph (nullptr: the summary has no picture paragraph).
std::string render_markdown(const ReportInput& input, const ReportOptions& options,
                            const PlotPlan* plots, const std::string& plot_problem,
                            const ModeGraphPicture* graph = nullptr);

// Writes every file of the report. Returns 0 when all requested files were
// written, 2 when one could not be (the folder cannot be written, the
// trajectories are malformed, gnuplot or pandoc is missing or fails): the
// others are still written and `err` says what failed and what to do.
// Never throws for a failure of a helper program or of the file system.
int write_report(const ReportInput& input, const ReportOptions& options, std::ostream& err,
                 ReportFiles* files = nullptr);

}  // namespace modeaudit
