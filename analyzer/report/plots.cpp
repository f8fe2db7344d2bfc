#include "report/plots.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <set>

namespace modeaudit {

namespace {

// One CSV line's fields (RFC 4180): a field in double quotes may hold
// commas, and "" inside it is one quote; unquoted fields are trimmed.
std::vector<std::string> split_fields(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false, was_quoted = false;
    auto end_field = [&] {
        if (!was_quoted) {
            auto b = cur.find_first_not_of(" \t");
            auto e = cur.find_last_not_of(" \t");
            cur = b == std::string::npos ? std::string() : cur.substr(b, e - b + 1);
        }
        out.push_back(cur);
        cur.clear();
        was_quoted = false;
    };
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cur += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cur += c;
            }
        } else if (c == '"' && cur.find_first_not_of(" \t") == std::string::npos) {
            quoted = was_quoted = true;
            cur.clear();
        } else if (c == ',') {
            end_field();
        } else if (c != '\r') {
            if (!was_quoted) cur += c;
        }
    }
    end_field();
    return out;
}

// A gnuplot single-quoted string: only '' is special inside it, and no
// backquote is run. Text that starts with a quote would begin with '' (the
// "same file" token) and is given as "'" . 'the rest' instead (found by
// tests/robustness/report_injection.py: a quoted identifier's name).
std::string gp_string(const std::string& s) {
    if (!s.empty() && s.front() == '\'') return "\"'\" . " + gp_string(s.substr(1));
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out += "''";
        else if (c == '\n' || c == '\r') out += ' ';
        else out += c;
    }
    return out + "'";
}

std::string prefix_of(const std::string& name) {
    auto dot = name.rfind('.');
    return dot == std::string::npos ? std::string() : name.substr(0, dot);
}

std::vector<std::string> states_of(const Json& check) {
    std::vector<std::string> out;
    std::set<std::string> seen;
    auto add_modes = [&](const Json& modes) {
        if (!modes.is_array()) return;
        for (const Json& m : modes) {
            if (!m.is_object() || !m.contains("states") || !m["states"].is_array()) continue;
            for (const Json& s : m["states"])
                if (s.is_string() && seen.insert(s.get<std::string>()).second) out.push_back(s.get<std::string>());
        }
    };
    if (!check.is_object()) return out;
    if (check.contains("modes")) add_modes(check["modes"]);
    // A model analysed in independent parts: its clusters' local modes and
    // those of the part that cannot switch.
    const Json* clusters = check.contains("switching_clusters") ? &check["switching_clusters"] : nullptr;
    if (clusters && clusters->is_object()) {
        if (clusters->contains("clusters") && (*clusters)["clusters"].is_array())
            for (const Json& c : (*clusters)["clusters"])
                if (c.is_object() && c.contains("modes")) add_modes(c["modes"]);
        if (clusters->contains("unswitched") && (*clusters)["unswitched"].is_object() &&
            (*clusters)["unswitched"].contains("modes"))
            add_modes((*clusters)["unswitched"]["modes"]);
    }
    return out;
}

// The names of the declared quantities (the modes' `invariants`, and the
// transitions' verified invariants that are not discovered ones).
std::set<std::string> declared_quantities(const Json& check) {
    std::set<std::string> out;
    if (!check.is_object() || !check.contains("modes") || !check["modes"].is_array()) return out;
    for (const Json& m : check["modes"]) {
        if (!m.is_object() || !m.contains("invariants") || !m["invariants"].is_array()) continue;
        for (const Json& q : m["invariants"])
            if (q.is_object() && q.contains("name") && q["name"].is_string()) out.insert(q["name"].get<std::string>());
    }
    // Quantities declared only with a law at events (atEvents).
    if (check.contains("transitions") && check["transitions"].is_array())
        for (const Json& t : check["transitions"]) {
            if (!t.is_object() || !t.contains("verification") || !t["verification"].is_object()) continue;
            const Json& v = t["verification"];
            if (!v.contains("invariants") || !v["invariants"].is_array()) continue;
            for (const Json& q : v["invariants"])
                if (q.is_object() && q.contains("name") && q["name"].is_string() && q.contains("kind") &&
                    q["kind"].is_string() && q["kind"].get<std::string>().find("discovered") == std::string::npos)
                    out.insert(q["name"].get<std::string>());
        }
    return out;
}

// The guard texts of the transitions that fired in the simulation.
std::set<std::string> fired_guards(const Json* simulation) {
    std::set<std::string> out;
    if (!simulation || !simulation->is_object() || !simulation->contains("events") || !(*simulation)["events"].is_array())
        return out;
    auto add = [&](const Json& e) {
        if (e.is_object() && e.contains("guards") && e["guards"].is_array())
            for (const Json& g : e["guards"])
                if (g.is_string()) out.insert(g.get<std::string>());
    };
    for (const Json& e : (*simulation)["events"]) {
        add(e);
        if (e.is_object() && e.contains("steps") && e["steps"].is_array())
            for (const Json& st : e["steps"]) add(st);
    }
    return out;
}

constexpr std::size_t kCurvesPerFigure = 4;

// Chunks `names` (CSV order) by component prefix, at most four each.
std::vector<std::vector<std::string>> chunk_by_prefix(const std::vector<std::string>& names) {
    std::vector<std::string> prefixes;  // in order of first appearance
    std::map<std::string, std::vector<std::string>> by_prefix;
    for (const std::string& n : names) {
        std::string p = prefix_of(n);
        if (!by_prefix.count(p)) prefixes.push_back(p);
        by_prefix[p].push_back(n);
    }
    std::vector<std::vector<std::string>> out;
    for (const std::string& p : prefixes) {
        const auto& members = by_prefix[p];
        for (std::size_t i = 0; i < members.size(); i += kCurvesPerFigure)
            out.emplace_back(members.begin() + static_cast<std::ptrdiff_t>(i),
                             members.begin() + static_cast<std::ptrdiff_t>(
                                                   std::min(members.size(), i + kCurvesPerFigure)));
    }
    return out;
}

}  // namespace

std::optional<Trajectories> parse_trajectories(const std::string& csv, std::string& error) {
    Trajectories t;
    std::size_t pos = 0, line_no = 0;
    while (pos <= csv.size()) {
        auto nl = csv.find('\n', pos);
        std::string line = csv.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        pos = nl == std::string::npos ? csv.size() + 1 : nl + 1;
        ++line_no;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        std::vector<std::string> fields = split_fields(line);
        if (t.columns.empty()) {
            if (fields[0] != "time") {
                error = fmt::format("line {}: the header must start with 'time', not '{}'", line_no,
                                    fields[0]);
                return std::nullopt;
            }
            std::set<std::string> seen;
            for (const std::string& f : fields) {
                if (f.empty() || !seen.insert(f).second) {
                    error = fmt::format("line {}: empty or repeated column name '{}'", line_no, f);
                    return std::nullopt;
                }
            }
            t.columns = fields;
            continue;
        }
        if (fields.size() != t.columns.size()) {
            error = fmt::format("line {}: {} fields, the header has {}", line_no, fields.size(),
                                t.columns.size());
            return std::nullopt;
        }
        std::vector<double> row;
        for (const std::string& f : fields) {
            char* end = nullptr;
            errno = 0;
            double v = std::strtod(f.c_str(), &end);
            if (f.empty() || end != f.c_str() + f.size()) {
                error = fmt::format("line {}: '{}' is not a number", line_no, f);
                return std::nullopt;
            }
            row.push_back(v);
        }
        t.rows.push_back(std::move(row));
    }
    if (t.columns.empty()) {
        error = "no header line";
        return std::nullopt;
    }
    return t;
}

PlotPlan plan_plots(const std::string& file_base, const Trajectories& data, const Json& check,
                    const Json* simulation, const std::vector<std::vector<std::string>>& groups) {
    PlotPlan plan;
    plan.data_file = file_base + "_trajectories.csv";
    plan.script_file = file_base + "_plots.gp";

    if (simulation && simulation->contains("events") && (*simulation)["events"].is_array())
        for (const Json& e : (*simulation)["events"])
            if (e.is_object() && e.contains("time") && e["time"].is_number())
                plan.event_times.push_back(e["time"].get<double>());

    std::map<std::string, std::size_t> column_of;  // 1-based gnuplot column
    for (std::size_t i = 1; i < data.columns.size(); ++i) column_of[data.columns[i]] = i + 1;

    std::vector<std::pair<std::string, std::vector<std::string>>> chosen;  // (kind, variables)
    if (!groups.empty()) {
        for (const auto& g : groups) {
            std::vector<std::string> present;
            for (const std::string& v : g)
                if (column_of.count(v)) present.push_back(v);
            if (!present.empty()) chosen.emplace_back("Variables", present);
        }
    } else {
        std::vector<std::string> states = states_of(check);
        std::set<std::string> state_set(states.begin(), states.end());
        std::vector<std::string> state_cols, other_cols;
        for (std::size_t i = 1; i < data.columns.size(); ++i)
            (state_set.count(data.columns[i]) ? state_cols : other_cols).push_back(data.columns[i]);
        // A model with hundreds of transitions or components would give
        // pages of pictures: each kind has at most a few figures (states at
        // most 8), the rest stays in the CSV and the report says how many.
        auto draw_at_most = [&](const char* kind, const std::vector<std::string>& names, std::size_t max,
                                const char* what) {
            std::vector<std::vector<std::string>> figures = chunk_by_prefix(names);
            std::size_t left_out = 0;
            for (std::size_t f = 0; f < figures.size(); ++f) {
                if (f < max) chosen.emplace_back(kind, figures[f]);
                else left_out += figures[f].size();
            }
            if (left_out) plan.not_drawn.push_back(fmt::format("{} {}", left_out, what));
        };
        draw_at_most("States", state_cols, 8, "states");
        // The other columns by what they are (the report's CSV: solved
        // variables, guard(N), margin(N), residual(consistency)).
        std::set<std::string> declared = declared_quantities(check);
        const char* kinds[] = {"Declared quantities", "Solved variables", "Guards", "Assert margins",
                               "Constraint residual"};
        std::map<std::string, std::vector<std::string>> by_kind;
        for (const std::string& c : other_cols) {
            const char* kind = c.starts_with("guard(")      ? kinds[2]
                               : c.starts_with("margin(")   ? kinds[3]
                               : c.starts_with("residual(") ? kinds[4]
                               : declared.count(c)          ? kinds[0]
                                                            : kinds[1];
            by_kind[kind].push_back(c);
        }
        // Guards of the transitions the simulation took first (their texts
        // in the events' `guards`), then the others.
        std::set<std::string> fired = fired_guards(simulation);
        const Json* described_cols = simulation && simulation->is_object() && simulation->contains("sampled_columns")
                                         ? &(*simulation)["sampled_columns"]
                                         : nullptr;
        std::stable_partition(by_kind[kinds[2]].begin(), by_kind[kinds[2]].end(), [&](const std::string& c) {
            return described_cols && described_cols->is_object() && described_cols->contains(c) &&
                   (*described_cols)[c].is_string() && fired.count((*described_cols)[c].get<std::string>());
        });
        const std::size_t max_figures[] = {2, 3, 2, 2, 1};
        const char* what[] = {"declared quantities", "solved variables", "guards", "assert margins", "residuals"};
        for (std::size_t k = 0; k < std::size(kinds); ++k)
            draw_at_most(kinds[k], by_kind[kinds[k]], max_figures[k], what[k]);
    }
    const Json* units = check.is_object() && check.contains("units") && check["units"].is_object() ? &check["units"]
                                                                                                 : nullptr;
    const Json* described = simulation && simulation->is_object() && simulation->contains("sampled_columns") &&
                                    (*simulation)["sampled_columns"].is_object()
                                ? &(*simulation)["sampled_columns"]
                                : nullptr;
    // A curve's legend: the name, its declared unit, what a generated
    // column is ("guard(1): x^2 + y^2 - 1").
    auto legend_of = [&](const std::string& v) {
        std::string out = v;
        if (units && units->contains(v) && (*units)[v].is_string()) out += " [" + (*units)[v].get<std::string>() + "]";
        if (described && described->contains(v) && (*described)[v].is_string())
            out += ": " + (*described)[v].get<std::string>();
        return out;
    };

    std::string s;
    s += "# gnuplot script written by modeaudit report; regenerate the pictures with\n";
    s += fmt::format("#   gnuplot {}\n", plan.script_file);
    s += fmt::format("# in this folder. Data: {} (header line skipped).\n", plan.data_file);
    s += "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n";
    s += "    set terminal pngcairo size 1600,1000 font \",22\" linewidth 2 noenhanced\n";
    s += "} else {\n";
    s += "    set terminal png size 1600,1000 noenhanced\n";
    s += "}\n";
    s += "set datafile separator \",\"\n";
    s += "set xlabel 'time'\n";
    s += "set grid\n";
    s += "set offsets graph 0, 0, 0.05, 0.05  # keep curves off the top and bottom edges\n";
    s += "set key below  # legends may be long (a guard's text, an assert's message)\n";
    s += "# events: dashed vertical lines\n";
    for (double t : plan.event_times)
        s += fmt::format("set arrow from {}, graph 0 to {}, graph 1 nohead dashtype 2 lc rgb 'gray40'\n",
                         format_double(t), format_double(t));

    std::size_t k = 0;
    for (const auto& [kind, vars] : chosen) {
        PlotFigure f;
        f.image = fmt::format("{}_plot_{}.png", file_base, ++k);
        f.variables = vars;
        for (const std::string& v : vars) f.legends.push_back(legend_of(v));
        std::string names;
        for (const std::string& v : vars) names += (names.empty() ? "" : ", ") + v;
        f.title = kind + " " + names;
        s += fmt::format("\nset output {}\n", gp_string(f.image));
        s += fmt::format("set title {}\n", gp_string(f.title));
        // Guards and margins change sign where something happens: zero drawn.
        s += kind == std::string("Guards") || kind == std::string("Assert margins") ? "set xzeroaxis lt -1\n"
                                                                                    : "unset xzeroaxis\n";
        s += "plot ";
        for (std::size_t i = 0; i < vars.size(); ++i) {
            s += fmt::format("{}{} skip 1 using 1:{} with lines title {}", i ? ", \\\n     " : "",
                             i ? "''" : gp_string(plan.data_file), column_of[vars[i]],
                             gp_string(f.legends[i]));
        }
        s += "\n";
        plan.figures.push_back(std::move(f));
    }
    s += "\nunset output\n";
    plan.script = std::move(s);
    return plan;
}

}  // namespace modeaudit
