#include "mode_change/mode_change_array.h"
#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <set>

#include "common/internal_error.h"
#include "flatten/flattener.h"

namespace modeaudit {

namespace {

using GiNaC::ex;

std::string var_text(const FlatModel& flat, const ArrayVariable& v) {
    const std::string& base = flat.variables[static_cast<std::size_t>(v.variable)].name;
    std::string s = v.order == 0 ? base
                    : v.order == 1 ? "der(" + base + ")"
                                   : fmt::format("der({},{})", base, v.order);
    return v.instant == 0 ? s : fmt::format("{}@{}", s, v.instant);
}

long binomial(long n, long k) {
    long r = 1;
    for (long i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return r;
}

class Builder {
public:
    Builder(const ArrayInput& in, ModeChangeArray& a) : in_(in), a_(a), flat_(*in.flat) {
        for (std::size_t j = 0; j < in.next->unknowns.size(); ++j) unknown_col_[in.next->unknowns[j]] = static_cast<int>(j);
        if (in.transient)
            for (int v : in.transient->unknowns) unknown_col_.emplace(v, -1);
        // The derivative orders the modes' own equations use (before index
        // reduction): the Euler closure relates only these.
        for (const Mode* m : {in.previous, in.next, in.transient}) {
            if (!m) continue;
            for (const ModeEquation& e : m->equations)
                for (GiNaC::const_preorder_iterator it = e.residual.preorder_begin(); it != e.residual.preorder_end(); ++it) {
                    if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
                    auto mm = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
                    if (mm && mm->role == SymbolTable::Meaning::Role::Derivative)
                        model_order_[mm->index] = std::max(model_order_[mm->index], mm->order);
                }
        }
        if (in.velocity_of)
            for (const auto& [v, x] : *in.velocity_of) model_order_[x] = std::max(model_order_[x], 1);
    }
    int model_order(int variable) const {
        auto it = model_order_.find(variable);
        return it == model_order_.end() ? 0 : it->second;
    }

    const GiNaC::symbol& sym(const ArrayVariable& v) {
        auto it = a_.symbols.find(v);
        if (it != a_.symbols.end()) return it->second;
        GiNaC::symbol s = v.instant == 0 ? (v.order == 0 ? flat_.symbols.variable(v.variable)
                                                         : flat_.symbols.derivative(v.variable, v.order))
                                         : GiNaC::symbol(var_text(flat_, v));
        by_name_[s.get_name()] = v;
        return a_.symbols.emplace(v, s).first->second;
    }

    // The array variable a symbol stands for, if it is one.
    std::optional<ArrayVariable> meaning(const GiNaC::symbol& s) {
        auto it = by_name_.find(s.get_name());
        if (it != by_name_.end()) return it->second;
        auto m = flat_.symbols.meaning(s);
        if (!m || !unknown_col_.count(m->index)) return std::nullopt;
        using R = SymbolTable::Meaning::Role;
        if (m->role != R::Variable && m->role != R::Derivative) return std::nullopt;
        ArrayVariable v{m->index, m->role == R::Variable ? 0 : m->order, 0};
        sym(v);
        return v;
    }

    std::vector<ArrayVariable> variables_of(const ex& e) {
        std::set<ArrayVariable> out;
        for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
            if (GiNaC::is_a<GiNaC::symbol>(*it))
                if (auto v = meaning(GiNaC::ex_to<GiNaC::symbol>(*it))) out.insert(*v);
        return {out.begin(), out.end()};
    }

    ex shift(const ex& e, int k) {
        if (k == 0) return e;
        GiNaC::exmap m;
        for (const ArrayVariable& v : variables_of(e)) m[sym(v)] = sym({v.variable, v.order, v.instant + k});
        return e.subs(m, kExactSubs);
    }

    int prev_d(int variable) const {
        const Mode& p = *in_.previous;
        for (std::size_t j = 0; j < p.unknowns.size(); ++j)
            if (p.unknowns[j] == variable) return in_.previous_structure->sigma.d[j];
        return 0;
    }
    bool in_xprev(const ArrayVariable& v) const { return v.instant >= 0 && v.order + v.instant < prev_d(v.variable); }

    void run(int K);

    // Whether `d` vanishes once every Euler identity of the array is solved
    // for its latest variable (z@(k+n) in terms of z@k.. and the derivative).
    bool follows_by_euler(const ex& d) {
        GiNaC::exmap latest;
        for (const ArrayEquation& e : a_.equations) {
            if (e.kind != ArrayEquation::Kind::Euler) continue;
            ArrayVariable top{-1, 0, -1000000};
            for (const ArrayVariable& v : variables_of(e.residual))
                if (v.instant > top.instant) top = v;
            if (top.variable < 0) continue;
            const GiNaC::symbol& z = sym(top);
            ex r = checked_expand(e.residual);
            ex a = r.coeff(z, 1);
            if (polynomial_degree(r, z) != 1 || a.is_zero()) continue;
            latest[z] = checked_expand(-(r - a * z) / a);
        }
        ex out = checked_expand(d);
        for (std::size_t round = 0; round <= a_.equations.size() && !out.is_zero(); ++round) {
            ex next = checked_expand(out.subs(latest, kExactSubs));
            if (next.is_equal(out)) break;
            out = next;
        }
        return checked_expand(GiNaC::normal(out)).is_zero();
    }

private:
    const ArrayInput& in_;
    ModeChangeArray& a_;
    const FlatModel& flat_;
    std::map<int, int> unknown_col_;
    std::map<std::string, ArrayVariable> by_name_;
    std::set<ArrayVariable> data_;  // previous-mode data (see run)
    std::map<int, int> model_order_;
};

// The completed system of a mode by row: f, f', ..., f^(c_f).
std::vector<std::vector<ex>> completed_rows(const Mode& mode, const ModeStructure& ms) {
    std::vector<std::vector<ex>> completed(mode.equations.size());
    auto put = [&](const CompletedEquation& c) {
        auto& v = completed[static_cast<std::size_t>(c.row)];
        if (v.size() <= static_cast<std::size_t>(c.order)) v.resize(static_cast<std::size_t>(c.order) + 1);
        v[static_cast<std::size_t>(c.order)] = c.residual;
    };
    for (const CompletedEquation& c : ms.consistency) put(c);
    for (const CompletedEquation& c : ms.reduced) put(c);
    return completed;
}

// Rows of `mode` common to `previous`: the same flat equation with the same residual.
std::vector<bool> common_rows(const Mode& mode, const Mode& previous) {
    std::vector<bool> common(mode.equations.size(), false);
    for (std::size_t f = 0; f < mode.equations.size(); ++f)
        for (const ModeEquation& pe : previous.equations)
            if (pe.equation == mode.equations[f].equation &&
                checked_expand(pe.residual - mode.equations[f].residual).is_zero())
                common[f] = true;
    return common;
}

void Builder::run(int K) {
    a_.height = K;
    const bool cascade = in_.transient != nullptr;
    std::vector<std::vector<ex>> completed = completed_rows(*in_.next, *in_.next_structure);
    std::vector<bool> common = common_rows(*in_.next, *in_.previous);
    std::vector<std::vector<ex>> head = cascade ? completed_rows(*in_.transient, *in_.transient_structure) : completed;
    std::vector<bool> head_common = cascade ? common_rows(*in_.transient, *in_.previous) : common;
    auto add_copies = [&](const std::vector<std::vector<ex>>& rows, const std::vector<bool>& com, char letter,
                          int k) {
        for (std::size_t f = 0; f < rows.size(); ++f)
            for (std::size_t j = 0; j < rows[f].size(); ++j) {
                ArrayEquation eq;
                eq.kind = ArrayEquation::Kind::Model;
                eq.name = fmt::format("{}{}{}{}", letter, f + 1, std::string(j, '\''), k ? fmt::format("@{}", k) : "");
                eq.residual = shift(rows[f][j], k);
                eq.row = static_cast<int>(f);
                eq.order = static_cast<int>(j);
                eq.instant = k;
                eq.enabled = k == K || com[f];
                eq.common = com[f];
                a_.equations.push_back(eq);
            }
    };
    for (int k = 0; k < K; ++k) add_copies(head, head_common, cascade ? 't' : 'e', k);
    add_copies(completed, common, 'e', K);
    // Restart constraints: pre(v) -> v@0 (previous-mode data), v -> v@K.
    int t_count = 0;
    for (const WhenAction& t : in_.transition->restart_constraints) {
        GiNaC::exmap m;
        GiNaC::ex r = t.lhs - t.rhs;
        // A velocity alias v = ±der(x) that normalize_first_order eliminated
        // is named through x (negated where written so).
        auto place = [&](int v, int order, int instant) -> ex {
            if (in_.velocity_of)
                if (auto it = in_.velocity_of->find(v); it != in_.velocity_of->end()) {
                    const bool negated = in_.negated_velocity && in_.negated_velocity->count(v);
                    return (negated ? -1 : 1) * sym({it->second, order + 1, instant});
                }
            return sym({v, order, instant});
        };
        for (GiNaC::const_preorder_iterator it = r.preorder_begin(); it != r.preorder_end(); ++it) {
            if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
            auto mm = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
            if (!mm) continue;
            using R = SymbolTable::Meaning::Role;
            if (mm->role == R::Pre) m[*it] = place(mm->index, 0, 0);
            else if (mm->role == R::Variable && (unknown_col_.count(mm->index) || (in_.velocity_of && in_.velocity_of->count(mm->index))))
                m[*it] = place(mm->index, 0, K);
            else if (mm->role == R::Derivative && unknown_col_.count(mm->index))
                m[*it] = place(mm->index, mm->order, K);
        }
        ArrayEquation eq;
        eq.kind = ArrayEquation::Kind::Model;
        eq.name = fmt::format("T{}@{}", ++t_count, K);
        eq.residual = r.subs(m, kExactSubs);
        eq.row = -1;
        eq.instant = K;
        eq.enabled = true;
        a_.equations.push_back(eq);
    }
    // Chain closure with Euler identities: within each (variable, total
    // degree) class, consecutive variables by decreasing order (paper notes
    // 4.2: the literal closure would add redundant identities).
    std::set<std::tuple<int, int, int, int, int>> done;
    for (bool added = true; added;) {
        added = false;
        std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> classes;  // (var, m + k) -> (m, k)
        std::set<ArrayVariable> present;
        for (const ArrayEquation& e : a_.equations)
            for (const ArrayVariable& v : variables_of(e.residual)) present.insert(v);
        // Only derivative orders the modes' equations use (issue 17, item 2):
        // a derivative that only index reduction brings (der(u) where the
        // new mode's u = 0 is differentiated, u algebraic in the model) is
        // fixed by the differentiated equations themselves, and an identity
        // tying it to u at the next instant would be a second, redundant
        // relation (u@1 - u@0 = eps*der(u) already follows from the
        // differentiated row and the identities of the states it is made
        // of), which leaves one enabled row unmatched.
        for (const ArrayVariable& v : present)
            if (v.order <= model_order(v.variable))
                classes[{v.variable, v.order + v.instant}].push_back({v.order, v.instant});
        for (auto& [key, members] : classes) {
            std::sort(members.begin(), members.end(), std::greater<>());
            for (std::size_t i = 0; i + 1 < members.size(); ++i) {
                auto [m1, k1] = members[i];
                auto [m2, k2] = members[i + 1];
                if (!done.insert({key.first, m1, k1, m2, k2}).second) continue;
                int n = m1 - m2;
                ex sum = 0;
                for (int q = 0; q <= n; ++q)
                    sum += ((q % 2) ? -1 : 1) * binomial(n, q) * ex(sym({key.first, m2, k1 + n - q}));
                ArrayEquation eq;
                eq.kind = ArrayEquation::Kind::Euler;
                eq.name = fmt::format("E[{} -> {}]", var_text(flat_, {key.first, m1, k1}),
                                      var_text(flat_, {key.first, m2, k2}));
                eq.residual = ex(sym({key.first, m1, k1})) - GiNaC::pow(a_.eps, -n) * sum;
                eq.enabled = true;
                a_.equations.push_back(eq);
                added = true;
            }
        }
    }
    // Previous-mode data. The reconstructed rule (paper notes 4.3) takes
    // v^(m)@k with m + k < d^-_v; in a first-order formulation (der(x) = vx)
    // that misses values the previous trajectory also fixes: der(x)@0 = vx@0
    // by an equation common to both modes, hence x@1 = x@0 + eps*der(x)@0.
    // So close the data under (a) instant-0 equations common to both modes
    // that are linear in their one non-data variable, and (b) Euler
    // identities with one non-data variable. For second-order models this
    // adds nothing (tests/unit/mode_change).
    std::set<ArrayVariable> present_all;
    for (const ArrayEquation& e : a_.equations)
        for (const ArrayVariable& v : variables_of(e.residual)) present_all.insert(v);
    for (const ArrayVariable& v : present_all)
        if (in_xprev(v)) data_.insert(v);
    std::set<std::size_t> defining;  // equations that define data: facts, like x@1 = x + eps*der(x)
    for (bool grew = true; grew;) {
        grew = false;
        for (std::size_t ei = 0; ei < a_.equations.size(); ++ei) {
            const ArrayEquation& e = a_.equations[ei];
            bool usable = e.kind == ArrayEquation::Kind::Euler || (e.instant == 0 && e.common);
            if (!usable) continue;
            std::vector<ArrayVariable> open;
            for (const ArrayVariable& v : variables_of(e.residual))
                if (!data_.count(v)) open.push_back(v);
            if (open.size() != 1) continue;
            const GiNaC::symbol& z = sym(open[0]);
            GiNaC::ex r = checked_expand(e.residual);
            if (polynomial_degree(r, z) != 1 || r.ldegree(z) != 0) continue;
            data_.insert(open[0]);
            defining.insert(ei);
            grew = true;
        }
    }
    // Facts. Root facts: shifts g@k, k <= l, of a state event's guard, where
    // l is the largest shift whose variables are all previous-mode data
    // (Lemma 3); for a combined transition, of every state guard that fired.
    // A time event implies nothing.
    std::vector<ex> root_shifts;
    for (const ex& guard : canonical_root_guards(in_)) {
        std::vector<ArrayVariable> gvars = variables_of(guard);
        for (int k = 0; !gvars.empty() && k <= K; ++k) {
            bool all_data = true;
            for (const ArrayVariable& v : gvars)
                if (!data_.count({v.variable, v.order, v.instant + k})) all_data = false;
            if (!all_data) break;
            root_shifts.push_back(shift(guard, k));
        }
    }
    for (std::size_t ei : defining) {
        a_.equations[ei].fact = true;
        a_.equations[ei].fact_note = "defines previous-mode data";
    }
    // Later copies of a row that the earlier ones already give (see below).
    std::map<std::tuple<int, int, int>, std::size_t> model_row;  // (row, order, instant) -> equation
    if (!cascade)
        for (std::size_t ei = 0; ei < a_.equations.size(); ++ei)
            if (a_.equations[ei].kind == ArrayEquation::Kind::Model && a_.equations[ei].row >= 0)
                model_row[{a_.equations[ei].row, a_.equations[ei].order, a_.equations[ei].instant}] = ei;
    for (ArrayEquation& e : a_.equations) {
        if (e.fact) {
            e.enabled = false;
            continue;
        }
        bool only_data = true;
        for (const ArrayVariable& v : variables_of(e.residual))
            if (!data_.count(v)) only_data = false;
        if (e.kind == ArrayEquation::Kind::Model) {
            for (const ex& g : root_shifts)
                if (is_constant_multiple(e.residual, g)) e.fact = true, e.fact_note = "a root fact";
            if (!e.fact && e.instant == 0 && e.common && only_data)
                e.fact = true, e.fact_note = "holds on the previous trajectory";
            if (!e.fact && only_data && e.row >= 0) {
                // Issue 17, item 3: a row over data only is a fact when the
                // previous mode and the root facts entail it at the data
                // (every datum at its left limit, eps = 0); its residual
                // there is kept as the check.
                GiNaC::exmap at_left;
                for (const ArrayVariable& v : variables_of(e.residual))
                    if (v.instant != 0) at_left[sym(v)] = sym({v.variable, v.order, 0});
                ex r0 = checked_expand(e.residual.subs(at_left, kExactSubs));
                EventEntailment why = holds_at_event(in_, r0);
                if (why.holds) {
                    e.fact = true;
                    e.fact_residual = r0;
                    e.fact_note = why.used.empty() ? "vanishes at the data"
                                                   : "entailed at the data by " + fmt::format("{}", fmt::join(why.used, " and "));
                }
            }
        } else {
            e.fact = only_data;  // a definition of previous-mode data, e.g. x@1 = x + eps*der(x)
            if (e.fact) e.fact_note = "defines previous-mode data";
        }
        if (!e.fact && e.kind == ArrayEquation::Kind::Model && e.row >= 0 && e.instant >= 1 && !cascade) {
            // A constraint that persists across the switch (common to both
            // modes, differentiated c_f times in each) has its copies
            // f^(j)@k - f^(j)@(k-1) - eps*f^(j+1)@(k-1) = a sum of Euler
            // identities when f is linear: with the earlier copies in the
            // array (facts or enabled), f^(j)@k adds nothing but a second
            // relation on the same variables, and the matching fails (a
            // contact that stays closed while another closes). It is a
            // fact, checked by that identity.
            auto lo = model_row.find({e.row, e.order, e.instant - 1});
            auto hi = model_row.find({e.row, e.order + 1, e.instant - 1});
            if (lo != model_row.end() && hi != model_row.end()) {
                const ArrayEquation& l = a_.equations[lo->second];
                const ArrayEquation& h = a_.equations[hi->second];
                if ((l.fact || l.enabled) && (h.fact || h.enabled) &&
                    follows_by_euler(e.residual - l.residual - a_.eps * h.residual)) {
                    e.fact = true;
                    e.fact_note = fmt::format("follows from {} and {} by the Euler identities", l.name, h.name);
                }
            }
        }
        if (e.fact) e.enabled = false;
    }
    // The array's variables are those of its enabled equations: a variable
    // that only disabled rows mention (s in a switch written
    // `i = s*(if closed then 1 else Goff)`, at a head instant) is erased
    // with them by Procedure 1 and is nothing the restart must determine.
    std::set<ArrayVariable> present;
    for (const ArrayEquation& e : a_.equations)
        if (e.enabled)
            for (const ArrayVariable& v : variables_of(e.residual)) present.insert(v);
    a_.variables.assign(present.begin(), present.end());
    for (const ArrayVariable& v : a_.variables) a_.dependent.push_back(!data_.count(v));

    // Matching of the enabled equations to dependent variables (Kuhn's
    // augmenting paths; the arrays are small).
    std::map<ArrayVariable, int> col_of;
    for (std::size_t j = 0; j < a_.variables.size(); ++j) col_of[a_.variables[j]] = static_cast<int>(j);
    const std::size_t ne = a_.equations.size(), nv = a_.variables.size();
    std::vector<std::vector<int>> adj(ne);
    for (std::size_t i = 0; i < ne; ++i) {
        if (!a_.equations[i].enabled) continue;
        for (const ArrayVariable& v : variables_of(a_.equations[i].residual)) {
            int j = col_of.at(v);
            if (a_.dependent[static_cast<std::size_t>(j)]) adj[i].push_back(j);
        }
    }
    std::vector<int> eq_of(nv, -1), var_of(ne, -1);
    std::vector<char> seen;
    std::function<bool(int)> try_eq = [&](int i) -> bool {
        for (int j : adj[static_cast<std::size_t>(i)]) {
            if (seen[static_cast<std::size_t>(j)]) continue;
            seen[static_cast<std::size_t>(j)] = 1;
            if (eq_of[static_cast<std::size_t>(j)] < 0 || try_eq(eq_of[static_cast<std::size_t>(j)])) {
                eq_of[static_cast<std::size_t>(j)] = i;
                var_of[static_cast<std::size_t>(i)] = j;
                return true;
            }
        }
        return false;
    };
    a_.matched = true;
    for (std::size_t i = 0; i < ne; ++i) {
        if (!a_.equations[i].enabled) continue;
        seen.assign(nv, 0);
        if (!try_eq(static_cast<int>(i))) {
            a_.matched = false;
            a_.why_not_matched = fmt::format("the enabled equation {} cannot be matched to a dependent variable",
                                             a_.equations[i].name);
            break;
        }
    }
    // The strict reading of the matching requirement (paper notes 4.7 and
    // lesson 1 of section 10): the enabled equations and the dependent
    // variables must match perfectly; a disabled equation never determines a
    // variable. (The permissive reading finds spurious restarts at larger
    // heights, e.g. a restitution into the taut mode at K = 3.)
    for (std::size_t j = 0; a_.matched && j < nv; ++j)
        if (a_.dependent[j] && eq_of[j] < 0) {
            a_.matched = false;
            a_.why_not_matched = fmt::format("the dependent variable {} has no enabled equation to determine it",
                                             var_text(flat_, a_.variables[j]));
        }
    if (a_.matched)
        for (std::size_t i = 0; i < ne; ++i)
            if (var_of[i] >= 0) a_.matching[static_cast<int>(i)] = var_of[i];
}

}  // namespace

bool is_restart_variable(const ArrayInput& in, const ModeChangeArray& a, std::size_t j) {
    const ArrayVariable& v = a.variables[j];
    if (!a.dependent[j] || v.instant != a.height) return false;
    for (std::size_t c = 0; c < in.next->unknowns.size(); ++c)
        if (in.next->unknowns[c] == v.variable) return v.order < in.next_structure->sigma.d[c];
    return false;
}

std::vector<int> restart_variables(const ArrayInput& in, const ModeChangeArray& a) {
    std::vector<int> out;
    for (std::size_t j = 0; j < a.variables.size(); ++j)
        if (is_restart_variable(in, a, j)) out.push_back(static_cast<int>(j));
    return out;
}

const GiNaC::symbol& ModeChangeArray::symbol(const ArrayVariable& v) const { return symbols.at(v); }

std::vector<GiNaC::ex> root_guards(const Transition& t) {
    std::vector<GiNaC::ex> out;
    if (t.trigger == Transition::Trigger::State && !t.compound) out.push_back(t.guard);
    for (const Transition::Guard& g : t.simultaneous)
        if (g.trigger == Transition::Trigger::State && !g.compound) out.push_back(g.guard);
    return out;
}

std::vector<GiNaC::ex> canonical_root_guards(const ArrayInput& in) {
    std::vector<GiNaC::ex> out;
    for (const GiNaC::ex& g : root_guards(*in.transition))
        out.push_back(in.substitution && !in.substitution->empty() ? checked_expand(g.subs(*in.substitution, kExactSubs))
                                                                  : g);
    return out;
}

EventEntailment holds_at_event(const ArrayInput& in, const GiNaC::ex& r) {
    std::vector<GiNaC::ex> basis;
    std::vector<std::string> names;
    auto add = [&](const std::vector<CompletedEquation>& eqs) {
        for (const CompletedEquation& c : eqs) {
            basis.push_back(c.residual);
            names.push_back(canonical(c.residual) + " = 0 (previous mode)");
        }
    };
    add(in.previous_structure->consistency);
    add(in.previous_structure->reduced);
    for (const GiNaC::ex& g : canonical_root_guards(in)) {
        basis.push_back(g);
        names.push_back(canonical(g) + " = 0 (root fact)");
    }
    const FlatModel& flat = *in.flat;
    auto is_variable = [&](const GiNaC::symbol& s) {
        if (auto m = flat.symbols.meaning(s)) return m->role != SymbolTable::Meaning::Role::Condition;
        return s.get_name().find('@') != std::string::npos;  // an array variable at a later instant
    };
    Entailment e = entailed(r, basis, is_variable);
    EventEntailment out;
    out.holds = e.holds;
    for (int k : e.used) out.used.push_back(names[static_cast<std::size_t>(k)]);
    return out;
}

ModeChangeArray build_mode_change_array(const ArrayInput& in, int height) {
    MODEAUDIT_ASSERT(in.flat && in.previous && in.previous_structure && in.next && in.next_structure && in.transition,
                     "incomplete input to the mode-change array");
    MODEAUDIT_ASSERT(in.next_structure->sigma.well_posed && in.previous_structure->sigma.well_posed,
                     "mode-change array of a mode without Sigma-method offsets");
    ModeChangeArray a;
    Builder(in, a).run(height);
    return a;
}

}  // namespace modeaudit
