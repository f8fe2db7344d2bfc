// Tests of the factorised analysis (pipeline/factorised.h): the same model
// analysed whole and in independent parts (the mode limit lowered below
// the product) gives the same verdict for every mode change, the same
// modes and the same findings; simulated in parts, the same events, final
// values and simulation findings as simulated whole.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <string>

#include "generators/generators.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;

RunOptions limited(std::size_t max_modes) {
    RunOptions o;
    o.progress = false;
    o.modes.max_modes = max_modes;
    return o;
}

// Cells of two kinds: a switch joining two capacitors (impulsive when it
// closes) and a tank whose valve opens when it is full (continuous), plus
// a cell that cannot switch.
const char* kMixed = R"(model Mixed
  Real v1[2](each start = 4, each fixed = true), v2[2](each start = 0, each fixed = true), i[2];
  Boolean closed[2](each start = false);
  Real h(start = 0, fixed = true), q;
  Boolean open(start = false);
  Real r(start = 1, fixed = true);
equation
  for k in 1:2 loop
    der(v1[k]) = -i[k];
    3*der(v2[k]) = i[k];
    if closed[k] then
      v1[k] = v2[k];
    else
      i[k] = 0;
    end if;
    when time >= k/3 then
      closed[k] = true;
    end when;
  end for;
  der(h) = 1 - q;
  q = if open then 2*h else 0;
  when h > 0.5 then
    open = true;
  end when;
  der(r) = -r;
end Mixed;)";

// transition "from -> to" (local ids) -> verdict
std::map<std::string, std::string> local_verdicts(const PipelineState& s) {
    std::map<std::string, std::string> out;
    for (const auto& part : s.parts) {
        const ModeSet& m = *part->modes;
        for (std::size_t k = 0; k < m.transitions.size(); ++k) {
            const Transition& t = m.transitions[k];
            out[m.modes[static_cast<std::size_t>(t.from)].id + " -> " + m.modes[static_cast<std::size_t>(t.to)].id] =
                std::string(verdict_name(part->restarts->transitions[k].verdict));
        }
    }
    return out;
}

// The values `id` ("a=true,b=false") gives each mode variable.
std::map<std::string, std::string> values_of(const std::string& id) {
    std::map<std::string, std::string> out;
    std::size_t at = 0;
    while (at < id.size()) {
        std::size_t comma = id.find(',', at);
        std::string item = id.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        std::size_t eq = item.find('=');
        out[item.substr(0, eq)] = item.substr(eq + 1);
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
    return out;
}

TEST(Factorised, EveryGlobalTransitionHasItsClustersVerdict) {
    FrontEnd whole(kMixed, limited(4096), "verification");
    ASSERT_TRUE(whole.state.restarts) << whole.diagnostics();
    EXPECT_TRUE(whole.state.parts.empty());
    FrontEnd parts(kMixed, limited(4), "verification");  // 8 global modes > 4
    ASSERT_EQ(parts.state.parts.size(), 4u) << parts.diagnostics();  // the rest and three cells
    EXPECT_EQ(parts.state.modes->global_mode_count(), 8.0);
    EXPECT_TRUE(parts.state.modes->modes.empty());
    const std::map<std::string, std::string> local = local_verdicts(parts.state);
    ASSERT_EQ(local.size(), 3u);
    EXPECT_EQ(local.at("closed[1]=false -> closed[1]=true"), "impulsive");
    EXPECT_EQ(local.at("open=false -> open=true"), "continuous");
    // Each of the whole model's 12 transitions changes one mode variable;
    // its verdict is that cluster's.
    const ModeSet& m = whole.modes();
    ASSERT_EQ(m.transitions.size(), 12u);
    for (std::size_t k = 0; k < m.transitions.size(); ++k) {
        const Transition& t = m.transitions[k];
        auto from = values_of(m.modes[static_cast<std::size_t>(t.from)].id);
        auto to = values_of(m.modes[static_cast<std::size_t>(t.to)].id);
        std::vector<std::string> changed;
        for (const auto& [name, value] : from)
            if (to.at(name) != value) changed.push_back(name);
        ASSERT_EQ(changed.size(), 1u);
        const std::string key = changed[0] + "=" + from.at(changed[0]) + " -> " + changed[0] + "=" + to.at(changed[0]);
        EXPECT_EQ(std::string(verdict_name(whole.state.restarts->transitions[k].verdict)), local.at(key)) << key;
    }
    // The same findings, each said once per cluster instead of once per
    // global transition.
    std::map<std::string, int> whole_rules, part_rules;
    for (const Diagnostic& d : whole.state.sink.all()) ++whole_rules[d.rule];
    for (const Diagnostic& d : parts.state.sink.all()) ++part_rules[d.rule];
    EXPECT_EQ(whole_rules["restart-impulsive"], 8);  // each cell's switch from 4 global modes
    EXPECT_EQ(part_rules["restart-impulsive"], 2);
    EXPECT_EQ(part_rules.size(), 1u) << parts.diagnostics();
}

TEST(Factorised, ModesStayWholeWhileTheProductFitsTheLimit) {
    FrontEnd fe(generators::switch_cells(3), limited(8), "modes");
    ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
    EXPECT_TRUE(fe.state.parts.empty());
    EXPECT_EQ(fe.modes().modes.size(), 8u);
}

// The events of a run as (time, the mode variable that changed, its new
// value, verdict), in time order (ties by that text): the whole run's
// global mode ids and the parts' local ones compared on what changed.
std::vector<std::string> changes(const SimulationResult& r) {
    std::vector<std::pair<double, std::string>> out;
    for (const EventRecord& e : r.events) {
        const auto from = values_of(e.from_id), to = values_of(e.to_id);
        std::string changed;
        for (const auto& [name, value] : to)
            if (!from.count(name) || from.at(name) != value) changed += name + "=" + value + " ";
        out.emplace_back(e.time, fmt::format("{:.9f} {}({})", e.time, changed, e.verdict));
    }
    std::sort(out.begin(), out.end());
    std::vector<std::string> text;
    for (const auto& [t, s] : out) text.push_back(s);
    return text;
}

TEST(Factorised, SimulatedInPartsAsWhole) {
    // Differential: the mixed model simulated whole (8 global modes) and in
    // its four parts gives the same events, restarts, final values and
    // findings.
    FrontEnd whole(kMixed, limited(4096), "simulation");
    FrontEnd parts(kMixed, limited(4), "simulation");
    ASSERT_TRUE(whole.state.simulation && parts.state.simulation) << whole.diagnostics() << parts.diagnostics();
    ASSERT_EQ(parts.state.parts.size(), 4u);
    const SimulationResult& w = *whole.state.simulation;
    const SimulationResult& p = *parts.state.simulation;
    EXPECT_EQ(p.stopped_because, StopReason::StopTime);
    EXPECT_EQ(w.stopped_because, StopReason::StopTime);
    EXPECT_EQ(changes(p), changes(w));
    ASSERT_EQ(p.events.size(), 3u);  // closed[1] at 1/3, open at h = 0.5, closed[2] at 2/3
    for (std::size_t k = 1; k < p.events.size(); ++k) EXPECT_LE(p.events[k - 1].time, p.events[k].time);
    EXPECT_EQ(p.final_values.size(), w.final_values.size());
    for (const auto& [name, v] : w.final_values) {
        ASSERT_TRUE(p.final_values.count(name)) << name;
        EXPECT_NEAR(p.final_values.at(name), v, 1e-9 * std::max(1.0, std::abs(v))) << name;
    }
    // Closed form: each cell's capacitors share the charge 4 (C = 1 and 3).
    EXPECT_NEAR(p.final_values.at("v1[1]"), 1.0, 1e-9);
    EXPECT_NEAR(p.final_values.at("v2[2]"), 1.0, 1e-9);
    EXPECT_NEAR(p.final_values.at("r"), std::exp(-1.0), 1e-9);
    // The final global mode is the tuple of the parts' final modes.
    EXPECT_EQ(values_of(p.final_mode), values_of(w.final_mode));
    EXPECT_TRUE(parts.state.sensitivity.ran);
    EXPECT_TRUE(parts.state.sensitivity.same_events);
    // Each impulsive event is verified (its part's verification, by the
    // composed event's index).
    EXPECT_EQ(simulated_event_checks(parts.state).size(), simulated_event_checks(whole.state).size());
    for (const EventVerification& ev : simulated_event_checks(parts.state)) {
        ASSERT_LT(ev.event, p.events.size());
        EXPECT_EQ(ev.time, p.events[ev.event].time);
    }
    std::map<std::string, int> whole_rules, part_rules;
    for (const Diagnostic& d : whole.state.sink.all())
        if (d.rule.starts_with("sim-") || d.rule.starts_with("verify-")) ++whole_rules[d.rule];
    for (const Diagnostic& d : parts.state.sink.all())
        if (d.rule.starts_with("sim-") || d.rule.starts_with("verify-")) ++part_rules[d.rule];
    EXPECT_EQ(part_rules, whole_rules);
}

TEST(Factorised, APartThatEndsEarlyEndsTheWholeRun) {
    // Two switching cells and a bouncing ball whose bounces accumulate at
    // t = 3 sqrt(2/g) = 1.3546 (e = 1/2): the cells, simulated first to the
    // stop time 3, are run again to where the ball's part stopped.
    const char* model = R"(model CellsAndBall
  Real v1[2](each start = 4, each fixed = true), v2[2](each start = 0, each fixed = true), i[2];
  Boolean closed[2](each start = false);
  Real h(start = 1, fixed = true), v(start = 0, fixed = true);
equation
  for k in 1:2 loop
    der(v1[k]) = -i[k];
    3*der(v2[k]) = i[k];
    if closed[k] then
      v1[k] = v2[k];
    else
      i[k] = 0;
    end if;
    when time >= k then
      closed[k] = true;
    end when;
  end for;
  der(h) = v;
  der(v) = -9.81;
  when h < 0 then
    reinit(v, -0.5*pre(v));
  end when;
  annotation(experiment(StopTime = 3));
end CellsAndBall;)";
    FrontEnd fe(model, limited(2), "simulation");
    ASSERT_TRUE(fe.state.simulation) << fe.diagnostics();
    ASSERT_FALSE(fe.state.parts.empty());
    const SimulationResult& r = *fe.state.simulation;
    EXPECT_EQ(r.stopped_because, StopReason::Zeno);
    ASSERT_TRUE(r.zeno_time);
    EXPECT_NEAR(*r.zeno_time, 3 * std::sqrt(2 / 9.81), 1e-3);
    EXPECT_LT(r.end_time, 1.36);
    for (const auto& part : fe.state.parts) EXPECT_EQ(part->simulation->end_time, r.end_time);
    // The first cell closed (t = 1) and the second did not (t = 2 is after
    // the end).
    EXPECT_NEAR(r.final_values.at("v1[1]"), 1.0, 1e-9);
    EXPECT_NEAR(r.final_values.at("v1[2]"), 4.0, 1e-12);
    EXPECT_TRUE(fe.has("sim-zeno")) << fe.diagnostics();
    EXPECT_FALSE(fe.has("sim-stopped-early")) << fe.diagnostics();
}

TEST(Factorised, TwoHundredCellsAreCheckedCellByCell) {
    // 2^200 global modes: no enumeration could hold them.
    FrontEnd fe(generators::switch_cells(200), limited(4096), "verification");
    ASSERT_EQ(fe.state.parts.size(), 200u) << fe.diagnostics();
    EXPECT_NEAR(std::log10(fe.state.modes->global_mode_count()), 200*std::log10(2.0), 1e-9);
    std::size_t impulsive = 0;
    for (const Diagnostic& d : fe.state.sink.all()) impulsive += d.rule == "restart-impulsive" ? 1 : 0;
    EXPECT_EQ(impulsive, 200u);
}

}  // namespace
}  // namespace modeaudit
