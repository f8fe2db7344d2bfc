// Rule flatten-reinit-not-state: reinit(x, ...) needs x to appear
// differentiated (Modelica 3.6 section 8.3.6; seed 004, section 1).
#include <fmt/format.h>

#include "rule_checks.h"

namespace modeaudit {

void check_flatten_reinit_not_state(const FlatModel& flat, DiagnosticSink& sink) {
    for (const FlatWhen& w : flat.whens)
        for (const WhenAction& a : w.actions) {
            if (a.kind != WhenAction::Kind::Reinit) continue;
            auto d = flat.symbols.find_derivative(a.variable, 1);
            bool differentiated = false;
            if (d)
                for (const FlatEquation& e : flat.equations)
                    if (e.residual().has(*d)) {
                        differentiated = true;
                        break;
                    }
            if (differentiated) continue;
            const std::string& name = flat.variables[static_cast<std::size_t>(a.variable)].name;
            sink.report(rule::flatten_reinit_not_state, a.range,
                        fmt::format("reinit({}, ...): '{}' does not appear differentiated, so it is not a state "
                                    "that an event can reset; reinit only a variable x used as der(x)",
                                    name, name));
        }
}

}  // namespace modeaudit
