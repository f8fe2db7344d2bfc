#include "modes/relation_consistency.h"

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>
#include <string>

#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"
#include "flatten/flattener.h"
#include "flatten/symbol_substitution.h"

namespace modeaudit {

namespace {

using Op = Condition::RelOp;

// `d op 0` written as `u op' v` for d = sign*u + offset.
Op flipped(Op op) {
    switch (op) {
        case Op::Lt: return Op::Gt;
        case Op::Le: return Op::Ge;
        case Op::Gt: return Op::Lt;
        case Op::Ge: return Op::Le;
        default: return op;
    }
}

Op negated(Op op) {
    switch (op) {
        case Op::Lt: return Op::Ge;
        case Op::Le: return Op::Gt;
        case Op::Gt: return Op::Le;
        case Op::Ge: return Op::Lt;
        case Op::Eq: return Op::Ne;
        case Op::Ne: return Op::Eq;
    }
    return op;
}

// One end of the interval left for u.
struct End {
    std::optional<GiNaC::numeric> at;  // empty: unbounded
    bool open = false;
};

}  // namespace

// Each round takes the first unconditional equation (in flat order) that,
// rewritten with what is known so far, reads u = k*w or u = 0, as a scan
// from the start would. Only the equations that mention an eliminated
// variable can change, so only those are looked at again (a set ordered by
// equation index keeps "the first"), and only the known entries that
// mention it are rewritten: near-linear instead of a rescan per variable.
GiNaC::exmap RelationConsistency::equal_quantities(const FlatModel& flat) {
    GiNaC::exmap same;
    std::set<std::size_t> pending;
    for (std::size_t i = 0; i < flat.equations.size(); ++i)
        if (flat.equations[i].active_when.empty() && !flat.equations[i].initial) pending.insert(i);
    // Equations whose rewritten form mentions a variable (may hold stale
    // entries: looking at an equation again is always safe), and the known
    // entries whose value mentions it.
    std::map<int, std::vector<std::size_t>> mentioned_by;
    std::map<int, std::vector<int>> entries_on;
    std::set<std::pair<int, std::size_t>> registered;
    auto variable_of = [&](const GiNaC::ex& e) -> int {
        if (!GiNaC::is_a<GiNaC::symbol>(e)) return -1;
        auto m = flat.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(e));
        return m && m->role == SymbolTable::Meaning::Role::Variable ? m->index : -1;
    };
    // `same` by a hash index of its symbols (flatten/symbol_substitution.h):
    // each equation is rewritten with the entries for its own symbols, not
    // by a search of the whole map per symbol.
    SymbolSubstitution by_symbol(same);
    while (!pending.empty()) {
        const std::size_t i = *pending.begin();
        pending.erase(pending.begin());
        const FlatEquation& e = flat.equations[i];
        GiNaC::ex r;
        try {
            r = checked_expand(same.empty() ? e.residual() : by_symbol.apply(e.residual(), kExactSubs));
        } catch (const std::domain_error&) {  // GiNaC's pole_error: it divides by a quantity found zero
            continue;                         // it gives no equality (rewritten(), below)
        }
        for (GiNaC::const_preorder_iterator it = r.preorder_begin(); it != r.preorder_end(); ++it)
            if (int v = variable_of(*it); v >= 0 && registered.emplace(v, i).second) mentioned_by[v].push_back(i);
        std::vector<std::pair<int, GiNaC::numeric>> terms;
        bool linear = true;
        for (const GiNaC::ex& t : terms_of(r)) {
            GiNaC::ex sym = t, c = 1;
            if (GiNaC::is_a<GiNaC::mul>(t) && t.nops() == 2 && GiNaC::is_a<GiNaC::numeric>(t.op(1))) c = t.op(1), sym = t.op(0);
            std::optional<SymbolTable::Meaning> m;
            if (GiNaC::is_a<GiNaC::symbol>(sym) && GiNaC::is_a<GiNaC::numeric>(c))
                m = flat.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(sym));
            if (!m || m->role != SymbolTable::Meaning::Role::Variable ||
                flat.variables.at(static_cast<std::size_t>(m->index)).variability != Variability::Continuous) {
                linear = false;
                break;
            }
            terms.emplace_back(m->index, GiNaC::ex_to<GiNaC::numeric>(c));
        }
        if (!linear || terms.empty() || terms.size() > 2) continue;
        // The variable that goes: undifferentiated, the later one.
        int u = -1;
        std::size_t ui = 0;
        for (std::size_t k = 0; k < terms.size(); ++k)
            if (flat.symbols.highest_derivative(terms[k].first) == 0 && terms[k].first > u) u = terms[k].first, ui = k;
        if (u < 0) continue;
        GiNaC::ex value = 0;
        int w = -1;
        if (terms.size() == 2) {
            const auto& [other, cw] = terms[1 - ui];
            w = other;
            value = -(cw / terms[ui].second) * flat.symbols.variable(w);
        }
        GiNaC::exmap one{{flat.symbols.variable(u), value}};
        std::vector<int> moved;
        if (auto it = entries_on.find(u); it != entries_on.end()) {
            moved = std::move(it->second);
            entries_on.erase(it);
        }
        for (int x : moved) {
            auto [entry, fresh] = same.try_emplace(flat.symbols.variable(x));
            if (fresh) by_symbol.note(entry);
            entry->second = checked_expand(entry->second.subs(one, kExactSubs));
        }
        if (auto [entry, fresh] = same.insert_or_assign(flat.symbols.variable(u), value); fresh) by_symbol.note(entry);
        if (w >= 0) {
            std::vector<int>& on_w = entries_on[w];
            on_w.insert(on_w.end(), moved.begin(), moved.end());
            on_w.push_back(u);
        }
        if (auto it = mentioned_by.find(u); it != mentioned_by.end())
            for (std::size_t j : it->second) pending.insert(j);
    }
    return same;
}

std::optional<GiNaC::ex> RelationConsistency::rewritten(const GiNaC::ex& e, const GiNaC::exmap& same) {
    if (same.empty()) return e;
    try {
        return e.subs(same, kExactSubs);
    } catch (const std::domain_error&) {  // GiNaC's pole_error: division by zero
        return std::nullopt;
    }
}

RelationConsistency::RelationConsistency(const std::vector<ConditionPtr>& relations, const GiNaC::exmap& same) {
    std::map<std::string, std::vector<Bound>> by_quantity;
    for (std::size_t k = 0; k < relations.size(); ++k) {
        const Condition& c = *relations[k];
        if (c.kind != Condition::Kind::Relation || c.op == Op::Eq || c.op == Op::Ne) continue;
        GiNaC::ex d = checked_expand(rewritten(c.lhs - c.rhs, same).value_or(c.lhs - c.rhs));
        GiNaC::numeric offset = 0;
        GiNaC::ex rest = d;
        if (GiNaC::is_a<GiNaC::add>(d)) {
            rest = 0;
            for (const GiNaC::ex& term : d)
                if (GiNaC::is_a<GiNaC::numeric>(term))
                    offset += GiNaC::ex_to<GiNaC::numeric>(term);
                else
                    rest += term;
        } else if (GiNaC::is_a<GiNaC::numeric>(d)) {
            continue;
        }
        if (!offset.is_real() || rest.is_zero()) continue;
        // The quantity u is rest or -rest, whichever prints first: the same
        // u for `x < 1` and `1.5 > x`.
        const std::string plus = canonical(rest), minus = canonical(checked_expand(-rest));
        Bound b;
        b.relation = k;
        b.sign = plus <= minus ? 1 : -1;
        b.offset = offset;
        b.op = c.op;
        by_quantity[plus <= minus ? plus : minus].push_back(b);
    }
    for (auto& [quantity, bounds] : by_quantity)
        if (bounds.size() > 1) groups_.push_back(std::move(bounds));
}

std::vector<std::vector<std::size_t>> RelationConsistency::linked() const {
    std::vector<std::vector<std::size_t>> out;
    for (const std::vector<Bound>& group : groups_) {
        out.emplace_back();
        for (const Bound& b : group) out.back().push_back(b.relation);
    }
    return out;
}

bool RelationConsistency::possible(const std::vector<std::int64_t>& truth) const {
    for (const std::vector<Bound>& group : groups_) {
        End lo, hi;
        for (const Bound& b : group) {
            // d op 0 (or its negation), d = sign*u + offset, as u op' v.
            Op op = truth[b.relation] != 0 ? b.op : negated(b.op);
            if (b.sign < 0) op = flipped(op);
            const GiNaC::numeric v = b.sign > 0 ? -b.offset : b.offset;
            const bool open = op == Op::Lt || op == Op::Gt;
            End& end = op == Op::Lt || op == Op::Le ? hi : lo;
            const bool upper = &end == &hi;
            if (!end.at || (upper ? v < *end.at : v > *end.at)) {
                end.at = v;
                end.open = open;
            } else if (v == *end.at) {
                end.open = end.open || open;
            }
        }
        if (lo.at && hi.at && (*lo.at > *hi.at || (*lo.at == *hi.at && (lo.open || hi.open)))) return false;
    }
    return true;
}

}  // namespace modeaudit
