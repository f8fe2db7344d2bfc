// Rule flatten-continuous-assigned-in-when: assigning a continuous variable
// in a when-clause (`velocity := -c*velocity`) adds a second definition of a
// variable the continuous equations already determine: too many equations
// (seed 004, BouncingBallError). The fix is reinit().
#include <fmt/format.h>

#include "flatten/flattener.h"
#include "rule_checks.h"

namespace modeaudit {

void check_flatten_continuous_assigned_in_when(const FlatModel& flat, DiagnosticSink& sink) {
    for (const FlatWhen& w : flat.whens)
        for (const WhenAction& a : w.actions) {
            if (a.kind != WhenAction::Kind::AssignContinuous) continue;
            const std::string& name = flat.variables[static_cast<std::size_t>(a.variable)].name;
            std::vector<std::string> notes;
            const GiNaC::symbol& x = flat.symbols.variable(a.variable);
            auto d = flat.symbols.find_derivative(a.variable, 1);
            // Name the equation that already determines it: its derivative's
            // equation first (a state), else any equation using it.
            const FlatEquation* defining = nullptr;
            for (const FlatEquation& e : flat.equations)
                if (d && e.residual().has(*d)) {
                    defining = &e;
                    break;
                }
            for (const FlatEquation& e : flat.equations)
                if (!defining && e.residual().has(x)) defining = &e;
            if (defining)
                notes.push_back(fmt::format("'{}' is already determined with `{} = {}` at line {}", name,
                                            canonical_in(flat, defining->lhs), canonical_in(flat, defining->rhs),
                                            defining->range.begin.line));
            notes.push_back(fmt::format("to reset the state at the event, write reinit({}, {})", name,
                                        canonical_in(flat, a.value)));
            sink.report(rule::flatten_continuous_assigned_in_when, a.range,
                        fmt::format("the continuous variable '{}' is assigned in a when-clause: the system is "
                                    "overdetermined (too many equations for '{}')",
                                    name, name),
                        notes);
        }
}

}  // namespace modeaudit
