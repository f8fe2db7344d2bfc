// Rule sim-tolerance-sensitive over the comparison of a run with its rerun
// at rtol / 10: different events always; event times and final values only
// beyond 10^4 rtol (against the horizon, against max(1, |value|)).
#include <gtest/gtest.h>

#include "rule_checks.h"

namespace modeaudit {
namespace {

std::vector<Diagnostic> check(const ToleranceComparison& c, double stop_time = 10, double rtol = 1e-12) {
    FlatModel flat;
    SimulationResult r;
    DiagnosticSink sink;
    check_sim_tolerance_sensitive(flat, r, stop_time, c, rtol, sink);
    return sink.all();
}

ToleranceComparison same() {
    ToleranceComparison c;
    c.same_events = true;
    return c;
}

TEST(SimToleranceSensitive, DifferentEventsAreAFindingThatNamesTheFirstDifference) {
    ToleranceComparison c;
    c.same_events = false;
    c.first_difference = "12 events against 13";
    const auto d = check(c);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].rule, "sim-tolerance-sensitive");
    EXPECT_EQ(d[0].severity, Severity::warning);
    EXPECT_NE(d[0].message.find("take different events: 12 events against 13"), std::string::npos) << d[0].message;
}

TEST(SimToleranceSensitive, EventShiftsAreJudgedAgainstTheHorizon) {
    ToleranceComparison c = same();
    c.max_event_shift = 0.9e-7;  // 10^4 * 1e-12 * 10 s = 1e-7
    EXPECT_TRUE(check(c).empty());
    c.max_event_shift = 1.1e-7;
    ASSERT_EQ(check(c).size(), 1u);
    EXPECT_NE(check(c)[0].message.find("event times move by up to 1.1e-07 s"), std::string::npos);
    EXPECT_TRUE(check(c, 20).empty());        // a longer horizon allows more
    EXPECT_EQ(check(c, 10, 1e-13).size(), 1u);  // a tighter tolerance less
    c.max_event_shift = 0.9e-8;
    EXPECT_TRUE(check(c, 0.5).empty());  // the horizon counts as at least 1
    c.max_event_shift = 1.1e-8;
    EXPECT_EQ(check(c, 0.5).size(), 1u);
}

TEST(SimToleranceSensitive, FinalValuesAreJudgedRelativeAndNamed) {
    ToleranceComparison c = same();
    c.max_relative_final_difference = 0.9e-8;
    c.worst_final = "x";
    EXPECT_TRUE(check(c).empty());
    c.max_relative_final_difference = 1.1e-8;
    const auto d = check(c);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(d[0].message.find("final value of x moves by 1.1e-08 relative"), std::string::npos) << d[0].message;
}

TEST(SimToleranceSensitive, AgreementWithinTheBoundIsNoFinding) {
    ToleranceComparison c = same();
    c.max_event_shift = 1e-11;
    c.max_final_difference = 1e-10;
    c.max_relative_final_difference = 1.4e-10;  // the corpus's largest: stick_slip_mode.mo
    EXPECT_TRUE(check(c).empty());
}

}  // namespace
}  // namespace modeaudit
