#include "simulation/simulation.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>

#include "common/internal_error.h"
#include "flatten/expression_builder.h"
#include "restart/continuous.h"
#include "simulation/event_detection.h"
#include "simulation/integrator.h"
#include "simulation/mode_system.h"
#include "structure/numeric.h"

namespace modeaudit {

std::string_view stop_reason_name(StopReason r) {
    switch (r) {
        case StopReason::StopTime: return "stop-time";
        case StopReason::Zeno: return "zeno";
        case StopReason::Inadmissible: return "inadmissible";
        case StopReason::UndeterminedRestart: return "undetermined-restart";
        case StopReason::SolverFailure: return "solver-failure";
        case StopReason::Unsupported: return "unsupported";
    }
    return "solver-failure";
}

namespace {

using GiNaC::ex;
using sim::Integrator;
using sim::ModeSystem;

double start_value(const FlatModel& flat, const GiNaC::symbol& s) {
    auto m = flat.symbols.meaning(s);
    if (!m || m->role != SymbolTable::Meaning::Role::Variable) return 0;
    const FlatVariable& v = flat.variables[static_cast<std::size_t>(m->index)];
    if (v.start)
        if (auto n = numeric_value(*v.start); n && n->is_real()) return n->to_double();
    return 0;
}

bool fixed_start(const FlatModel& flat, const GiNaC::symbol& s) {
    auto m = flat.symbols.meaning(s);
    if (!m || m->role != SymbolTable::Meaning::Role::Variable) return false;
    const FlatVariable& v = flat.variables[static_cast<std::size_t>(m->index)];
    return v.fixed && v.start && numeric_value(*v.start).has_value();
}

// Initial states and leading variables of a mode (see simulation.h).
bool initial_values(const FlatModel& flat, const ModeStructure& st, const ModeSystem& sys, bool initial_mode, double t0,
                    const std::map<std::string, double>& given, std::vector<double>& x, std::vector<double>& y,
                    std::string& why) {
    GiNaC::exmap fixed;
    fixed[flat.symbols.time()] = t0;
    std::vector<GiNaC::symbol> unknowns;
    std::vector<double> guess;
    x.assign(sys.state_count(), 0.0);
    // The structure's states that are copies of an integrated one (alias
    // states, mode_system.h), and the structure states behind each.
    GiNaC::exmap alias;
    std::vector<std::vector<std::pair<const GiNaC::symbol*, double>>> behind(sys.state_count());
    for (std::size_t j = 0; j < st.states.size(); ++j) {
        const auto [k, sign] = sys.state_of(j);
        behind[k].emplace_back(&st.states[j], sign);
        if (!st.states[j].is_equal(sys.states()[k])) alias[st.states[j]] = sign * sys.states()[k];
    }
    for (std::size_t i = 0; i < sys.state_count(); ++i) {
        const GiNaC::symbol& s = sys.states()[i];
        bool known = false;
        for (const auto& [sym, sign] : behind[i])
            if (auto it = given.find(sym->get_name()); it != given.end()) {
                x[i] = sign * it->second;
                known = true;
                break;
            }
        for (const auto& [sym, sign] : behind[i])
            if (!known && fixed_start(flat, *sym)) {
                x[i] = sign * start_value(flat, *sym);
                known = true;
            }
        if (known) {
            fixed[s] = x[i];
        } else {
            unknowns.push_back(s);
            guess.push_back(start_value(flat, s));
        }
    }
    std::vector<ex> eqs;
    for (const CompletedEquation& c : st.consistency) eqs.push_back(c.residual.subs(alias, kExactSubs));
    const bool with_initial = initial_mode && !flat.initial_equations.empty();
    if (with_initial) {
        for (const FlatEquation& e : flat.initial_equations) eqs.push_back(e.residual().subs(alias, kExactSubs));
        for (const CompletedEquation& c : st.reduced) eqs.push_back(c.residual.subs(alias, kExactSubs));
        for (const GiNaC::symbol& s : sys.leading()) {
            unknowns.push_back(s);
            guess.push_back(start_value(flat, s));
        }
    }
    std::vector<double> lead(sys.leading_count());
    for (std::size_t k = 0; k < lead.size(); ++k) lead[k] = start_value(flat, sys.leading()[k]);
    if (!eqs.empty()) {
        std::set<std::string> skip;
        for (const GiNaC::symbol& s : unknowns) skip.insert(s.get_name());
        for (const auto& [s, v] : fixed) skip.insert(GiNaC::ex_to<GiNaC::symbol>(s).get_name());
        GiNaC::exmap params = parameter_values(flat, eqs, skip);
        for (const auto& [s, v] : fixed) params[s] = v;
        if (unknowns.empty()) {
            double r = 0;
            for (const ex& e : eqs) {
                auto n = numeric_value(GiNaC::evalf(e.subs(params, kExactSubs)));
                r = std::max(r, n ? std::fabs(n->to_double()) : HUGE_VAL);
            }
            if (!(r <= 1e-9)) {
                why = fmt::format("the given and fixed start values violate the consistency conditions of mode '{}' "
                                  "(residual {:.3g})",
                                  sys.mode_id(), r);
                return false;
            }
        } else {
            NewtonResult r = newton(eqs, unknowns, params, guess);
            if (!r.converged || !(r.residual <= 1e-9)) {
                why = fmt::format("no consistent initial values in mode '{}': {} (residual {:.3g})", sys.mode_id(),
                                  r.message.empty() ? "the consistency conditions cannot be met" : r.message, r.residual);
                return false;
            }
            for (std::size_t k = 0; k < unknowns.size(); ++k) {
                for (std::size_t i = 0; i < sys.state_count(); ++i)
                    if (sys.states()[i].is_equal(unknowns[k])) x[i] = r.values[k];
                for (std::size_t i = 0; i < sys.leading_count(); ++i)
                    if (sys.leading()[i].is_equal(unknowns[k])) lead[i] = r.values[k];
            }
        }
    }
    y = lead;
    if (!sys.solve_leading(t0, x.data(), y.data())) {
        why = fmt::format("the index-reduced equations of mode '{}' cannot be solved at the initial states",
                          sys.mode_id());
        return false;
    }
    return true;
}

// The mode reached when all `fired` transitions of mode `from` apply at once:
// their mode-variable changes combined; -1 when they conflict or the mode
// was not explored.
int combined_target(const ModeSet& modes, int from, const std::vector<const Transition*>& fired, std::string& why) {
    if (fired.size() == 1) return fired[0]->to;
    std::vector<std::int64_t> values = modes.modes[static_cast<std::size_t>(from)].values;
    std::vector<bool> set(values.size(), false);
    for (const Transition* t : fired) {
        const auto& base = modes.modes[static_cast<std::size_t>(from)].values;
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

struct ZenoCheck {
    bool zeno = false;
    double estimate = 0;
};

ZenoCheck check_zeno(const std::vector<double>& times, const SimulationOptions& o, double stop) {
    ZenoCheck z;
    const std::size_t n = times.size();
    // Chattering: three spacings in a row below the floor.
    if (n >= 4) {
        bool tiny = true;
        for (std::size_t k = n - 3; k < n; ++k)
            tiny = tiny && times[k] - times[k - 1] <= o.min_event_spacing * std::max(1.0, std::fabs(times[k]));
        if (tiny) {
            z.zeno = true;
            z.estimate = times[n - 1];
            return z;
        }
    }
    const std::size_t w = static_cast<std::size_t>(std::max(o.zeno_events, 2));
    if (n < w + 2) return z;
    std::vector<double> ratios;
    for (std::size_t k = n - w; k < n; ++k) {
        const double d1 = times[k] - times[k - 1], d0 = times[k - 1] - times[k - 2];
        if (!(d0 > 0) || !(d1 >= 0)) return z;
        ratios.push_back(d1 / d0);
    }
    const double lo = *std::min_element(ratios.begin(), ratios.end());
    const double hi = *std::max_element(ratios.begin(), ratios.end());
    double mean = 0;
    for (double r : ratios) mean += r;
    mean /= static_cast<double>(ratios.size());
    if (!(hi < 1) || !(lo > 0) || hi - lo > 0.1 * mean) return z;
    const double last = times[n - 1] - times[n - 2];
    const double estimate = times[n - 1] + last * mean / (1 - mean);
    if (!(estimate <= stop)) return z;
    if (last > o.zeno_spacing_fraction * (estimate - times.front())) return z;
    z.zeno = true;
    z.estimate = estimate;
    return z;
}

}  // namespace

class SimulationDriver {
public:
    SimulationDriver(const FlatModel& flat, const ModeSet& modes, const StructureResult& st, const SimulationOptions& o,
                     const RestartFunction& restart, CompiledModes& cache)
        : flat_(flat), modes_(modes), st_(st), o_(o), restart_(restart), systems_(cache.systems_) {
        if (cache.flat_ && (cache.flat_ != &flat || cache.modes_ != &modes || cache.structures_ != &st))
            throw std::invalid_argument("the compiled modes given to simulate belong to another model");
        cache.flat_ = &flat;
        cache.modes_ = &modes;
        cache.structures_ = &st;
    }

    SimulationResult run();

private:
    ModeSystem* system(int mode) {
        auto it = systems_.find(mode);
        if (it != systems_.end()) return it->second.get();
        auto sys = std::make_unique<ModeSystem>(flat_, modes_, mode, st_.modes.at(static_cast<std::size_t>(mode)));
        ModeSystem* p = sys.get();
        systems_.emplace(mode, std::move(sys));
        return p;
    }
    Integrator& integrator(int mode) {
        auto it = integrators_.find(mode);
        if (it != integrators_.end()) return *it->second;
        sim::IntegratorOptions io;
        io.rtol = o_.rtol;
        io.atol = o_.atol;
        io.project = o_.project;
        io.max_steps = o_.max_steps;
        auto p = std::make_unique<Integrator>(*system(mode), io);
        Integrator& ref = *p;
        integrators_.emplace(mode, std::move(p));
        return ref;
    }
    void stop(StopReason r, const std::string& message) {
        result_.stopped_because = r;
        if (!message.empty()) result_.messages.push_back(message);
    }
    // A resource limit stops the run (reported as limit-exceeded).
    void stop_at_limit(const std::string& message, const char* limit, const char* option) {
        stop(StopReason::SolverFailure, message);
        result_.limit = limit;
        result_.limit_option = option;
    }
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
    bool over_wall_time() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() > o_.max_wall_seconds;
    }
    std::map<std::string, double> named(const ModeSystem& sys, const std::vector<double>& x,
                                        const std::vector<double>& y) const {
        std::map<std::string, double> m;
        std::vector<double> all(sys.all_state_names().size());
        sys.expand(x.data(), all.data());
        for (std::size_t i = 0; i < all.size(); ++i) m[sys.all_state_names()[i]] = all[i];
        for (std::size_t i = 0; i < y.size(); ++i) m[sys.leading_names()[i]] = y[i];
        add_discrete(m);
        return m;
    }
    void finish_values(const ModeSystem& sys, const std::vector<double>& x, const std::vector<double>& y) {
        result_.final_values = named(sys, x, y);
        result_.final_mode = sys.mode_id();
        for (const FlatModel::Alias& a : flat_.aliases) {
            const std::string& rep = flat_.variables.at(static_cast<std::size_t>(a.representative)).name;
            auto it = result_.final_values.find(rep);
            if (it != result_.final_values.end())
                result_.final_values[flat_.variables.at(static_cast<std::size_t>(a.variable)).name] = a.sign * it->second;
        }
    }
    // Asserts over [t_ok, t] and at (t, x, y). An assert whose margins are
    // functions of the states is searched on the step's interpolant `poly`
    // (event_detection.h: every violation window wider than the time
    // tolerance is found, the first one located); the others are checked at
    // t, a violation first seen there located in [t_ok, t] by bisection.
    void check_asserts(SegmentRecord& seg, const ModeSystem& sys, const Integrator* integ,
                       const sim::StatePolynomial* poly, double t_ok, double t, const std::vector<double>& x,
                       const std::vector<double>& y) {
        for (std::size_t k = 0; k < sys.asserts().size(); ++k) {
            AssertRecord& rec = seg.asserts[k];
            if (!rec.unsupported.empty()) continue;
            const sim::AssertCheck& check = sys.asserts()[k];
            if (poly && check.on_interpolant && !rec.violated && t_ok < t) {
                sim::ConditionSearch cond;
                cond.over = [&](const sim::FastInterval* m) { return sys.assert_truth_over(k, m); };
                cond.at = [&](const double* m) { return sys.assert_holds_for(k, m, nullptr); };
                sim::CrossingOptions co;
                co.time_tolerance = o_.event_time_tolerance;
                const sim::StateFunction& margins_of = sys.assert_function(k);
                const sim::ViolationResult v = sim::first_violation(*poly, margins_of, cond, t_ok, t, co, work_);
                seg.event_search_enclosures += v.enclosures;
                if (v.exhausted)
                    result_.messages.push_back(fmt::format(
                        "the search for violations of assert \"{}\" gave up in [{:.12g}, {:.12g}] (work limit): a "
                        "violation there may be missed",
                        rec.message, t_ok, t));
                if (v.found) {
                    rec.violated = true;
                    rec.time = v.time;
                    std::vector<double> at(sys.state_count() + 1), margins(margins_of.output_count());
                    poly->value(v.time, at.data());
                    at[sys.state_count()] = v.time;
                    margins_of.at(at.data(), margins.data());
                    double m = 0;
                    sys.assert_holds_for(k, margins.data(), &m);
                    rec.value = m;
                    rec.min_margin = std::min(rec.min_margin, m);
                }
            }
            double margin = 0;
            const bool holds = check.on_interpolant ? sys.assert_holds_in_states(k, t, x.data(), &margin)
                                                    : sys.assert_holds(k, t, x.data(), y.data(), &margin);
            rec.min_margin = std::min(rec.min_margin, margin);
            if (holds || rec.violated) continue;
            rec.violated = true;
            rec.time = t;
            rec.value = margin;
            if (integ && t_ok < t) {
                double lo = t_ok, hi = t;
                std::vector<double> xs, ys;
                for (int it = 0; it < 60 && hi - lo > 1e-14 * std::max(1.0, std::fabs(hi)); ++it) {
                    const double mid = lo + (hi - lo) / 2;
                    if (!integ->values_at(mid, xs, ys)) break;
                    double mm = 0;
                    if (sys.assert_holds(k, mid, xs.data(), ys.data(), &mm)) lo = mid;
                    else hi = mid, rec.value = mm;
                }
                rec.time = hi;
            }
        }
    }

    // Discrete variables other than the mode variables (simulation.h): their
    // values, and the clocks of sample() triggers.
    struct Clock {
        double start = 0, interval = 0;
        long count = 0;  // the next instant is start + count * interval
        double next() const { return start + static_cast<double>(count) * interval; }
    };
    bool tracked(int v) const {
        return flat_.variables.at(static_cast<std::size_t>(v)).variability == Variability::Discrete &&
               !mode_variables_.count(v);
    }
    // The value of `e` at an event (or the start): pre(v) is the left limit,
    // a tracked discrete variable its value so far, others the left limits
    // by name, parameters their values. Empty when a symbol has no value.
    std::optional<double> event_value(const ex& e, const std::map<std::string, double>& left, double t,
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
    std::optional<bool> event_truth(const Condition& c, const std::map<std::string, double>& left, double t,
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
    bool assign_discrete(const std::vector<WhenAction>& actions, const std::map<std::string, double>& left, double t,
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
    Clock& clock(const Transition& tr) {
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
    std::vector<double> parameter_values_of(const ModeSystem& sys) {
        std::vector<double> v;
        for (const ModeSystem::ParameterSource& p : sys.parameter_sources())
            v.push_back(p.variable >= 0 ? discrete_.at(static_cast<std::size_t>(p.variable))
                                        : clock(modes_.transitions.at(static_cast<std::size_t>(p.transition))).next());
        return v;
    }
    void add_discrete(std::map<std::string, double>& m) const {
        for (std::size_t v = 0; v < flat_.variables.size(); ++v)
            if (tracked(static_cast<int>(v))) m[flat_.variables[v].name] = discrete_[v];
    }

    const FlatModel& flat_;
    const ModeSet& modes_;
    const StructureResult& st_;
    const SimulationOptions& o_;
    const RestartFunction& restart_;
    std::map<int, std::unique_ptr<ModeSystem>>& systems_;
    std::map<int, std::unique_ptr<Integrator>> integrators_;
    sim::SearchWork work_;
    std::vector<double> surface_x_;
    std::map<int, std::int64_t> mode_variables_;  // flat variable -> value in the current mode
    std::vector<double> discrete_;                // by flat variable (tracked ones only)
    std::map<std::pair<int, int>, Clock> clocks_;  // by (when clause, trigger)
    SimulationResult result_;
};

SimulationResult SimulationDriver::run() {
    const double stop_time = o_.stop_time ? *o_.stop_time : flat_.stop_time.value_or(1.0);
    result_.end_time = o_.start_time;
    int mode = o_.start_mode;
    double t = o_.start_time;
    std::vector<double> x, y;
    std::vector<double> event_times;
    bool initial = true;
    std::map<std::string, double> restart_values;
    discrete_.assign(flat_.variables.size(), 0.0);
    for (const ModeVariable& mv : modes_.mode_variables)
        if (mv.variable >= 0) mode_variables_[mv.variable] = 0;
    for (std::size_t v = 0; v < flat_.variables.size(); ++v)
        if (tracked(static_cast<int>(v)) && flat_.variables[v].start) {
            std::string missing;
            if (auto s = event_value(*flat_.variables[v].start, {}, t, missing)) discrete_[v] = *s;
        }

    while (true) {
        ModeSystem* sys = nullptr;
        const Mode& m = modes_.modes[static_cast<std::size_t>(mode)];
        for (std::size_t k = 0; k < modes_.mode_variables.size(); ++k)
            if (modes_.mode_variables[k].variable >= 0) mode_variables_[modes_.mode_variables[k].variable] = m.values.at(k);
        try {
            sys = system(mode);
            sys->set_parameters(parameter_values_of(*sys));
        } catch (const std::exception& e) {
            stop(StopReason::Unsupported, fmt::format("mode '{}' cannot be simulated: {}", m.id, e.what()));
            return result_;
        }
        for (const sim::Guard& g : sys->guards())
            if (!g.unsupported.empty()) {
                stop(StopReason::Unsupported,
                     fmt::format("the guard {} of mode '{}' cannot be monitored: {}", g.text, sys->mode_id(), g.unsupported));
                return result_;
            }
        if (initial) {
            for (const auto& [name, v] : o_.initial_values) {
                const auto& sn = sys->all_state_names();
                if (std::find(sn.begin(), sn.end(), name) == sn.end())
                    throw std::invalid_argument(fmt::format("an initial value is given for '{}', which is not a state of "
                                                            "mode '{}' (states: {})",
                                                            name, sys->mode_id(), fmt::join(sn, ", ")));
            }
            std::string why;
            if (!initial_values(flat_, st_.modes.at(static_cast<std::size_t>(mode)), *sys, mode == 0, t,
                                o_.initial_values, x, y, why)) {
                stop(StopReason::SolverFailure, "initialization: " + why);
                return result_;
            }
            // `when initial()` clauses: their discrete assignments, at the
            // initial values.
            std::map<std::string, double> at = named(*sys, x, y);
            for (const FlatWhen& w : flat_.whens) {
                if (!w.initial) continue;
                if (!assign_discrete(w.actions, at, t, why)) {
                    stop(StopReason::Unsupported, "initialization: " + why);
                    return result_;
                }
            }
            sys->set_parameters(parameter_values_of(*sys));
            initial = false;
        }
        Integrator& integ = integrator(mode);
        SegmentRecord seg;
        seg.mode = mode;
        seg.mode_id = sys->mode_id();
        seg.begin = seg.end = t;
        seg.state_names = sys->all_state_names();
        for (const sim::AssertCheck& a : sys->asserts()) {
            AssertRecord r;
            r.assert_index = a.assert_index;
            r.message = a.message;
            r.level = a.level;
            r.unsupported = a.unsupported;
            r.min_margin = HUGE_VAL;
            seg.asserts.push_back(r);
        }
        const std::size_t segment_index = result_.segments.size();
        auto sample = [&](double at, const std::vector<double>& xs) {
            if (!o_.record_steps) return;
            std::vector<double> all(sys->all_state_names().size());
            sys->expand(xs.data(), all.data());
            result_.samples.push_back(Sample{at, segment_index, std::move(all)});
        };
        sys->set_leading_guess(y.data());  // the warm start of implicit guards and asserts
        check_asserts(seg, *sys, nullptr, nullptr, t, t, x, y);
        seg.max_drift = sys->constraint_residual(t, x.data());
        sample(t, x);
        std::vector<bool> armed, on_surface;
        // A sample() instant at the segment's start (the start time itself,
        // or an instant shared with the event that opened the segment) fires
        // at once, before integrating.
        std::vector<std::size_t> immediate;
        for (std::size_t g = 0; g < sys->guards().size(); ++g) {
            const double v = sys->guard_value(g, t, x.data());
            const bool sampled = modes_.transitions[static_cast<std::size_t>(sys->guards()[g].transition)].sampled;
            if (sampled && v >= -o_.simultaneity * std::max(1.0, std::fabs(t))) immediate.push_back(g);
            // A clock's guard is armed whenever its next instant is ahead.
            armed.push_back(sampled ? v < 0 : v < -o_.guard_zero_tolerance);
            // After an event: a guard of the new mode that is ~0 at the
            // restart (it shares the switching surface with the guard that
            // fired, but is another condition) and then grows without ever
            // being negative means both modes' flows point across the
            // surface: chattering.
            // The guard that fired staying positive is no such crossing
            // (a when-condition that remains true fires once).
            bool fired_before = false;
            if (!result_.events.empty())
                for (const std::string& text : result_.events.back().guards)
                    fired_before = fired_before || text == sys->guards()[g].text;
            on_surface.push_back(!result_.events.empty() && !fired_before && std::fabs(v) <= o_.guard_zero_tolerance);
        }
        try {
            integ.start(t, x, y, stop_time);
        } catch (const std::exception& e) {
            stop(StopReason::SolverFailure, e.what());
            return result_;
        }
        const sim::IntegratorStats base = integ.stats();
        auto close_segment = [&](double end) {
            seg.end = end;
            const sim::IntegratorStats& s = integ.stats();
            seg.steps = s.steps - base.steps;
            seg.rhs_evaluations = s.rhs_evaluations - base.rhs_evaluations;
            seg.max_step = s.max_step;
            seg.max_drift_before_projection = s.max_drift_before_projection;
            for (AssertRecord& a : seg.asserts)
                if (a.min_margin == HUGE_VAL) a.min_margin = 0;
            result_.segments.push_back(seg);
            result_.end_time = end;
        };

        sim::CrossingOptions co;
        co.time_tolerance = o_.event_time_tolerance;
        co.zero_tolerance = o_.guard_zero_tolerance;
        bool needs_interpolant = !sys->guards().empty(), point_asserts = false;
        for (const sim::AssertCheck& a : sys->asserts()) {
            needs_interpolant = needs_interpolant || a.on_interpolant;
            point_asserts = point_asserts || (!a.on_interpolant && a.unsupported.empty());
        }
        std::vector<std::pair<double, std::size_t>> crossings;
        bool event = !immediate.empty();
        double t_e = t;
        std::vector<std::size_t> fired = immediate;
        std::vector<double> xe, ye;
        while (!event && integ.time() < stop_time) {
            std::string error;
            if (integ.stats().steps - base.steps >= o_.max_steps || over_wall_time()) {
                const bool steps = integ.stats().steps - base.steps >= o_.max_steps;
                close_segment(integ.time());
                finish_values(*sys, x, y);
                if (steps)
                    stop_at_limit(fmt::format("more than {} integration steps in mode '{}' by t = {:.12g}",
                                              o_.max_steps, sys->mode_id(), integ.time()),
                                  "simulation steps", "--max-steps");
                else
                    stop_at_limit(fmt::format("the simulation ran longer than {} s of wall time and stopped at "
                                              "t = {:.12g}", o_.max_wall_seconds, integ.time()),
                                  "simulation wall time", "--max-sim-time");
                return result_;
            }
            if (!integ.step(error)) {
                close_segment(integ.time());
                sys->solve_leading(integ.time(), x.data(), y.data());  // y of the last accepted step (best effort)
                finish_values(*sys, x, y);
                stop(StopReason::SolverFailure, error);
                return result_;
            }
            const sim::StatePolynomial* poly = needs_interpolant ? &integ.interpolant() : nullptr;
            if (!sys->guards().empty()) {
                const sim::StatePolynomial& p = *poly;
                crossings.clear();
                for (std::size_t g = 0; g < sys->guards().size(); ++g) {
                    sim::CrossingResult r =
                        sim::first_upward_crossing(p, sys->guard_function(g), p.t0, p.t1, armed[g], co, work_);
                    seg.event_search_enclosures += r.enclosures;
                    armed[g] = r.armed;
                    if (r.exhausted)
                        result_.messages.push_back(fmt::format(
                            "event search for guard {} gave up in [{:.12g}, {:.12g}] (work limit): crossings there may be missed",
                            sys->guards()[g].text, p.t0, p.t1));
                    if (r.found) crossings.emplace_back(r.time, g);
                }
                if (crossings.empty() && std::find(on_surface.begin(), on_surface.end(), true) != on_surface.end()) {
                    std::vector<double>& end = surface_x_;
                    end.resize(p.n);
                    for (std::size_t g = 0; g < sys->guards().size(); ++g) {
                        if (armed[g]) on_surface[g] = false;
                        if (!on_surface[g]) continue;
                        p.value(p.t1, end.data());
                        if (!(sys->guard_value(g, p.t1, end.data()) > o_.guard_zero_tolerance)) continue;
                        const EventRecord& last = result_.events.back();
                        close_segment(integ.previous_time());
                        sys->solve_leading(integ.previous_time(), x.data(), y.data());  // best effort
                        finish_values(*sys, x, y);
                        result_.chattering = true;
                        result_.zeno_time = last.time;
                        stop(StopReason::Zeno,
                             fmt::format("chattering at t = {:.12g}: right after the switch '{}' -> '{}' the guard {} of "
                                         "mode '{}' is already crossing zero; both modes' flows point across the "
                                         "switching surface (a sliding motion the model does not define), so the mode "
                                         "would switch back and forth with vanishing spacing",
                                         last.time, last.from_id, last.to_id, sys->guards()[g].text, sys->mode_id()));
                        return result_;
                    }
                }
                if (!crossings.empty()) {
                    std::sort(crossings.begin(), crossings.end());
                    t_e = crossings.front().first;
                    const double window = o_.simultaneity * std::max(1.0, std::fabs(t_e));
                    for (const auto& [tc, g] : crossings)
                        if (tc <= t_e + window) fired.push_back(g);
                    event = true;
                }
            }
            const double t_check = event ? t_e : integ.time();
            // The leading variables are solved where they are reported (an
            // event's left limits, the end) or needed (asserts checked at
            // points); between, the states suffice.
            const bool leading = event || !(integ.time() < stop_time) || point_asserts;
            if (leading ? !integ.values_at(t_check, xe, ye) : !integ.states_at(t_check, xe)) {
                close_segment(t_check);
                finish_values(*sys, x, y);
                stop(StopReason::SolverFailure,
                     fmt::format("the index-reduced equations of mode '{}' cannot be solved at t = {:.12g}",
                                 sys->mode_id(), t_check));
                return result_;
            }
            check_asserts(seg, *sys, &integ, poly, integ.previous_time(), t_check, xe, ye);
            seg.max_drift = std::max(seg.max_drift, sys->constraint_residual(t_check, xe.data()));
            x.swap(xe);
            if (leading) y.swap(ye);
            sample(t_check, x);
            if (event) break;
        }
        close_segment(event ? t_e : integ.time());
        if (!event) {
            finish_values(*sys, x, y);
            stop(StopReason::StopTime, "");
            return result_;
        }

        // The event: left limits, the restart, the next mode.
        std::vector<const Transition*> transitions;
        std::sort(fired.begin(), fired.end(), [&](std::size_t a, std::size_t b) {
            return sys->guards()[a].transition < sys->guards()[b].transition;
        });
        for (std::size_t g : fired)
            transitions.push_back(&modes_.transitions[static_cast<std::size_t>(sys->guards()[g].transition)]);
        EventRecord ev;
        ev.time = t_e;
        ev.from = mode;
        ev.from_id = sys->mode_id();
        for (const Transition* tr : transitions) ev.guards.push_back(tr->guard_text);
        ev.before = named(*sys, x, y);
        finish_values(*sys, x, y);
        std::string why;
        // The clauses' assignments to discrete variables other than the mode
        // variables (a counter, a sampled value), and the clocks moved on.
        for (const Transition* tr : transitions) {
            if (tr->when_clause < 0) continue;
            if (!assign_discrete(flat_.whens.at(static_cast<std::size_t>(tr->when_clause)).actions, ev.before, t_e, why)) {
                ev.verdict = "undetermined";
                ev.message = why;
                result_.events.push_back(ev);
                stop(StopReason::Unsupported, fmt::format("at t = {:.12g}: {}", t_e, why));
                return result_;
            }
            if (tr->sampled) {
                Clock& c = clock(*tr);
                while (c.next() <= t_e + o_.simultaneity * std::max(1.0, std::fabs(t_e))) ++c.count;
            }
        }
        const int to = combined_target(modes_, mode, transitions, why);
        if (to < 0) {
            ev.verdict = "undetermined";
            ev.message = why;
            result_.events.push_back(ev);
            stop(StopReason::UndeterminedRestart, fmt::format("at t = {:.12g}: {}", t_e, why));
            return result_;
        }
        ev.to = to;
        ev.to_id = modes_.modes[static_cast<std::size_t>(to)].id;
        RestartRequest req{flat_, modes_, *transitions.front(), transitions, mode, to, t_e, ev.before};
        add_discrete(req.discrete_after);
        RestartAnswer ans = restart_(req);
        ev.verdict = ans.verdict;
        ev.message = ans.message;
        if (!ans.ok) {
            result_.events.push_back(ev);
            stop(ans.verdict == "inadmissible" ? StopReason::Inadmissible : StopReason::UndeterminedRestart,
                 fmt::format("at t = {:.12g} ({} -> {}): {}", t_e, ev.from_id, ev.to_id,
                             ans.message.empty() ? ans.verdict : ans.message));
            return result_;
        }
        ModeSystem* next = nullptr;
        try {
            next = system(to);
            next->set_parameters(parameter_values_of(*next));
        } catch (const std::exception& e) {
            result_.events.push_back(ev);
            stop(StopReason::Unsupported, fmt::format("mode '{}' cannot be simulated: {}", ev.to_id, e.what()));
            return result_;
        }
        std::vector<double> xn(next->state_count()), yn(next->leading_count(), 0.0);
        for (std::size_t i = 0; i < xn.size(); ++i) {
            const std::string& name = next->state_names()[i];
            if (auto it = ans.values.find(name); it != ans.values.end()) xn[i] = it->second;
            else if (auto jt = ev.before.find(name); jt != ev.before.end()) xn[i] = jt->second;
            else {
                result_.events.push_back(ev);
                stop(StopReason::UndeterminedRestart,
                     fmt::format("at t = {:.12g}: the restart gives no value for the state {} of mode '{}'", t_e, name,
                                 ev.to_id));
                return result_;
            }
        }
        for (std::size_t i = 0; i < yn.size(); ++i) {
            const std::string& name = next->leading_names()[i];
            if (auto it = ans.values.find(name); it != ans.values.end()) yn[i] = it->second;
            else if (auto jt = ev.before.find(name); jt != ev.before.end()) yn[i] = jt->second;
        }
        double scale = 1;
        for (double v : xn) scale = std::max(scale, std::fabs(v));
        const double residual = next->constraint_residual(t_e, xn.data());
        if (!(residual <= 1e-8 * scale) || !next->solve_leading(t_e, xn.data(), yn.data())) {
            ev.after = named(*next, xn, yn);
            result_.events.push_back(ev);
            stop(StopReason::Inadmissible,
                 fmt::format("at t = {:.12g}: the restart values do not satisfy mode '{}' ({})", t_e, ev.to_id,
                             residual <= 1e-8 * scale
                                 ? std::string("its index-reduced equations cannot be solved")
                                 : fmt::format("consistency residual {:.3g}", residual)));
            return result_;
        }
        ev.after = named(*next, xn, yn);
        result_.events.push_back(ev);
        event_times.push_back(t_e);
        if (result_.events.size() >= o_.max_events) {
            finish_values(*next, xn, yn);
            stop_at_limit(fmt::format("more than {} events by t = {:.12g}", o_.max_events, t_e), "simulation events",
                          "--max-events");
            return result_;
        }
        ZenoCheck z = check_zeno(event_times, o_, stop_time);
        if (z.zeno) {
            finish_values(*next, xn, yn);
            result_.zeno_time = z.estimate;
            stop(StopReason::Zeno, fmt::format("events accumulate: {} events, the last spacings shrinking geometrically; "
                                               "estimated accumulation time {:.12g}",
                                               result_.events.size(), z.estimate));
            return result_;
        }
        mode = to;
        t = t_e;
        x = xn;
        y = yn;
    }
}

RestartFunction supplied_restart(const StructureResult& structures) {
    // The parameter values a reset's expression needs do not depend on the
    // left limits' values: found once per reset and mode (it was most of a
    // restart's cost).
    struct ParameterCache {
        std::mutex lock;
        std::map<std::pair<const WhenAction*, int>, GiNaC::exmap> values;  // by reset and mode left
    };
    auto cache = std::make_shared<ParameterCache>();
    return [&structures, cache](const RestartRequest& r) {
        RestartAnswer a;
        std::map<std::string, double> left = r.left_limits;
        bool reset = false;
        for (const Transition* t : r.transitions)
            for (const WhenAction& act : t->resets) {
                if (act.kind != WhenAction::Kind::Reinit) continue;
                GiNaC::exmap at;
                for (GiNaC::const_preorder_iterator it = act.value.preorder_begin(); it != act.value.preorder_end(); ++it) {
                    if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
                    const GiNaC::symbol& s = GiNaC::ex_to<GiNaC::symbol>(*it);
                    auto m = r.flat.symbols.meaning(s);
                    if (!m) continue;
                    std::string name = s.get_name();
                    if (m->role == SymbolTable::Meaning::Role::Pre)
                        name = r.flat.variables.at(static_cast<std::size_t>(m->index)).name;
                    if (m->role == SymbolTable::Meaning::Role::Time) {
                        at[s] = r.time;
                        continue;
                    }
                    const auto after = m->role == SymbolTable::Meaning::Role::Variable ? r.discrete_after.find(name)
                                                                                         : r.discrete_after.end();
                    if (after != r.discrete_after.end()) at[s] = after->second;
                    else if (auto v = r.left_limits.find(name); v != r.left_limits.end()) at[s] = v->second;
                }
                {
                    std::lock_guard<std::mutex> hold(cache->lock);
                    auto found = cache->values.find({&act, r.from});
                    if (found == cache->values.end()) {
                        std::set<std::string> skip;
                        for (const auto& [s, v] : at) skip.insert(GiNaC::ex_to<GiNaC::symbol>(s).get_name());
                        GiNaC::exmap params = parameter_values(r.flat, {act.value}, skip);
                        found = cache->values.emplace(std::make_pair(&act, r.from), std::move(params)).first;
                    }
                    at.insert(found->second.begin(), found->second.end());
                }
                auto value = numeric_value(GiNaC::evalf(act.value.subs(at, kExactSubs)));
                const std::string target = r.flat.variables.at(static_cast<std::size_t>(act.variable)).name;
                if (!value || !value->is_real()) {
                    a.verdict = "undetermined";
                    a.message = "the reinit value of " + target + " cannot be evaluated at the left limits";
                    return a;
                }
                left[target] = value->to_double();
                reset = true;
            }
        const ModeStructure& prev = structures.modes.at(static_cast<std::size_t>(r.from));
        const ModeStructure& next = structures.modes.at(static_cast<std::size_t>(r.to));
        bool all_inherited = next.consistency.empty();
        for (const GiNaC::symbol& s : next.states) all_inherited = all_inherited && left.count(s.get_name());
        if (all_inherited) {
            // Nothing to solve: the states carry over (with the resets).
            for (const GiNaC::symbol& s : next.states) a.values[s.get_name()] = left.at(s.get_name());
        } else {
            ContinuousRestart c = continuous_restart(r.flat, prev, next, left, r.time);
            if (!c.consistent) {
                a.verdict = "undetermined";
                a.message = c.message + "; the restart must be derived (mode-change array, Procedure 1)";
                return a;
            }
            a.values = c.values;
        }
        a.ok = true;
        a.verdict = reset ? "reinit" : "continuous";
        return a;
    };
}

ToleranceComparison compare_tolerances(const SimulationResult& reference, const SimulationResult& tighter) {
    ToleranceComparison c;
    const auto& a = reference.events;
    const auto& b = tighter.events;
    c.same_events = a.size() == b.size() && reference.stopped_because == tighter.stopped_because;
    for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
        c.same_events = c.same_events && a[k].to == b[k].to;
        c.max_event_shift = std::max(c.max_event_shift, std::abs(a[k].time - b[k].time));
    }
    for (const auto& [name, v] : reference.final_values)
        if (auto it = tighter.final_values.find(name); it != tighter.final_values.end())
            c.max_final_difference = std::max(c.max_final_difference, std::abs(v - it->second));
    return c;
}

CompiledModes::CompiledModes() = default;
CompiledModes::~CompiledModes() = default;

SimulationResult simulate(const FlatModel& flat, const ModeSet& modes, const StructureResult& structures,
                          const SimulationOptions& options, const RestartFunction& restart, CompiledModes* cache) {
    if (options.start_mode < 0 || static_cast<std::size_t>(options.start_mode) >= modes.modes.size())
        throw std::invalid_argument(
            fmt::format("start mode {} does not exist (the model has {} modes)", options.start_mode, modes.modes.size()));
    if (structures.modes.size() != modes.modes.size())
        throw std::invalid_argument("the structure result does not belong to these modes");
    if (!(options.rtol > 0) || !(options.atol > 0))
        throw std::invalid_argument(fmt::format("tolerances must be positive (rtol {}, atol {})", options.rtol, options.atol));
    const double stop = options.stop_time ? *options.stop_time : flat.stop_time.value_or(1.0);
    if (!(stop > options.start_time))
        throw std::invalid_argument(fmt::format("the stop time {} is not after the start time {}", stop, options.start_time));
    if (!restart) throw std::invalid_argument("no restart function given");
    CompiledModes local;
    SimulationDriver d(flat, modes, structures, options, restart, cache ? *cache : local);
    return d.run();
}

}  // namespace modeaudit
