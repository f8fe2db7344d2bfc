// Rule restart-unsupported-nonlinear: a restart would need an impulsive
// variable inside a non-polynomial function (axiom 112 of seed 001; the
// restriction mirrors condition (Gp) of Trenn et al., paper notes 8). The
// method cannot rescale it; the equation is named.
#include "restart/common.h"
#include "rule_checks.h"

namespace modeaudit {

void check_restart_unsupported_nonlinear(const FlatModel& flat, const ModeSet& modes, const RestartStageResult& r,
                                         DiagnosticSink& sink) {
    for (const TransitionRestart& tr : r.transitions) {
        if (tr.verdict != Verdict::Unsupported) continue;
        const Transition& t = modes.transitions[static_cast<std::size_t>(tr.transition)];
        SourceRange where = tr.nonlinear_range.valid() ? tr.nonlinear_range : t.range;
        sink.report(rule::restart_unsupported_nonlinear, where,
                    "unsupported: " + tr.nonlinear,
                    {restart_rules::transition_note(modes, t),
                     "write the impulsive variable so that it enters linearly (a product with states is fine), "
                     "or supply the restart with reinit"});
    }
    (void)flat;
}

}  // namespace modeaudit
