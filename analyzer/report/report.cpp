#include "report/report.h"

#include "common/text_sanitize.h"

#include "common/files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>

#include "common/version.h"
#include "report/document_text.h"
#include "report/key_physics.h"
#include "report/latex_math.h"
#include "report/markdown.h"
#include "report/mode_graph.h"
#include "report/pdf.h"
#include "common/sha256.h"
#include "common/text_sanitize.h"
#include "report/subprocess.h"

namespace modeaudit {

namespace {

// The document readers and number formatting (document_text.h).
using doc::array_of;
using doc::member;
using doc::member_text;
using doc::number_text;
using doc::plural;
using doc::string_of;
using doc::strings_of;
using doc::value_text;
using doc::with_period;

// ---- wording ------------------------------------------------------------------

std::string verdict_sentence(const std::string& verdict) {
    if (verdict == "continuous")
        return "the states carry over unchanged and satisfy the new mode's constraints; "
               "new algebraic values follow from them.";
    if (verdict == "impulsive")
        return "the mode change involves impulses: the variables with an impulse order act "
               "as Dirac terms at the event and the states jump as the restart system says.";
    if (verdict == "supplied")
        return "the model supplies the restart (reinit) and it determines the new state "
               "consistently.";
    if (verdict == "undetermined")
        return "the physics does not determine the restart: the values listed as undetermined "
               "have no determining relation at the event.";
    if (verdict == "inconsistent")
        return "no restart satisfies the new mode's constraints together with the model's "
               "relations at the event.";
    if (verdict == "unsupported")
        return "the analysis does not cover this transition; its restart is not checked.";
    return "(a verdict this report does not know; see the JSON document).";
}

std::string stopped_sentence(const std::string& why) {
    if (why == "stop-time") return "the stop time was reached";
    if (why == "zeno") return "events accumulated (Zeno behaviour)";
    if (why == "inadmissible") return "the state left the admissible region";
    if (why == "undetermined-restart") return "a restart was undetermined";
    if (why == "solver-failure") return "the solver failed";
    if (why == "unsupported") return "the model needs something the simulation does not support";
    if (why == "limit-exceeded") return "a resource limit was reached";
    return "the reason is not known to this report";
}

// ---- diagnostics ---------------------------------------------------------------

struct Counts {
    std::map<std::string, std::size_t> active, suppressed;
};

void count(const Json& diagnostics, Counts& c) {
    for (const Json& d : diagnostics) {
        std::string sev = string_of(d, "severity");
        const Json* s = member(d, "suppressed");
        bool sup = s && s->is_boolean() && s->get<bool>();
        ++(sup ? c.suppressed : c.active)[sev];
    }
}

std::string location_text(const Json& d) {
    std::string file = string_of(d, "file");
    const Json* line = member(d, "line");
    const Json* col = member(d, "column");
    if (file.empty() && !line) return "no source location";
    std::string loc = file.empty() ? "?" : file;
    if (line) loc += ":" + value_text(*line);
    if (line && col) loc += ":" + value_text(*col);
    return md::code(loc);
}

std::string finding_item(std::size_t n, const Json& d, bool suppressed) {
    std::string rule = string_of(d, "rule");
    std::string out = fmt::format("{}. **{}**{} {} at {}: {}\n", n, md::text(string_of(d, "severity")),
                                  suppressed ? " (suppressed)" : "", md::code(rule),
                                  location_text(d), md::text(string_of(d, "message")));
    for (const std::string& note : strings_of(d, "notes"))
        out += fmt::format("    - note: {}\n", md::text(note));
    if (!rule.empty())
        out += fmt::format("    - about the rule: {}\n", md::code("modeaudit explain " + rule));
    return out;
}

std::string findings_list(const Json& diagnostics) {
    std::string active, suppressed;
    std::size_t na = 0, ns = 0;
    for (const Json& d : diagnostics) {
        const Json* s = member(d, "suppressed");
        if (s && s->is_boolean() && s->get<bool>())
            suppressed += finding_item(++ns, d, true);
        else
            active += finding_item(++na, d, false);
    }
    std::string out = na ? active : "No findings.\n";
    if (ns) out += "\nSuppressed in the source (listed, not counted as findings):\n\n" + suppressed;
    return out;
}

// ---- sections --------------------------------------------------------------------

std::string model_file_of(const ReportInput& in) {
    if (!in.model_file.empty()) return in.model_file;
    std::string f = string_of(in.check, "file");
    if (!f.empty()) return f;
    for (const Json& d : array_of(in.check, "diagnostics")) {
        f = string_of(d, "file");
        if (!f.empty()) return f;
    }
    return "";
}

std::string model_name_of(const Json& check) {
    std::string m = string_of(check, "model");
    return m.empty() ? "(unnamed model)" : m;
}

std::string header_section(const ReportInput& in) {
    const Json& c = in.check;
    std::string out = fmt::format("# Audit report: {}\n\n", md::text(model_name_of(c)));
    out += fmt::format("- **Model:** {}\n", md::code(model_name_of(c)));
    std::string description = string_of(c, "description");
    if (!description.empty()) out += fmt::format("- **Description:** {}\n", md::text(description));
    std::string file = model_file_of(in);
    out += fmt::format("- **File:** {}\n", file.empty() ? std::string("not given") : md::code(file));
    if (const Json* tool = member(c, "tool"))
        out += fmt::format("- **Checked by:** {} {}\n", md::text(string_of(*tool, "name")),
                           md::text(string_of(*tool, "version")));
    std::vector<std::string> stages = strings_of(c, "stages_run");
    if (!stages.empty()) {
        std::vector<std::string> coded;
        for (const auto& s : stages) coded.push_back(md::code(s));
        out += fmt::format("- **Stages run:** {}\n", md::join(coded));
    }
    std::vector<std::string> unchecked = strings_of(c, "not_checked");
    if (!unchecked.empty()) {
        std::vector<std::string> coded;
        for (const auto& s : unchecked) coded.push_back(md::code(s));
        out += fmt::format("- **Not checked (stage not built yet):** {}\n", md::join(coded));
    }
    std::string missing = string_of(c, "not_implemented");
    if (!missing.empty())
        out += fmt::format("- **Not built yet:** stage {}; the sections that need it are "
                           "incomplete and say so\n",
                           md::code(missing));
    return out + "\n";
}

std::string graph_text(const ModeGraphPicture& g) {
    if (!g.image.empty())
        return fmt::format("![Mode graph: modes as boxes (the initial one with a double border), transitions as "
                           "arrows labelled with their number, verdict and guard]({})\n\n"
                           "The mode graph is drawn by Graphviz from {}; run {} in this folder to draw it again.\n\n",
                           g.image, md::code(g.source), md::code("dot -Tpng -Gdpi=300 -o " + g.image + " " + g.source));
    if (g.problem.empty()) return "";
    return with_period("No mode graph picture: " + md::text(g.problem)) + "\n\n";
}

// Analysed in independent parts (pipeline/factorised.h): no global modes.
bool factorised(const Json& check) {
    const Json* sc = member(check, "switching_clusters");
    return sc && sc->is_object() && member(*sc, "factorised");
}

std::string summary_section(const ReportInput& in, const Counts& counts, const ModeGraphPicture* graph) {
    const Json& modes = array_of(in.check, "modes");
    const Json& trs = array_of(in.check, "transitions");
    std::size_t total = 0, sup = 0;
    for (const auto& [k, n] : counts.active) total += n;
    for (const auto& [k, n] : counts.suppressed) sup += n;
    std::string out = "## Summary\n\n";
    if (factorised(in.check)) {
        const Json& clusters = array_of(in.check["switching_clusters"], "clusters");
        std::size_t local = 0, local_transitions = 0;
        for (const Json& c : clusters) {
            local += array_of(c, "modes").size();
            local_transitions += array_of(c, "transitions").size();
        }
        out += fmt::format("{} analysed on their own: {}, {}; {} ({} suppressed).\n\n",
                           plural(clusters.size(), "switching cluster", "switching clusters"),
                           plural(local, "local mode", "local modes"),
                           plural(local_transitions, "local transition", "local transitions"),
                           plural(total, "finding", "findings"), sup);
    } else {
        out += fmt::format("{}, {}; {} ({} suppressed).\n\n", plural(modes.size(), "mode", "modes"),
                           plural(trs.size(), "transition", "transitions"),
                           plural(total, "finding", "findings"), sup);
    }

    std::vector<std::vector<std::string>> rows;
    for (const Json& m : modes)
        rows.push_back({md::cell_code(string_of(m, "id")), md::text(member_text(m, "status", "not analysed")),
                        md::text(member_text(m, "equations")), md::text(member_text(m, "unknowns")),
                        md::text(member_text(m, "index")), md::text(member_text(m, "dof"))});
    if (!rows.empty())
        out += md::table({"Mode", "Status", "Equations", "Unknowns", "Index", "DOF"}, rows) + "\n";

    rows.clear();
    std::size_t k = 0;
    for (const Json& t : trs)
        rows.push_back({std::to_string(++k), md::cell_code(string_of(t, "from")),
                        md::cell_code(string_of(t, "to")), md::text(member_text(t, "trigger")),
                        md::text(member_text(t, "verdict", "not analysed"))});
    if (!rows.empty())
        out += md::table({"#", "From", "To", "Trigger", "Verdict"}, rows, {3, 30, 30, 8, 12}) + "\n";
    if (graph) out += graph_text(*graph);

    rows.clear();
    for (const char* sev : {"error", "warning", "note"})
        rows.push_back({sev, std::to_string(counts.active.count(sev) ? counts.active.at(sev) : 0),
                        std::to_string(counts.suppressed.count(sev) ? counts.suppressed.at(sev) : 0)});
    for (const auto& [sev, n] : counts.active)  // severities outside the three, if any
        if (sev != "error" && sev != "warning" && sev != "note")
            rows.push_back({md::text(sev.empty() ? "(none)" : sev), std::to_string(n),
                            std::to_string(counts.suppressed.count(sev) ? counts.suppressed.at(sev) : 0)});
    out += md::table({"Severity", "Findings", "Suppressed"}, rows) + "\n";
    return out;
}

// The significant digits the sensitivity rerun supports: the larger of the
// event shift relative to the end time and the final-value difference
// relative to the largest final value bounds the relative error, and its
// order of magnitude the digits worth showing (3..10); 6 without a rerun.
int supported_digits(const ReportInput& in) {
    if (!in.simulation) return 6;
    const Json* sens = member(*in.simulation, "sensitivity");
    if (!sens || !sens->is_object()) return 6;
    auto num = [&](const Json& j, const char* k) {
        const Json* m = member(j, k);
        return m && m->is_number() ? std::fabs(m->get<double>()) : 0.0;
    };
    double scale = 1;
    if (const Json* f = member(*in.simulation, "final"); f && f->is_object())
        for (const auto& [k, v] : f->items())
            if (v.is_number()) scale = std::max(scale, std::fabs(v.get<double>()));
    const double rel = std::max(num(*sens, "max_event_shift") / std::max(num(*in.simulation, "end_time"), 1e-300),
                                num(*sens, "max_final_difference") / scale);
    if (!(rel > 0)) return 10;
    return std::clamp(static_cast<int>(std::floor(-std::log10(rel))), 3, 10);
}

std::string numbers_sentence(const ReportInput& in) {
    const Json* sens = in.simulation ? member(*in.simulation, "sensitivity") : nullptr;
    if (!sens || !sens->is_object())
        return fmt::format("Numbers are shown to {} significant digits (no sensitivity rerun bounds them); the JSON "
                           "document keeps every digit.",
                           doc::significant_digits());
    return fmt::format("Numbers are shown to {} significant digits, what the sensitivity rerun (under Key "
                       "physics) supports; the JSON document keeps every digit.",
                       doc::significant_digits());
}

Json simulation_only(const ReportInput& in);  // the simulation's own findings (below)

// One finding on one line: severity, place, message, rule.
std::string finding_line(const Json& d) {
    return fmt::format("- **{}** at {}: {} ({})\n", md::text(string_of(d, "severity")), location_text(d),
                       md::text(string_of(d, "message")), md::code(string_of(d, "rule")));
}

// The first thing a reviewer reads: clean or not, each finding in one line
// with its place, the transitions' verdicts, how the simulation ended, and
// the precision of the numbers.
std::string verdict_section(const ReportInput& in, const Counts& counts) {
    std::string out = "## Verdict\n\n";
    std::size_t total = 0, sup = 0;
    for (const auto& [k, n] : counts.active) total += n;
    for (const auto& [k, n] : counts.suppressed) sup += n;
    auto n_of = [&](const char* sev) { return counts.active.count(sev) ? counts.active.at(sev) : 0; };
    if (total == 0) {
        out += "**Clean:** no findings";
    } else {
        std::vector<std::string> parts;
        for (const char* sev : {"error", "warning", "note"})
            if (n_of(sev)) parts.push_back(plural(n_of(sev), sev, (std::string(sev) + "s").c_str()));
        if (parts.empty()) parts.push_back(plural(total, "finding", "findings"));
        out += fmt::format("**{}:** {}", n_of("error") ? "Errors found" : "Findings", md::join(parts));
    }
    out += sup ? fmt::format(" ({} suppressed in the source, not counted).\n\n", sup) : std::string(".\n\n");
    std::string lines;
    for (const char* sev : {"error", "warning", "note"}) {
        auto add = [&](const Json& diags) {
            for (const Json& d : diags) {
                const Json* sp = member(d, "suppressed");
                if (string_of(d, "severity") == sev && !(sp && sp->is_boolean() && sp->get<bool>()))
                    lines += finding_line(d);
            }
        };
        add(array_of(in.check, "diagnostics"));
        if (in.simulation) add(simulation_only(in));
    }
    if (!lines.empty()) out += lines + "\n";

    std::map<std::string, std::size_t> verdicts;
    const Json& trs = array_of(in.check, "transitions");
    for (const Json& t : trs) ++verdicts[member_text(t, "verdict", "not analysed")];
    if (!trs.empty()) {
        std::vector<std::string> parts;
        for (const auto& [v, n] : verdicts) parts.push_back(fmt::format("{} {}", n, md::text(v)));
        out += fmt::format("- **Transitions:** {}: {}.\n", plural(trs.size(), "transition", "transitions"),
                           md::join(parts));
    }
    if (in.simulation) {
        const Json& s = *in.simulation;
        const std::string why = string_of(s, "stopped_because");
        out += fmt::format("- **Simulation:** to t = {} ({}), {}.\n", md::text(member_text(s, "end_time")),
                           stopped_sentence(why), plural(array_of(s, "events").size(), "event", "events"));
    } else {
        out += fmt::format("- **Simulation:** not run ({}).\n",
                           md::text(in.simulation_not_run.empty() ? "no simulation result" : in.simulation_not_run));
    }
    out += "- " + numbers_sentence(in) + "\n\n";
    return out;
}

std::string code_list(const std::vector<std::string>& items) {
    std::vector<std::string> coded;
    for (const auto& i : items) coded.push_back(md::code(i));
    return md::join(coded);
}

std::string values_table(const Json& before, const Json& after);

// ---- per mode: equations, signature matrix, regularity, invariants -----------------

// The printed signature matrix is cut to this many rows and columns (the
// JSON has all of it).
constexpr std::size_t kMatrixRows = 24;
constexpr std::size_t kMatrixCols = 10;
// The printed mode-change array is cut to this many rows.
constexpr std::size_t kArrayRows = 60;

std::string math_cell(const std::string& canonical) {
    std::string out(1, '$');
    out.append(tex::math(canonical));
    out.push_back('$');
    return out;
}

std::string equations_table(const Json& m) {
    const Json& eqs = array_of(m, "equations_text");
    if (eqs.empty()) return "";
    std::vector<std::vector<std::string>> rows;
    for (const Json& e : eqs) {
        std::string residual = string_of(e, "residual");
        rows.push_back({md::text(string_of(e, "name")), residual.empty() ? "n/a" : math_cell(residual + " = 0"),
                        md::text(member_text(e, "line", "")), md::text(string_of(e, "origin"))});
    }
    return "Active equations (each residual = 0, with the source line it comes from):\n\n" +
           md::table({"Row", "Equation", "Line", "From"}, rows, {5, 60, 5, 16}) + "\n";
}

std::string signature_table(const Json& m) {
    const Json* sig = member(m, "signature");
    if (!sig || !sig->is_object()) return "";
    std::vector<std::string> eqs = strings_of(*sig, "equations"), vars = strings_of(*sig, "variables");
    if (eqs.empty() || vars.empty()) return "";
    // sigma by (row, column) from the dense matrix or the sparse entries.
    std::map<std::pair<std::size_t, std::size_t>, long long> sigma;
    const Json& matrix = array_of(*sig, "matrix");
    for (std::size_t i = 0; i < matrix.size(); ++i)
        if (matrix[i].is_array())
            for (std::size_t j = 0; j < matrix[i].size(); ++j)
                if (matrix[i][j].is_number_integer()) sigma[{i, j}] = matrix[i][j].get<long long>();
    for (const Json& e : array_of(*sig, "entries"))
        if (e.is_array() && e.size() == 3 && e[0].is_number_integer() && e[1].is_number_integer() &&
            e[2].is_number_integer() && e[0].get<long long>() >= 0 && e[1].get<long long>() >= 0)
            sigma[{e[0].get<std::size_t>(), e[1].get<std::size_t>()}] = e[2].get<long long>();
    const Json& c = array_of(*sig, "c");
    const Json& d = array_of(*sig, "d");
    const Json& hvt = array_of(*sig, "transversal");
    const bool offsets = c.size() == eqs.size() && d.size() == vars.size();
    std::size_t nr = std::min(eqs.size(), kMatrixRows), nc = std::min(vars.size(), kMatrixCols);

    std::vector<std::string> header = {"$\\Sigma$"};
    for (std::size_t j = 0; j < nc; ++j) header.push_back("$" + tex::name(vars[j]) + "$");
    if (offsets) header.push_back("$c_i$");
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < nr; ++i) {
        std::vector<std::string> row = {md::text(eqs[i])};
        for (std::size_t j = 0; j < nc; ++j) {
            auto it = sigma.find({i, j});
            if (it == sigma.end()) {
                row.push_back("–");
                continue;
            }
            bool on_hvt = i < hvt.size() && hvt[i].is_number_integer() && hvt[i].get<long long>() == static_cast<long long>(j);
            row.push_back(on_hvt ? "**" + std::to_string(it->second) + "**" : std::to_string(it->second));
        }
        if (offsets) row.push_back(md::text(value_text(c[i])));
        rows.push_back(row);
    }
    if (offsets) {
        std::vector<std::string> last = {"$d_j$"};
        for (std::size_t j = 0; j < nc; ++j) last.push_back(md::text(value_text(d[j])));
        last.push_back("");
        rows.push_back(last);
    }
    std::string out = "Signature matrix $\\Sigma$ (entry: the highest derivative order of the variable in the "
                      "equation; – for none, $-\\infty$)";
    out += offsets ? ", with the offsets $c_i$ (how often each equation is differentiated) and $d_j$ (the highest "
                     "order of each variable); bold entries form the highest-value transversal, where "
                     "$d_j - c_i = \\sigma_{ij}$:\n\n"
                   : "; no offsets (the mode has no finite transversal):\n\n";
    out += md::table(header, rows) + "\n";
    if (nr < eqs.size() || nc < vars.size())
        out += fmt::format("The matrix is {} × {}; the first {} rows and {} columns are shown; the report's JSON "
                           "has all of it (the mode's `signature`).\n\n",
                           eqs.size(), vars.size(), nr, nc);
    std::string cert = string_of(*sig, "certificate");
    if (!cert.empty())
        out += with_period(cert == "holds" ? "Certificate of the offsets (checked independently of the solver): "
                                             "holds, $d_j - c_i \\ge \\sigma_{ij}$ everywhere with equality on the "
                                             "transversal"
                                           : "Certificate of the offsets FAILED: " + md::text(cert)) +
               "\n\n";
    return out;
}

std::string regularity_line(const Json& m) {
    const Json* r = member(m, "regularity");
    if (!r || !r->is_object()) return "";
    std::string note = string_of(*r, "note");
    const Json* checked = member(*r, "checked");
    if (!checked || !checked->is_boolean() || !checked->get<bool>())
        return fmt::format("- **Regularity:** not checked{}\n",
                           note.empty() ? std::string() : " (" + md::text(note) + ")");
    const Json* exact = member(*r, "exact");
    const Json* constant = member(*r, "constant");
    const Json* cond = member(*r, "condition");
    const Json* scaled = member(*r, "scaled_condition");
    const Json* conclusive = member(*r, "conclusive");
    bool inconclusive = conclusive && conclusive->is_boolean() && !conclusive->get<bool>();
    std::string out = fmt::format(
        "- **Regularity:** Jacobian of the index-reduced system has rank {} of {} ({}{}{}), condition {}{}",
        md::text(member_text(*r, "rank")), md::text(member_text(*r, "size")),
        exact && exact->is_boolean() && exact->get<bool>() ? "exact" : "floating point",
        constant && constant->is_boolean() && constant->get<bool>() ? ", constant" : "",
        inconclusive ? ", at a point that is not consistent: inconclusive" : "",
        cond && cond->is_number() ? fmt::format("{:.3g}", cond->get<double>()) : std::string("infinite (singular)"),
        scaled && scaled->is_number() ? fmt::format(" ({:.3g} equilibrated)", scaled->get<double>()) : std::string());
    if (!note.empty()) out += "; " + md::text(note);
    out += "\n";
    for (const std::string& dep : strings_of(*r, "dependencies")) out += fmt::format("    - {}\n", md::text(dep));
    return out;
}

std::string mode_invariants(const Json& m) {
    const Json& inv = array_of(m, "invariants");
    if (inv.empty()) return "";
    std::vector<std::vector<std::string>> rows;
    for (const Json& i : inv)
        rows.push_back({md::cell_code(string_of(i, "name")), md::cell_code(member_text(i, "rate")),
                        md::text(member_text(i, "status")), md::cell_code(member_text(i, "residual", ""))});
    return "Declared quantities in this mode (verification stage):\n\n" +
           md::table({"Quantity", "Rate d/dt", "Status", "Residual"}, rows, {10, 30, 8, 30}) + "\n";
}

// ---- per transition: array, matching, restart at the left limits, verification ------

std::string array_section(const Json& t) {
    const Json* a = member(t, "array");
    if (!a || !a->is_object())
        return "#### Mode-change array\n\nThe document gives no mode-change array for this transition (its "
               "restart was not derived from one).\n\n";
    std::map<std::string, std::string> matched;  // equation -> variable
    for (const Json& p : array_of(*a, "matching"))
        if (p.is_array() && p.size() == 2 && p[0].is_string() && p[1].is_string())
            matched[p[0].get<std::string>()] = p[1].get<std::string>();
    const Json& rows_in = array_of(*a, "rows");
    std::string out = fmt::format("#### Mode-change array\n\nRoute {}, height $K = {}$: the completed new-mode "
                                  "equations at the instants $0..K$ of the event ($x_{{[k]}}$ is $x$ at instant $k$), "
                                  "closed by Euler identities. "
                                  "Enabled rows must match the dependent variables one to one; disabled rows are "
                                  "left out of the matching; facts hold already and are removed.\n\n",
                                  md::text(string_of(*a, "route")), md::text(member_text(*a, "height")));
    std::string role = string_of(*a, "role");
    if (role == "restart") out += "The restart system above comes from this array.\n\n";
    if (role == "diagnosis") out += "The verdict is diagnosed on this array.\n\n";
    std::vector<std::vector<std::string>> rows;
    std::size_t enabled = 0, disabled = 0, facts = 0;
    for (const Json& r : rows_in) {
        std::string st = string_of(r, "status");
        enabled += st == "enabled";
        disabled += st == "disabled";
        facts += st == "fact";
        if (rows.size() >= kArrayRows) continue;
        std::string eq = string_of(r, "equation");
        auto it = matched.find(eq);
        std::string residual = string_of(r, "residual");
        rows.push_back({md::cell_code(eq), md::text(string_of(r, "kind")), md::text(member_text(r, "instant")),
                        md::text(st), residual.empty() ? "" : math_cell(residual + " = 0"),
                        it == matched.end() ? "" : md::cell_code(it->second)});
    }
    out += md::table({"Row", "Kind", "Instant", "Status", "Equation", "Matched to"}, rows, {16, 6, 8, 8, 40, 14}) + "\n";
    out += fmt::format("{} enabled, {} disabled, {}.", plural(enabled, "row", "rows"), disabled,
                       plural(facts, "fact", "facts"));
    if (rows_in.size() > rows.size())
        out += fmt::format(" The first {} of {} rows are shown; the report's JSON has all (the transition's `array`).",
                           rows.size(), rows_in.size());
    out += "\n\n";
    const Json* ok = member(*a, "matched");
    if (ok && ok->is_boolean() && !ok->get<bool>())
        out += with_period("The array has no perfect matching: " + md::text(string_of(*a, "why_not_matched"))) +
               "\n\n";
    if (const Json* off = member(*a, "offsets"); off && off->is_object()) {
        std::vector<std::string> items;
        for (auto it = off->begin(); it != off->end(); ++it)
            items.push_back(fmt::format("{} = {}", md::code(it.key()), md::text(value_text(*it))));
        out += fmt::format("Rescaling offsets (Z3, re-checked): {}.\n\n",
                           items.empty() ? std::string("every variable has offset 0 (nothing is impulsive)")
                                         : "impulsive variables " + md::join(items) + ", all others 0");
    }
    return out;
}

// The simulated restart steps through a transition: how many, and the
// first one with its event's time.
struct TakenSteps {
    std::size_t n = 0;
    const Json* first = nullptr;
    std::string first_time;
};

TakenSteps taken_steps(const Json& t, const ReportInput& in) {
    TakenSteps r;
    if (!in.simulation) return r;
    std::string from = string_of(t, "from"), to = string_of(t, "to");
    // The restart steps (a cascade's steps each; documents without "steps"
    // list one step per event).
    for (const Json& e : array_of(*in.simulation, "events")) {
        const Json& steps = array_of(e, "steps");
        if (steps.empty()) {
            if (string_of(e, "from") == from && string_of(e, "to") == to && ++r.n == 1) {
                r.first = &e;
                r.first_time = member_text(e, "time");
            }
            continue;
        }
        for (const Json& st : steps)
            if (string_of(st, "from") == from && string_of(st, "to") == to && ++r.n == 1) {
                r.first = &st;
                r.first_time = member_text(e, "time");
            }
    }
    return r;
}

std::string left_limits_section(const Json& t, const ReportInput& in) {
    std::string out = "#### Restart at the simulated left limits\n\n";
    if (!in.simulation) return out + "Not simulated (see the simulation section).\n\n";
    TakenSteps taken = taken_steps(t, in);
    const std::size_t n = taken.n;
    const Json* first = taken.first;
    const std::string first_time = taken.first_time;
    if (!first) return out + "The simulation did not take this transition.\n\n";
    out += fmt::format("At the first of {} (t = {}), the left limits and the values the restart gave:\n\n",
                       plural(n, "event of this transition", "events of this transition"), md::text(first_time));
    const Json* b = member(*first, "before");
    const Json* a = member(*first, "after");
    return out + values_table(b ? *b : Json::object(), a ? *a : Json::object()) + "\n";
}

std::string verification_section(const Json& t, bool verified) {
    std::string out = "#### Conservation and admissibility\n\n";
    if (!verified) return out + "Not checked (the verification stage is not built yet).\n\n";
    const Json* v = member(t, "verification");
    if (!v || !v->is_object())
        return out + "The document gives no verification details beyond the conserved quantities listed above.\n\n";
    const Json& inv = array_of(*v, "invariants");
    if (!inv.empty()) {
        std::vector<std::vector<std::string>> rows;
        for (const Json& i : inv)
            rows.push_back({md::cell_code(string_of(i, "name")), md::cell_code(member_text(i, "expression")),
                            md::text(member_text(i, "kind")), md::text(member_text(i, "status")),
                            md::text(member_text(i, "before", "")), md::text(member_text(i, "after", "")),
                            md::text(member(i, "jump") && member(i, "jump")->is_number()
                                         ? doc::estimate_text(member(i, "jump")->get<double>())
                                         : std::string())});
        out += md::table({"Quantity", "Expression", "Kind", "Status", "Before", "After", "Jump"}, rows,
                         {8, 20, 13, 8, 16, 16, 9}) +
               "\n";
    } else {
        out += "No declared or discovered quantity to check.\n\n";
    }
    const Json& adm = array_of(*v, "admissibility");
    if (!adm.empty()) {
        std::vector<std::vector<std::string>> rows;
        for (const Json& a : adm)
            rows.push_back({md::cell_code(string_of(a, "condition")), md::text(member_text(a, "status")),
                            md::text(member_text(a, "value", ""))});
        out += "Admissibility after the restart:\n\n" + md::table({"Condition", "Status", "Value"}, rows) + "\n";
    }
    if (const Json* law = member(*v, "impact_law"); law && law->is_object()) {
        out += fmt::format("Impact law: **{}**", md::text(member_text(*law, "status")));
        std::string msg = string_of(*law, "message");
        if (!msg.empty()) out += ": " + md::text(msg);
        const Json& range = array_of(*law, "range");
        if (range.size() == 2)
            out += fmt::format(" (admissible range {} to {})", md::text(value_text(range[0])),
                               md::text(value_text(range[1])));
        out = with_period(out) + "\n\n";
    }
    return out;
}

// Several switching clusters (modes/clusters.h): the product of their local
// modes as a number, and a row per cluster. Absent for one cluster.
std::string clusters_text(const Json& check) {
    const Json* sc = member(check, "switching_clusters");
    if (!sc || !sc->is_object()) return "";
    const Json& clusters = array_of(*sc, "clusters");
    const Json* global = member(*sc, "global_modes");
    const Json* log10 = member(*sc, "global_modes_log10");
    const bool complete = !member(*sc, "complete") || (*sc)["complete"].get<bool>();
    std::string product = global && global->is_number() ? number_text(global->get<double>())
                          : log10 && log10->is_number()
                              ? fmt::format("10^{}", number_text(log10->get<double>()))
                              : "n/a";
    std::string out = "### Switching clusters\n\n";
    out += fmt::format("The mode variables form {} independent switching clusters; their local modes combine to "
                       "{}{} global modes. Each cluster's local modes were explored on their own.\n\n",
                       clusters.size(), complete ? "" : "at least ", md::text(product));
    std::vector<std::vector<std::string>> rows;
    std::size_t k = 0;
    for (const Json& c : clusters) {
        std::vector<std::string> names = strings_of(c, "mode_variables");
        const bool done = !member(c, "complete") || c["complete"].get<bool>();
        rows.push_back({std::to_string(++k), code_list(names),
                        (done ? "" : "at least ") + md::text(member_text(c, "local_modes"))});
    }
    return out + md::table({"Cluster", "Mode variables", "Local modes"}, rows) + "\n";
}

// A factorised analysis (pipeline/factorised.h): each cluster's local modes
// and transitions, one table each, instead of the global modes.
std::string factorised_clusters_text(const Json& check) {
    const Json* sc = member(check, "switching_clusters");
    std::string out = clusters_text(check);
    out += "The global modes were not enumerated: the clusters share no variable, so each one was analysed on its "
           "own, and a global mode is a choice of one local mode per cluster.\n\n";
    std::size_t k = 0;
    for (const Json& c : array_of(*sc, "clusters")) {
        ++k;
        std::vector<std::vector<std::string>> rows;
        for (const Json& m : array_of(c, "modes"))
            rows.push_back({md::cell_code(string_of(m, "id")), md::text(member_text(m, "status", "not analysed")),
                            md::text(member_text(m, "index")),
                            member(m, "states") ? code_list(strings_of(m, "states")) : "n/a"});
        out += fmt::format("#### Cluster {}: local modes\n\n", k);
        out += md::table({"Mode", "Status", "Index", "States"}, rows) + "\n";
        const Json& trs = array_of(c, "transitions");
        if (trs.empty()) continue;
        rows.clear();
        for (const Json& t : trs)
            rows.push_back({md::cell_code(string_of(t, "from")), md::cell_code(string_of(t, "to")),
                            md::text(member_text(t, "trigger")), md::cell_code(string_of(t, "guard")),
                            md::text(member_text(t, "verdict", "not analysed"))});
        out += fmt::format("Cluster {}: transitions\n\n", k);
        out += md::table({"From", "To", "Trigger", "Guard", "Restart"}, rows) + "\n";
    }
    return out;
}

std::string modes_section(const Json& check) {
    const Json& modes = array_of(check, "modes");
    std::string out = "## Modes\n\n";
    if (modes.empty() && factorised(check)) return out + factorised_clusters_text(check);
    if (modes.empty()) return out + "No modes were found (the analysis stopped before).\n\n";
    out += clusters_text(check);
    for (const Json& m : modes) {
        out += fmt::format("### Mode {}\n\n", md::code(string_of(m, "id")));
        out += fmt::format("- **Status:** {}\n", md::text(member_text(m, "status", "not analysed")));
        out += fmt::format("- **Equations / unknowns:** {} / {}\n", md::text(member_text(m, "equations")),
                           md::text(member_text(m, "unknowns")));
        out += fmt::format("- **Index:** {}; **degrees of freedom:** {}\n",
                           md::text(member_text(m, "index")), md::text(member_text(m, "dof")));
        out += fmt::format("- **States:** {}\n",
                           member(m, "states") ? code_list(strings_of(m, "states")) : "n/a");
        std::vector<std::string> cons = strings_of(m, "consistency");
        if (!member(m, "consistency"))
            out += "- **Consistency conditions:** n/a\n";
        else if (cons.empty())
            out += "- **Consistency conditions:** none\n";
        else {
            out += "- **Consistency conditions** (each = 0):\n";
            for (const auto& c : cons) out += fmt::format("    - {}\n", md::code(c));
        }
        out += regularity_line(m) + "\n";
        out += equations_table(m) + signature_table(m) + mode_invariants(m);
    }
    return out;
}

// The standard-tool comparison: a sentence, or an object whose members are
// listed in document order.
std::string standard_tool_text(const Json& st) {
    if (st.is_string()) return md::text(st.get<std::string>());
    if (!st.is_object()) return md::text(value_text(st));
    std::string out;
    for (auto it = st.begin(); it != st.end(); ++it) {
        std::string v;
        if (it->is_array()) {
            std::vector<std::string> items;
            for (const Json& e : *it) items.push_back(md::code(value_text(e)));
            v = md::join(items);
        } else {
            v = md::text(value_text(*it));
        }
        out += fmt::format("\n    - {}: {}", md::text(it.key()), v);
    }
    return out;
}

std::string transitions_section(const ReportInput& in) {
    const Json& check = in.check;
    const Json& trs = array_of(check, "transitions");
    std::string out = "## Transitions\n\n";
    if (trs.empty()) return out + "The model has no transitions.\n\n";
    std::vector<std::string> not_checked = strings_of(check, "not_checked");
    const bool verified = std::find(not_checked.begin(), not_checked.end(), "verification") == not_checked.end();
    // A transition the simulation did not take and whose restart needs no
    // review (continuous, or a supplied reset that checks out) is one row of
    // one table; every other transition gets its own section.
    std::vector<std::vector<std::string>> quiet;
    std::vector<bool> in_table(trs.size(), false);
    for (std::size_t i = 0; i < trs.size(); ++i) {
        const Json& t = trs[i];
        const std::string verdict = string_of(t, "verdict");
        if (!in.simulation || taken_steps(t, in).n > 0 || (verdict != "continuous" && verdict != "supplied")) continue;
        in_table[i] = true;
        const std::string guard = string_of(t, "guard");
        quiet.push_back({std::to_string(i + 1), md::cell_code(string_of(t, "from")), md::cell_code(string_of(t, "to")),
                         guard.empty() ? md::text(member_text(t, "trigger")) : md::cell_code(guard), md::text(verdict),
                         verified ? md::text(md::join(strings_of(t, "conserved"), "none")) : std::string("not checked")});
    }
    if (!quiet.empty())
        out += fmt::format("{} the simulation did not take, with a restart that needs no review (their "
                           "restart systems and mode-change arrays are in the JSON document):\n\n",
                           plural(quiet.size(), "transition", "transitions")) +
               md::table({"#", "From", "To", "Guard", "Verdict", "Conserved"}, quiet, {3, 27, 27, 12, 10, 21}) + "\n";
    std::size_t k = 0;
    for (const Json& t : trs) {
        if (in_table[k++]) continue;
        out += fmt::format("### Transition {}: {} to {}\n\n", k, md::code(string_of(t, "from")),
                           md::code(string_of(t, "to")));
        std::string trigger = string_of(t, "trigger");
        std::string guard = string_of(t, "guard");
        out += fmt::format("- **Trigger:** {}{}\n",
                           trigger == "state"  ? std::string("state event")
                           : trigger == "time" ? std::string("time event")
                                               : md::text(trigger.empty() ? "n/a" : trigger),
                           guard.empty() ? std::string() : ", guard " + md::code(guard));
        std::string verdict = string_of(t, "verdict");
        if (verdict.empty()) {
            out += "- **Verdict:** not analysed (the transition analysis did not run)\n\n";
            continue;
        }
        out += fmt::format("- **Verdict:** **{}**: {}\n", md::text(verdict), verdict_sentence(verdict));
        if (const Json* io = member(t, "impulse_orders"); io && io->is_object() && !io->empty()) {
            std::vector<std::string> items;
            for (auto it = io->begin(); it != io->end(); ++it)
                items.push_back(fmt::format("{} of order {}", md::code(it.key()), md::text(value_text(*it))));
            out += fmt::format("- **Impulse orders:** {}\n", md::join(items));
        } else {
            out += "- **Impulse orders:** none (no impulsive variable)\n";
        }
        out += fmt::format("- **Undetermined values:** {}\n", code_list(strings_of(t, "undetermined")));
        out += fmt::format("- **Conserved quantities:** {}\n",
                           verified ? code_list(strings_of(t, "conserved"))
                                    : std::string("not checked (the verification stage is not built yet)"));
        if (const Json* st = member(t, "standard_tool"))
            out += fmt::format("- **What a standard Modelica tool does:** {}\n", standard_tool_text(*st));
        std::vector<std::string> restart = strings_of(t, "restart");
        if (restart.empty()) {
            out += "- **Restart system:** none given\n\n";
        } else {
            out += "- **Restart system:**\n\n" + md::code_block(restart) + "\n";
        }
        out += array_section(t) + left_limits_section(t, in) + verification_section(t, verified);
    }
    return out;
}

std::string values_table(const Json& before, const Json& after) {
    std::vector<std::string> names;  // union, in order of first appearance
    std::map<std::string, bool> seen;
    for (const Json* side : {&before, &after})
        if (side->is_object())
            for (auto it = side->begin(); it != side->end(); ++it)
                if (!seen[it.key()]) {
                    seen[it.key()] = true;
                    names.push_back(it.key());
                }
    std::vector<std::vector<std::string>> rows;
    for (const std::string& n : names) {
        const Json* b = before.is_object() && before.contains(n) ? &before[n] : nullptr;
        const Json* a = after.is_object() && after.contains(n) ? &after[n] : nullptr;
        bool changed = b && a && *b != *a;
        rows.push_back({md::cell_code(n), b ? md::text(value_text(*b)) : "n/a",
                        a ? md::text(value_text(*a)) : "n/a", changed ? "changes" : ""});
    }
    return md::table({"Variable", "Before (left limit)", "After the restart", "Change"}, rows, {14, 20, 20, 8});
}

std::string plots_text(const PlotPlan* plots, const std::string& problem) {
    std::string out;
    if (plots && !plots->figures.empty()) {
        std::string events;
        // Every event time up to ten; beyond, the first and the last (a
        // model of 200 switching cells would repeat 200 times per figure).
        const std::vector<double>& times = plots->event_times;
        if (!times.empty() && times.size() <= 10) {
            std::vector<std::string> ts;
            for (double t : times) ts.push_back(number_text(t));
            events = fmt::format("; dashed vertical lines mark the events at t = {}", md::join(ts));
        } else if (!times.empty()) {
            events = fmt::format("; dashed vertical lines mark the {} events, from t = {} to t = {}", times.size(),
                                 number_text(times.front()), number_text(times.back()));
        }
        for (const PlotFigure& f : plots->figures) {
            out += fmt::format("![{} over time{}]({})\n\n", md::text(f.title), events, f.image);
            // What a generated column is, and the units: the legends in words.
            std::vector<std::string> explained;
            for (std::size_t i = 0; i < f.variables.size() && i < f.legends.size(); ++i)
                if (f.legends[i] != f.variables[i]) explained.push_back(md::text(f.legends[i]));
            std::string list;
            for (const std::string& e : explained) list += (list.empty() ? "" : "; ") + e;
            if (!list.empty()) out += "Curves: " + list + ".\n\n";
        }
        if (!plots->not_drawn.empty())
            out += fmt::format("Not drawn, to keep the report short (they are columns of {}): {}.\n\n",
                               md::code(plots->data_file), md::text(md::join(plots->not_drawn)));
        out += fmt::format("The pictures are drawn by {} from {}; run {} in this folder to "
                           "draw them again.\n\n",
                           md::code(plots->script_file), md::code(plots->data_file),
                           md::code("gnuplot " + plots->script_file));
    } else if (!problem.empty()) {
        out += with_period("No plots: " + md::text(problem)) + "\n\n";
    }
    return out;
}

// The simulation document's findings that the check document does not hold
// already: when both come from one run (the `report` command), the check
// document lists every finding and these are counted once.
Json simulation_only(const ReportInput& in) {
    Json out = Json::array();
    if (!in.simulation) return out;
    const Json& known = array_of(in.check, "diagnostics");
    for (const Json& d : array_of(*in.simulation, "diagnostics"))
        if (std::find(known.begin(), known.end(), d) == known.end()) out.push_back(d);
    return out;
}

std::string simulation_section(const ReportInput& in, const PlotPlan* plots,
                               const std::string& plot_problem) {
    std::string out = "## Simulation\n\n";
    if (!in.simulation) {
        std::string reason =
            in.simulation_not_run.empty() ? "no simulation result was given" : in.simulation_not_run;
        out += with_period("The simulation was not run: " + md::text(reason)) + "\n\n";
        return out + plots_text(plots, plot_problem);
    }
    const Json& s = *in.simulation;
    std::string why = string_of(s, "stopped_because");
    out += fmt::format("Simulated up to t = {} (stop time {}); it stopped because {} ({}).\n\n",
                       md::text(member_text(s, "end_time")), md::text(member_text(s, "stop_time")),
                       stopped_sentence(why), md::code(why.empty() ? "n/a" : why));

    const Json& events = array_of(s, "events");
    out += "### Events\n\n";
    if (events.empty()) {
        out += "No events occurred.\n\n";
    } else {
        std::vector<std::vector<std::string>> rows;
        std::size_t k = 0;
        for (const Json& e : events)
            rows.push_back({std::to_string(++k), md::text(member_text(e, "time")),
                            md::cell_code(string_of(e, "from")), md::cell_code(string_of(e, "to")),
                            md::text(member_text(e, "verdict"))});
        out += md::table({"#", "Time", "From", "To", "Verdict"}, rows, {3, 22, 26, 26, 12}) + "\n";
        k = 0;
        for (const Json& e : events) {
            out += fmt::format("#### Event {} at t = {}: {} to {}\n\n", ++k,
                               md::text(member_text(e, "time")), md::code(string_of(e, "from")),
                               md::code(string_of(e, "to")));
            const Json& steps = array_of(e, "steps");
            if (steps.size() <= 1) {
                const Json* b = member(e, "before");
                const Json* a = member(e, "after");
                out += values_table(b ? *b : Json::object(), a ? *a : Json::object()) + "\n";
                continue;
            }
            // A cascade: each restart implied the next at the same instant.
            out += fmt::format("A cascade of {} restarts at one instant: each restart's values make the next "
                               "guard fire (the event iteration, Modelica 3.6 section 8.6).\n\n",
                               steps.size());
            std::size_t i = 0;
            for (const Json& st : steps) {
                std::vector<std::string> guards;
                for (const Json& g : array_of(st, "guards"))
                    if (g.is_string()) guards.push_back(md::code(g.get<std::string>()));
                out += fmt::format("Step {}: {} to {} ({}){}\n\n", ++i, md::code(string_of(st, "from")),
                                   md::code(string_of(st, "to")), md::text(member_text(st, "verdict")),
                                   guards.empty() ? std::string() : ", guards " + md::join(guards));
                const Json* b = member(st, "before");
                const Json* a = member(st, "after");
                out += values_table(b ? *b : Json::object(), a ? *a : Json::object()) + "\n";
            }
        }
    }
    if (const Json* fin = member(s, "final"); fin && fin->is_object()) {
        out += fmt::format("### Final values at t = {}\n\n", md::text(member_text(s, "end_time")));
        std::vector<std::vector<std::string>> rows;
        for (auto it = fin->begin(); it != fin->end(); ++it)
            rows.push_back({md::cell_code(it.key()), md::text(value_text(*it))});
        out += md::table({"Variable", "Value"}, rows) + "\n";
    }
    if (const std::string stats = run_statistics_table(s); !stats.empty()) out += "### Run statistics\n\n" + stats;
    out += "### Trajectories\n\n" + plots_text(plots, plot_problem);
    const Json diags = simulation_only(in);
    if (!diags.empty()) out += "### Findings of the simulation\n\n" + findings_list(diags) + "\n";
    return out;
}

std::string now_utc(const ReportOptions& options) {
    if (!options.timestamp.empty()) return options.timestamp;
    std::time_t t = std::time(nullptr);
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch) {
        char* end = nullptr;
        long long v = std::strtoll(epoch, &end, 10);
        if (end && *end == '\0') t = static_cast<std::time_t>(v);
    }
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// Deterministic: in every report, reproducible or not.
std::string provenance(const ReportInput& in, const ReportOptions& options) {
    std::string version = options.tool_version.empty() ? MODEAUDIT_VERSION : options.tool_version;
    std::string out = "---\n\n*Provenance:* report by modeaudit " + md::text(version);
    if (!options.library_versions.empty()) out += " (" + md::text(options.library_versions) + ")";
    std::string file = model_file_of(in);
    if (!file.empty() || !in.model_sha256.empty()) {
        out += "; input " + (file.empty() ? std::string("(unnamed)") : md::code(file));
        if (!in.model_sha256.empty()) out += ", SHA-256 " + md::code(in.model_sha256);
    }
    return out + ".\n\n";
}

std::string footer(const ReportOptions& options) {
    std::string version = options.tool_version.empty() ? MODEAUDIT_VERSION : options.tool_version;
    std::string out;
    out += fmt::format("*Footer, differs between runs (`--reproducible` leaves it out):* generated "
                       "{} by modeaudit {}",
                       md::text(now_utc(options)), md::text(version));
    if (!options.command_line.empty()) out += "; command " + md::code(options.command_line);
    return out + ".\n";
}

// ---- files --------------------------------------------------------------------------


}  // namespace

std::string report_file_base(const Json& check) {
    std::string name = string_of(check, "model");
    std::string out;
    bool changed = false;
    for (char c : name) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-' || c == '.';
        out += ok ? c : '_';
        changed = changed || !ok;
    }
    if (out.empty() || out.front() == '.' || out.front() == '-') {
        changed = changed || !name.empty();
        out = "report" + out;
    }
    // Two names that differ only in replaced characters ('Модель' and
    // 'Машина') must not share a file: a changed name gets a short hash of
    // the original.
    if (changed) out += "-" + sha256_hex(name).substr(0, 8);
    // A file name has at most 255 bytes (NAME_MAX on Linux's file systems)
    // and a legal Modelica name has no bound: a long stem is cut so that the
    // longest file, stem + "_trajectories.csv" and pandoc's temporaries,
    // still fits, and the cut name keeps the hash of the whole name.
    if (out.size() > kMaxReportFileBase)
        out = out.substr(0, kMaxReportFileBase - 9) + "-" + sha256_hex(name).substr(0, 8);
    return out;
}

std::string render_report_json(const ReportInput& input) {
    Json j = input.check.is_object() ? input.check : Json::object();
    if (input.simulation) {
        j["simulation"] = *input.simulation;
    } else {
        j["simulation"] = nullptr;
        j["simulation_not_run"] =
            input.simulation_not_run.empty() ? "no simulation result was given" : input.simulation_not_run;
    }
    return json_document(j);
}

std::string render_markdown(const ReportInput& input, const ReportOptions& options,
                            const PlotPlan* plots, const std::string& plot_problem,
                            const ModeGraphPicture* graph) {
    Counts counts;
    count(array_of(input.check, "diagnostics"), counts);
    if (input.simulation) count(simulation_only(input), counts);

    doc::set_significant_digits(supported_digits(input));
    std::string out = header_section(input);
    out += verdict_section(input, counts);
    out += key_physics_section(input);
    out += summary_section(input, counts, graph);
    out += modes_section(input.check);
    out += transitions_section(input);
    out += "## Findings\n\n" + findings_list(array_of(input.check, "diagnostics")) + "\n";
    out += simulation_section(input, plots, plot_problem);
    out += provenance(input, options);
    if (!options.reproducible) out += footer(options);
    while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
    return out;
}

int write_report(const ReportInput& input, const ReportOptions& options, std::ostream& err,
                 ReportFiles* files) {
    namespace fs = std::filesystem;
    ReportFiles written;
    int status = 0;
    // Every file is made in a staging folder inside the output folder and
    // renamed into place once all are made, so a run killed midway leaves
    // the previous report's files, never a truncated one (gnuplot and
    // pandoc write their outputs in the staging folder too). A staging
    // folder left by a killed run is removed by the next run.
    const fs::path& final_dir = options.output_dir;
    if (std::string why = planted_link_problem(final_dir); !why.empty()) {
        err << fmt::format("modeaudit: error: the report folder: {}\n", why);
        return 2;
    }
    std::error_code ec;
    fs::create_directories(final_dir, ec);
    if (ec || !fs::is_directory(final_dir, ec)) {
        err << fmt::format("modeaudit: error: cannot create the report folder '{}': {}\n",
                           final_dir.string(), ec ? ec.message() : "not a directory");
        return 2;
    }
    // A fresh private staging folder per run (mkdtemp): two runs into one
    // folder never share one, and a path planted under the name is never
    // used. It is removed at the end, whatever happens.
    std::string staging_error;
    const std::optional<fs::path> staging = make_staging_folder(final_dir, kReportStagingFolder, staging_error);
    if (!staging) {
        err << fmt::format("modeaudit: error: {}\n", staging_error);
        return 2;
    }
    const fs::path dir = *staging;
    struct RemoveStaging {
        fs::path folder;
        ~RemoveStaging() { remove_staging_folder(folder); }
    } remove_staging{dir};
    auto write = [&](const std::string& name, const std::string& text) -> bool {
        std::string why;
        if (write_file_atomically(dir / name, text, &why)) return true;
        err << fmt::format("modeaudit: error: cannot write '{}': {}\n", (final_dir / name).string(), why);
        status = 2;
        return false;
    };
    const std::string base = report_file_base(input.check);

    if (write(base + ".json", render_report_json(input))) written.json = dir / (base + ".json");

    std::optional<PlotPlan> plan;
    std::string plot_problem;
    if (input.trajectories_csv) {
        std::string error;
        std::optional<Trajectories> data = parse_trajectories(*input.trajectories_csv, error);
        if (!data) {
            plot_problem = "the trajectories could not be read (" + error + ")";
            err << fmt::format("modeaudit: error: {}\n", plot_problem);
            status = 2;
        } else {
            plan = plan_plots(base, *data, input.check, input.simulation ? &*input.simulation : nullptr,
                              options.plot_groups);
            bool ok = write(plan->data_file, *input.trajectories_csv) &&
                      write(plan->script_file, escape_bidi_characters(plan->script));
            if (ok) {
                written.plot_data = dir / plan->data_file;
                written.plot_script = dir / plan->script_file;
            }
            if (!ok) {
                plot_problem = "the plot data could not be written";
            } else if (plan->figures.empty()) {
                plot_problem = "the trajectories hold no variable to plot";
            } else if (!options.plots) {
                plot_problem = fmt::format("drawing was turned off; run gnuplot {} in this folder",
                                           plan->script_file);
            } else {
                for (const PlotFigure& f : plan->figures) fs::remove(dir / f.image, ec);
                ProcessOptions po;
                po.working_dir = dir;
                po.timeout_seconds = options.timeout_seconds;
                ProcessResult r = run_process({options.gnuplot, plan->script_file}, po);
                std::string missing;
                for (const PlotFigure& f : plan->figures)
                    if (!fs::exists(dir / f.image)) missing += (missing.empty() ? "" : ", ") + f.image;
                if (!r.succeeded() || !missing.empty()) {
                    plot_problem = fmt::format("gnuplot ('{}') {}", options.gnuplot,
                                               r.succeeded() ? "did not draw " + missing : r.describe());
                    err << fmt::format("modeaudit: error: cannot draw the plots: {}; install gnuplot "
                                       "(Debian: gnuplot-nox){}\n",
                                       plot_problem,
                                       r.output.empty() ? std::string() : "\n" + r.output);
                    status = 2;
                } else {
                    for (const PlotFigure& f : plan->figures) written.plots.push_back(dir / f.image);
                }
            }
        }
    } else if (input.simulation) {
        plot_problem = "the simulation gave no trajectories";
    }

    // The mode graph: the DOT source always (when there are modes), the
    // picture through Graphviz; a missing or failing dot is handled like a
    // missing gnuplot (an error, exit 2, the other files still written).
    std::optional<ModeGraphPicture> graph;
    {
        std::string why;
        std::optional<std::string> dot = mode_graph_dot(input.check, why);
        if (dot) {
            graph.emplace();
            const std::string source = base + "_modes.dot", image = base + "_modes.png";
            fs::remove(dir / image, ec);
            if (!write(source, escape_bidi_characters(*dot))) {
                graph->problem = "the DOT source could not be written";
            } else {
                graph->source = source;
                written.mode_graph_source = dir / source;
                if (!options.plots) {
                    graph->problem = fmt::format("drawing was turned off; run dot -Tpng -Gdpi=300 -o {} {} in this folder",
                                                 image, source);
                } else {
                    ProcessOptions po;
                    po.working_dir = dir;
                    po.timeout_seconds = options.timeout_seconds;
                    ProcessResult r = run_process({options.dot, "-Tpng", "-Gdpi=300", "-o", image, source}, po);
                    if (r.succeeded() && fs::exists(dir / image)) {
                        graph->image = image;
                        written.mode_graph = dir / image;
                    } else {
                        graph->problem = fmt::format("Graphviz dot ('{}') {}; the DOT source is {}", options.dot,
                                                     r.succeeded() ? "did not draw " + image : r.describe(), source);
                        err << fmt::format("modeaudit: error: cannot draw the mode graph: {}; install Graphviz "
                                           "(Debian: graphviz){}\n",
                                           graph->problem, r.output.empty() ? std::string() : "\n" + r.output);
                        status = 2;
                    }
                }
            }
        } else if (!array_of(input.check, "modes").empty()) {
            graph.emplace();
            graph->problem = why;
        }
    }

    bool drawn = plan && !plan->figures.empty() && plot_problem.empty();
    // The model's bidirectional format characters shown as escapes
    // (common/text_sanitize.h), in the Markdown and so in the PDF.
    std::string markdown = escape_bidi_characters(render_markdown(input, options, drawn ? &*plan : nullptr,
                                                                  plot_problem, graph ? &*graph : nullptr));
    bool md_ok = write(base + ".md", markdown);
    if (md_ok) written.markdown = dir / (base + ".md");

    if (options.pdf && md_ok) {
        PdfOptions po;
        po.pandoc = options.pandoc;
        po.pdf_engine = options.pdf_engine;
        po.reproducible = options.reproducible;
        po.timeout_seconds = options.timeout_seconds;
        if (build_pdf(dir, base + ".md", markdown, base + ".pdf", po, err))
            written.pdf = dir / (base + ".pdf");
        else
            status = 2;
    }
    // Into place: the data first, the Markdown last. Nothing is placed
    // unless the Markdown and the JSON were made (a full disk leaves the
    // previous report as it was). An old PDF or old pictures that this run
    // could not remake are removed rather than left looking current.
    if (written.markdown.empty() || written.json.empty()) {
        err << fmt::format("modeaudit: error: the report was not completed; the previous report in '{}' is left "
                           "as it was\n",
                           final_dir.string());
        if (files) *files = ReportFiles{};
        return 2;
    }
    // One run places its files at a time (a lock on the folder itself, so
    // nothing is created for it): two runs into one folder both succeed, and
    // the folder holds one run's complete set.
    FolderLock lock(final_dir);
    if (!lock.held()) {
        err << fmt::format("modeaudit: error: cannot place the report: {}; the previous report is left as it was\n",
                           lock.problem());
        if (files) *files = ReportFiles{};
        return 2;
    }
    std::vector<fs::path> stale;  // destinations this run removes
    if (written.pdf.empty()) stale.push_back(final_dir / (base + ".pdf"));
    if (written.plots.empty() && plan)
        for (const PlotFigure& f : plan->figures) stale.push_back(final_dir / f.image);
    if (written.mode_graph.empty() && graph) stale.push_back(final_dir / (base + "_modes.png"));
    std::vector<fs::path*> moving = {&written.plot_data, &written.plot_script};
    for (fs::path& p : written.plots) moving.push_back(&p);
    for (fs::path* p : {&written.mode_graph_source, &written.mode_graph, &written.json, &written.pdf, &written.markdown})
        moving.push_back(p);
    // Only regular files are replaced or removed: a planted link, a device
    // or a folder under one of the names stops the placing before anything
    // is moved.
    std::vector<fs::path> targets = stale;
    for (const fs::path* p : moving)
        if (!p->empty()) targets.push_back(final_dir / p->filename());
    for (const fs::path& t : targets)
        if (std::string why = destination_problem(t); !why.empty()) {
            err << fmt::format("modeaudit: error: cannot place the report: {}; the previous report is left as it "
                               "was\n",
                               why);
            if (files) *files = ReportFiles{};
            return 2;
        }
    for (const fs::path& t : stale) fs::remove(t, ec);
    for (fs::path* p : moving) {
        if (p->empty()) continue;
        fs::path to = final_dir / p->filename();
        fs::rename(*p, to, ec);
        if (ec) {
            err << fmt::format("modeaudit: error: cannot move '{}' into place: {}\n", to.string(), ec.message());
            status = 2;
            p->clear();
            continue;
        }
        *p = to;
    }
    if (files) *files = std::move(written);
    return status;
}

}  // namespace modeaudit
