// The generated corpus models flatten to what their structure says: an RC
// ladder of n cells has n states and a balanced single mode.
#include <gtest/gtest.h>

#include "generators/generators.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

TEST(GeneratedModels, RcLadderIsBalancedWithOneStatePerCell) {
    for (int n : {1, 3, 10}) {
        testing::FrontEnd fe(generators::rc_ladder(n));
        ASSERT_TRUE(fe.state.modes) << fe.diagnostics();
        EXPECT_FALSE(fe.state.sink.has_errors()) << fe.diagnostics();
        ASSERT_EQ(fe.modes().modes.size(), 1u);
        const Mode& m = fe.modes().modes[0];
        EXPECT_EQ(m.equations.size(), m.unknowns.size()) << "n = " << n;
        int states = 0;
        for (int v : m.unknowns)
            if (fe.flat().symbols.highest_derivative(v) > 0) ++states;
        EXPECT_EQ(states, n);
    }
}

}  // namespace
}  // namespace modeaudit
