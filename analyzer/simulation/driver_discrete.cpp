// Discrete variables other than the mode variables and the clocks of
// sample() triggers, at events (simulation.h, "Discrete variables"): their
// values, condition trees at the left limits, the when-clause assignments.
#include <fmt/format.h>

#include <cmath>
#include <set>
#include <stdexcept>

#include "flatten/expression_builder.h"
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
    switch (c.kind) {
        case K::Constant: return c.value;
        case K::Initial: return t == o_.start_time && result_.events.empty();
        case K::Sample: return std::nullopt;
        case K::Not: {
            auto v = event_truth(*c.operands.at(0), left, t, missing);
            if (!v) return std::nullopt;
            return !*v;
        }
        case K::And:
        case K::Or: {
            const bool conj = c.kind == K::And;
            for (const ConditionPtr& o : c.operands) {
                auto v = event_truth(*o, left, t, missing);
                if (!v) return std::nullopt;
                if (*v != conj) return !conj;
            }
            return conj;
        }
        case K::Variable: {
            if (auto mv = mode_variables_.find(c.variable); mv != mode_variables_.end()) return mv->second != 0;
            if (tracked(c.variable)) return discrete_.at(static_cast<std::size_t>(c.variable)) != 0;
            missing = flat_.variables.at(static_cast<std::size_t>(c.variable)).name;
            return std::nullopt;
        }
        case K::Relation: {
            auto d = event_value(c.lhs - c.rhs, left, t, missing);
            if (!d) return std::nullopt;
            switch (c.op) {
                case Condition::RelOp::Lt: return *d < 0;
                case Condition::RelOp::Le: return *d <= 0;
                case Condition::RelOp::Gt: return *d > 0;
                case Condition::RelOp::Ge: return *d >= 0;
                case Condition::RelOp::Eq: return *d == 0;
                case Condition::RelOp::Ne: return *d != 0;
            }
        }
    }
    return std::nullopt;
}
// The when-clause assignments to tracked discrete variables, in clause
// order (an algorithm's sequence; equations in the order written).
bool SimulationDriver::assign_discrete(const std::vector<WhenAction>& actions, const std::map<std::string, double>& left, double t,
                     std::string& why) {
    for (const WhenAction& a : actions) {
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
        v.push_back(p.variable >= 0 ? discrete_.at(static_cast<std::size_t>(p.variable))
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

}  // namespace modeaudit
