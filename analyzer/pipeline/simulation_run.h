// The simulation stage's work on one analysis: the model analysed whole, or
// one part of a factorised model (pipeline/factorised.h). The pipeline's
// simulation stage (pipeline.cpp) and the parts' composed simulation
// (factorised.cpp) are both made of these steps:
//   1. the reference run (simulation.h) with the derived restarts of the
//      analysis's restart stage (derived_restart.h);
//   2. the same run at tolerances ten times tighter (seed 000, 4.4: a
//      result that moves with the tolerance is not a reference);
//   3. the simulation rules and the verification's event part, their
//      findings to the model's sink.
// Both runs share one cache of compiled modes and one restart function.
#pragma once

#include "pipeline/pipeline.h"

namespace modeaudit {

class AnalysisSimulation {
public:
    // `a` must have its structure and restart results; it receives
    // a.simulation and a.sensitivity.
    AnalysisSimulation(PipelineState& a, const RunOptions& o);

    // Runs the reference simulation to `stop` within `wall_seconds` and
    // `max_events`, replacing any earlier result (a part run again to an
    // earlier stop). An option the simulation refuses becomes the result's
    // message.
    void reference(double stop, double wall_seconds, std::size_t max_events);

    // The rerun at rtol / 10 within `wall_seconds`, compared with the
    // reference run (none when the reference run was refused); when it stops at a resource limit the reference run
    // says so in a message and no comparison is made.
    void sensitivity(double wall_seconds);

    // The simulation rules (the run was asked to reach `stop`) and the
    // verification's event part.
    void check(double stop, DiagnosticSink& sink);

    double requested_stop() const { return stop_; }
    // The options of both runs (RunOptions::simulation at first); the stop
    // time, wall-time and event limits are the calls' own.
    SimulationOptions& options() { return options_; }

private:
    PipelineState& a_;
    SimulationOptions options_;
    RestartFunction restart_;
    CompiledModes compiled_;
    double stop_ = 0;
    bool refused_ = false;  // the reference run's options were refused
};

}  // namespace modeaudit
