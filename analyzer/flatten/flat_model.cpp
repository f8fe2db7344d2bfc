#include "flatten/flat_model.h"

#include <algorithm>
#include <set>

#include "common/internal_error.h"
#include "flatten/expression_limits.h"

namespace modeaudit {

namespace {
GiNaC::ex mode_if_eval(const GiNaC::ex& c, const GiNaC::ex& a, const GiNaC::ex& b) {
    if (c.is_equal(1)) return a;
    if (c.is_equal(0)) return b;
    if (a.is_equal(b)) return a;
    return mode_if(c, a, b).hold();
}
// d/dt mode_if(c, a, b) = mode_if(c, da, db): inside a mode the condition is constant.
GiNaC::ex mode_if_deriv(const GiNaC::ex& c, const GiNaC::ex&, const GiNaC::ex&, unsigned param) {
    (void)c;
    if (param == 0) return 0;
    return param == 1 ? mode_if(c, 1, 0) : mode_if(c, 0, 1);
}
}  // namespace

REGISTER_FUNCTION(mode_if, eval_func(mode_if_eval).derivative_func(mode_if_deriv))

void SymbolTable::remember(const GiNaC::ex& symbol, Meaning m) const {
    index_.add(symbol, m);
    if (by_name_) (*by_name_)[GiNaC::ex_to<GiNaC::symbol>(symbol).get_name()] = m;
}

int SymbolTable::add_variable(const std::string& name) {
    vars_.emplace_back(GiNaC::symbol(name));
    int index = static_cast<int>(vars_.size()) - 1;
    remember(vars_.back(), Meaning{Meaning::Role::Variable, index, 0});
    return index;
}

int SymbolTable::add_condition(const std::string& name) {
    conds_.emplace_back(GiNaC::symbol(name));
    int index = static_cast<int>(conds_.size()) - 1;
    remember(conds_.back(), Meaning{Meaning::Role::Condition, index, 0});
    return index;
}

const GiNaC::symbol& SymbolTable::derivative(int v, int order) const {
    MODEAUDIT_ASSERT(order >= 1, "derivative order must be positive");
    auto key = std::make_pair(v, order);
    auto it = ders_.find(key);
    if (it != ders_.end()) return GiNaC::ex_to<GiNaC::symbol>(it->second);
    std::string base = variable(v).get_name();
    std::string name = order == 1 ? "der(" + base + ")" : "der(" + base + "," + std::to_string(order) + ")";
    auto [pos, ok] = ders_.emplace(key, GiNaC::ex(GiNaC::symbol(name)));
    raise_order(v, order);
    remember(pos->second, Meaning{Meaning::Role::Derivative, v, order});
    return GiNaC::ex_to<GiNaC::symbol>(pos->second);
}

std::optional<GiNaC::symbol> SymbolTable::find_derivative(int v, int order) const {
    auto it = ders_.find({v, order});
    if (it == ders_.end()) return std::nullopt;
    return GiNaC::ex_to<GiNaC::symbol>(it->second);
}

const GiNaC::symbol& SymbolTable::pre(int v) const {
    auto it = pres_.find(v);
    if (it != pres_.end()) return GiNaC::ex_to<GiNaC::symbol>(it->second);
    std::string name = "pre(" + variable(v).get_name() + ")";
    auto [pos, ok] = pres_.emplace(v, GiNaC::ex(GiNaC::symbol(name)));
    remember(pos->second, Meaning{Meaning::Role::Pre, v, 0});
    return GiNaC::ex_to<GiNaC::symbol>(pos->second);
}

std::optional<GiNaC::symbol> SymbolTable::find_pre(int v) const {
    auto it = pres_.find(v);
    if (it == pres_.end()) return std::nullopt;
    return GiNaC::ex_to<GiNaC::symbol>(it->second);
}

std::optional<SymbolTable::Meaning> SymbolTable::meaning(const GiNaC::symbol& s) const {
    if (s.is_equal(GiNaC::ex_to<GiNaC::symbol>(time_))) return Meaning{Meaning::Role::Time, -1, 0};  // not ==, which builds a relational
    if (const Meaning* m = index_.find(s)) return *m;
    // Not one of the table's symbols: one named like one of them stands for
    // it. Names are unique per model (flat names cannot contain '(').
    if (!by_name_) {
        by_name_.emplace();
        by_name_->reserve(index_.size());
        auto name = [](const GiNaC::ex& e) { return GiNaC::ex_to<GiNaC::symbol>(e).get_name(); };
        for (std::size_t v = 0; v < vars_.size(); ++v)
            (*by_name_)[name(vars_[v])] = Meaning{Meaning::Role::Variable, static_cast<int>(v), 0};
        for (std::size_t c = 0; c < conds_.size(); ++c)
            (*by_name_)[name(conds_[c])] = Meaning{Meaning::Role::Condition, static_cast<int>(c), 0};
        for (const auto& [key, e] : ders_) (*by_name_)[name(e)] = Meaning{Meaning::Role::Derivative, key.first, key.second};
        for (const auto& [v, e] : pres_) (*by_name_)[name(e)] = Meaning{Meaning::Role::Pre, v, 0};
    }
    auto it = by_name_->find(s.get_name());
    if (it == by_name_->end()) return std::nullopt;
    return it->second;
}

SymbolTable SymbolTable::subset(const std::vector<int>& variables, const std::vector<int>& conditions) const {
    SymbolTable t;
    t.time_ = time_;
    for (int v : variables) {
        const int nv = static_cast<int>(t.vars_.size());
        t.vars_.push_back(vars_.at(static_cast<std::size_t>(v)));
        t.remember(t.vars_.back(), Meaning{Meaning::Role::Variable, nv, 0});
        for (auto it = ders_.lower_bound({v, 0}); it != ders_.end() && it->first.first == v; ++it) {
            t.ders_.emplace(std::make_pair(nv, it->first.second), it->second);
            t.raise_order(nv, it->first.second);
            t.remember(it->second, Meaning{Meaning::Role::Derivative, nv, it->first.second});
        }
        if (auto p = pres_.find(v); p != pres_.end()) {
            t.pres_.emplace(nv, p->second);
            t.remember(p->second, Meaning{Meaning::Role::Pre, nv, 0});
        }
    }
    for (int c : conditions) {
        const int nc = static_cast<int>(t.conds_.size());
        t.conds_.push_back(conds_.at(static_cast<std::size_t>(c)));
        t.remember(t.conds_.back(), Meaning{Meaning::Role::Condition, nc, 0});
    }
    return t;
}

void SymbolTable::raise_order(int v, int order) const {
    if (max_order_.size() <= static_cast<std::size_t>(v)) max_order_.resize(static_cast<std::size_t>(v) + 1, 0);
    int& best = max_order_[static_cast<std::size_t>(v)];
    best = std::max(best, order);
}

int SymbolTable::highest_derivative(int v) const {
    return v >= 0 && static_cast<std::size_t>(v) < max_order_.size() ? max_order_[static_cast<std::size_t>(v)] : 0;
}

std::optional<LinearPair> linear_pair(const FlatModel& model, const FlatEquation& e) {
    const GiNaC::ex r = checked_expand(e.residual());
    if (!GiNaC::is_a<GiNaC::add>(r) || r.nops() != 2) return std::nullopt;
    int index[2];
    GiNaC::numeric coefficient[2];
    for (std::size_t i = 0; i < 2; ++i) {
        GiNaC::ex term = r.op(i);
        coefficient[i] = 1;
        if (GiNaC::is_a<GiNaC::mul>(term) && term.nops() == 2 && GiNaC::is_a<GiNaC::numeric>(term.op(1))) {
            coefficient[i] = GiNaC::ex_to<GiNaC::numeric>(term.op(1));
            term = term.op(0);
        }
        if (!GiNaC::is_a<GiNaC::symbol>(term)) return std::nullopt;
        auto m = model.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(term));
        if (!m || m->role != SymbolTable::Meaning::Role::Variable) return std::nullopt;
        index[i] = m->index;
    }
    return LinearPair{index[0], index[1], coefficient[0], coefficient[1]};
}

GiNaC::ex total_derivative(const FlatModel& model, const GiNaC::ex& e) {
    std::set<GiNaC::symbol, GiNaC::ex_is_less> syms;
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it)) syms.insert(GiNaC::ex_to<GiNaC::symbol>(*it));
    GiNaC::ex d = 0;
    for (const GiNaC::symbol& s : syms) {
        auto m = model.symbols.meaning(s);
        if (!m) continue;
        GiNaC::ex ds;
        using R = SymbolTable::Meaning::Role;
        switch (m->role) {
            case R::Time: ds = 1; break;
            case R::Variable: {
                const FlatVariable& var = model.variables[static_cast<std::size_t>(m->index)];
                if (var.variability != Variability::Continuous) continue;
                ds = model.symbols.derivative(m->index, 1);
                break;
            }
            case R::Derivative: ds = model.symbols.derivative(m->index, m->order + 1); break;
            case R::Pre:
            case R::Condition: continue;
        }
        d += e.diff(s) * ds;
    }
    return d;
}

namespace {

GiNaC::exmap known_values(const FlatModel& model, const std::vector<GiNaC::ex>& exprs,
                          const std::set<std::string>& skip, const GiNaC::ex& time) {
    GiNaC::exmap m;
    for (const GiNaC::ex& e : exprs)
        for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
            if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
            const GiNaC::symbol& s = GiNaC::ex_to<GiNaC::symbol>(*it);
            if (skip.count(s.get_name()) || m.count(s)) continue;
            auto meaning = model.symbols.meaning(s);
            if (!meaning) continue;
            if (meaning->role == SymbolTable::Meaning::Role::Time) m[s] = time;
            if (meaning->role == SymbolTable::Meaning::Role::Variable) {
                const FlatVariable& v = model.variables[static_cast<std::size_t>(meaning->index)];
                if (v.value && !v.unknown_constant) m[s] = *v.value;
            }
        }
    return m;
}

}  // namespace

GiNaC::exmap parameter_values(const FlatModel& model, const std::vector<GiNaC::ex>& exprs,
                              const std::set<std::string>& skip) {
    return known_values(model, exprs, skip, 0);  // exact: static checks simplify with it
}

GiNaC::exmap parameter_values(const FlatModel& model, const std::vector<GiNaC::ex>& exprs,
                              const std::set<std::string>& skip, double time) {
    return known_values(model, exprs, skip, GiNaC::numeric(time));
}

int FlatModel::find_variable(const std::string& n) const {
    for (std::size_t i = 0; i < variables.size(); ++i)
        if (variables[i].name == n) return static_cast<int>(i);
    return -1;
}

}  // namespace modeaudit
