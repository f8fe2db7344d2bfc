// The mode graph of the review report: modes as nodes, transitions as
// edges labelled with their number and verdict, drawn by Graphviz `dot`.
//
// Input: the check document (modes[].id, transitions[].from/to/verdict/
// guard). The DOT source is pure data (tested without Graphviz); write_report
// (report.h) writes it beside the report as <Model>_modes.dot and runs
// `dot -Tpng -Gdpi=300 -o <Model>_modes.png <Model>_modes.dot` as a
// subprocess with an argument vector (subprocess.h), never through a shell.
//
// Names and guards come from the model: every label is a DOT quoted string
// with `"` and `\` escaped, so that neither a quote nor one of dot's label
// escapes (\N, \G, \l, ...) can change the graph; control characters become
// spaces. Nodes are named m0, m1, ... (never by the model's text). The
// initial mode (modes[0]) has a double border, a transient mode (only passed
// through during an impact) a dashed one; edges are coloured by verdict:
// green continuous, blue impulsive, grey supplied, red undetermined or
// inconsistent, orange unsupported, black otherwise.
#pragma once

#include <optional>
#include <string>

#include "common/json_output.h"

namespace modeaudit {

// Above these sizes the picture would not be legible: no drawing (the
// report says so and lists the transitions in its tables as always).
constexpr std::size_t kModeGraphMaxModes = 40;
constexpr std::size_t kModeGraphMaxTransitions = 120;

// One DOT string literal (with its quotes) showing `text` as it is.
std::string dot_quoted(const std::string& text);

// The DOT source of the mode graph; nullopt when the document has no
// modes, or more than the limits above (`why` then says which).
std::optional<std::string> mode_graph_dot(const Json& check, std::string& why);

}  // namespace modeaudit
