#include "report/key_physics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "report/document_text.h"
#include "report/markdown.h"

namespace modeaudit {

namespace {

using doc::array_of;
using doc::member;
using doc::member_text;
using doc::number_text;
using doc::plural;
using doc::string_of;
using doc::strings_of;

// Rows of the first page's tables at most; the JSON has every row.
constexpr std::size_t kRestartRows = 10;
constexpr std::size_t kQuantityRows = 12;
constexpr std::size_t kSignRows = 10;
constexpr std::size_t kSegmentRows = 12;
// Modes named in one "along the flow" line at most.
constexpr std::size_t kModesNamed = 4;

std::string cut_sentence(std::size_t shown, std::size_t total, const char* what) {
    if (shown >= total) return "";
    return fmt::format("The first {} of {} {} are shown; the report's JSON has all of them.\n\n", shown, total, what);
}

// The restart steps of the simulation: a cascade's steps each (with its
// event's time), otherwise the event itself.
struct Restart {
    std::size_t event = 0;  // 1-based event number
    const Json* step = nullptr;
    std::string time;
};

std::vector<Restart> restarts_of(const Json& simulation) {
    std::vector<Restart> out;
    std::size_t k = 0;
    for (const Json& e : array_of(simulation, "events")) {
        ++k;
        const Json& steps = array_of(e, "steps");
        if (steps.empty()) {
            out.push_back({k, &e, member_text(e, "time")});
            continue;
        }
        for (const Json& st : steps) out.push_back({k, &st, member_text(e, "time")});
    }
    return out;
}

// The states of a mode (check document), by id.
std::set<std::string> states_of_mode(const Json& check, const std::string& id) {
    std::set<std::string> out;
    for (const Json& m : array_of(check, "modes"))
        if (string_of(m, "id") == id)
            for (const std::string& s : strings_of(m, "states")) out.insert(s);
    return out;
}

// The states of either mode whose shown value changed at the restart:
// "vx 2 → 0.8". A change below the report's precision is no change.
std::string state_jumps(const Json& check, const Json& step) {
    std::set<std::string> states = states_of_mode(check, string_of(step, "from"));
    for (const std::string& s : states_of_mode(check, string_of(step, "to"))) states.insert(s);
    const Json* before = member(step, "before");
    const Json* after = member(step, "after");
    if (!before || !after || !before->is_object() || !after->is_object()) return "n/a";
    std::vector<std::string> jumps;
    for (auto it = before->begin(); it != before->end(); ++it) {
        if (!states.count(it.key()) || !it->is_number()) continue;
        auto a = after->find(it.key());
        if (a == after->end() || !a->is_number()) continue;
        std::string b_text = number_text(it->get<double>()), a_text = number_text(a->get<double>());
        if (b_text != a_text) jumps.push_back(md::code(it.key()) + " " + md::text(b_text) + " → " + md::text(a_text));
    }
    return jumps.empty() ? std::string("none") : md::join(jumps, "none");
}

std::string impulsive_variables(const Json& check, const Json& step) {
    const std::string from = string_of(step, "from"), to = string_of(step, "to");
    for (const Json& t : array_of(check, "transitions")) {
        if (string_of(t, "from") != from || string_of(t, "to") != to) continue;
        const Json* io = member(t, "impulse_orders");
        if (!io || !io->is_object() || io->empty()) return "";
        // The magnitude the simulation measured, where finite: the name's
        // quantity before its instant (lambda@1 -> lambda).
        const Json* magnitudes = member(step, "impulses");
        std::vector<std::string> names, bases;
        for (auto it = io->begin(); it != io->end(); ++it) {
            const std::string base = it.key().substr(0, it.key().rfind('@'));
            if (std::find(bases.begin(), bases.end(), base) != bases.end()) continue;
            bases.push_back(base);
            std::string shown = md::code(base);
            if (magnitudes && magnitudes->is_object())
                if (auto m = magnitudes->find(base); m != magnitudes->end() && m->is_number())
                    shown += " = " + md::text(number_text(m->get<double>()));
            names.push_back(shown);
        }
        return md::join(names);
    }
    return "";
}

std::string restarts_part(const ReportInput& in, const std::vector<Restart>& restarts) {
    if (restarts.empty()) return "- **Restarts:** none; no event occurred in the simulated time.\n\n";
    std::vector<std::vector<std::string>> rows;
    bool any_impulsive = false;
    for (const Restart& r : restarts) {
        if (rows.size() >= kRestartRows) break;
        const Json& st = *r.step;
        std::string impulsive = impulsive_variables(in.check, st);
        any_impulsive = any_impulsive || !impulsive.empty();
        rows.push_back({std::to_string(r.event), md::text(r.time),
                        md::cell_code(string_of(st, "from")) + " → " + md::cell_code(string_of(st, "to")),
                        md::text(member_text(st, "verdict")), impulsive.empty() ? "none" : impulsive,
                        state_jumps(in.check, st)});
    }
    std::string out = fmt::format(
        "**Restarts** ({}): the impulsive variables (Dirac terms at the event, if any) with the impulse "
        "each carries where it is finite (the variable's integral over the event), and the states whose value "
        "changed, left limit → value after the restart{}.\n\n",
        plural(restarts.size(), "restart step", "restart steps"),
        any_impulsive ? "; with unit mass, a velocity jump is the impulse per unit mass" : "");
    out += md::table({"Event", "t", "Mode change", "Verdict", "Impulsive", "State jumps"}, rows,
                     {5, 16, 29, 10, 12, 28}) +
           "\n";
    return out + cut_sentence(rows.size(), restarts.size(), "restart steps");
}

std::string status_text(const std::string& s) { return s == "not-evaluated" ? "not evaluated" : s; }

// A change is a difference of two rounded values: two significant digits.
std::string change_text(const Json& q) {
    const Json* j = member(q, "jump");
    return j && j->is_number() ? doc::estimate_text(j->get<double>()) : std::string();
}

std::string quantities_part(const std::vector<Restart>& restarts) {
    std::vector<std::vector<std::string>> rows;
    std::size_t total = 0;
    for (const Restart& r : restarts) {
        const Json* v = member(*r.step, "verification");
        if (!v) continue;
        for (const Json& q : array_of(*v, "invariants")) {
            ++total;
            if (rows.size() >= kQuantityRows) continue;
            rows.push_back({std::to_string(r.event), md::cell_code(string_of(q, "name")),
                            md::text(member_text(q, "kind")), md::text(member_text(q, "before", "")),
                            md::text(member_text(q, "after", "")), md::text(change_text(q)),
                            md::text(status_text(member_text(q, "status")))});
        }
    }
    if (total == 0) return "";
    std::string out = "**Quantities at the restarts** (declared in the model or discovered as conserved; "
                      "change = after − before):\n\n";
    out += md::table({"Event", "Quantity", "Kind", "Before", "After", "Change", "Status"}, rows,
                     {5, 14, 16, 16, 16, 12, 9}) +
           "\n";
    return out + cut_sentence(rows.size(), total, "rows");
}

// The declared rates per quantity: "`E`: d/dt = `0` holds in `a`, `b`".
std::string flow_part(const Json& check) {
    struct Key {
        std::string name, rate, status;
        bool operator<(const Key& o) const {
            return std::tie(name, rate, status) < std::tie(o.name, o.rate, o.status);
        }
    };
    std::map<Key, std::vector<std::string>> modes;
    std::vector<Key> order;
    for (const Json& m : array_of(check, "modes"))
        for (const Json& q : array_of(m, "invariants")) {
            Key k{string_of(q, "name"), member_text(q, "rate", ""), status_text(member_text(q, "status"))};
            if (!modes.count(k)) order.push_back(k);
            modes[k].push_back(string_of(m, "id"));
        }
    if (order.empty()) return "";
    std::string out = "**Along the flow** (the declared rates, checked in every mode):\n\n";
    for (const Key& k : order) {
        const std::vector<std::string>& ids = modes[k];
        std::vector<std::string> named;
        for (std::size_t i = 0; i < ids.size() && i < kModesNamed; ++i) named.push_back(md::code(ids[i]));
        if (ids.size() > kModesNamed) named.push_back(fmt::format("{} more", ids.size() - kModesNamed));
        out += fmt::format("- {}: d/dt = {} **{}** in {}\n", md::code(k.name),
                           k.rate.empty() ? std::string("n/a") : md::code(k.rate), md::text(k.status),
                           plural(ids.size(), "mode", "modes") + " (" + md::join(named) + ")");
    }
    return out + "\n";
}

// Admissibility signs: the asserts checked along each mode segment (their
// smallest margin) and the sign conditions checked right after each
// restart (their smallest value). A margin >= 0 holds.
std::string signs_part(const ReportInput& in, const std::vector<Restart>& restarts) {
    struct Sign {
        std::string where;
        double min = HUGE_VAL;
        std::size_t checks = 0;
        bool violated = false, evaluated = false;
    };
    std::map<std::string, std::string> message_of;  // condition -> its message (check document)
    for (const Json& t : array_of(in.check, "transitions"))
        if (const Json* v = member(t, "verification"))
            for (const Json& a : array_of(*v, "admissibility"))
                if (!string_of(a, "message").empty())
                    message_of[string_of(a, "condition")] = string_of(a, "message");
    std::vector<std::pair<std::string, Sign>> signs;
    auto find = [&](const std::string& label, const char* where) -> Sign& {
        for (auto& [l, s] : signs)
            if (l == label && s.where == where) return s;
        signs.push_back({label, Sign{where}});
        return signs.back().second;
    };
    for (const Json& seg : array_of(*in.simulation, "segments"))
        for (const Json& a : array_of(seg, "asserts")) {
            Sign& s = find(md::text(string_of(a, "message")), "along the modes");
            ++s.checks;
            const Json* v = member(a, "violated");
            s.violated = s.violated || (v && v->is_boolean() && v->get<bool>());
            if (const Json* m = member(a, "min_margin"); m && m->is_number()) {
                s.min = std::min(s.min, m->get<double>());
                s.evaluated = true;
            }
        }
    for (const Restart& r : restarts) {
        const Json* v = member(*r.step, "verification");
        if (!v) continue;
        for (const Json& a : array_of(*v, "admissibility")) {
            const std::string cond = string_of(a, "condition");
            auto msg = message_of.find(cond);
            std::string label = md::cell_code(cond);
            if (msg != message_of.end()) label += " (" + md::text(msg->second) + ")";
            Sign& s = find(label, "after the restarts");
            ++s.checks;
            s.violated = s.violated || string_of(a, "status") == "violated";
            if (const Json* m = member(a, "value"); m && m->is_number()) {
                s.min = std::min(s.min, m->get<double>());
                s.evaluated = true;
            }
        }
    }
    if (signs.empty()) return "";
    std::vector<std::vector<std::string>> rows;
    for (const auto& [label, s] : signs) {
        if (rows.size() >= kSignRows) break;
        rows.push_back({label, fmt::format("{} ({})", s.where, s.checks),
                        s.evaluated ? md::text(number_text(s.min)) : std::string("not evaluated"),
                        s.violated ? "**violated**" : s.evaluated ? "holds" : "not evaluated"});
    }
    std::string out = "**Admissibility signs** (an assert's margin along the modes, a sign condition's value right "
                      "after the restarts; the smallest over the checks counted, ≥ 0 holds):\n\n";
    out += md::table({"Sign", "Checked (times)", "Minimum", "Status"}, rows, {46, 24, 16, 14}) + "\n";
    return out + cut_sentence(rows.size(), signs.size(), "signs");
}

std::string sensitivity_part(const Json& simulation) {
    const Json* sens = member(simulation, "sensitivity");
    if (!sens || !sens->is_object())
        return "- **Sensitivity:** no rerun at a tighter tolerance; the numbers are not bounded by one.\n";
    const Json* same = member(*sens, "same_events");
    const bool same_events = same && same->is_boolean() && same->get<bool>();
    return fmt::format("- **Sensitivity:** rerun at rtol {}: {}; event times moved by at most {} s, final values by "
                       "at most {}.\n",
                       md::text(member_text(*sens, "rtol")),
                       same_events ? "the same events in the same order"
                                   : "**different events** (number, order or stop reason)",
                       md::text(doc::estimate_text(doc::number_of(*sens, "max_event_shift", NAN))),
                       md::text(doc::estimate_text(doc::number_of(*sens, "max_final_difference", NAN))));
}

}  // namespace

std::string key_physics_section(const ReportInput& in) {
    std::string out = "## Key physics\n\n";
    if (!in.simulation) {
        out += "The simulation was not run, so no restart was taken; the transitions' static results are under "
               "Transitions.\n\n";
        return out + flow_part(in.check);
    }
    const Json& s = *in.simulation;
    const std::vector<Restart> restarts = restarts_of(s);
    out += restarts_part(in, restarts);
    out += quantities_part(restarts);
    out += flow_part(in.check);
    out += signs_part(in, restarts);
    out += sensitivity_part(s);
    const std::string totals = run_totals_line(s);
    if (!totals.empty()) out += "- **Run:** " + totals + " (per mode segment under Simulation).\n";
    return out + "\n";
}

std::string run_totals_line(const Json& simulation) {
    const Json& segs = array_of(simulation, "segments");
    if (segs.empty()) return "";
    long long steps = 0, points = 0, rhs = 0, jac = 0;
    bool have_rhs = false, have_jac = false;
    double drift = 0;
    bool have_drift = false;
    for (const Json& g : segs) {
        // A segment of a mode without states is not integrated: its steps
        // are the output points at which its equations were solved.
        const Json* algebraic = member(g, "algebraic");
        (algebraic && algebraic->is_boolean() && algebraic->get<bool>() ? points : steps) +=
            static_cast<long long>(doc::number_of(g, "steps", 0));
        if (const Json* m = member(g, "rhs_evaluations"); m && m->is_number()) {
            rhs += m->get<long long>();
            have_rhs = true;
        }
        if (const Json* m = member(g, "jacobian_evaluations"); m && m->is_number()) {
            jac += m->get<long long>();
            have_jac = true;
        }
        if (const Json* m = member(g, "max_constraint_drift"); m && m->is_number()) {
            drift = std::max(drift, m->get<double>());
            have_drift = true;
        }
    }
    std::string out = fmt::format("{}, {}", plural(segs.size(), "mode segment", "mode segments"),
                                  plural(static_cast<std::size_t>(steps), "integration step", "integration steps"));
    if (points > 0)
        out += fmt::format(", {} solved in modes without states",
                           plural(static_cast<std::size_t>(points), "output point", "output points"));
    out += ", " + plural(array_of(simulation, "events").size(), "event", "events");
    if (have_rhs) out += fmt::format(", {} right-hand sides", rhs);
    if (have_jac) out += fmt::format(", {}", plural(static_cast<std::size_t>(jac), "Jacobian", "Jacobians"));
    if (have_drift) out += fmt::format("; largest constraint drift {}", md::text(doc::estimate_text(drift)));
    return out;
}

std::string run_statistics_table(const Json& simulation) {
    const Json& segs = array_of(simulation, "segments");
    if (segs.empty()) return "";
    std::vector<std::vector<std::string>> rows;
    std::size_t k = 0;
    bool marked = false;
    for (const Json& g : segs) {
        ++k;
        if (rows.size() >= kSegmentRows) break;
        const Json* drift = member(g, "max_constraint_drift");
        const Json* algebraic = member(g, "algebraic");
        const bool points = algebraic && algebraic->is_boolean() && algebraic->get<bool>();
        marked = marked || points;
        rows.push_back({std::to_string(k), md::cell_code(string_of(g, "mode")), md::text(member_text(g, "begin")),
                        md::text(member_text(g, "end")), md::text(member_text(g, "steps")) + (points ? "\\*" : ""),
                        md::text(member_text(g, "rhs_evaluations")), md::text(member_text(g, "jacobian_evaluations")),
                        drift && drift->is_number() ? md::text(doc::estimate_text(drift->get<double>())) : "n/a"});
    }
    std::string out = "Run statistics per mode segment (drift: the largest residual of the mode's consistency "
                      "conditions at the accepted steps, after projection):\n\n";
    out += md::table({"#", "Mode", "From t", "To t", "Steps", "RHS", "Jacobians", "Drift"}, rows,
                     {3, 30, 12, 12, 7, 7, 9, 8}) +
           "\n";
    if (marked)
        out += "\\* A mode without states: not integrated; the steps are the output points at which its equations "
               "were solved as functions of time.\n\n";
    out += cut_sentence(rows.size(), segs.size(), "segments");
    return out + "Totals: " + run_totals_line(simulation) + ".\n\n";
}

}  // namespace modeaudit
