// Rule sim-assert-violated: an assert of the active mode (its admissibility
// condition: rope tension >= 0, diode current >= 0; input-language.md,
// extension 3) fails somewhere along a simulated segment. The first
// violation of each assert in each segment is reported at the assert; one
// at the restart that opens a segment is verify-inadmissible-restart's finding.
// An assert inside a when-clause is checked when the clause fires. An assert
// of level AssertionLevel.warning is reported as a warning.
#include <fmt/format.h>

#include "rule_checks.h"

namespace modeaudit {

void check_sim_assert_violated(const FlatModel& flat, const SimulationResult& r, DiagnosticSink& sink) {
    for (std::size_t k = 0; k < r.segments.size(); ++k) {
        const SegmentRecord& sg = r.segments[k];
        for (const AssertRecord& a : sg.asserts) {
            if (!a.violated || a.assert_index < 0) continue;
            // Violated at the restart that opens the segment: verify-inadmissible-restart says so.
            if (k > 0 && a.time <= sg.begin) continue;
            const FlatAssert& fa = flat.asserts[static_cast<std::size_t>(a.assert_index)];
            Diagnostic& d = sink.report(
                rule::sim_assert_violated, fa.range,
                fmt::format("assert \"{}\" is violated at t = {:.12g} in mode {} (margin {:.6g})", a.message, a.time,
                            sg.mode_id, a.value),
                {fmt::format("segment from t = {:.12g} to t = {:.12g}", sg.begin, sg.end),
                 "the mode is not admissible there: the model needs a transition out of it (a rope that "
                 "goes slack, a diode that blocks) before this point"});
            // AssertionLevel.warning (Modelica 3.6, 8.3.7): the run goes on; a warning.
            if (fa.level == "warning") d.severity = Severity::warning;
        }
    }
    // Asserts inside when-clauses, checked when their clause fired.
    for (const SimulationResult::EventAssert& a : r.event_asserts) {
        Diagnostic& d =
            a.unevaluated.empty()
                ? sink.report(rule::sim_assert_violated, a.range,
                              fmt::format("assert \"{}\" is violated at t = {:.12g}, when its when-clause fires",
                                          a.message, a.time))
                : sink.report(rule::sim_assert_violated, a.range,
                              fmt::format("assert \"{}\" cannot be evaluated at t = {:.12g}, when its when-clause "
                                          "fires ({}): whether it holds is not known",
                                          a.message, a.time, a.unevaluated));
        if (a.level == "warning") d.severity = Severity::warning;
    }
}

}  // namespace modeaudit
