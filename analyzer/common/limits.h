// Resource limits that stop a stage.
//
// Models come from other teams, and a legal model can ask for more than the
// machine has: a power that expands to millions of terms, a Z3 query that
// does not finish, a simulation with endless events. Each such resource has
// a limit with a default and a command-line option. A stage that reaches a
// limit throws LimitExceeded; run_pipeline turns it into one diagnostic of
// rule limit-exceeded that names the limit, its value and the option to
// change, and the run stops as for any input it cannot analyse (exit 2).
// Limits that a stage can live with (the mode exploration, whose partial
// result is still useful) report their own rule instead.
#pragma once

#include <stdexcept>
#include <string>

#include "common/source.h"

namespace modeaudit {

// The largest stop time accepted (--stop-time, experiment(StopTime)):
// beyond it the time's rounding step (1e9 * 2^-52, about 2e-7) is no longer
// small against the event-location tolerances, and a failure there would
// be the tool's, not the model's.
inline constexpr double kMaxStopTime = 1e9;

class LimitExceeded : public std::runtime_error {
public:
    // `what`: the sentence saying what was too large; `limit`: its name
    // ("expression size"); `option`: the command-line option ("--max-expression-terms").
    LimitExceeded(const std::string& what, std::string limit, std::string option, SourceRange range = {})
        : std::runtime_error(what), limit_(std::move(limit)), option_(std::move(option)), range_(range) {}

    const std::string& limit() const { return limit_; }
    const std::string& option() const { return option_; }
    const SourceRange& range() const { return range_; }

private:
    std::string limit_, option_;
    SourceRange range_;
};

}  // namespace modeaudit
