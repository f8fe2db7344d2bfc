// The static and the run-time verdicts agree (issue 16, item 8): over every
// corpus model that is simulated (header `// stage: simulation`), each
// restart step a run takes is checked against the restart stage's verdict
// for that transition. A transition the static stage calls continuous,
// impulsive or supplied must be applied (a run that stops there as
// undetermined is a bug); one it calls undetermined, inconsistent or
// unsupported must stop the run there, never be applied silently. A combined
// transition (several guards at one instant) is checked where the static
// stage formed it (time events that coincide); one formed only at run time
// has no static verdict and is left out. The exception the static stage announces: an
// impact law whose coefficient has no value (verify-impact-law-missing).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "regress/expectations.h"
#include "support/front_end.h"
#include "verification/verification.h"

namespace modeaudit {
namespace {

// The static transition an event took: a single transition by its guard,
// a combined one (the modes stage forms those of coinciding time events) by
// the set of its guards; -1 when there is none.
int transition_of(const ModeSet& modes, const EventRecord& ev) {
    std::vector<std::string> fired = ev.guards;
    std::sort(fired.begin(), fired.end());
    for (std::size_t t = 0; t < modes.transitions.size(); ++t) {
        const Transition& tr = modes.transitions[t];
        if (tr.from != ev.from || tr.to != ev.to) continue;
        std::vector<std::string> guards{tr.guard_text};
        for (const Transition::Guard& g : tr.simultaneous) guards.push_back(g.guard_text);
        std::sort(guards.begin(), guards.end());
        if (guards == fired) return static_cast<int>(t);
    }
    return -1;
}

std::vector<std::string> simulated_corpus() {
    std::vector<std::string> out;
    const std::filesystem::path root = std::filesystem::path(MODEAUDIT_SOURCE_DIR) / "corpus";
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
        if (!entry.is_regular_file() || entry.path().extension() != ".mo") continue;
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        if (read_expectations(text.str()).stage == "simulation") out.push_back(entry.path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(StaticRuntimeAgreement, EveryRestartStepOfTheCorpusRunsFollowsTheStaticVerdict) {
    const std::vector<std::string> files = simulated_corpus();
    ASSERT_GE(files.size(), 10u);
    std::size_t checked = 0, stopping = 0, combined = 0;
    for (const std::string& file : files) {
        auto fe = testing::FrontEnd::from_file(file, "simulation");
        if (!fe->state.simulation || !fe->state.restarts) continue;  // stopped before (a flawed model's input error)
        const SimulationResult& r = *fe->state.simulation;
        const RestartStageResult& restarts = *fe->state.restarts;
        for (std::size_t k = 0; k < r.events.size(); ++k) {
            const EventRecord& ev = r.events[k];
            if (ev.operator_event) continue;  // an operator's event: no transition, no static verdict
            const int t = transition_of(fe->modes(), ev);
            if (t < 0 && ev.guards.size() > 1) continue;  // combined at run time only: no static verdict
            ASSERT_GE(t, 0) << file << ": the event at t = " << ev.time << " (" << ev.from_id << " -> " << ev.to_id
                            << ") matches no transition";
            if (ev.guards.size() > 1) ++combined;
            const TransitionRestart& tr = restarts.transitions.at(static_cast<std::size_t>(t));
            ASSERT_EQ(tr.transition, t);
            const std::string statically(verdict_name(tr.verdict));
            EXPECT_EQ(ev.verdict, statically) << file << " at t = " << ev.time;
            const bool last = k + 1 == r.events.size();
            const bool stopped_here = last && (r.stopped_because == StopReason::UndeterminedRestart ||
                                               r.stopped_because == StopReason::Unsupported);
            const bool applies = tr.verdict == Verdict::Continuous || tr.verdict == Verdict::Impulsive ||
                                 tr.verdict == Verdict::Supplied;
            // The one exception the static stage announces itself: an impact
            // law whose coefficient has no value (verify-impact-law-missing)
            // cannot give restart values at run time.
            bool announced = false;
            if (fe->state.verification)
                for (const TransitionVerification& tv : fe->state.verification->transitions)
                    announced = announced || (tv.transition == t && tv.impact_law.incomplete);
            if (applies && announced) ++stopping;
            else if (applies)
                EXPECT_FALSE(stopped_here) << file << ": the static stage calls " << ev.from_id << " -> " << ev.to_id
                                           << " " << statically << ", but the run stopped there: "
                                           << (r.messages.empty() ? "" : r.messages.back());
            else {
                EXPECT_TRUE(last && r.stopped_because != StopReason::StopTime)
                    << file << ": the static stage calls " << ev.from_id << " -> " << ev.to_id << " " << statically
                    << ", but the run applied a restart there and went on";
                ++stopping;
            }
            ++checked;
        }
    }
    // Not vacuous: the corpus runs take many restart steps.
    EXPECT_GE(checked, 20u);
    RecordProperty("steps_checked", static_cast<int>(checked));
    RecordProperty("steps_stopping", static_cast<int>(stopping));
    RecordProperty("combined_steps_checked", static_cast<int>(combined));
    // Combined transitions the static stage formed (coinciding time events)
    // are among the steps checked.
    EXPECT_GE(combined, 1u);
}

}  // namespace
}  // namespace modeaudit
