// Differential test of the rescaling shortcut (rescaling.h, zero_offsets):
// on every matched mode-change array of the corpus, the answer with the
// shortcut (zero offsets checked by our own evaluation, Z3 only otherwise)
// is Z3's answer: solved or not, the offsets, each row's order and the
// fractional least offsets. Both routes run on each array, so an array
// where zero offsets hold but Z3 finds others (or none) fails here. The
// shortcut's route also reuses answers by problem content (identical
// arrays of different models or cells), so the same comparison checks that
// a reused answer is the one Z3 gives for the array at hand.
#include <gtest/gtest.h>

#include <algorithm>

#include "mode_change/transition_study.h"
#include "rescaling/rescaling.h"
#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;

void expect_same(const RescalingResult& a, const RescalingResult& b, const std::string& where) {
    EXPECT_EQ(a.solved, b.solved) << where;
    EXPECT_EQ(a.mu, b.mu) << where;
    EXPECT_EQ(a.mu_equation, b.mu_equation) << where;
    EXPECT_EQ(a.core, b.core) << where;
    EXPECT_EQ(a.fractional.has_value(), b.fractional.has_value()) << where;
    EXPECT_EQ(a.recheck_failure, b.recheck_failure) << where;
}

TEST(ZeroOffsets, TheShortcutGivesZ3sAnswerOnEveryCorpusArray) {
    std::size_t arrays = 0, zero = 0, impulsive = 0;
    for (const std::string& file : testing::corpus_models()) {
        RunOptions options = testing::with_corpus_libraries();
        options.modes.max_modes = 256;
        FrontEnd fe(testing::read_text(file), options, "mode_change");
        if (!fe.state.mode_change) continue;
        const ModeChangeResult& mc = *fe.state.mode_change;
        // The first 40 transitions of a model: the coupled clutches' 1,134
        // are alike and would cost most of the time.
        for (std::size_t t = 0; t < mc.transitions.size() && t < 40; ++t)
            for (const Route& route : mc.transitions[t].routes) {
                const TransitionStudy& st = mc.transitions[t];
                const ArrayInput in = route_input(fe.flat(), route, st);
                for (const ModeChangeArray& a : route.arrays) {
                    if (!a.matched) continue;
                    const std::vector<int> rv = restart_variables(in, a);
                    for (bool nonlinear_finite : {true, false}) {
                        const RescalingResult z3 = solve_rescaling(a, rv, nonlinear_finite, {}, false);
                        const RescalingResult fast = solve_rescaling(a, rv, nonlinear_finite, {}, true);
                        expect_same(fast, z3, file);
                        ++arrays;
                        const bool all_zero = z3.solved && std::all_of(z3.mu.begin(), z3.mu.end(), [](int m) { return m == 0; });
                        (all_zero ? zero : impulsive) += 1;
                        EXPECT_EQ(zero_offsets(a, rv, nonlinear_finite).has_value(), all_zero) << file;
                    }
                }
            }
    }
    // 680 arrays at the time of writing, 80 of them with impulsive offsets.
    EXPECT_GE(arrays, 600u);
    EXPECT_GE(zero, 500u);
    EXPECT_GE(impulsive, 60u);
}

}  // namespace
}  // namespace modeaudit
