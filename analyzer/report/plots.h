// Plots of the review report: state trajectories over time, events marked,
// and beside them the other columns the report's CSV holds (declared
// quantities, solved variables such as multipliers, guard(N), margin(N),
// residual(consistency); cli/sampled_quantities.h), units where declared.
//
// Input: the simulation's trajectories CSV (header `time,var1,var2,...`,
// one row per output time), the check document (which variables are
// states) and the simulation document (event times). The plan is pure data
// (a gnuplot script and the names of the pictures it draws), so it is
// tested without running gnuplot; write_report (report.h) then runs gnuplot
// on it (subprocess.h).
// The script and the CSV are written next to the report, so a reviewer can
// regenerate every picture with `cd DIR && gnuplot <Model>_plots.gp`.
//
// Terminal: the script picks `pngcairo` when the gnuplot at hand has it
// (Debian 12's gnuplot-nox does) and libgd's `png` otherwise; both give
// PNG, which pdflatex embeds directly, at 1600x1000 pixels (print
// resolution for a text-width figure). The same gnuplot gives the same
// bytes for the same script and data (no timestamp in the PNG).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/json_output.h"

namespace modeaudit {

struct Trajectories {
    std::vector<std::string> columns;       // columns[0] is "time"
    std::vector<std::vector<double>> rows;  // each rows[i].size() == columns.size()
};

// Parses the trajectories CSV; on a malformed input returns nullopt with
// `error` naming the line. Fields are plain (no quoting); empty lines are
// skipped; `nan`/`inf` are accepted as numbers.
std::optional<Trajectories> parse_trajectories(const std::string& csv, std::string& error);

struct PlotFigure {
    std::string image;                   // file name of the picture, e.g. CupAndBall_plot_1.png
    std::string title;                   // e.g. "States x, y, vx, vy"
    std::vector<std::string> variables;  // the columns drawn, in order
    std::vector<std::string> legends;    // each column's legend: name [unit]: what it is
};

struct PlotPlan {
    std::string data_file;    // e.g. CupAndBall_trajectories.csv (the CSV as given)
    std::string script_file;  // e.g. CupAndBall_plots.gp
    std::string script;       // the gnuplot script's text
    std::vector<double> event_times;
    std::vector<PlotFigure> figures;
    // Columns left out of the default grouping ("64 guards"): each kind of
    // sampled quantity has at most a few figures (the CSV has every column).
    std::vector<std::string> not_drawn;
};

// Groups the columns into figures. With `groups` non-empty, each listed
// group (names not in the CSV dropped) is one figure. Otherwise: the states
// (union of the modes' `states` in the check document) first, then the
// other columns by kind: declared quantities (the modes' `invariants`),
// solved variables, guards, assert margins, the constraint residual;
// within each, by component prefix (the name up to its last '.'), in CSV
// order, at most four curves per figure; at most 2 figures of declared
// quantities, 3 of solved variables, 2 of guards (those of the transitions
// the simulation took first), 2 of assert margins and 1 of residuals, the
// rest counted in `not_drawn`. Legends carry the check
// document's `units` and the simulation document's `sampled_columns`.
PlotPlan plan_plots(const std::string& file_base, const Trajectories& data, const Json& check,
                    const Json* simulation, const std::vector<std::vector<std::string>>& groups);

}  // namespace modeaudit
