// Simultaneous transitions; see simultaneous.h.
#include "modes/simultaneous.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "common/internal_error.h"
#include "flatten/condition_semantics.h"
#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"

namespace modeaudit {

namespace {

// The instant a time guard a*time + b (a, b numbers, a != 0) fires, with the
// sign of a (the direction it crosses zero in); nothing for other guards.
std::optional<std::pair<double, int>> time_root(const GiNaC::ex& g, const GiNaC::symbol& time) {
    if (!g.is_polynomial(time) || g.degree(time) != 1) return std::nullopt;
    const GiNaC::ex a = g.coeff(time, 1), b = g.coeff(time, 0);
    if (!GiNaC::is_a<GiNaC::numeric>(a) || !GiNaC::is_a<GiNaC::numeric>(b) || a.is_zero()) return std::nullopt;
    const double an = GiNaC::ex_to<GiNaC::numeric>(a).to_double(), bn = GiNaC::ex_to<GiNaC::numeric>(b).to_double();
    return std::make_pair(-bn / an, an > 0 ? 1 : -1);
}

}  // namespace

bool guards_coincide(const GiNaC::ex& a, const GiNaC::ex& b, const GiNaC::symbol& time) {
    const GiNaC::ex d = checked_expand(a - b);
    if (d.is_zero()) return true;
    // A positive constant multiple: the same surface, crossed the same way.
    if (GiNaC::is_a<GiNaC::numeric>(a) || GiNaC::is_a<GiNaC::numeric>(b)) return false;
    const GiNaC::ex q = GiNaC::normal(a / b);
    if (GiNaC::is_a<GiNaC::numeric>(q) && GiNaC::ex_to<GiNaC::numeric>(q).is_real() &&
        GiNaC::ex_to<GiNaC::numeric>(q).is_positive())
        return true;
    // Time events whose instants agree within event location's tolerance
    // (simulation.h: boundary_tolerance, condition_semantics.h): the run
    // meets them as one event.
    const auto ra = time_root(checked_expand(a), time), rb = time_root(checked_expand(b), time);
    if (!ra || !rb || ra->second != rb->second) return false;
    return std::abs(ra->first - rb->first) <= relation_tolerance(std::max(std::abs(ra->first), std::abs(rb->first)));
}

int combined_target(const ModeSet& modes, int from, const std::vector<const Transition*>& fired, std::string& why) {
    if (fired.size() == 1) return fired[0]->to;
    const auto& base = modes.modes[static_cast<std::size_t>(from)].values;
    std::vector<std::int64_t> values = base;
    std::vector<bool> set(values.size(), false);
    for (const Transition* t : fired) {
        const auto& to = modes.modes[static_cast<std::size_t>(t->to)].values;
        for (std::size_t k = 0; k < values.size(); ++k) {
            if (to[k] == base[k]) continue;
            if (set[k] && values[k] != to[k]) {
                why = fmt::format("simultaneous transitions set mode variable '{}' to different values",
                                  modes.mode_variables[k].name);
                return -1;
            }
            values[k] = to[k];
            set[k] = true;
        }
    }
    for (std::size_t m = 0; m < modes.modes.size(); ++m)
        if (modes.modes[m].values == values) return static_cast<int>(m);
    why = "the simultaneous transitions lead to a mode that was not explored";
    return -1;
}

Transition combine_transitions(const ModeSet& modes, const std::vector<int>& fired, int target) {
    MODEAUDIT_ASSERT(!fired.empty(), "a combined transition of no transition");
    const Transition& first = modes.transitions.at(static_cast<std::size_t>(fired.front()));
    Transition out;
    out.from = first.from;
    out.to = target;
    out.trigger = first.trigger;
    out.guard = first.guard;
    out.guard_text = first.guard_text;
    out.when_clause = first.when_clause;
    out.trigger_index = first.trigger_index;
    out.relation_definition = first.relation_definition;
    out.priority = first.priority;
    out.range = first.range;
    out.contact_mode = -1;  // no cascade for a combined transition (simulation/combined_restart.h)
    out.parts = fired;
    // A clause with several triggers can fire through more than one of
    // them: its actions count once.
    std::set<int> clauses;
    for (int k : fired) {
        const Transition& t = modes.transitions.at(static_cast<std::size_t>(k));
        MODEAUDIT_ASSERT(t.from == first.from, "simultaneous transitions from different modes");
        MODEAUDIT_ASSERT(t.parts.empty(), "a combined transition combined again");
        if (&t != &first) out.simultaneous.push_back({t.guard, t.guard_text, t.trigger, t.compound});
        if (t.when_clause >= 0 && !clauses.insert(t.when_clause).second) continue;
        out.resets.insert(out.resets.end(), t.resets.begin(), t.resets.end());
        out.restart_constraints.insert(out.restart_constraints.end(), t.restart_constraints.begin(),
                                       t.restart_constraints.end());
    }
    return out;
}

namespace {
// Pairs of expressions in GiNaC's canonical order, for the cache of
// add_coinciding_transitions.
struct PairLess {
    bool operator()(const std::pair<GiNaC::ex, GiNaC::ex>& x, const std::pair<GiNaC::ex, GiNaC::ex>& y) const {
        const int c = x.first.compare(y.first);
        return c != 0 ? c < 0 : x.second.compare(y.second) < 0;
    }
};
}  // namespace

void add_coinciding_transitions(const FlatModel& flat, ModeSet& modes, std::vector<std::string>& skipped) {
    const std::size_t listed = modes.transitions.size();
    // Each guard with its parameters by value (time stays a symbol).
    std::vector<GiNaC::ex> valued(listed);
    for (std::size_t k = 0; k < listed; ++k) {
        const Transition& t = modes.transitions[k];
        if (t.compound || t.sampled || !t.parts.empty()) continue;
        valued[k] = t.guard.subs(parameter_values(flat, {t.guard}, {flat.symbols.time().get_name()}), kExactSubs);
    }
    std::vector<bool> grouped(listed, false);
    // Only transitions of one source mode are compared: the later ones of
    // each mode, in list order (comparing every pair of the list was
    // quadratic in the number of modes: 19 s at the 4,096-mode limit).
    std::vector<std::vector<std::size_t>> of_mode(modes.modes.size());
    for (std::size_t k = 0; k < listed; ++k)
        if (modes.transitions[k].from >= 0 && static_cast<std::size_t>(modes.transitions[k].from) < of_mode.size())
            of_mode[static_cast<std::size_t>(modes.transitions[k].from)].push_back(k);
    // The same pair of guards recurs in every mode where both clauses are
    // active: decided once.
    std::map<std::pair<GiNaC::ex, GiNaC::ex>, bool, PairLess> coincide;
    auto coincide_cached = [&](const GiNaC::ex& x, const GiNaC::ex& y) {
        auto [it, fresh] = coincide.try_emplace({x, y}, false);
        if (fresh) it->second = guards_coincide(x, y, flat.symbols.time());
        return it->second;
    };
    for (std::size_t a = 0; a < listed; ++a) {
        if (grouped[a] || valued[a].is_zero()) continue;
        std::vector<int> group{static_cast<int>(a)};
        const Transition& ta = modes.transitions[a];
        if (ta.from < 0 || static_cast<std::size_t>(ta.from) >= of_mode.size()) continue;
        for (std::size_t b : of_mode[static_cast<std::size_t>(ta.from)]) {
            if (b <= a) continue;
            const Transition& tb = modes.transitions[b];
            if (grouped[b] || valued[b].is_zero()) continue;
            // One clause's triggers are one event already, and so are a
            // clause and its elsewhen branches (one fires, by priority).
            if (ta.when_clause >= 0 && ta.when_clause == tb.when_clause) continue;
            if (!coincide_cached(valued[a], valued[b])) continue;
            group.push_back(static_cast<int>(b));
        }
        if (group.size() < 2) continue;
        for (int k : group) grouped[static_cast<std::size_t>(k)] = true;
        std::vector<const Transition*> fired;
        for (int k : group) fired.push_back(&modes.transitions[static_cast<std::size_t>(k)]);
        std::string why;
        const int target = combined_target(modes, fired.front()->from, fired, why);
        const Mode& from = modes.modes[static_cast<std::size_t>(fired.front()->from)];
        if (target < 0) {
            skipped.push_back(fmt::format("the transitions of mode {} on guard {} fire together, but {}", from.id,
                                          fired.front()->guard_text, why));
            continue;
        }
        bool distinct = true;
        for (const Transition* t : fired) distinct = distinct && t->to != target;
        if (!distinct) continue;
        modes.transitions.push_back(combine_transitions(modes, group, target));
    }
}

}  // namespace modeaudit
