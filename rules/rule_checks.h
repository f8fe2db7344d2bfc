// Entry points of the rule checks that run over a stage's result. The
// pipeline calls each group after its stage. Every check is one source file
// under rules/<family>/ named by its rule id, with its doc page beside it.
#pragma once

#include "common/diagnostics.h"
#include "flatten/flat_model.h"
#include "modes/modes.h"
#include "restart/verdict.h"
#include "simulation/simulation.h"
#include "verification/verification.h"

namespace modeaudit {

// rules/flatten/*.cpp
void check_flatten_reinit_not_state(const FlatModel& flat, DiagnosticSink& sink);
void check_flatten_reinit_outside_when(const FlatModel& flat, DiagnosticSink& sink);
void check_flatten_continuous_assigned_in_when(const FlatModel& flat, DiagnosticSink& sink);
void check_flatten_unbalanced_if(const FlatModel& flat, DiagnosticSink& sink);
// rules/modes/*.cpp
void check_modes_unbalanced(const FlatModel& flat, const ModeSet& modes, DiagnosticSink& sink);
// rules/restart/*.cpp
void check_restart_undetermined(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r,
                                DiagnosticSink& sink);
void check_restart_position_jump(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r,
                                 DiagnosticSink& sink);
void check_restart_inconsistent(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r,
                                DiagnosticSink& sink);
void check_restart_unsupported_nonlinear(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r,
                                         DiagnosticSink& sink);
void check_restart_impulsive(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r,
                             DiagnosticSink& sink);
void check_restart_not_analysed(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r,
                                DiagnosticSink& sink);

// rules/sim/*.cpp
void check_sim_assert_violated(const FlatModel& flat, const SimulationResult& r, DiagnosticSink& sink);
void check_sim_stopped_early(const FlatModel& flat, const SimulationResult& r, double stop_time, DiagnosticSink& sink);
void check_sim_zeno(const FlatModel& flat, const SimulationResult& r, DiagnosticSink& sink);
void check_sim_grazing_guard(const FlatModel& flat, const SimulationResult& r, DiagnosticSink& sink);
void check_sim_event_search_incomplete(const FlatModel& flat, const SimulationResult& r, DiagnosticSink& sink);
void check_sim_tolerance_sensitive(const FlatModel& flat, const SimulationResult& r, double stop_time,
                                   const ToleranceComparison& tighter, double rtol, DiagnosticSink& sink);

// rules/verify/*.cpp: the static phase runs after the verification stage,
// the event phase after the simulation (over the simulated events).
enum class VerificationPhase { Static, Events };
void check_invariant_rate_violated(const FlatModel& flat, const ModeSet& modes, const VerificationResult& v,
                                   DiagnosticSink& sink);
void check_invariant_jump_violated(const FlatModel& flat, const ModeSet& modes, const VerificationResult& v,
                                   VerificationPhase phase, DiagnosticSink& sink);
void check_restart_inadmissible(const FlatModel& flat, const ModeSet& modes, const VerificationResult& v,
                                DiagnosticSink& sink);
void check_impact_law_missing(const FlatModel& flat, const ModeSet& modes, const VerificationResult& v,
                              VerificationPhase phase, DiagnosticSink& sink);

// Run every check of a stage, in table order, then apply the model's
// suppressions (annotation(__ModeAudit(suppress = {...}))) to what they found.
void run_flatten_checks(const FlatModel& flat, DiagnosticSink& sink);
void run_mode_checks(const FlatModel& flat, const ModeSet& modes, DiagnosticSink& sink);
void run_restart_checks(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& restarts,
                        DiagnosticSink& sink);
// `tighter`: the comparison with the sensitivity rerun at rtol / 10 (null
// when it did not run), `rtol` the reference run's tolerance.
void run_simulation_checks(const FlatModel& flat, const SimulationResult& r, double stop_time,
                           const ToleranceComparison* tighter, double rtol, DiagnosticSink& sink);
void run_verification_checks(const FlatModel& flat, const ModeSet& modes, const VerificationResult& v,
                             VerificationPhase phase, DiagnosticSink& sink);

// Marks as suppressed the findings from index `from` on that the model's
// suppressions silence: model-level ones everywhere, equation- and
// component-level ones inside the annotated element's source range.
void apply_suppressions(const FlatModel& flat, DiagnosticSink& sink, std::size_t from);

}  // namespace modeaudit
