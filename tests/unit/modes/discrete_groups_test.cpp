// Differential tests of the exploration by independent groups (modes.h,
// ModeLimits::compose_above): on every corpus model, the modes and
// transitions composed from the groups explored alone are the ones the
// exploration of the whole discrete state finds, mode for mode (by id) and
// transition for transition (source, target, guard, clause). A friction
// drive of coupled clutches, whose whole state is the product of each
// clutch's, is composed below the limit that the whole exploration hits.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::corpus_models;
using testing::FrontEnd;
using testing::read_text;

using TransitionKey = std::tuple<std::string, std::string, std::string, int, int, std::size_t>;

struct Explored {
    bool ran = false;
    bool complete = true;
    std::set<std::string> modes;
    std::set<TransitionKey> transitions;
    std::size_t transition_count = 0;
    std::size_t groups = 0;
};

Explored explore(const std::string& text, std::size_t compose_above, std::size_t max_modes = 4096) {
    RunOptions options = testing::with_corpus_libraries();
    options.modes.compose_above = compose_above;
    options.modes.max_modes = max_modes;
    FrontEnd fe(text, options, "modes");
    Explored out;
    if (!fe.state.modes) return out;
    out.ran = true;
    const ModeSet& ms = fe.modes();
    out.complete = ms.complete;
    out.groups = ms.composed_groups;
    for (const Mode& m : ms.modes) out.modes.insert(m.id);
    for (const Transition& t : ms.transitions)
        out.transitions.emplace(ms.modes[static_cast<std::size_t>(t.from)].id, ms.modes[static_cast<std::size_t>(t.to)].id,
                                t.guard_text, t.when_clause, t.trigger_index, t.resets.size());
    out.transition_count = ms.transitions.size();
    return out;
}

// Every corpus model whose discrete state has several groups: composition
// (forced) and the whole exploration agree; the whole exploration is the
// default below the limit. (24 models at the time of writing.)
TEST(DiscreteGroups, ComposedModesAndTransitionsAreTheWholeExplorationsOnTheCorpus) {
    std::size_t compared = 0, with_transitions = 0, composed_ones = 0;
    for (const std::string& file : corpus_models()) {
        const std::string text = read_text(file);
        // At most 512 modes (8,192 states): the whole exploration of a
        // larger state (the coupled clutches) stops early and is skipped.
        const Explored whole = explore(text, SIZE_MAX, 512);
        const Explored composed = explore(text, 0, 512);
        ASSERT_EQ(whole.ran, composed.ran) << file;
        if (!whole.ran || !whole.complete) continue;
        EXPECT_EQ(whole.groups, 0u) << file;
        if (composed.groups < 2) continue;
        ++compared;
        with_transitions += whole.transitions.empty() ? 0 : 1;
        EXPECT_TRUE(composed.complete) << file;
        EXPECT_EQ(whole.modes, composed.modes) << file;
        EXPECT_EQ(whole.transitions, composed.transitions) << file;
        EXPECT_EQ(whole.transition_count, composed.transition_count) << file;
    }
    EXPECT_GE(compared, 20u);
    EXPECT_GE(with_transitions, 20u);
}

// The friction drive: the joint discrete state of two clutches and a step
// is 2*209*209 valuations (more than the whole exploration's 65,536-state
// limit at the default 4,096 modes); composed, each clutch's 209 states give
// its 7 local modes, and the 98 modes are their product with the step's 2.
TEST(DiscreteGroups, TheCoupledClutchesAreComposedFromEachClutchAlone) {
    const Explored composed =
        explore(read_text(std::string(MODEAUDIT_SOURCE_DIR) + "/corpus/good/discrete/coupled_clutches.mo"), 4096);
    ASSERT_TRUE(composed.ran);
    EXPECT_EQ(composed.groups, 3u);
    EXPECT_TRUE(composed.complete);
    EXPECT_EQ(composed.modes.size(), 98u);
    // Each clutch alone: free, stuck, stuck starting forward, backward or
    // both, forward, backward.
    std::set<std::string> c1;
    for (const std::string& id : composed.modes) c1.insert(id.substr(0, id.find(",c2.")));
    EXPECT_EQ(c1.size(), 7u);
    EXPECT_TRUE(c1.count("c1.free=true,c1.startForward=false,c1.startBackward=false,c1.locked=false,c1.mode=2"));
    EXPECT_TRUE(c1.count("c1.free=false,c1.startForward=false,c1.startBackward=false,c1.locked=true,c1.mode=0"));
    EXPECT_TRUE(c1.count("c1.free=false,c1.startForward=false,c1.startBackward=false,c1.locked=false,c1.mode=1"));
    EXPECT_TRUE(c1.count("c1.free=false,c1.startForward=false,c1.startBackward=false,c1.locked=false,c1.mode=-1"));
    // No transition leads back before the step (time < T2 only becomes false).
    for (const TransitionKey& t : composed.transitions)
        EXPECT_FALSE(std::get<0>(t).find("(time < 0.4)=false") != std::string::npos &&
                     std::get<1>(t).find("(time < 0.4)=true") != std::string::npos)
            << std::get<0>(t) << " -> " << std::get<1>(t);
}

}  // namespace
}  // namespace modeaudit
