// Tests of the factorised analysis (pipeline/factorised.h): the same model
// analysed whole and in independent parts (the mode limit lowered below
// the product) gives the same verdict for every mode change, the same
// modes and the same findings; simulate says it does not run a factorised
// model instead of running on part of it.
#include <gtest/gtest.h>

#include <cmath>
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

TEST(Factorised, SimulateSaysItDoesNotRunAFactorisedModel) {
    FrontEnd fe(generators::switch_cells(3), limited(4), "simulation");
    EXPECT_FALSE(fe.state.simulation);
    EXPECT_NE(fe.diagnostics().find("the simulation of a model analysed in independent parts is not supported yet: "
                                    "its 3 switching parts combine to 8 global modes, more than the 4 of --max-modes"),
              std::string::npos)
        << fe.diagnostics();
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
