#include "pipeline/simulation_run.h"

#include <fmt/format.h>

#include "rule_checks.h"
#include "simulation/derived_restart.h"

namespace modeaudit {

AnalysisSimulation::AnalysisSimulation(PipelineState& a, const RunOptions& o)
    : a_(a), options_(o.simulation), restart_(derived_restart(*a.structure, *a.restarts, o.mode_change, o.z3)) {}

void AnalysisSimulation::reference(double stop, double wall_seconds, std::size_t max_events) {
    stop_ = stop;
    refused_ = false;
    SimulationOptions so = options_;
    so.stop_time = stop;
    so.max_wall_seconds = wall_seconds;
    so.max_events = max_events;
    try {
        a_.simulation = std::make_unique<SimulationResult>(
            simulate(*a_.flat, *a_.modes, *a_.structure, so, restart_, &compiled_));
    } catch (const std::invalid_argument& e) {
        auto r = std::make_unique<SimulationResult>();
        r->messages.push_back(e.what());
        a_.simulation = std::move(r);
        refused_ = true;
    }
}

void AnalysisSimulation::sensitivity(double wall_seconds) {
    if (refused_) return;
    SimulationOptions tight = options_;
    tight.stop_time = stop_;
    tight.rtol /= 10;
    tight.atol /= 10;
    tight.record_steps = false;
    tight.max_wall_seconds = wall_seconds;
    try {
        const SimulationResult fine = simulate(*a_.flat, *a_.modes, *a_.structure, tight, restart_, &compiled_);
        if (!fine.limit.empty()) {
            a_.simulation->messages.push_back(fmt::format(
                "the sensitivity run (rtol {:g}) stopped at the {} limit; no comparison is made", tight.rtol,
                fine.limit));
            return;
        }
        static_cast<ToleranceComparison&>(a_.sensitivity) = compare_tolerances(*a_.simulation, fine);
        a_.sensitivity.ran = true;
        a_.sensitivity.rtol = tight.rtol;
    } catch (const std::invalid_argument& e) {
        a_.simulation->messages.push_back(e.what());
    }
}

void AnalysisSimulation::check(double stop, DiagnosticSink& sink) {
    run_simulation_checks(*a_.flat, *a_.simulation, stop, a_.sensitivity.ran ? &a_.sensitivity : nullptr,
                          options_.rtol, sink);
    if (a_.verification) {
        verify_events(*a_.flat, *a_.modes, *a_.structure, *a_.restarts, *a_.simulation, *a_.verification);
        run_verification_checks(*a_.flat, *a_.modes, *a_.verification, VerificationPhase::Events, sink);
    }
}

}  // namespace modeaudit
