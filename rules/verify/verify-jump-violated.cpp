// Rule verify-jump-violated: a declared `atEvents` law (conserved,
// nonincreasing, nondecreasing) fails across a restart: shown on the
// restart system when the jump's sign is certain, otherwise at a simulated
// event with the values before and after.
#include <fmt/format.h>

#include "rule_checks.h"

namespace modeaudit {

namespace {
std::string transition_name(const ModeSet& modes, int t) {
    const Transition& tr = modes.transitions[static_cast<std::size_t>(t)];
    return fmt::format("{} -> {}", modes.modes[static_cast<std::size_t>(tr.from)].id,
                       modes.modes[static_cast<std::size_t>(tr.to)].id);
}
}  // namespace

void check_invariant_jump_violated(const FlatModel& flat, const ModeSet& modes, const VerificationResult& v,
                                   VerificationPhase phase, DiagnosticSink& sink) {
    (void)flat;
    if (phase == VerificationPhase::Static) {
        for (const TransitionVerification& t : v.transitions)
            for (const JumpCheck& j : t.jumps) {
                if (j.status != CheckStatus::Violated) continue;
                sink.report(rule::verify_jump_violated, j.range,
                            fmt::format("{} is declared {} at events, but the restart of {} changes it by {} (in the left limits)",
                                        j.invariant, j.kind, transition_name(modes, t.transition), j.jump),
                            {j.note, "the restart (derived or supplied) and the declared law disagree: one of them "
                                     "does not describe the physics of this event"});
            }
        return;
    }
    for (const EventVerification& e : v.events)
        for (const EventJump& j : e.jumps) {
            if (j.status != CheckStatus::Violated) continue;
            const DeclaredInvariant* inv = nullptr;
            for (const DeclaredInvariant& d : v.invariants)
                if (d.name == j.invariant) inv = &d;
            // A violation already shown on the restart system is not repeated.
            bool shown = false;
            for (const JumpCheck& s : v.transitions[static_cast<std::size_t>(e.transition)].jumps)
                shown = shown || (s.invariant == j.invariant && s.status == CheckStatus::Violated);
            if (shown || !inv) continue;
            sink.report(rule::verify_jump_violated, inv->decl->range,
                        fmt::format("{} is declared {} at events, but at t = {:.12g} ({}) it goes from {:.12g} to "
                                    "{:.12g} (jump {:.6g})",
                                    j.invariant, j.kind, e.time, transition_name(modes, e.transition), j.before, j.after,
                                    j.jump),
                        {"the restart (derived or supplied) and the declared law disagree: one of them does not "
                         "describe the physics of this event"});
        }
}

}  // namespace modeaudit
