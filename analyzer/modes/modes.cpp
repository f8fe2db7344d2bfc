#include "modes/modes.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <deque>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "common/internal_error.h"
#include "common/progress.h"
#include "flatten/condition_semantics.h"
#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"
#include "flatten/flattener.h"
#include "modes/clusters.h"
#include "modes/discrete_logic.h"
#include "modes/explorer.h"
#include "modes/relation_consistency.h"
#include "modes/simultaneous.h"

namespace modeaudit {

namespace modes_detail {

// The clusters in one sentence: how many, the largest, the product.
std::string clusters_note(const ModeSet& set) {
    std::size_t largest = 0;
    bool complete = true;
    for (const SwitchingCluster& c : set.clusters) {
        largest = std::max(largest, c.local_modes);
        complete = complete && c.complete;
    }
    return fmt::format("the mode variables form {} independent switching clusters (the largest has {}{} local "
                       "modes); their local modes combine to {}{:.6g} global modes",
                       set.clusters.size(), complete ? "" : "at least ", largest, complete ? "" : "at least ",
                       set.global_mode_count());
}


bool Explorer::reads_continuous_relation(const Condition& c, int depth) const {
    if (depth > 16) return false;
    switch (c.kind) {
        case K::Relation:
            return logic_.is_continuous_relation(c) || reads_continuous_relation(c.lhs, depth + 1) ||
                   reads_continuous_relation(c.rhs, depth + 1);
        case K::Variable:
            if (c.pre) return false;
            if (ConditionPtr d = logic_.boolean_definition(c.variable)) return reads_continuous_relation(*d, depth + 1);
            if (const ex* value = logic_.integer_definition(c.variable)) return reads_continuous_relation(*value, depth + 1);
            return false;
        default:
            for (const ConditionPtr& o : c.operands)
                if (reads_continuous_relation(*o, depth + 1)) return true;
            return false;
    }
}

bool Explorer::reads_continuous_relation(const ex& e, int depth) const {
    if (depth > 16) return false;
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
        auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
        if (!m) continue;
        using R = SymbolTable::Meaning::Role;
        if (m->role == R::Condition &&
            reads_continuous_relation(*flat_.conditions[static_cast<std::size_t>(m->index)], depth + 1))
            return true;
        if (m->role == R::Variable) {
            if (ConditionPtr d = logic_.boolean_definition(m->index))
                if (reads_continuous_relation(*d, depth + 1)) return true;
            if (const ex* value = logic_.integer_definition(m->index))
                if (reads_continuous_relation(*value, depth + 1)) return true;
        }
    }
    return false;
}

// Collects the discrete variables a selection condition depends on, and
// registers its continuous relations as atomic relations.
void Explorer::collect(const ConditionPtr& c, std::set<int>& vars, bool selection) {
    switch (c->kind) {
        case K::Variable: collect_variable(c->variable, vars); return;
        case K::Relation:
            if (logic_.is_continuous_relation(*c)) {
                collect_relation(c, vars, selection);
            } else {
                // A relation between discrete quantities: its variables are mode variables.
                collect_expr(c->lhs, vars, selection);
                collect_expr(c->rhs, vars, selection);
            }
            return;
        default:
            for (const ConditionPtr& o : c->operands) collect(o, vars, selection);
    }
}

void Explorer::collect_variable(int v, std::set<int>& vars) {
    if (!vars.insert(v).second) return;
    if (ConditionPtr d = logic_.boolean_definition(v))
        collect(d, vars, false);
    else if (const ex* value = logic_.integer_definition(v)) {
        collect_expr(*value, vars, false);
    }
}

void Explorer::collect_expr(const ex& e, std::set<int>& vars, bool selection) {
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
        auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
        if (!m) continue;
        using R = SymbolTable::Meaning::Role;
        if (m->role == R::Variable || m->role == R::Pre) collect_variable(m->index, vars);
        if (m->role == R::Condition) collect(flat_.conditions[static_cast<std::size_t>(m->index)], vars, selection);
    }
}

void Explorer::collect_relation(const ConditionPtr& c, std::set<int>& vars, bool selection) {
    // The condition symbols of if-expressions in its sides (x > if y then a else b).
    std::vector<GiNaC::symbol> selectors;
    for (const ex* side : {&c->lhs, &c->rhs})
        for (GiNaC::const_preorder_iterator it = side->preorder_begin(); it != side->preorder_end(); ++it)
            if (GiNaC::is_a<GiNaC::symbol>(*it))
                if (auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
                    m && m->role == SymbolTable::Meaning::Role::Condition) {
                    const GiNaC::symbol& sym = GiNaC::ex_to<GiNaC::symbol>(*it);
                    if (std::find_if(selectors.begin(), selectors.end(),
                                     [&](const GiNaC::symbol& o) { return o.is_equal(sym); }) == selectors.end())
                        selectors.push_back(sym);
                    collect(flat_.conditions[static_cast<std::size_t>(m->index)], vars, selection);
                }
    // At most 2^6 selections; beyond that the relation stays as written.
    const std::size_t n = selectors.size() <= 6 ? selectors.size() : 0;
    for (std::size_t bits = 0; bits < (std::size_t{1} << n); ++bits) {
        ConditionPtr r = c;
        if (n > 0) {
            GiNaC::exmap pick;
            for (std::size_t i = 0; i < n; ++i) pick[selectors[i]] = (bits >> i) & 1U ? 1 : 0;
            auto selected = std::make_shared<Condition>(*c);
            selected->lhs = c->lhs.subs(pick, kExactSubs);
            selected->rhs = c->rhs.subs(pick, kExactSubs);
            if (!logic_.is_continuous_relation(*selected)) continue;
            r = selected;
        }
        const int k = logic_.add_relation(r);
        registered_as_[c.get()].push_back(k);
        if (selection && std::find(implicit_.begin(), implicit_.end(), k) == implicit_.end()) implicit_.push_back(k);
    }
}

bool Explorer::settle(State& t, const State& before) {
    std::string why;
    SourceRange where;
    if (logic_.settle(t, before, why, where)) return true;
    // Once per definition; a loop without pre() is reported by itself (the
    // cut it is evaluated with cycles in no meaningful way).
    if (!definition_loop_ && reported_unsettled_.insert(fmt::format("{}:{}", where.begin.line, where.begin.column)).second)
        sink_.report(rule::modes_logic_unsettled, where.valid() ? where : flat_.range,
                     fmt::format("the discrete equations have no fixed point at an event: {}", why),
                     {"a value defined by an equation must settle once its pre() values are its own (Modelica 3.6, "
                      "8.6); break the loop with pre() or a when-clause"});
    return false;
}

std::vector<std::int64_t> Explorer::mode_values(const State& s) const {
    std::vector<std::int64_t> vals;
    for (int v : mode_vars_) vals.push_back(s.discrete[static_cast<std::size_t>(v)]);
    for (int k : implicit_) vals.push_back(s.relations[static_cast<std::size_t>(k)]);
    return vals;
}

std::string Explorer::mode_id(const std::vector<std::int64_t>& values) const {
    std::string id;
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::string name, val;
        if (i < mode_vars_.size()) {
            const FlatVariable& var = flat_.variables[static_cast<std::size_t>(mode_vars_[i])];
            name = var.name;
            val = var.type == BaseType::Boolean ? (values[i] ? "true" : "false") : std::to_string(values[i]);
        } else {
            name = "(" + logic_.relation_text(static_cast<std::size_t>(implicit_[i - mode_vars_.size()])) + ")";
            val = values[i] ? "true" : "false";
        }
        id += (id.empty() ? "" : ",") + name + "=" + val;
    }
    return id;
}

// The guard function g of a relation becoming true (`becoming`) or false:
// input-language.md: `a > b` gives g = a - b, `a < b` gives g = b - a; the
// event fires when g crosses zero upwards.
bool Explorer::guard_of(const Condition& c, bool becoming, ex& g, SourceRange where, bool report) {
    if (c.kind == K::Relation) {
        bool greater = c.op == Condition::RelOp::Gt || c.op == Condition::RelOp::Ge;
        bool less = c.op == Condition::RelOp::Lt || c.op == Condition::RelOp::Le;
        if (!greater && !less) {
            if (report)
                sink_.report(rule::modes_unsupported_trigger, where,
                             fmt::format("'{}' tests continuous quantities for {}; it has no zero crossing to "
                                         "locate; use '<' or '>'",
                                         canonical(flat_, c), c.op == Condition::RelOp::Eq ? "equality" : "inequality"));
            return false;
        }
        bool up = greater == becoming;  // g = lhs - rhs rises when lhs > rhs becomes true
        g = up ? ex(c.lhs - c.rhs) : ex(c.rhs - c.lhs);
        return true;
    }
    if (c.kind == K::Not) return guard_of(*c.operands[0], !becoming, g, where, report);
    // edge(b) = b and not pre(b): fires when b becomes true.
    if (c.kind == K::And && c.operands.size() == 2 && becoming) {
        const Condition& a = *c.operands[0];
        const Condition& b = *c.operands[1];
        if (a.kind == K::Variable && !a.pre && b.kind == K::Not && b.operands[0]->kind == K::Variable &&
            b.operands[0]->pre && b.operands[0]->variable == a.variable)
            return guard_of(a, true, g, where, report);
    }
    if (c.kind == K::Variable && !c.pre)
        if (ConditionPtr d = logic_.boolean_definition(c.variable)) return guard_of(*d, becoming, g, where, report);
    if (c.kind == K::Sample && becoming) {
        g = flat_.symbols.time() - c.lhs;
        return true;
    }
    // `a and b` becomes true when the smaller of their guards crosses zero
    // upwards, false when the larger of their falling guards does; `or` the
    // other way round. Every operand needs a guard (a relation, or a
    // relation-defined Boolean); the event then fires when the whole
    // condition changes, whichever relation crosses.
    if ((c.kind == K::And || c.kind == K::Or) && c.operands.size() >= 2) {
        const bool smaller = (c.kind == K::And) == becoming;
        ex combined;
        bool ok = true;
        for (std::size_t k = 0; k < c.operands.size() && ok; ++k) {
            ex gk;
            ok = guard_of(*c.operands[k], becoming, gk, where, false);
            combined = k == 0 ? gk : (smaller ? ma_min(combined, gk) : ma_max(combined, gk));
        }
        if (ok) {
            g = combined;
            return true;
        }
    }
    if (report)
        sink_.report(rule::modes_unsupported_trigger, where,
                     fmt::format("the event condition '{}' is not a relation, a combination of relations with "
                                 "and/or/not, a relation-defined Boolean, or sample(); write the part that has no "
                                 "zero crossing (an equality, a discrete variable) as a separate when-clause",
                                 canonical(flat_, c)));
    return false;
}

void Explorer::discrete_reads(const ex& e, std::set<int>& out) const {
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it))
            if (auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
                m && (m->role == SymbolTable::Meaning::Role::Variable ||
                      m->role == SymbolTable::Meaning::Role::Pre) &&
                flat_.variables[static_cast<std::size_t>(m->index)].variability == Variability::Discrete)
                out.insert(m->index);
}

bool Explorer::compound(const Condition& c) const {
    if (c.kind == K::Not) return compound(*c.operands[0]);
    if (c.kind == K::And && c.operands.size() == 2) {  // edge(b)
        const Condition& a = *c.operands[0];
        const Condition& b = *c.operands[1];
        if (a.kind == K::Variable && !a.pre && b.kind == K::Not && b.operands[0]->kind == K::Variable &&
            b.operands[0]->pre && b.operands[0]->variable == a.variable)
            return compound(a);
    }
    if (c.kind == K::And || c.kind == K::Or) return true;
    if (c.kind == K::Variable && !c.pre)
        if (ConditionPtr d = logic_.boolean_definition(c.variable)) return compound(*d);
    return false;
}

bool Explorer::reads_discrete(const Condition& c) const {
    if (c.kind == K::Variable) return true;
    if (c.kind == K::Relation) return !logic_.is_continuous_relation(c);
    for (const ConditionPtr& o : c.operands)
        if (reads_discrete(*o)) return true;
    return false;
}

bool Explorer::discrete_event(const Condition& c) const {
    switch (c.kind) {
        case K::Relation: {
            if (logic_.is_continuous_relation(c)) return false;
            std::set<int> reads;
            discrete_reads(c.lhs, reads);
            discrete_reads(c.rhs, reads);
            if (reads.empty()) return false;
            for (int v : reads)
                if (relevant_.count(v) || logic_.integer_definition(v) || logic_.boolean_definition(v)) return false;
            return true;
        }
        case K::And:
        case K::Or:
        case K::Not:
            for (const ConditionPtr& o : c.operands)
                if (!discrete_event(*o)) return false;
            return !c.operands.empty();
        default: return false;
    }
}

ConditionPtr Explorer::specialize(const ConditionPtr& c, const State& s, int depth) const {
    return fold_condition(c, [&](const ConditionPtr& leaf) -> ConditionPtr {
        switch (leaf->kind) {
            case K::Variable: {
                // A definition is inlined a bounded number of times (a loop
                // without pre() is reported by the definitions' ordering).
                ConditionPtr d = leaf->pre ? nullptr : logic_.boolean_definition(leaf->variable);
                if (d && depth < 8) return specialize(d, s, depth + 1);
                return condition_constant(s.discrete[static_cast<std::size_t>(leaf->variable)] != 0, leaf->range);
            }
            case K::Relation: {
                if (!logic_.is_continuous_relation(*leaf)) return condition_constant(eval(*leaf, s), leaf->range);
                // An if-expression on mode variables in a side: its branch here.
                auto r = std::make_shared<Condition>(*leaf);
                r->lhs = substitute_discrete(leaf->lhs, s);
                r->rhs = substitute_discrete(leaf->rhs, s);
                return r;
            }
            default: return leaf;
        }
    });
}

// The number `e` is with `values` substituted; none where it is not a
// number, or where the substitution divides by zero: a relation
// v/vt > 15 read at start values where vt has none (0), as in the MSL's
// heating diode, is undecided there, not an internal error.
std::optional<GiNaC::numeric> number_at(const ex& e, const GiNaC::exmap& values) {
    try {
        return numeric_value(e.subs(values, kExactSubs));
    } catch (const std::domain_error&) {  // GiNaC's pole_error: division by zero
        return std::nullopt;
    } catch (const std::runtime_error&) {  // CLN's division by zero
        return std::nullopt;
    }
}

ex Explorer::guard_in_state(const ex& g, const State& s) const {
    GiNaC::exmap outside;  // pre(v) -> v, v -> a stand-in symbol
    std::vector<std::pair<GiNaC::symbol, ex>> back;
    for (GiNaC::const_preorder_iterator it = g.preorder_begin(); it != g.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
        auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
        using R = SymbolTable::Meaning::Role;
        if (!m || (m->role != R::Variable && m->role != R::Pre) || relevant_.count(m->index)) continue;
        const FlatVariable& var = flat_.variables[static_cast<std::size_t>(m->index)];
        if (var.variability != Variability::Discrete || var.type == BaseType::Real || outside.count(*it)) continue;
        GiNaC::symbol stand_in;
        outside[*it] = stand_in;
        back.emplace_back(stand_in, flat_.symbols.variable(m->index));
    }
    if (outside.empty()) return substitute_discrete(g, s);
    ex r = substitute_discrete(g.subs(outside, kExactSubs), s);
    GiNaC::exmap restore;
    for (const auto& [stand_in, v] : back) restore[stand_in] = v;
    return r.subs(restore, kExactSubs);
}

State Explorer::initial_state() {
    State s;
    s.discrete.assign(flat_.variables.size(), 0);
    for (int v : relevant_) {
        const FlatVariable& var = flat_.variables[static_cast<std::size_t>(v)];
        if (var.variability != Variability::Discrete) continue;
        auto n = numeric_value(var.start ? *var.start : ex(0));
        s.discrete[static_cast<std::size_t>(v)] = n && n->is_real() ? n->to_long() : 0;
    }
    // Start values (default 0, as in Modelica) of what the relations read.
    GiNaC::exmap start;
    for (const ConditionPtr& c : logic_.relations())
        for (const ex* side : {&c->lhs, &c->rhs})
            for (GiNaC::const_preorder_iterator it = side->preorder_begin(); it != side->preorder_end(); ++it) {
                if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
                auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
                if (!m) continue;
                using R = SymbolTable::Meaning::Role;
                if (m->role == R::Time || m->role == R::Derivative) {
                    start[*it] = 0;
                } else if (m->role == R::Variable) {
                    const FlatVariable& var = flat_.variables[static_cast<std::size_t>(m->index)];
                    if (var.variability == Variability::Continuous || var.variability == Variability::Discrete)
                        start[*it] = var.start ? *var.start : ex(0);
                }
            }
    s.relations.assign(logic_.relations().size(), 0);
    for (std::size_t k = 0; k < logic_.relations().size(); ++k) {
        const Condition& c = *logic_.relations()[k];
        auto a = number_at(c.lhs, start), b = number_at(c.rhs, start);
        bool v = false;
        if (a && b && a->is_real() && b->is_real()) v = relation_holds(c.op, *a, *b);
        s.relations[k] = v ? 1 : 0;
    }
    // `when initial()` assignments.
    State before = s;
    for (const FlatWhen& w : flat_.whens) {
        if (!w.initial) continue;
        for (const WhenAction& a : w.actions)
            if (a.kind == WhenAction::Kind::AssignDiscrete && relevant_.count(a.variable)) {
                if (a.bool_value)
                    s.discrete[static_cast<std::size_t>(a.variable)] = eval(*a.bool_value, before) ? 1 : 0;
                else if (auto n = numeric_value(substitute_discrete(a.value, before)); n && n->is_real())
                    s.discrete[static_cast<std::size_t>(a.variable)] = n->to_long();
            }
    }
    // The defined variables from the start values (their pre() at the start).
    settle(s, before);
    return s;
}

const std::optional<Transition>& Explorer::relation_crossing(std::size_t k, bool becoming) {
    auto key = std::make_pair(k, becoming);
    if (auto it = crossings_.find(key); it != crossings_.end()) return it->second;
    std::optional<Transition> out;
    ex g;
    const ConditionPtr& relation = logic_.relations()[k];
    if (guard_of(*relation, becoming, g, relation->range, false) && !falls_with_time(g)) {
        Transition tr;
        tr.guard = g;
        tr.guard_text = canonical_in(flat_, g);
        tr.range = relation->range;
        if (definition_text_.empty())
            for (const RelationDefinition& rd : flat_.relation_definitions)
                definition_text_.push_back(canonical(flat_, *rd.condition));
        for (std::size_t d = 0; d < definition_text_.size(); ++d)
            if (definition_text_[d].find(logic_.relation_text(k)) != std::string::npos) {
                tr.relation_definition = static_cast<int>(d);
                tr.range = flat_.relation_definitions[d].range;
                break;
            }
        tr.trigger = trigger_of(g);
        out = tr;
    }
    return crossings_.emplace(key, std::move(out)).first->second;
}

const GiNaC::exmap& Explorer::same() const {
    if (!same_) same_ = RelationConsistency::equal_quantities(flat_);
    return *same_;
}

const std::vector<std::pair<std::size_t, int>>& Explorer::same_function(std::size_t k) {
    if (same_function_.empty()) {
        // Each relation's lhs - rhs, normalised in sign, by its text.
        const std::size_t n = logic_.relations().size();
        same_function_.resize(n);
        std::map<std::string, std::vector<std::pair<std::size_t, int>>> by_text;
        for (std::size_t j = 0; j < n; ++j) {
            const Condition& c = *logic_.relations()[j];
            // Variables every mode makes equal (or a multiple of another)
            // are rewritten, as for the consistency of the relations.
            const ex d = checked_expand(RelationConsistency::rewritten(c.lhs - c.rhs, same()).value_or(c.lhs - c.rhs));
            const std::string plus = canonical_in(flat_, d), minus = canonical_in(flat_, checked_expand(-d));
            const bool flip = minus < plus;
            by_text[flip ? minus : plus].emplace_back(j, flip ? -1 : 1);
        }
        for (const auto& [text, list] : by_text)
            if (list.size() > 1)
                for (const auto& [a, fa] : list)
                    for (const auto& [b, fb] : list)
                        if (a != b) same_function_[a].emplace_back(b, fa * fb);
    }
    return same_function_[k];
}

// Whether g is a + b*time with b a negative number and a of parameters
// only: time runs forward, so g never crosses zero upwards (`time < T`
// becomes false once and never true again).
bool Explorer::falls_with_time(const ex& g) const {
    if (trigger_of(g) != Transition::Trigger::Time) return false;
    const GiNaC::symbol& t = flat_.symbols.time();
    const ex e = checked_expand(g);
    if (!e.is_polynomial(t) || e.degree(t) != 1) return false;
    const ex b = e.coeff(t, 1);
    return GiNaC::is_a<GiNaC::numeric>(b) && GiNaC::ex_to<GiNaC::numeric>(b).is_real() &&
           GiNaC::ex_to<GiNaC::numeric>(b).is_negative();
}

const std::map<ex, std::vector<int>, GiNaC::ex_is_less>& Explorer::equations_with() const {
    if (!equations_with_) {
        auto& index = equations_with_.emplace();
        for (std::size_t i = 0; i < flat_.equations.size(); ++i) {
            std::set<ex, GiNaC::ex_is_less> syms;
            ex r = flat_.equations[i].residual();
            for (GiNaC::const_preorder_iterator it = r.preorder_begin(); it != r.preorder_end(); ++it)
                if (GiNaC::is_a<GiNaC::symbol>(*it)) syms.insert(*it);
            for (const ex& sym : syms) index[sym].push_back(static_cast<int>(i));
        }
    }
    return *equations_with_;
}

// Whether g = 0 is (up to a constant factor) one of the mode's equations.
// Only the flat equations that mention one of g's symbols are compared
// (an index built once), so the check costs O(log n) per transition.
bool Explorer::guard_is_equation(const Mode& m, const ex& guard) const {
    if (guard.is_zero()) return false;
    ex g = checked_expand(guard);
    const std::vector<int>* candidates = nullptr;
    const auto& index = equations_with();
    for (GiNaC::const_preorder_iterator it = g.preorder_begin(); it != g.preorder_end() && !candidates; ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it))
            if (auto f = index.find(*it); f != index.end()) candidates = &f->second;
    static const std::vector<int> none;
    if (!candidates) candidates = &none;
    for (int eq : *candidates) {
        int pos = equation_position(m, eq);
        if (pos < 0) continue;
        ex r = checked_expand(m.equations[static_cast<std::size_t>(pos)].residual);
        if (!r.is_zero() && is_constant_multiple(r, g)) return true;
    }
    if (same().empty()) return false;
    // The equation may be written on a variable equal to one of g's
    // (a^2 + y^2 = L^2 with a + b = x, b = 0 for the guard x^2 + y^2 - L^2).
    const std::optional<ex> g_same = RelationConsistency::rewritten(g, same());
    if (!g_same) return false;  // it divides by a quantity every mode makes zero: nothing to match
    const ex gs = checked_expand(*g_same);
    if (gs.is_zero()) return false;
    // Modes share most residuals: each is rewritten and expanded once.
    for (const ModeEquation& e : m.equations) {
        auto [it, added] = rewritten_.try_emplace(e.residual);
        if (added) it->second = checked_expand(RelationConsistency::rewritten(e.residual, same()).value_or(e.residual));
        const ex& r = it->second;
        if (!r.is_zero() && is_constant_multiple(r, gs)) return true;
    }
    return false;
}

// The contact mode of each transition with restart constraints: the mode
// (other than the source) in which the guard's zero set g = 0 is an
// equation. A rebound that never stays in contact has no reachable one but
// may still pass through it during the impact (seed 001, section 9; paper
// notes 7.2): the mode one Boolean flip away from the source in which
// g = 0 is an equation is then added, marked transient_only.
void Explorer::add_contact_modes(ModeSet& set, const std::vector<State>& state_of,
                                 std::map<std::vector<std::int64_t>, int>& mode_index) const {
    const std::size_t n_transitions = set.transitions.size();
    for (std::size_t k = 0; k < n_transitions; ++k) {
        Transition& t = set.transitions[k];
        if (t.restart_constraints.empty() || t.trigger != Transition::Trigger::State) continue;
        ex g = checked_expand(t.guard);
        if (g.is_zero()) continue;
        for (std::size_t m = 0; m < set.modes.size() && t.contact_mode < 0; ++m)
            if (static_cast<int>(m) != t.from && guard_is_equation(set.modes[m], g)) t.contact_mode = static_cast<int>(m);
        if (t.contact_mode >= 0) continue;
        for (int v : mode_vars_) {
            if (flat_.variables[static_cast<std::size_t>(v)].type != BaseType::Boolean || logic_.is_defined(v)) continue;
            State s = state_of[static_cast<std::size_t>(t.from)];
            s.discrete[static_cast<std::size_t>(v)] ^= 1;
            auto vals = mode_values(s);
            if (mode_index.count(vals)) continue;
            Mode m = build_mode(s, vals);
            if (!guard_is_equation(m, g)) continue;
            m.transient_only = true;
            t.contact_mode = static_cast<int>(set.modes.size());
            mode_index[vals] = t.contact_mode;
            set.modes.push_back(std::move(m));
            break;
        }
    }
}

Mode Explorer::build_mode(const State& s, const std::vector<std::int64_t>& values) const {
    Mode m;
    m.values = values;
    m.id = mode_id(values);
    std::vector<std::int64_t> cond(flat_.conditions.size());
    GiNaC::exmap csub;
    for (std::size_t k = 0; k < flat_.conditions.size(); ++k) {
        cond[k] = eval(*flat_.conditions[k], s) ? 1 : 0;
        csub[flat_.symbols.condition(static_cast<int>(k))] = GiNaC::numeric(static_cast<long>(cond[k]));
    }
    auto active = [&](const std::vector<std::pair<int, bool>>& when) {
        for (const auto& [k, val] : when)
            if ((cond[static_cast<std::size_t>(k)] != 0) != val) return false;
        return true;
    };
    for (std::size_t i = 0; i < flat_.equations.size(); ++i) {
        const FlatEquation& e = flat_.equations[i];
        if (!active(e.active_when)) continue;
        ex r = e.residual();
        if (!csub.empty()) r = r.subs(csub, kExactSubs);
        r = substitute_discrete(r, s);
        m.equations.push_back({static_cast<int>(i), r});
    }
    std::vector<bool> aliased(flat_.variables.size(), false);
    for (const auto& a : flat_.aliases) aliased[static_cast<std::size_t>(a.variable)] = true;
    for (std::size_t v = 0; v < flat_.variables.size(); ++v) {
        const FlatVariable& var = flat_.variables[v];
        if (var.variability != Variability::Continuous || var.exogenous || aliased[v]) continue;
        m.unknowns.push_back(static_cast<int>(v));
    }
    for (std::size_t i = 0; i < flat_.asserts.size(); ++i)
        if (active(flat_.asserts[i].active_when)) m.asserts.push_back(static_cast<int>(i));
    return m;
}

// The cluster's local modes: breadth first from the initial state through
// the crossings of its relations and its when-clauses only (the other
// clusters' values stay as they start: nothing the cluster does reads or
// writes them), counted by the values of its mode variables. A guard that
// is an equation of the source mode is not looked for here (the global
// enumeration drops such a transition), so the count can only be larger.
std::size_t Explorer::explore_cluster(const State& init, const std::vector<std::size_t>& relations,
                                      const std::vector<LocalWhen>& whens, const std::vector<int>& variables,
                                      bool& complete) {
    auto local_values = [&](const State& s) {
        std::vector<std::int64_t> vals;
        for (int i : variables) {
            const std::size_t k = static_cast<std::size_t>(i);
            vals.push_back(k < mode_vars_.size() ? s.discrete[static_cast<std::size_t>(mode_vars_[k])]
                                                 : s.relations[static_cast<std::size_t>(implicit_[k - mode_vars_.size()])]);
        }
        return vals;
    };
    std::set<State> seen{init};
    std::set<std::vector<std::int64_t>> local{local_values(init)};
    std::deque<State> queue{init};
    auto visit = [&](const State& t) {
        if (seen.count(t)) return;
        auto vals = local_values(t);
        if (!local.count(vals) && local.size() >= limits_.max_modes) {
            complete = false;
            return;
        }
        if (seen.size() >= limits_.max_modes * 16) {
            complete = false;
            return;
        }
        local.insert(vals);
        seen.insert(t);
        queue.push_back(t);
    };
    while (!queue.empty()) {
        const State s = queue.front();
        queue.pop_front();
        for (std::size_t k : relations) {
            const bool now = s.relations[k] != 0;
            if (!relation_crossing(k, !now)) continue;
            std::optional<State> t = cross(s, k);
            if (!t || !settle_silently(*t, s)) continue;
            visit(*t);
        }
        for (const LocalWhen& lw : whens) {
            const FlatWhen& fw = flat_.whens[lw.when];
            const ConditionPtr& trigger = fw.triggers[lw.trigger];
            if (reads_discrete(*trigger)) {
                if (eval(*trigger, s)) continue;
                if (specialize(trigger, s, 0)->kind == K::Constant) continue;
            }
            State t = after_assignments(fw, s);
            if (!settle_silently(t, s)) continue;
            visit(t);
        }
    }
    return local.size();
}

// State s with relation k crossed (relations only; not yet settled), or
// none when that valuation holds at no point.
std::optional<State> Explorer::cross(const State& s, std::size_t k) {
    const bool now = s.relations[k] != 0;
    State t = s;
    t.relations[k] = now ? 0 : 1;
    // Relations on the same function that complement each other (x <
    // 0.5 and x >= 0.5 written in two places) cross at the same
    // instant: where the flip alone is no possible valuation, they take
    // their values past the crossing too (a pair such as v > 0 and
    // v < 0, both false at v = 0, keeps single flips: whether the other
    // follows depends on the flow after the event).
    if (!consistency_->possible(t.relations)) {
        State joint = t;
        bool between = false;  // a valuation with j flipped alone holds: the crossings are apart
        for (const auto& [j, factor] : same_function(k)) {
            const Condition& cj = *logic_.relations()[j];
            const Condition& ck = *logic_.relations()[k];
            const bool k_greater = ck.op == Condition::RelOp::Gt || ck.op == Condition::RelOp::Ge;
            const int past = (k_greater == !now) ? 1 : -1;  // sign of k's lhs - rhs past the crossing
            const bool j_greater = cj.op == Condition::RelOp::Gt || cj.op == Condition::RelOp::Ge;
            const bool j_less = cj.op == Condition::RelOp::Lt || cj.op == Condition::RelOp::Le;
            if (!j_greater && !j_less) continue;
            const std::int64_t value = ((factor * past > 0) == j_greater) ? 1 : 0;
            if (value == s.relations[j]) continue;
            std::vector<std::int64_t> alone = s.relations;
            alone[j] = value;
            between = between || consistency_->possible(alone);
            joint.relations[j] = value;
        }
        if (!between) t = std::move(joint);
    }
    if (!consistency_->possible(t.relations)) return std::nullopt;
    return t;
}

// The transitions out of state s through the crossings of `relations`
// and the when-guards `whens` (indices into when_guards_), in that order:
// visit(t, transition, has_resets) for each, t the settled target state.
void Explorer::successors(const State& s, const std::vector<std::size_t>& relations,
                          const std::vector<std::size_t>& whens, const Visit& visit) {
    // (a) crossings of atomic relations.
    // A valuation of the relations that holds at no point (x < 0.5
    // without x < 1.5) is not reached; the defined variables follow
    // from their equations with pre() the values before the crossing.
    for (std::size_t k : relations) {
        bool now = s.relations[k] != 0;
        const std::optional<Transition>& crossing = relation_crossing(k, !now);
        if (!crossing) continue;
        std::optional<State> crossed = cross(s, k);
        if (!crossed) continue;
        State& t = *crossed;
        if (!settle(t, s)) continue;
        visit(t, *crossing, false);
    }
    // (b) when-clauses.
    for (std::size_t w : whens) {
        const WhenGuard& wg = when_guards_[w];
        if (!wg.ok) continue;
        const FlatWhen& fw = flat_.whens[wg.when];
        ex g = wg.g;
        ConditionPtr used = fw.triggers[wg.trigger];  // the condition whose guard g is
        if (wg.per_state) {
            const ConditionPtr& trigger = fw.triggers[wg.trigger];
            // Already true here: no rising edge before it falls (another transition).
            if (eval(*trigger, s)) continue;
            ConditionPtr decided = specialize(trigger, s, 0);
            if (decided->kind == K::Constant) continue;  // cannot become true in this mode
            if (!guard_of(*decided, true, g, wg.range, false)) {
                if (reported_triggers_.insert({wg.when, wg.trigger}).second)
                    guard_of(*decided, true, g, wg.range, true);
                continue;
            }
            used = decided;
        }
        State t = after_assignments(fw, s);
        if (!settle(t, s)) continue;
        Transition tr;
        // An if-expression on mode variables in the condition reads as
        // the branch this state selects.
        tr.guard = guard_in_state(g, s);
        tr.guard_text = canonical_in(flat_, tr.guard);
        tr.when_clause = static_cast<int>(wg.when);
        tr.trigger_index = static_cast<int>(wg.trigger);
        tr.sampled = fw.triggers[wg.trigger]->kind == Condition::Kind::Sample;
        tr.compound = compound(*used);
        // A clock reads as itself: its guard is only its first instant.
        if (tr.sampled) tr.guard_text = canonical(flat_, *fw.triggers[wg.trigger]);
        tr.priority = fw.priority;
        tr.range = fw.range;
        bool has_resets = false;
        for (const WhenAction& a : fw.actions) {
            if (a.kind == WhenAction::Kind::Reinit) tr.resets.push_back(a);
            if (a.kind == WhenAction::Kind::RestartConstraint) tr.restart_constraints.push_back(a);
            // Assigning a discrete variable that selects no equations (a
            // counter, a sampled value) is an event of its own too.
            if (a.kind != WhenAction::Kind::AssignDiscrete || !relevant_.count(a.variable)) has_resets = true;
        }
        tr.trigger = trigger_of(tr.guard);
        visit(t, tr, has_resets);
    }
}

State Explorer::after_assignments(const FlatWhen& fw, const State& s) const {
    State t = s;
    for (const WhenAction& a : fw.actions) {
        if (a.kind != WhenAction::Kind::AssignDiscrete || !relevant_.count(a.variable)) continue;
        if (a.bool_value)
            t.discrete[static_cast<std::size_t>(a.variable)] = eval(*a.bool_value, s) ? 1 : 0;
        else if (auto n = numeric_value(substitute_discrete(a.value, s)); n && n->is_real())
            t.discrete[static_cast<std::size_t>(a.variable)] = n->to_long();
    }
    return t;
}

bool Explorer::settle_silently(State& t, const State& before) const {
    std::string why;
    SourceRange where;
    return logic_.settle(t, before, why, where);
}

void Explorer::find_clusters(ModeSet& set, const State& init, const std::vector<LocalWhen>& whens) {
    if (set.mode_variables.empty()) return;
    const VariableCoupling coupling(flat_);
    std::vector<int> component(set.mode_variables.size(), -1);
    for (std::size_t i = 0; i < set.mode_variables.size(); ++i)
        component[i] = i < mode_vars_.size()
                           ? coupling.component(mode_vars_[i])
                           : coupling.component_of(*logic_.relations()[static_cast<std::size_t>(implicit_[i - mode_vars_.size()])]);
    // A relation or when-clause that reads no variable (time only) belongs
    // to the cluster of the implicit mode variable it is, or else cannot be
    // placed: the model is then taken as one cluster.
    std::vector<int> relation_component(logic_.relations().size(), -1);
    bool placed = true;
    for (std::size_t k = 0; k < relation_component.size(); ++k) {
        relation_component[k] = coupling.component_of(*logic_.relations()[k]);
        for (std::size_t j = 0; j < implicit_.size(); ++j)
            if (static_cast<std::size_t>(implicit_[j]) == k) relation_component[k] = component[mode_vars_.size() + j];
        if (relation_component[k] < 0) placed = false;
    }
    std::vector<int> when_component(flat_.whens.size(), -1);
    for (std::size_t w = 0; w < flat_.whens.size(); ++w) {
        const FlatWhen& fw = flat_.whens[w];
        for (const WhenAction& a : fw.actions)
            if (a.variable >= 0) when_component[w] = coupling.component(a.variable);
        for (const ConditionPtr& t : fw.triggers)
            if (when_component[w] < 0) when_component[w] = coupling.component_of(*t);
    }
    for (int& c : component)
        if (c < 0) placed = false;
    if (!placed) std::fill(component.begin(), component.end(), 0);
    set.clusters = group_clusters(component);
    if (set.clusters.size() == 1) {  // the global enumeration is the cluster's
        set.clusters[0].local_modes = set.long_mode_count();
        set.clusters[0].complete = set.complete;
        return;
    }
    for (SwitchingCluster& cluster : set.clusters) {
        const int c = component[static_cast<std::size_t>(cluster.mode_variables.front())];
        std::vector<std::size_t> relations;
        for (std::size_t k = 0; k < relation_component.size(); ++k)
            if (relation_component[k] == c) relations.push_back(k);
        std::vector<LocalWhen> local_whens;
        for (const LocalWhen& lw : whens)
            if (when_component[lw.when] == c) local_whens.push_back(lw);
        cluster.local_modes = explore_cluster(init, relations, local_whens, cluster.mode_variables, cluster.complete);
    }
}

ModeSet Explorer::run() {
    ModeSet set;
    std::set<int> vars;
    // Conditions that only an Integer definition selects by decide no
    // equations themselves: their relations are not mode variables.
    std::vector<bool> selects(flat_.conditions.size(), false);
    auto mark = [&](const ex& e) {
        for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
            if (GiNaC::is_a<GiNaC::symbol>(*it))
                if (auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
                    m && m->role == SymbolTable::Meaning::Role::Condition)
                    selects[static_cast<std::size_t>(m->index)] = true;
    };
    std::vector<bool> in_definition(flat_.conditions.size(), false);
    for (const IntegerDefinition& d : flat_.integer_definitions)
        for (GiNaC::const_preorder_iterator it = d.value.preorder_begin(); it != d.value.preorder_end(); ++it)
            if (GiNaC::is_a<GiNaC::symbol>(*it))
                if (auto m = flat_.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
                    m && m->role == SymbolTable::Meaning::Role::Condition)
                    in_definition[static_cast<std::size_t>(m->index)] = true;
    for (const FlatEquation& e : flat_.equations) {
        mark(e.lhs);
        mark(e.rhs);
        for (const auto& [k, value] : e.active_when) selects[static_cast<std::size_t>(k)] = true;
    }
    for (const FlatAssert& a : flat_.asserts)
        for (const auto& [k, value] : a.active_when) selects[static_cast<std::size_t>(k)] = true;
    for (const FlatWhen& w : flat_.whens)
        for (const WhenAction& a : w.actions) mark(a.value);
    for (std::size_t k = 0; k < flat_.conditions.size(); ++k)
        collect(flat_.conditions[k], vars, selects[k] || !in_definition[k]);
    // A discrete variable defined by an equation over relations of
    // continuous quantities changes when they cross, at events of its own,
    // even where it selects no equation (an output `b = time >= 0.5`): it
    // is a mode variable too, so that each change is a transition the
    // simulation locates (Modelica 3.6, 8.5: a relation generates events).
    // One an assert reads stays out: the assert is checked on its relations
    // through the integration (a mode in which it is false throughout
    // would read as an inadmissible mode, not as the assert failing).
    std::set<int> asserted;
    std::function<void(const Condition&)> read_by_assert = [&](const Condition& c) {
        if (c.kind == K::Variable) asserted.insert(c.variable);
        for (const ConditionPtr& o : c.operands) read_by_assert(*o);
    };
    for (const FlatAssert& a : flat_.asserts)
        if (a.condition) read_by_assert(*a.condition);
    for (const RelationDefinition& d : flat_.relation_definitions)
        if (!vars.count(d.variable) && !asserted.count(d.variable) && reads_continuous_relation(*d.condition, 0))
            collect_variable(d.variable, vars);
    for (const IntegerDefinition& d : flat_.integer_definitions)
        if (!vars.count(d.variable) && !asserted.count(d.variable) && reads_continuous_relation(d.value, 0))
            collect_variable(d.variable, vars);
    // Discrete variables that decide the modes: the mode variables, what
    // their definitions read, and what their when-assignments read, to a
    // fixed point. Others (an event counter, a sampled value) do not split
    // modes and are left out of the explored state.
    relevant_ = vars;
    for (bool grew = true; grew;) {
        grew = false;
        for (const FlatWhen& w : flat_.whens)
            for (const WhenAction& a : w.actions) {
                if (a.kind != WhenAction::Kind::AssignDiscrete || !relevant_.count(a.variable)) continue;
                std::set<int> reads;
                if (a.bool_value) collect(a.bool_value, reads, false);
                discrete_reads(a.value, reads);
                for (int r : reads)
                    if (relevant_.insert(r).second) grew = true;
            }
    }
    for (int v : vars) {
        const FlatVariable& var = flat_.variables[static_cast<std::size_t>(v)];
        if (var.variability == Variability::Discrete &&
            (var.type == BaseType::Boolean || var.type == BaseType::Integer))
            mode_vars_.push_back(v);
    }
    // Relations of relation definitions (of any Boolean) are atomic relations
    // too: a relation-defined variable that is not a mode variable may still
    // trigger a when-clause.
    for (const RelationDefinition& r : flat_.relation_definitions) {
        std::set<int> ignored;
        collect(r.condition, ignored, false);
    }
    for (const IntegerDefinition& d : flat_.integer_definitions) {
        std::set<int> ignored;
        collect_expr(d.value, ignored, false);
    }
    static const GiNaC::exmap no_quantities;
    consistency_.emplace(logic_.relations(), logic_.relations().empty() ? no_quantities : same());
    std::vector<std::string> loop;
    SourceRange loop_at;
    definition_loop_ = !logic_.order_definitions(loop, loop_at);
    if (definition_loop_)
        sink_.report(rule::modes_logic_unsettled, loop_at.valid() ? loop_at : flat_.range,
                     fmt::format("the discrete equations define {} through each other with no pre() between them "
                                 "(an algebraic loop of discrete variables)",
                                 fmt::join(loop, " -> ")),
                     {"read the left limit pre(v) on one side of the loop, or assign one of them in a when-clause"});
    for (int v : mode_vars_) {
        ModeVariable mv;
        mv.name = flat_.variables[static_cast<std::size_t>(v)].name;
        mv.variable = v;
        mv.type = flat_.variables[static_cast<std::size_t>(v)].type;
        set.mode_variables.push_back(mv);
    }
    for (int k : implicit_) {
        ModeVariable mv;
        mv.name = "(" + logic_.relation_text(static_cast<std::size_t>(k)) + ")";
        mv.condition = k;
        set.mode_variables.push_back(mv);
    }

    std::vector<WhenGuard>& when_guards = when_guards_;
    for (std::size_t w = 0; w < flat_.whens.size(); ++w) {
        const FlatWhen& fw = flat_.whens[w];
        for (std::size_t k = 0; k < fw.triggers.size(); ++k) {
            const ConditionPtr& t = fw.triggers[k];
            const SourceRange range = t->range.valid() ? t->range : fw.range;
            ex g;
            if (discrete_event(*t)) {
                bool assigns_only = true;  // only discrete variables that decide no mode
                for (const WhenAction& a : fw.actions)
                    assigns_only = assigns_only && a.kind == WhenAction::Kind::AssignDiscrete && !relevant_.count(a.variable);
                if (assigns_only) {
                    set.discrete_triggers.emplace_back(static_cast<int>(w), static_cast<int>(k));
                    continue;
                }
            }
            const bool per_state = !guard_of(*t, true, g, range, false) && reads_discrete(*t);
            const bool ok = per_state || guard_of(*t, true, g, range, true);
            when_guards.push_back({w, k, g, ok, per_state, range});
        }
    }
    // The discrete values such a condition reads are part of the explored
    // state (its relations over continuous quantities are not: they are
    // false between events, as any when-condition's).
    std::function<void(const Condition&)> read_by_trigger = [&](const Condition& c) {
        if (c.kind == K::Variable) relevant_.insert(c.variable);
        if (c.kind == K::Relation && !logic_.is_continuous_relation(c))
            for (const ex* side : {&c.lhs, &c.rhs}) discrete_reads(*side, relevant_);
        for (const ConditionPtr& o : c.operands) read_by_trigger(*o);
    };
    for (const WhenGuard& wg : when_guards)
        if (wg.per_state) read_by_trigger(*flat_.whens[wg.when].triggers[wg.trigger]);

    State init = initial_state();
    std::map<State, bool> seen;
    std::map<std::vector<std::int64_t>, int> mode_index;
    std::deque<State> queue{init};
    std::map<State, int> depth{{init, 0}};  // switches from the initial state
    seen[init] = true;
    std::set<std::tuple<int, int, std::string, int>> recorded;
    std::vector<State> state_of;  // a state of each mode
    Progress progress("modes", 0, limits_.progress && Progress::stderr_is_terminal());
    auto mode_of = [&](const State& s) {
        auto vals = mode_values(s);
        auto it = mode_index.find(vals);
        if (it != mode_index.end()) return it->second;
        int idx = static_cast<int>(set.modes.size());
        set.modes.push_back(build_mode(s, vals));
        state_of.push_back(s);
        progress.advance();
        mode_index[vals] = idx;
        return idx;
    };
    std::vector<std::size_t> all_relations(logic_.relations().size()), all_whens(when_guards_.size());
    std::iota(all_relations.begin(), all_relations.end(), std::size_t{0});
    std::iota(all_whens.begin(), all_whens.end(), std::size_t{0});
    const bool composed = limits_.max_depth < 0 && explore_by_groups(set, init, mode_of);
    if (!composed) mode_of(init);
    while (!composed && !queue.empty()) {
        State s = queue.front();
        queue.pop_front();
        if (limits_.max_depth >= 0 && depth[s] >= limits_.max_depth) {
            mode_of(s);
            set.complete = false;
            continue;
        }
        int from = mode_of(s);
        auto visit = [&](const State& t, Transition tr, bool has_resets) {
            if (set.modes.size() >= limits_.max_modes && !mode_index.count(mode_values(t))) {
                set.complete = false;
                return;
            }
            // A guard that is itself an equation of the source mode stays 0
            // there: it never crosses, so the transition cannot fire (the
            // taut rope's own length condition).
            if (guard_is_equation(set.modes[static_cast<std::size_t>(from)], tr.guard)) return;
            int to = mode_of(t);
            tr.from = from;
            tr.to = to;
            if (from != to || has_resets) {
                auto key = std::make_tuple(from, to, tr.guard_text, tr.when_clause);
                if (recorded.insert(key).second) set.transitions.push_back(tr);
            }
            if (!seen.count(t)) {
                if (seen.size() >= limits_.max_modes * 16) {  // e.g. an unbounded Integer counter
                    set.complete = false;
                    return;
                }
                seen[t] = true;
                queue.push_back(t);
                depth[t] = depth[s] + 1;
            }
        };
        successors(s, all_relations, all_whens, visit);
    }
    progress.finish();
    add_contact_modes(set, state_of, mode_index);
    {
        std::vector<LocalWhen> local_whens;
        for (const WhenGuard& wg : when_guards)
            if (wg.ok) local_whens.push_back({wg.when, wg.trigger});
        find_clusters(set, init, local_whens);
    }
    if (!set.complete) {
        std::vector<std::string> notes{"raise the limit with --max-modes, or split the model"};
        if (set.clusters.size() > 1) notes.push_back(clusters_note(set));
        sink_.report(rule::modes_limit_reached, flat_.range,
                     set.modes.size() >= limits_.max_modes
                         ? fmt::format("more than {} reachable modes; only the first {} were analysed",
                                       limits_.max_modes, set.modes.size())
                         : fmt::format("more than {} discrete states (mode-variable values and the relations "
                                       "deciding them) were explored; the {} modes found may be incomplete",
                                       limits_.max_modes * 16, set.modes.size()),
                     notes);
    }
    return set;
}

}  // namespace modes_detail

std::size_t ModeSet::long_mode_count() const {
    std::size_t n = 0;
    for (const Mode& m : modes) n += m.transient_only ? 0 : 1;
    return n;
}

double ModeSet::global_mode_count() const {
    if (clusters.empty()) return static_cast<double>(modes.size());
    double product = 1;
    for (const SwitchingCluster& c : clusters) product *= static_cast<double>(c.local_modes);
    return product;
}

ModeSet enumerate_modes(const FlatModel& flat, DiagnosticSink& sink, const ModeLimits& limits) {
    ModeSet modes = modes_detail::Explorer(flat, sink, limits).run();
    add_coinciding_transitions(flat, modes, modes.simultaneous_notes);
    return modes;
}

void dump_modes(const FlatModel& flat, const ModeSet& modes, std::ostream& out) {
    out << "mode variables:";
    if (modes.mode_variables.empty()) out << " (none: a single mode)";
    for (const ModeVariable& mv : modes.mode_variables) out << " " << mv.name;
    out << "\n";
    if (modes.composed_groups > 0)
        out << fmt::format("modes composed from {} independent groups of the discrete state\n", modes.composed_groups);
    for (std::size_t i = 0; i < modes.modes.size(); ++i) {
        const Mode& m = modes.modes[i];
        out << fmt::format("mode {} [{}]{}: {} equations, {} unknowns\n", i, m.id.empty() ? "single mode" : m.id,
                           i == 0 ? " (initial)" : m.transient_only ? " (transient only: contact mode of an impact)" : "", m.equations.size(), m.unknowns.size());
        for (const ModeEquation& e : m.equations) {
            const FlatEquation& fe = flat.equations[static_cast<std::size_t>(e.equation)];
            out << fmt::format("  0 = {}  // line {}\n", canonical_in(flat, e.residual), fe.range.begin.line);
        }
        std::string unknowns;
        for (int v : m.unknowns) unknowns += (unknowns.empty() ? "" : ", ") + flat.variables[static_cast<std::size_t>(v)].name;
        out << "  unknowns: " << unknowns << "\n";
        for (int a : m.asserts)
            out << "  assert: " << canonical(flat, *flat.asserts[static_cast<std::size_t>(a)].condition) << "\n";
    }
    out << "transitions:\n";
    for (const Transition& t : modes.transitions) {
        out << fmt::format("  {} -> {}: {} event, guard {} rising", modes.modes[static_cast<std::size_t>(t.from)].id.empty() ? "single mode" : modes.modes[static_cast<std::size_t>(t.from)].id,
                           modes.modes[static_cast<std::size_t>(t.to)].id.empty() ? "single mode" : modes.modes[static_cast<std::size_t>(t.to)].id,
                           t.trigger == Transition::Trigger::State ? "state" : "time", t.guard_text);
        if (t.when_clause >= 0) out << fmt::format(" (when, line {}{})", t.range.begin.line, t.priority ? fmt::format(", elsewhen {}", t.priority) : "");
        if (!t.parts.empty()) {
            std::string parts;
            for (int k : t.parts) parts += fmt::format("{}{}", parts.empty() ? "" : ", ", k);
            out << fmt::format(", combined: transitions {} fire together", parts);
        }
        out << "\n";
        for (const WhenAction& a : t.resets)
            out << fmt::format("    reinit({}, {})\n", flat.variables[static_cast<std::size_t>(a.variable)].name,
                               canonical_in(flat, a.value));
        for (const WhenAction& a : t.restart_constraints)
            out << fmt::format("    restart constraint: {} = {}\n", canonical_in(flat, a.lhs), canonical_in(flat, a.rhs));
    }
    for (const std::string& note : modes.simultaneous_notes) out << "note: " << note << "\n";
    // Several switching clusters: each one's mode variables and local modes
    // (one cluster, the common case, adds nothing to the dump).
    if (modes.clusters.size() > 1) {
        out << "switching clusters: " << modes_detail::clusters_note(modes) << "\n";
        for (std::size_t c = 0; c < modes.clusters.size(); ++c) {
            const SwitchingCluster& cl = modes.clusters[c];
            std::string names;
            for (int v : cl.mode_variables)
                names += (names.empty() ? "" : ", ") + modes.mode_variables[static_cast<std::size_t>(v)].name;
            out << fmt::format("  cluster {}: {} ({}{} local modes)\n", c + 1, names, cl.complete ? "" : "at least ",
                               cl.local_modes);
        }
    }
    if (!modes.complete) out << "(incomplete: the mode limit was reached)\n";
}

int equation_position(const Mode& mode, int equation) {
    auto it = std::lower_bound(mode.equations.begin(), mode.equations.end(), equation,
                               [](const ModeEquation& a, int b) { return a.equation < b; });
    return it != mode.equations.end() && it->equation == equation ? static_cast<int>(it - mode.equations.begin()) : -1;
}

}  // namespace modeaudit
