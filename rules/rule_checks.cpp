#include "rule_checks.h"

#include <algorithm>

namespace modeaudit {

void apply_suppressions(const FlatModel& flat, DiagnosticSink& sink, std::size_t from) {
    auto& all = sink.mutable_all();
    auto has = [](const std::vector<std::string>& v, const std::string& r) {
        return std::find(v.begin(), v.end(), r) != v.end();
    };
    for (std::size_t i = from; i < all.size(); ++i) {
        Diagnostic& d = all[i];
        if (d.kind == RuleKind::input) continue;  // an input error cannot be silenced: the run stopped
        if (has(flat.suppress, d.rule)) d.suppressed = true;
        for (const FlatModel::Suppression& s : flat.suppressions) {
            if (!has(s.rules, d.rule) || !d.range.valid() || d.range.begin.file != s.range.begin.file) continue;
            if (d.range.begin.offset >= s.range.begin.offset && d.range.begin.offset < s.range.end.offset)
                d.suppressed = true;
        }
    }
}

void run_flatten_checks(const FlatModel& flat, DiagnosticSink& sink) {
    std::size_t from = sink.size();
    check_flatten_reinit_not_state(flat, sink);
    check_flatten_reinit_outside_when(flat, sink);
    check_flatten_continuous_assigned_in_when(flat, sink);
    check_flatten_unbalanced_if(flat, sink);
    apply_suppressions(flat, sink, from);
}

void run_mode_checks(const FlatModel& flat, const ModeSet& modes, DiagnosticSink& sink) {
    std::size_t from = sink.size();
    check_modes_unbalanced(flat, modes, sink);
    apply_suppressions(flat, sink, from);
}

void run_restart_checks(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& restarts,
                        DiagnosticSink& sink) {
    std::size_t from = sink.size();
    check_restart_undetermined(flat, modes, restarts, sink);
    check_restart_position_jump(flat, modes, restarts, sink);
    check_restart_inconsistent(flat, modes, restarts, sink);
    check_restart_unsupported_nonlinear(flat, modes, restarts, sink);
    check_restart_impulsive(flat, modes, restarts, sink);
    check_restart_not_analysed(flat, modes, restarts, sink);
    apply_suppressions(flat, sink, from);
}

void run_simulation_checks(const FlatModel& flat, const SimulationResult& r, double stop_time,
                           const ToleranceComparison* tighter, double rtol, DiagnosticSink& sink) {
    std::size_t from = sink.size();
    check_sim_assert_violated(flat, r, sink);
    check_sim_stopped_early(flat, r, stop_time, sink);
    check_sim_zeno(flat, r, sink);
    check_sim_grazing_guard(flat, r, sink);
    check_sim_event_search_incomplete(flat, r, sink);
    if (tighter) check_sim_tolerance_sensitive(flat, r, stop_time, *tighter, rtol, sink);
    apply_suppressions(flat, sink, from);
}

void run_verification_checks(const FlatModel& flat, const ModeSet& modes, const VerificationResult& v,
                             VerificationPhase phase, DiagnosticSink& sink) {
    std::size_t from = sink.size();
    if (phase == VerificationPhase::Static) check_invariant_rate_violated(flat, modes, v, sink);
    check_invariant_jump_violated(flat, modes, v, phase, sink);
    if (phase == VerificationPhase::Events) check_restart_inadmissible(flat, modes, v, sink);
    check_impact_law_missing(flat, modes, v, phase, sink);
    apply_suppressions(flat, sink, from);
}

}  // namespace modeaudit
