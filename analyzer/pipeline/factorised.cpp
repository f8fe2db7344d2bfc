#include "pipeline/factorised.h"

#include <algorithm>
#include <chrono>
#include <map>

#include <fmt/format.h>

#include "modes/model_partition.h"
#include "pipeline/simulation_run.h"
#include "rule_checks.h"
#include "simulation/composition.h"

namespace modeaudit {

bool factorise(PipelineState& s, const RunOptions& o) {
    std::vector<ModelPart> split = split_model(*s.flat);
    if (split.size() < 2) return false;
    std::vector<std::unique_ptr<PipelineState>> parts;
    double product = 1;
    for (ModelPart& p : split) {
        auto part = std::make_unique<PipelineState>();
        part->flat = std::make_unique<FlatModel>(std::move(p.model));
        part->modes = std::make_unique<ModeSet>(enumerate_modes(*part->flat, part->sink, o.modes));
        run_mode_checks(*part->flat, *part->modes, part->sink);
        product *= static_cast<double>(part->modes->long_mode_count());
        parts.push_back(std::move(part));
    }
    if (product <= static_cast<double>(std::min(o.modes.max_modes, o.modes.factorise_above))) return false;
    // The summary: a cluster per part with modes of its own.
    auto summary = std::make_unique<ModeSet>();
    for (const auto& part : parts) {
        for (const Diagnostic& d : part->sink.all()) s.sink.take(d);
        const ModeSet& m = *part->modes;
        if (m.mode_variables.empty()) continue;
        SwitchingCluster c;
        for (const ModeVariable& v : m.mode_variables) {
            c.mode_variables.push_back(static_cast<int>(summary->mode_variables.size()));
            summary->mode_variables.push_back(v);
        }
        c.local_modes = m.long_mode_count();
        c.complete = m.complete;
        summary->complete = summary->complete && m.complete;
        summary->clusters.push_back(std::move(c));
    }
    s.modes = std::move(summary);
    s.parts = std::move(parts);
    return true;
}

void simulate_parts(PipelineState& s, const RunOptions& o) {
    const double stop = simulation_stop_time(s, o);
    const auto started = std::chrono::steady_clock::now();
    auto wall_left = [&] {
        return o.simulation.max_wall_seconds -
               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    std::vector<std::string> refused;
    if (o.simulation.start_mode != 0)
        refused.push_back("a start mode names a global mode, and a model simulated in parts has none");
    // Initial values go to the part that has the variable.
    std::map<std::string, double> unplaced = o.simulation.initial_values;
    std::vector<std::unique_ptr<AnalysisSimulation>> runs;
    for (auto& part : s.parts) {
        runs.push_back(std::make_unique<AnalysisSimulation>(*part, o));
        std::map<std::string, double>& given = runs.back()->options().initial_values;
        given.clear();
        for (const auto& [name, v] : o.simulation.initial_values)
            if (part->flat->find_variable(name) >= 0) {
                given[name] = v;
                unplaced.erase(name);
            }
    }
    for (const auto& [name, v] : unplaced)
        refused.push_back(fmt::format("an initial value is given for '{}', which is no variable of the model", name));
    if (!refused.empty()) {
        auto r = std::make_unique<SimulationResult>();
        r->messages = refused;
        s.simulation = std::move(r);
        return;
    }

    // The reference runs. The whole run ends where the first part ends
    // early; a resource limit ends it at once (the parts after it are not
    // simulated, and the composed run says so).
    double end = stop;
    std::size_t events = 0, simulated = 0;
    for (std::size_t k = 0; k < runs.size(); ++k) {
        const double wall = wall_left();
        runs[k]->reference(end, wall, o.simulation.max_events > events ? o.simulation.max_events - events : 0);
        ++simulated;
        const SimulationResult& r = *s.parts[k]->simulation;
        events += r.events.size();
        if (!r.limit.empty()) break;
        if (r.stopped_because != StopReason::StopTime && r.end_time < end) end = r.end_time;
    }
    const bool limited = !s.parts[simulated - 1]->simulation->limit.empty();
    if (!limited)
        for (std::size_t k = 0; k < simulated; ++k)
            if (s.parts[k]->simulation->end_time > end)  // ran past the end of a later part
                runs[k]->reference(end, std::max(wall_left(), 0.0), o.simulation.max_events);

    // The reruns at tighter tolerances, the rules and the event verification.
    std::vector<ToleranceComparison> comparisons;
    for (std::size_t k = 0; k < simulated; ++k) {
        const double wall = wall_left();
        if (o.sensitivity && !limited && wall > 0) runs[k]->sensitivity(wall);
        if (s.parts[k]->sensitivity.ran) comparisons.push_back(s.parts[k]->sensitivity);
        runs[k]->check(runs[k]->requested_stop(), s.sink);
    }

    std::vector<const SimulationResult*> results;
    for (std::size_t k = 0; k < simulated; ++k) results.push_back(s.parts[k]->simulation.get());
    ComposedSimulation composed = compose_simulations(results);
    if (simulated < runs.size())
        composed.result.messages.push_back(fmt::format(
            "{} of the {} independent parts were not simulated: the run stopped at the {} limit in part {}",
            runs.size() - simulated, runs.size(), composed.result.limit, simulated));
    s.simulation = std::make_unique<SimulationResult>(std::move(composed.result));
    if (comparisons.size() == simulated) {
        static_cast<ToleranceComparison&>(s.sensitivity) = compose_comparisons(comparisons);
        s.sensitivity.ran = true;
        s.sensitivity.rtol = s.parts.front()->sensitivity.rtol;
    }
    // The parts' event verifications, numbered by the composed events.
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> composed_index;  // (part, its event) -> composed
    for (std::size_t e = 0; e < composed.event_origin.size(); ++e) composed_index[composed.event_origin[e]] = e;
    for (std::size_t k = 0; k < simulated; ++k) {
        if (!s.parts[k]->verification) continue;
        for (const EventVerification& ev : s.parts[k]->verification->events) {
            auto at = composed_index.find({k, ev.event});
            if (at == composed_index.end()) continue;
            s.composed_event_checks.push_back(ev);
            s.composed_event_checks.back().event = at->second;
            s.composed_event_checks.back().transition = -1;  // the part's own index
        }
    }
    std::stable_sort(s.composed_event_checks.begin(), s.composed_event_checks.end(),
                     [](const EventVerification& a, const EventVerification& b) { return a.event < b.event; });
}

}  // namespace modeaudit
