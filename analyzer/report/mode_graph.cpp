#include "report/mode_graph.h"

#include <fmt/format.h>

#include <map>

namespace modeaudit {

namespace {

std::string text_of(const Json& j, const char* key) {
    if (!j.is_object()) return "";
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const char* verdict_colour(const std::string& v) {
    if (v == "continuous") return "#2e7d32";
    if (v == "impulsive") return "#1565c0";
    if (v == "supplied") return "#616161";
    if (v == "undetermined" || v == "inconsistent") return "#c62828";
    if (v == "unsupported") return "#ef6c00";
    return "#000000";
}

// Guards longer than this are left off the edge label (the transition
// table and section give them).
constexpr std::size_t kGuardOnEdge = 32;

}  // namespace

std::string dot_quoted(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20 || u == 0x7F) {
            out += ' ';
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::optional<std::string> mode_graph_dot(const Json& check, std::string& why) {
    const Json* modes = check.is_object() && check.contains("modes") ? &check["modes"] : nullptr;
    const Json* trs = check.is_object() && check.contains("transitions") ? &check["transitions"] : nullptr;
    if (!modes || !modes->is_array() || modes->empty()) {
        why = "the document lists no modes";
        return std::nullopt;
    }
    std::size_t ntr = trs && trs->is_array() ? trs->size() : 0;
    if (modes->size() > kModeGraphMaxModes || ntr > kModeGraphMaxTransitions) {
        why = fmt::format("{} modes and {} transitions are too many for a legible picture (at most {} and {})",
                          modes->size(), ntr, kModeGraphMaxModes, kModeGraphMaxTransitions);
        return std::nullopt;
    }
    std::map<std::string, std::size_t> node;  // mode id -> index (the first, if ids repeat)
    std::string out = "digraph modes {\n";
    // Left to right for a few modes; top to bottom keeps a larger graph narrow enough to read.
    out += fmt::format("  graph [rankdir={}, nodesep=0.5, ranksep=0.8, fontname=\"DejaVu Sans\", charset=\"UTF-8\"];\n",
                       modes->size() <= 3 ? "LR" : "TB");
    out += "  node [shape=box, style=rounded, fontname=\"DejaVu Sans\", fontsize=12];\n";
    out += "  edge [fontname=\"DejaVu Sans\", fontsize=10];\n";
    for (std::size_t i = 0; i < modes->size(); ++i) {
        const Json& m = (*modes)[i];
        std::string id = text_of(m, "id");
        node.emplace(id, i);
        std::string label = id.empty() ? "(single mode)" : id;
        std::string attrs = "label=" + dot_quoted(label);
        if (i == 0) attrs += ", peripheries=2";
        if (m.is_object() && m.contains("transient_only") && m["transient_only"] == true)
            attrs += ", style=\"rounded,dashed\"";
        out += fmt::format("  m{} [{}];\n", i, attrs);
    }
    for (std::size_t k = 0; k < ntr; ++k) {
        const Json& t = (*trs)[k];
        auto from = node.find(text_of(t, "from"));
        auto to = node.find(text_of(t, "to"));
        if (from == node.end() || to == node.end()) continue;  // a transition to an unlisted mode
        std::string verdict = text_of(t, "verdict");
        std::string label = fmt::format("{}: {}", k + 1, verdict.empty() ? std::string("not analysed") : verdict);
        std::string guard = text_of(t, "guard");
        std::string attrs = "label=" + dot_quoted(label);
        if (!guard.empty() && guard.size() <= kGuardOnEdge) {
            // Two lines: the quoted guard goes after an escaped line break of our own.
            std::string q = dot_quoted(guard);
            attrs = "label=" + dot_quoted(label).substr(0, dot_quoted(label).size() - 1) + "\\n" + q.substr(1);
        }
        const char* colour = verdict_colour(verdict);
        attrs += fmt::format(", color=\"{}\", fontcolor=\"{}\"", colour, colour);
        if (verdict == "undetermined" || verdict == "inconsistent") attrs += ", style=bold";
        out += fmt::format("  m{} -> m{} [{}];\n", from->second, to->second, attrs);
    }
    return out + "}\n";
}

}  // namespace modeaudit
