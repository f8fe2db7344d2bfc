#include "mode_change/transition_study.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "common/limits.h"
#include "common/progress.h"
#include "flatten/flattener.h"

namespace modeaudit {

namespace {

// Base variables an expression mentions (as itself, a derivative or a left limit).
void variables_in(const FlatModel& flat, const GiNaC::ex& e, std::vector<int>& out) {
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
        auto m = flat.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
        using R = SymbolTable::Meaning::Role;
        if (m && (m->role == R::Variable || m->role == R::Derivative || m->role == R::Pre)) out.push_back(m->index);
    }
}

// Connected components of the graph of every flat equation (all branches)
// and the variables they mention: equation index -> component, and the
// equations of each component. Computed once per model.
struct EquationComponents {
    std::vector<int> of_equation;
    std::vector<int> of_variable;
    std::vector<std::vector<int>> equations;  // by component, ascending
};

EquationComponents equation_components(const FlatModel& flat) {
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    const std::size_t nv = flat.variables.size(), ne = flat.equations.size();
    Graph g(nv + ne);
    for (std::size_t i = 0; i < ne; ++i) {
        std::vector<int> vars;
        variables_in(flat, flat.equations[i].residual(), vars);
        std::sort(vars.begin(), vars.end());
        vars.erase(std::unique(vars.begin(), vars.end()), vars.end());
        for (int v : vars) boost::add_edge(nv + i, static_cast<std::size_t>(v), g);
    }
    std::vector<int> comp(nv + ne);
    int n = boost::connected_components(g, comp.data());
    EquationComponents c;
    c.of_variable.assign(comp.begin(), comp.begin() + static_cast<long>(nv));
    c.of_equation.assign(comp.begin() + static_cast<long>(nv), comp.end());
    c.equations.resize(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < ne; ++i) c.equations[static_cast<std::size_t>(c.of_equation[i])].push_back(static_cast<int>(i));
    return c;
}

// Flat equations of `a` that are not in `b` with the same residual (a
// structural comparison: a false "different" only enlarges the part).
void differing(const Mode& a, const Mode& b, std::vector<int>& out) {
    for (const ModeEquation& e : a.equations) {
        int k = equation_position(b, e.equation);
        if (k < 0 || !b.equations[static_cast<std::size_t>(k)].residual.is_equal(e.residual)) out.push_back(e.equation);
    }
}

Mode restrict_mode(const FlatModel& flat, const Mode& m, const std::vector<int>& equations) {
    Mode out;
    out.id = m.id;
    out.values = m.values;
    out.asserts = m.asserts;
    std::vector<char> used(flat.variables.size(), 0);
    for (int eq : equations) {
        int k = equation_position(m, eq);
        if (k < 0) continue;
        out.equations.push_back(m.equations[static_cast<std::size_t>(k)]);
        std::vector<int> vars;
        variables_in(flat, out.equations.back().residual, vars);
        for (int v : vars) used[static_cast<std::size_t>(v)] = 1;
    }
    for (int v : m.unknowns)
        if (used[static_cast<std::size_t>(v)]) out.unknowns.push_back(v);
    return out;
}

struct Part {
    Mode previous, next, transient;
};

// The part of P, N (and C) that the switch touches; the whole modes when
// the restriction would not be square (it always is for regular modes).
Part touched_part(const FlatModel& flat, const EquationComponents& comps, const Mode& p, const Mode& n,
                  const Mode* c, const Transition& t) {
    std::vector<int> seeds_eq;
    differing(p, n, seeds_eq);
    differing(n, p, seeds_eq);
    if (c) differing(*c, p, seeds_eq);
    std::vector<int> seed_vars;
    variables_in(flat, t.guard, seed_vars);
    for (const Transition::Guard& g : t.simultaneous) variables_in(flat, g.guard, seed_vars);
    for (const WhenAction& a : t.restart_constraints) variables_in(flat, a.lhs - a.rhs, seed_vars);
    for (const WhenAction& a : t.resets) {
        seed_vars.push_back(a.variable);
        variables_in(flat, a.value, seed_vars);
    }
    std::set<int> selected;
    for (int e : seeds_eq) selected.insert(comps.of_equation[static_cast<std::size_t>(e)]);
    for (int v : seed_vars) selected.insert(comps.of_variable[static_cast<std::size_t>(v)]);
    std::vector<int> equations;
    for (int k : selected) {
        const auto& eqs = comps.equations[static_cast<std::size_t>(k)];
        equations.insert(equations.end(), eqs.begin(), eqs.end());
    }
    std::sort(equations.begin(), equations.end());
    Part part{restrict_mode(flat, p, equations), restrict_mode(flat, n, equations),
              c ? restrict_mode(flat, *c, equations) : Mode{}};
    bool square = part.previous.equations.size() == part.previous.unknowns.size() &&
                  part.next.equations.size() == part.next.unknowns.size() &&
                  (!c || part.transient.equations.size() == part.transient.unknowns.size());
    if (!square) part = Part{p, n, c ? *c : Mode{}};
    return part;
}

int height_cap(const NormalizedTransition& nt, int hard_cap) {
    int max_d = 0, max_c = 0;
    for (int d : nt.previous_structure.sigma.d) max_d = std::max(max_d, d);
    for (int c : nt.next_structure.sigma.c) max_c = std::max(max_c, c);
    return std::min(hard_cap, max_d + max_c + 1);
}

bool regular(const ModeStructure& s) { return s.sigma.well_posed; }

class Studier {
public:
    Studier(const FlatModel& flat, const ModeSet& modes, const StructureResult& structure,
            const EquationComponents& comps, const ModeChangeOptions& o)
        : flat_(flat), modes_(modes), structure_(structure), comps_(comps), o_(o) {}

    TransitionStudy run(int ti) {
        TransitionStudy st;
        st.transition = ti;
        st.with_constraints = modes_.transitions[static_cast<std::size_t>(ti)];
        const Transition& t = st.with_constraints;
        // Without per-mode structures (a benchmark of the transition analysis
        // alone), only the touched parts are checked, below.
        const bool have_structures = structure_.modes.size() == modes_.modes.size();
        auto regular_mode = [&](int m) {
            return !have_structures || regular(structure_.modes[static_cast<std::size_t>(m)]);
        };
        if (!regular_mode(t.from) || !regular_mode(t.to)) {
            st.skipped = fmt::format("mode {} has no regular structure (see its structure findings)",
                                     modes_.modes[static_cast<std::size_t>(regular_mode(t.from) ? t.to : t.from)].id);
            return st;
        }
        st.routes.push_back(route(st, t.to, -1, false, -1));
        if (t.restart_constraints.empty()) return st;
        int c = t.contact_mode;  // found by the modes stage
        if (c >= 0 && !regular_mode(c)) c = -1;
        int transient_height = -1;
        if (c >= 0) {
            // The transient instants are those of the impact P -> C itself.
            Transition bare = t;
            bare.restart_constraints.clear();
            TransitionStudy tmp;
            tmp.with_constraints = bare;
            transient_height = route(tmp, c, -1, false, -1).base_height;
        }
        if (c >= 0 && c != t.to) st.routes.push_back(route(st, t.to, c, false, transient_height));
        std::size_t alternatives = 0;
        for (std::size_t m = 0; m < modes_.modes.size() && alternatives < o_.max_alternatives; ++m) {
            int mi = static_cast<int>(m);
            if (mi == t.to || !regular_mode(mi) || modes_.modes[m].transient_only) continue;
            ++alternatives;
            st.routes.push_back(route(st, mi, -1, true, -1));
            if (c >= 0 && c != mi) st.routes.push_back(route(st, mi, c, true, transient_height));
        }
        return st;
    }

private:
    Route route(const TransitionStudy& st, int target, int transient, bool alternative, int transient_height) {
        const Transition& t = st.with_constraints;
        Route r;
        r.kind = transient >= 0 ? Route::Kind::Cascade : Route::Kind::Direct;
        r.target = target;
        r.transient = transient;
        r.alternative = alternative;
        const Mode& p = modes_.modes[static_cast<std::size_t>(t.from)];
        const Mode& n = modes_.modes[static_cast<std::size_t>(target)];
        const Mode* c = transient >= 0 ? &modes_.modes[static_cast<std::size_t>(transient)] : nullptr;
        Part part = touched_part(flat_, comps_, p, n, c, t);
        r.part_equations = part.next.equations.size();
        r.whole_equations = n.equations.size();
        r.key = route_key(part, c != nullptr, t, transient_height);
        if (auto it = cache_.find(r.key); it != cache_.end()) {
            Route copy = it->second;
            copy.target = target;
            copy.transient = transient;
            copy.alternative = alternative;
            copy.whole_equations = r.whole_equations;
            return copy;
        }
        Route built = build_route(std::move(r), part, c != nullptr, t, transient_height);
        cache_.emplace(built.key, built);
        return built;
    }

    static std::string route_key(const Part& part, bool cascade, const Transition& t, int transient_height) {
        std::ostringstream k;
        auto mode = [&](const Mode& m) {
            for (const ModeEquation& e : m.equations) k << e.equation << ':' << e.residual << ';';
            k << '|';
        };
        mode(part.previous);
        mode(part.next);
        if (cascade) mode(part.transient);
        k << t.guard << '|' << static_cast<int>(t.trigger) << '|' << transient_height << '|';
        for (const Transition::Guard& g : t.simultaneous) k << g.guard << '|' << static_cast<int>(g.trigger) << '|';
        for (const WhenAction& a : t.restart_constraints) k << a.lhs << '=' << a.rhs << ';';
        return k.str();
    }

    Route build_route(Route r, const Part& part, bool has_transient, const Transition& t, int transient_height) {
        const Mode* c = has_transient ? &part.transient : nullptr;
        try {
            r.normalized = normalize_first_order(flat_, part.previous, part.next, c, &t);
        } catch (const std::domain_error& e) {  // GiNaC's pole_error: a derivative divides by zero
            // An equation of the touched part is not differentiable where the
            // mode puts it (the derivative of u^v at u = 0, with a log(0)):
            // its completed system, and so the mode-change array, is not defined.
            r.note = fmt::format("an equation of the touched part has no derivative in its mode ({})", e.what());
            return r;
        }
        if (!regular(r.normalized.previous_structure) || !regular(r.normalized.next_structure) ||
            (c && !regular(r.normalized.transient_structure))) {
            r.note = "the touched part of a mode has no regular structure after first-order normalization";
            return r;
        }
        Transition bare = t;
        bare.restart_constraints.clear();
        TransitionStudy view;  // a study whose transition is `t` or `bare`, for route_input
        auto build = [&](const Transition& tr, int K) {
            view.with_constraints = tr;
            return build_mode_change_array(route_input(flat_, r, view), K);
        };
        if (r.kind == Route::Kind::Cascade) {
            // Heights 1..K^*(P -> C), with T.
            if (transient_height < 1) {
                r.note = "the impact into the transient mode has no matched array";
                return r;
            }
            r.first_height = 1;
            for (int K = 1; K <= transient_height; ++K) r.arrays.push_back(build(t, K));
            return r;
        }
        int cap = height_cap(r.normalized, o_.max_height);
        std::vector<ModeChangeArray> base;
        for (int K = 0; K <= cap; ++K) {
            base.push_back(build(bare, K));
            if (base.back().matched) {
                r.base_height = K;
                break;
            }
        }
        if (t.restart_constraints.empty()) {
            r.arrays = std::move(base);
        } else {
            int top = r.base_height >= 0 ? r.base_height : cap;
            for (int K = 0; K <= top; ++K) r.arrays.push_back(build(t, K));
        }
        if (r.base_height < 0 && cap < height_cap(r.normalized, std::numeric_limits<int>::max()))
            throw LimitExceeded(
                fmt::format("no mode-change array up to height {}, the limit on the array height, gives a perfect "
                            "matching for the transition at {}; Theorem 2 bounds the search at height {}",
                            cap, t.guard_text, height_cap(r.normalized, std::numeric_limits<int>::max())),
                "array height", "--max-height", t.range);
        if (r.base_height < 0)
            r.note = fmt::format("no height up to {} gives a perfect matching of the enabled equations", cap);
        return r;
    }

    const FlatModel& flat_;
    const ModeSet& modes_;
    const StructureResult& structure_;
    const EquationComponents& comps_;
    const ModeChangeOptions& o_;
    std::map<std::string, Route> cache_;
};

}  // namespace

std::string Route::describe(const ModeSet& modes) const {
    const std::string& to = modes.modes[static_cast<std::size_t>(target)].id;
    if (kind == Kind::Cascade)
        return fmt::format("through the transient mode {} to {}", modes.modes[static_cast<std::size_t>(transient)].id, to);
    return "direct to " + to;
}

ArrayInput route_input(const FlatModel& flat, const Route& route, const TransitionStudy& study) {
    return array_input(flat, route.normalized, study.with_constraints);
}

TransitionStudy study_transition(const FlatModel& flat, const ModeSet& modes, const StructureResult& structure,
                                 int transition, const ModeChangeOptions& options) {
    EquationComponents comps = equation_components(flat);
    return Studier(flat, modes, structure, comps, options).run(transition);
}

ModeChangeResult study_transitions(const FlatModel& flat, const ModeSet& modes, const StructureResult& structure,
                                   const ModeChangeOptions& options) {
    ModeChangeResult r;
    EquationComponents comps = equation_components(flat);
    Studier s(flat, modes, structure, comps, options);
    Progress progress("mode changes", modes.transitions.size(), options.progress && Progress::stderr_is_terminal());
    for (std::size_t t = 0; t < modes.transitions.size(); ++t) {
        r.transitions.push_back(s.run(static_cast<int>(t)));
        progress.advance();
    }
    progress.finish();
    return r;
}

void dump_mode_change(const FlatModel& flat, const ModeSet& modes, const ModeChangeResult& r, std::ostream& out) {
    for (const TransitionStudy& st : r.transitions) {
        const Transition& t = modes.transitions[static_cast<std::size_t>(st.transition)];
        out << fmt::format("transition {} -> {} ({} event, guard {})\n", modes.modes[static_cast<std::size_t>(t.from)].id,
                           modes.modes[static_cast<std::size_t>(t.to)].id,
                           t.trigger == Transition::Trigger::State ? "state" : "time", t.guard_text);
        if (!st.skipped.empty()) out << "  not studied: " << st.skipped << "\n";
        for (const Route& rt : st.routes) {
            out << fmt::format("  route {}{}: touched part {} of {} equations, K* = {}\n", rt.describe(modes),
                               rt.alternative ? " (alternative)" : "", rt.part_equations, rt.whole_equations,
                               rt.base_height < 0 ? std::string("none") : std::to_string(rt.base_height));
            if (!rt.note.empty()) out << "    note: " << rt.note << "\n";
            for (std::size_t k = 0; k < rt.arrays.size(); ++k) {
                const ModeChangeArray& a = rt.arrays[k];
                std::size_t enabled = 0, dependent = 0;
                for (const ArrayEquation& e : a.equations) enabled += e.enabled ? 1 : 0;
                for (bool d : a.dependent) dependent += d ? 1 : 0;
                out << fmt::format("    K = {}: {} enabled equations, {} dependent variables, {}\n", a.height, enabled,
                                   dependent, a.matched ? "matched" : "not matched: " + a.why_not_matched);
                if (std::getenv("MODEAUDIT_DEBUG_ARRAYS")) {
                    for (std::size_t i = 0; i < a.equations.size(); ++i) {
                        const ArrayEquation& e = a.equations[i];
                        out << fmt::format("      {} [{}] {} = 0{}\n", e.name,
                                           e.fact ? "fact: " + e.fact_note : e.enabled ? "enabled" : "disabled",
                                           canonical(e.residual),
                                           a.matching.count(static_cast<int>(i))
                                               ? " -> " + a.symbol(a.variables[static_cast<std::size_t>(a.matching.at(static_cast<int>(i)))]).get_name()
                                               : "");
                    }
                    std::string dep;
                    for (std::size_t j = 0; j < a.variables.size(); ++j)
                        dep += fmt::format(" {}{}", a.symbol(a.variables[j]).get_name(), a.dependent[j] ? "" : "(data)");
                    out << "      variables:" << dep << "\n";
                }
            }
        }
    }
    (void)flat;
}

}  // namespace modeaudit
