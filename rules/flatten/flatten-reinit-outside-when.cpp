// Rule flatten-reinit-outside-when: reinit() is an event action and only
// allowed inside a when-clause (Modelica 3.6 section 8.3.6; seed 004).
#include "rule_checks.h"

namespace modeaudit {

void check_flatten_reinit_outside_when(const FlatModel& flat, DiagnosticSink& sink) {
    for (const SourceRange& r : flat.reinit_outside_when)
        sink.report(rule::flatten_reinit_outside_when, r,
                    "reinit() outside a when-clause: a reset needs the event that triggers it; put it inside "
                    "`when condition then ... end when`");
}

}  // namespace modeaudit
