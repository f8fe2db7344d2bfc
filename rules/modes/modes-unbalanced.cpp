// Rule modes-unbalanced: in some reachable mode the active system has more
// or fewer equations than unknowns (input-language.md, "balanced models").
// The mode is named so that the author knows which branch combination fails.
#include <fmt/format.h>

#include "rule_checks.h"

namespace modeaudit {

void check_modes_unbalanced(const FlatModel& flat, const ModeSet& modes, DiagnosticSink& sink) {
    for (const Mode& m : modes.modes) {
        std::size_t ne = m.equations.size(), nu = m.unknowns.size();
        if (ne == nu) continue;
        std::string which = m.id.empty() ? "the model" : "mode " + m.id;
        sink.report(rule::modes_unbalanced, flat.range,
                    fmt::format("{} has {} equation{} for {} unknown{}: {}", which, ne, ne == 1 ? "" : "s", nu,
                                nu == 1 ? "" : "s",
                                ne > nu ? "overdetermined; remove or correct an equation"
                                        : "underdetermined; an equation is missing"));
    }
}

}  // namespace modeaudit
