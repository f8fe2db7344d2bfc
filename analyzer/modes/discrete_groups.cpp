// The modes stage (modes.h) on a discrete state that falls into
// independent groups: relations, discrete variables and when-guards that
// read or write one another (definitions, when-clauses, relations bounding
// one quantity) form a group; each group is explored alone, and where the
// product of their states is large the modes and transitions are composed
// from the groups' (ModeLimits::compose_above).
#include <fmt/format.h>

#include <deque>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "common/progress.h"
#include "modes/explorer.h"

namespace modeaudit::modes_detail {

void Explorer::atoms_of(const Condition& c, std::vector<std::size_t>& out, int depth) const {
    const std::size_t nr = logic_.relations().size();
    switch (c.kind) {
        case K::Variable: out.push_back(nr + static_cast<std::size_t>(c.variable)); return;
        case K::Relation:
            if (logic_.is_continuous_relation(c)) {
                if (auto it = registered_as_.find(&c); it != registered_as_.end())
                    for (int k : it->second) out.push_back(static_cast<std::size_t>(k));
                else if (const int k = logic_.find_relation(c); k >= 0)
                    out.push_back(static_cast<std::size_t>(k));
            }
            atoms_of(c.lhs, out, depth);
            atoms_of(c.rhs, out, depth);
            return;
        default:
            for (const ConditionPtr& o : c.operands) atoms_of(*o, out, depth);
    }
}

void Explorer::atoms_of(const ex& e, std::vector<std::size_t>& out, int depth) const {
    const std::size_t nr = logic_.relations().size();
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
        auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
        if (!m) continue;
        using R = SymbolTable::Meaning::Role;
        if ((m->role == R::Variable || m->role == R::Pre) &&
            flat_.variables[static_cast<std::size_t>(m->index)].variability == Variability::Discrete)
            out.push_back(nr + static_cast<std::size_t>(m->index));
        // A condition symbol reads what its condition reads (conditions do
        // not nest without bound: the depth guards a malformed table).
        if (m->role == R::Condition && depth < 16)
            atoms_of(*flat_.conditions[static_cast<std::size_t>(m->index)], out, depth + 1);
    }
}

std::vector<Explorer::DiscreteGroup> Explorer::discrete_groups() const {
    const std::size_t nr = logic_.relations().size(), nv = flat_.variables.size();
    std::vector<std::size_t> parent(nr + nv + when_guards_.size());
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    std::function<std::size_t(std::size_t)> find = [&](std::size_t a) {
        while (parent[a] != a) a = parent[a] = parent[parent[a]];
        return a;
    };
    auto join = [&](std::size_t a, const std::vector<std::size_t>& others) {
        for (std::size_t b : others) parent[find(b)] = find(a);
    };
    std::vector<std::size_t> atoms;
    for (int v : logic_.defined()) {
        atoms.clear();
        if (ConditionPtr d = logic_.boolean_definition(v))
            atoms_of(*d, atoms);
        else if (const ex* value = logic_.integer_definition(v))
            atoms_of(*value, atoms, 0);
        join(nr + static_cast<std::size_t>(v), atoms);
    }
    for (const std::vector<std::size_t>& linked : consistency_->linked())
        if (!linked.empty()) join(linked.front(), linked);
    for (std::size_t w = 0; w < when_guards_.size(); ++w) {
        const WhenGuard& wg = when_guards_[w];
        const FlatWhen& fw = flat_.whens[wg.when];
        atoms.clear();
        atoms_of(*fw.triggers[wg.trigger], atoms);
        for (const WhenAction& a : fw.actions) {
            if (a.kind != WhenAction::Kind::AssignDiscrete || !relevant_.count(a.variable)) continue;
            atoms.push_back(nr + static_cast<std::size_t>(a.variable));
            if (a.bool_value) atoms_of(*a.bool_value, atoms);
            atoms_of(a.value, atoms, 0);
        }
        join(nr + nv + w, atoms);
    }
    // The groups in the order of their first atom, so the order is fixed.
    std::map<std::size_t, std::size_t> group_of_root;
    std::vector<DiscreteGroup> groups;
    auto group = [&](std::size_t atom) -> DiscreteGroup& {
        auto [it, added] = group_of_root.try_emplace(find(atom), groups.size());
        if (added) groups.emplace_back();
        return groups[it->second];
    };
    for (std::size_t k = 0; k < nr; ++k) group(k).relations.push_back(k);
    for (std::size_t v = 0; v < nv; ++v)
        if (relevant_.count(static_cast<int>(v)) || logic_.is_defined(static_cast<int>(v)))
            group(nr + v).variables.push_back(static_cast<int>(v));
    for (std::size_t w = 0; w < when_guards_.size(); ++w) group(nr + nv + w).whens.push_back(w);
    return groups;
}

Explorer::LocalExploration Explorer::explore_group(const State& init, const DiscreteGroup& group) {
    LocalExploration out;
    std::set<State> seen{init};
    std::deque<State> queue{init};
    std::set<std::tuple<int, int, std::string, int>> recorded;
    auto local_mode = [&](const State& s) {
        auto [it, added] = out.mode_index.try_emplace(mode_values(s), static_cast<int>(out.mode_state.size()));
        if (added) out.mode_state.push_back(s);
        return it->second;
    };
    local_mode(init);
    while (!queue.empty()) {
        const State s = queue.front();
        queue.pop_front();
        const int from = local_mode(s);
        successors(s, group.relations, group.whens, [&](const State& t, Transition tr, bool has_resets) {
            if (!seen.count(t)) {
                if (seen.size() >= limits_.max_modes * 16) {
                    out.complete = false;
                    return;
                }
                seen.insert(t);
                queue.push_back(t);
            }
            const int to = local_mode(t);
            if (from == to && !has_resets) return;
            if (recorded.insert(std::make_tuple(from, to, tr.guard_text, tr.when_clause)).second)
                out.edges.push_back({from, to, std::move(tr)});
        });
    }
    out.states = seen.size();
    return out;
}

bool Explorer::explore_by_groups(ModeSet& set, const State& init, const std::function<int(const State&)>& mode_of) {
    const std::vector<DiscreteGroup> groups = discrete_groups();
    if (groups.size() < 2) return false;
    std::vector<LocalExploration> local;
    double states = 1;
    for (const DiscreteGroup& g : groups) {
        local.push_back(explore_group(init, g));
        states *= static_cast<double>(local.back().states);
    }
    if (states <= static_cast<double>(limits_.compose_above)) return false;
    set.composed_groups = groups.size();
    // Global modes: tuples of local modes, the last group counting fastest,
    // so mode 0 is the initial state's; at most max_modes of them.
    const std::size_t n = groups.size();
    double product = 1;
    for (const LocalExploration& l : local) {
        product *= static_cast<double>(l.mode_state.size());
        set.complete = set.complete && l.complete;
    }
    const std::size_t count = product > static_cast<double>(limits_.max_modes)
                                  ? limits_.max_modes
                                  : static_cast<std::size_t>(product);
    if (count < product) set.complete = false;
    std::vector<std::size_t> stride(n, 1);
    for (std::size_t g = n - 1; g > 0; --g) stride[g - 1] = stride[g] * local[g].mode_state.size();
    auto tuple_of = [&](std::size_t index) {
        std::vector<int> t(n);
        for (std::size_t g = 0; g < n; ++g) t[g] = static_cast<int>((index / stride[g]) % local[g].mode_state.size());
        return t;
    };
    Progress progress("modes", count, limits_.progress && Progress::stderr_is_terminal());
    std::vector<int> mode_at(count);  // tuple index -> mode index
    for (std::size_t i = 0; i < count; ++i) {
        const std::vector<int> t = tuple_of(i);
        State s = init;
        for (std::size_t g = 0; g < n; ++g) {
            const State& part = local[g].mode_state[static_cast<std::size_t>(t[g])];
            for (std::size_t k : groups[g].relations) s.relations[k] = part.relations[k];
            for (int v : groups[g].variables)
                s.discrete[static_cast<std::size_t>(v)] = part.discrete[static_cast<std::size_t>(v)];
        }
        mode_at[i] = mode_of(s);
        progress.advance();
    }
    progress.finish();
    std::vector<std::vector<std::vector<int>>> edges_from(n);  // group -> local mode -> edges
    for (std::size_t g = 0; g < n; ++g) {
        edges_from[g].resize(local[g].mode_state.size());
        for (std::size_t e = 0; e < local[g].edges.size(); ++e)
            edges_from[g][static_cast<std::size_t>(local[g].edges[e].from)].push_back(static_cast<int>(e));
    }
    for (std::size_t i = 0; i < count; ++i) {
        const std::vector<int> t = tuple_of(i);
        for (std::size_t g = 0; g < n; ++g)
            for (int e : edges_from[g][static_cast<std::size_t>(t[g])]) {
                const LocalExploration::Edge& edge = local[g].edges[static_cast<std::size_t>(e)];
                const std::size_t j = i + (static_cast<std::size_t>(edge.to) - static_cast<std::size_t>(t[g])) * stride[g];
                if (j >= count) continue;
                // As in the exploration of the whole state: a guard that is
                // an equation of the source mode never crosses.
                const int from = mode_at[i], to = mode_at[j];
                if (guard_is_equation(set.modes[static_cast<std::size_t>(from)], edge.tr.guard)) continue;
                Transition tr = edge.tr;
                tr.from = from;
                tr.to = to;
                set.transitions.push_back(std::move(tr));
            }
    }
    return true;
}

}  // namespace modeaudit::modes_detail
