// Rule verify-rate-violated: a declared invariant's `rate = r` does not
// hold in a mode (input-language.md, extension 2): dQ/dt, with the mode's
// completed system substituted, minus r is not zero on the mode's
// consistent states. Reported at the declaration, with the residual and
// its value at a consistent point.
#include <fmt/format.h>

#include "rule_checks.h"

namespace modeaudit {

void check_invariant_rate_violated(const FlatModel& flat, const ModeSet& modes, const VerificationResult& v,
                                   DiagnosticSink& sink) {
    (void)flat;
    for (const RateCheck& r : v.rates) {
        if (r.status != CheckStatus::Violated) continue;
        std::string at;
        for (const auto& [name, x] : r.point) at += fmt::format("{}{} = {:.6g}", at.empty() ? "" : ", ", name, x);
        sink.report(rule::verify_rate_violated, r.range,
                    fmt::format("the declared rate of {} does not hold in mode {}: d{}/dt - ({}) = {}", r.invariant,
                                modes.modes[static_cast<std::size_t>(r.mode)].id, r.invariant, r.rate, r.residual),
                    {fmt::format("the residual is {:.6g} {} ({})", r.value, r.method, at),
                     "either the declared rate is wrong (a sign, a missing term) or an equation of this mode is"});
    }
}

}  // namespace modeaudit
