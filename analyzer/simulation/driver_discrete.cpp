// Discrete variables other than the mode variables and the clocks of
// sample() triggers, at events (simulation.h, "Discrete variables"): their
// values, condition trees at the left limits, the when-clause assignments.
#include <fmt/format.h>

#include <cmath>
#include <set>
#include <stdexcept>

#include "flatten/condition_semantics.h"
#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"
#include "flatten/flattener.h"
#include "simulation/driver.h"
#include "structure/numeric.h"

namespace modeaudit {

using GiNaC::ex;

bool SimulationDriver::tracked(int v) const {
    return flat_.variables.at(static_cast<std::size_t>(v)).variability == Variability::Discrete &&
           !mode_variables_.count(v);
}
// The value of `e` at an event (or the start): pre(v) is the left limit,
// a tracked discrete variable its value so far, others the left limits
// by name, parameters their values. Empty when a symbol has no value.
std::optional<double> SimulationDriver::event_value(const ex& e, const std::map<std::string, double>& left, double t,
                                  std::string& missing) const {
    GiNaC::exmap at;
    std::set<std::string> skip;
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
        const GiNaC::symbol& sym = GiNaC::ex_to<GiNaC::symbol>(*it);
        auto m = flat_.symbols.meaning(sym);
        if (!m || at.count(sym)) continue;
        using Role = SymbolTable::Meaning::Role;
        if (m->role == Role::Time) {
            at[sym] = t;
            continue;
        }
        if (m->role != Role::Variable && m->role != Role::Pre && m->role != Role::Derivative) continue;
        const FlatVariable& var = flat_.variables.at(static_cast<std::size_t>(m->index));
        if (var.variability == Variability::Parameter || var.variability == Variability::Constant) continue;
        std::string name = m->role == Role::Pre ? var.name : sym.get_name();
        if (m->role == Role::Variable && tracked(m->index)) {
            at[sym] = discrete_.at(static_cast<std::size_t>(m->index));
        } else if (auto f = left.find(name); f != left.end()) {
            at[sym] = f->second;
        } else if (auto mv = mode_variables_.find(m->index); mv != mode_variables_.end()) {
            at[sym] = static_cast<double>(mv->second);
        } else {
            missing = name;
            return std::nullopt;
        }
        skip.insert(sym.get_name());
    }
    GiNaC::exmap params = parameter_values(flat_, {e}, skip);
    at.insert(params.begin(), params.end());
    auto n = numeric_value(GiNaC::evalf(e.subs(at, kExactSubs)));
    if (!n || !n->is_real()) {
        missing = "";
        return std::nullopt;
    }
    return n->to_double();
}
std::optional<bool> SimulationDriver::event_truth(const Condition& c, const std::map<std::string, double>& left, double t,
                                std::string& missing) const {
    using K = Condition::Kind;
    const Truth v = condition_truth(c, [&](const Condition& leaf) {
        switch (leaf.kind) {
            case K::Initial: return truth_of(t == o_.start_time && result_.events.empty());
            case K::Variable: {
                if (auto mv = mode_variables_.find(leaf.variable); mv != mode_variables_.end()) return truth_of(mv->second != 0);
                if (tracked(leaf.variable)) return truth_of(discrete_.at(static_cast<std::size_t>(leaf.variable)) != 0);
                if (missing.empty()) missing = flat_.variables.at(static_cast<std::size_t>(leaf.variable)).name;
                return Truth::Unknown;
            }
            case K::Relation: {
                auto l = event_value(leaf.lhs, left, t, missing), r = event_value(leaf.rhs, left, t, missing);
                if (!l || !r) return Truth::Unknown;
                const double scale = std::max(std::fabs(*l), std::fabs(*r));
                return truth_of(relation_holds(leaf.op, *l - *r, relation_tolerance(scale)));
            }
            default: return Truth::Unknown;  // sample(): decided by its clock, not here
        }
    });
    if (v == Truth::Unknown) return std::nullopt;
    return v == Truth::True;
}
// The when-clause assignments to tracked discrete variables, in clause
// order (an algorithm's sequence; equations in the order written).
bool SimulationDriver::assign_discrete(const std::vector<WhenAction>& actions, const std::map<std::string, double>& left, double t,
                     std::string& why) {
    for (const WhenAction& a : actions) {
        if (a.kind == WhenAction::Kind::Assert && a.assertion) {
            std::string missing;
            const std::optional<bool> holds = event_truth(*a.assertion, left, t, missing);
            if (!holds || !*holds) {
                SimulationResult::EventAssert r;
                r.time = t;
                r.message = a.message;
                r.level = a.level;
                r.range = a.range;
                if (!holds) r.unevaluated = missing.empty() ? std::string("its condition has no value") : missing;
                result_.event_asserts.push_back(std::move(r));
            }
            continue;
        }
        if (a.kind != WhenAction::Kind::AssignDiscrete || a.variable < 0 || !tracked(a.variable)) continue;
        const FlatVariable& var = flat_.variables.at(static_cast<std::size_t>(a.variable));
        std::string missing;
        std::optional<double> v;
        if (a.bool_value) {
            if (auto b = event_truth(*a.bool_value, left, t, missing)) v = *b ? 1.0 : 0.0;
        } else {
            v = event_value(a.value, left, t, missing);
        }
        if (!v) {
            why = fmt::format("the assignment to the discrete variable {} cannot be evaluated at t = {:.12g}{}",
                              var.name, t,
                              missing.empty() ? std::string()
                                              : fmt::format(" ({} has no value there: only states, solved "
                                                            "variables, discrete variables and parameters do)",
                                                            missing));
            return false;
        }
        if (var.type != BaseType::Real) *v = std::round(*v);
        discrete_[static_cast<std::size_t>(a.variable)] = *v;
    }
    return true;
}
bool SimulationDriver::fire_discrete_triggers(const std::map<std::string, double>& left,
                                              const std::vector<double>& pre_discrete, double t, std::set<int> done,
                                              std::vector<std::string>& fired, std::string& why) {
    if (modes_.discrete_triggers.empty()) return true;
    // Modelica's event iteration (3.6, 8.6) with the discrete equations
    // sorted: a condition reading a variable assigned at this step sees the
    // new value in the same round, pre() the left limit. Each clause fires
    // once; a chain (change(k) assigns m, change(m) fires) takes rounds.
    for (std::size_t round = 0; round <= modes_.discrete_triggers.size(); ++round) {
        bool any = false;
        for (const auto& [w, k] : modes_.discrete_triggers) {
            if (done.count(w)) continue;
            const FlatWhen& fw = flat_.whens.at(static_cast<std::size_t>(w));
            const Condition& c = *fw.triggers.at(static_cast<std::size_t>(k));
            std::string missing;
            const std::optional<bool> now = event_truth(c, left, t, missing);
            std::vector<double> current = discrete_;
            discrete_ = pre_discrete;
            const std::optional<bool> was = event_truth(c, left, t, missing);
            discrete_ = std::move(current);
            if (!now || !was) {
                why = fmt::format("the when-condition {} cannot be evaluated at t = {:.12g}{}", canonical(flat_, c), t,
                                  missing.empty() ? std::string() : fmt::format(" ({} has no value there)", missing));
                return false;
            }
            if (!*now || *was) continue;
            if (!assign_discrete(fw.actions, left, t, why)) return false;
            done.insert(w);
            fired.push_back(canonical(flat_, c));
            any = true;
        }
        if (!any) return true;
    }
    return true;  // every clause fired once: nothing is left to fire
}
SimulationDriver::Clock& SimulationDriver::clock(const Transition& tr) {
    auto key = std::make_pair(tr.when_clause, tr.trigger_index);
    auto it = clocks_.find(key);
    if (it != clocks_.end()) return it->second;
    const Condition& c = *flat_.whens.at(static_cast<std::size_t>(tr.when_clause)).triggers.at(static_cast<std::size_t>(tr.trigger_index));
    Clock k;
    std::string missing;
    const std::map<std::string, double> none;
    auto start = event_value(c.lhs, none, o_.start_time, missing);
    auto interval = event_value(c.rhs, none, o_.start_time, missing);
    if (!start || !interval || !(*interval > 0))
        throw std::runtime_error("the start and interval of sample() must be parameter expressions with a positive "
                                 "interval");
    k.start = *start;
    k.interval = *interval;
    // The first instant at or after the start time.
    if (k.start < o_.start_time)
        k.count = static_cast<long>(std::ceil((o_.start_time - k.start) / k.interval - 1e-9));
    return clocks_.emplace(key, k).first->second;
}
std::vector<double> SimulationDriver::parameter_values_of(const ModeSystem& sys) {
    std::vector<double> v;
    for (const ModeSystem::ParameterSource& p : sys.parameter_sources())
        v.push_back(p.branch >= 0     ? sys.branch_parameter(static_cast<std::size_t>(p.branch))
                    : p.variable >= 0 ? discrete_.at(static_cast<std::size_t>(p.variable))
                                      : clock(modes_.transitions.at(static_cast<std::size_t>(p.transition))).next());
    return v;
}
void SimulationDriver::add_discrete(std::map<std::string, double>& m) const {
    for (std::size_t v = 0; v < flat_.variables.size(); ++v)
        if (tracked(static_cast<int>(v))) m[flat_.variables[v].name] = discrete_[v];
}

// The tracked discrete variables at their start values (then `when
// initial()` assignments are applied by the initialization).
void SimulationDriver::reset_discrete(double t) {
    discrete_.assign(flat_.variables.size(), 0.0);
    for (std::size_t v = 0; v < flat_.variables.size(); ++v)
        if (tracked(static_cast<int>(v)) && flat_.variables[v].start) {
            std::string missing;
            if (auto s = event_value(*flat_.variables[v].start, {}, t, missing)) discrete_[v] = *s;
        }
}

void SimulationDriver::ensure_logic() {
    if (logic_) return;
    logic_.emplace(flat_);
    std::vector<std::string> loop;
    SourceRange where;
    logic_->order_definitions(loop, where);  // a loop is the modes stage's finding
}

DiscreteState SimulationDriver::discrete_state() const {
    DiscreteState s;
    s.discrete.assign(flat_.variables.size(), 0);
    for (const auto& [v, value] : mode_variables_) s.discrete[static_cast<std::size_t>(v)] = value;
    for (std::size_t v = 0; v < flat_.variables.size(); ++v)
        if (tracked(static_cast<int>(v))) s.discrete[v] = std::llround(discrete_[v]);
    return s;
}

RelationTruth SimulationDriver::relations_at(const std::map<std::string, double>& at, double t,
                                           std::string& missing) const {
    return [this, &at, t, &missing](const Condition& c) {
        std::string m;
        auto v = event_value(c.lhs - c.rhs, at, t, m);
        if (!v) {
            if (missing.empty()) missing = m.empty() ? canonical(flat_, c) : m;
            return false;
        }
        return relation_holds(c.op, *v, relation_tolerance(1.0));
    };
}

bool SimulationDriver::settle_tracked_definitions(const std::map<std::string, double>& at, double t,
                                                  std::string& why) {
    if (flat_.relation_definitions.empty() && flat_.integer_definitions.empty()) return true;
    ensure_logic();
    bool any = false;
    for (int v : logic_->defined()) any = any || tracked(v);
    if (!any) return true;
    const DiscreteState before = discrete_state();
    std::string missing;
    const RelationTruth relation = relations_at(at, t, missing);
    DiscreteState after = before;
    SourceRange where;
    if (!logic_->settle(after, before, why, where, &relation)) return false;
    if (!missing.empty()) {
        why = fmt::format("the discrete equations cannot be evaluated at t = {:.12g} ({} has no value there)", t,
                          missing);
        return false;
    }
    for (int v : logic_->defined())
        if (tracked(v)) discrete_[static_cast<std::size_t>(v)] = static_cast<double>(after.discrete[static_cast<std::size_t>(v)]);
    return true;
}

int SimulationDriver::event_target(const std::vector<const Transition*>& fired,
                                   const std::map<std::string, double>& left, double t, std::string& why) {
    std::string combined_why;
    const int combined = combined_target(modes_, mode_, fired, combined_why);
    if (flat_.relation_definitions.empty() && flat_.integer_definitions.empty()) {
        why = combined_why;
        return combined;
    }
    ensure_logic();
    const DiscreteState before = discrete_state();  // the values before the step
    // A relation whose function is a fired guard (or its negative) has
    // crossed: the guard rose through zero (a when-condition's relation as
    // well as a relation crossing). Any other is evaluated at the event from
    // the values before the step.
    std::string missing;
    const RelationTruth at_left = relations_at(left, t, missing);
    const RelationTruth relation = [&](const Condition& c) {
        const ex d = c.lhs - c.rhs;
        int sign = 0;
        for (const Transition* tr : fired) {
            if (tr->sampled) continue;
            if (checked_expand(d - tr->guard).is_zero()) sign = 1;
            else if (checked_expand(d + tr->guard).is_zero()) sign = -1;
            if (sign != 0) break;
        }
        if (sign == 0) return at_left(c);
        return relation_holds(c.op, sign, relation_tolerance(1.0));
    };
    // The values the step starts from: the when-clauses' assignments (the
    // combined target's values of the mode variables they assign, the
    // tracked ones as assign_discrete left them), the defined variables
    // still at their values before.
    const std::vector<std::int64_t>& base =
        modes_.modes[static_cast<std::size_t>(combined >= 0 ? combined : mode_)].values;
    DiscreteState after = before;
    for (std::size_t k = 0; k < modes_.mode_variables.size(); ++k) {
        const int v = modes_.mode_variables[k].variable;
        if (v >= 0 && !logic_->is_defined(v)) after.discrete[static_cast<std::size_t>(v)] = base[k];
    }
    for (std::size_t v = 0; v < flat_.variables.size(); ++v)
        if (tracked(static_cast<int>(v)) && !logic_->is_defined(static_cast<int>(v)))
            after.discrete[v] = std::llround(discrete_[v]);
    SourceRange where;
    if (!logic_->settle(after, before, why, where, &relation)) return -1;
    if (!missing.empty()) {
        why = fmt::format("the discrete equations cannot be evaluated at t = {:.12g} ({} has no value there)", t,
                          missing);
        return -1;
    }
    // The target: the combined one's values (the current mode's when they
    // conflict) with the defined variables' settled values.
    std::vector<std::int64_t> values = base;
    for (std::size_t k = 0; k < modes_.mode_variables.size(); ++k) {
        const int v = modes_.mode_variables[k].variable;
        if (v >= 0 && logic_->is_defined(v)) values[k] = after.discrete[static_cast<std::size_t>(v)];
    }
    for (int v : logic_->defined())
        if (tracked(v)) discrete_[static_cast<std::size_t>(v)] = static_cast<double>(after.discrete[static_cast<std::size_t>(v)]);
    for (std::size_t m = 0; m < modes_.modes.size(); ++m)
        if (modes_.modes[m].values == values && !modes_.modes[m].transient_only) return static_cast<int>(m);
    std::vector<std::string> parts;
    for (std::size_t k = 0; k < values.size(); ++k)
        parts.push_back(fmt::format("{}={}", modes_.mode_variables[k].name, values[k]));
    why = fmt::format("the discrete equations lead to the valuation {}, which is no explored mode", fmt::join(parts, ","));
    return -1;
}

}  // namespace modeaudit
