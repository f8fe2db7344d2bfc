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
#include "simulation/driver.h"
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
        case StopReason::LimitExceeded: return "limit-exceeded";
    }
    return "solver-failure";
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
    for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
        if (a[k].to != b[k].to && c.first_difference.empty())
            c.first_difference = fmt::format("event {}: at t = {:.12g} to mode '{}' against t = {:.12g} to mode '{}'",
                                             k + 1, a[k].time, a[k].to_id, b[k].time, b[k].to_id);
        c.max_event_shift = std::max(c.max_event_shift, std::abs(a[k].time - b[k].time));
    }
    if (c.first_difference.empty() && a.size() != b.size())
        c.first_difference = fmt::format("{} events against {}", a.size(), b.size());
    if (c.first_difference.empty() && reference.stopped_because != tighter.stopped_because)
        c.first_difference = fmt::format("the run stopped because {} against {}",
                                         stop_reason_name(reference.stopped_because),
                                         stop_reason_name(tighter.stopped_because));
    c.same_events = c.first_difference.empty();
    for (const auto& [name, v] : reference.final_values)
        if (auto it = tighter.final_values.find(name); it != tighter.final_values.end()) {
            const double d = std::abs(v - it->second);
            c.max_final_difference = std::max(c.max_final_difference, d);
            const double relative = d / std::max(1.0, std::abs(v));
            if (relative > c.max_relative_final_difference) {
                c.max_relative_final_difference = relative;
                c.worst_final = name;
            }
        }
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
