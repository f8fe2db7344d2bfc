#include "simulation/combined_restart.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "common/internal_error.h"

namespace modeaudit {

std::shared_ptr<const CombinedRestart> CombinedRestarts::get(const FlatModel& flat, const ModeSet& modes,
                                                             std::vector<int> fired, int target) {
    std::sort(fired.begin(), fired.end());
    fired.erase(std::unique(fired.begin(), fired.end()), fired.end());
    MODEAUDIT_ASSERT(!fired.empty(), "a combined transition of no transition");
    const int from = modes.transitions.at(static_cast<std::size_t>(fired.front())).from;
    std::lock_guard<std::mutex> hold(lock_);
    auto key = std::make_tuple(from, target, fired);
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    auto out = std::make_shared<CombinedRestart>();
    out->transition = combine_transitions(modes, fired, target);
    // The static stages on the mode set with the combined transition appended.
    ModeSet with = modes;
    with.transitions.push_back(out->transition);
    const int index = static_cast<int>(with.transitions.size()) - 1;
    ModeChangeResult mc;
    mc.transitions.push_back(study_transition(flat, with, structures_, index, mode_change_));
    RescalingStageResult rs = rescale_transitions(flat, mc, false, z3_);
    out->restart = derive_restart(flat, with, mc.transitions.front(), rs.arrays.front());
    cache_.emplace(key, out);
    return out;
}

std::size_t CombinedRestarts::derived() const {
    std::lock_guard<std::mutex> hold(lock_);
    return cache_.size();
}

}  // namespace modeaudit
