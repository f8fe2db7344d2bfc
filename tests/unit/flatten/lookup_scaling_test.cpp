// Lookup by name is independent of the class's size (flatten/lookup.h
// indexes each class's elements): a chain of 20,000 parameters, each bound
// to the one before, flattens in well under the 5 s bound (about 0.5 s in a
// Release build; the scan per name it replaces took minutes at 60,000).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;

TEST(LookupScaling, TwentyThousandChainedParametersFlattenQuickly) {
    constexpr int n = 20000;
    std::string text = "model Chain\n  parameter Real p0 = 1;\n";
    for (int i = 1; i < n; ++i) text += "  parameter Real p" + std::to_string(i) + " = p" + std::to_string(i - 1) + " + 1;\n";
    text += "  Real x(start = 1, fixed = true);\nequation\n  der(x) = -p" + std::to_string(n - 1) + "*x;\nend Chain;\n";
    auto t0 = std::chrono::steady_clock::now();
    FrontEnd fe(text, "flatten");
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    int last = fe.flat().find_variable("p" + std::to_string(n - 1));
    ASSERT_GE(last, 0);
    EXPECT_EQ(*fe.flat().variables[static_cast<std::size_t>(last)].value, GiNaC::ex(n));
    EXPECT_LT(seconds, 5.0) << "flattening " << n << " chained parameters took " << seconds << " s";
}

}  // namespace
}  // namespace modeaudit
