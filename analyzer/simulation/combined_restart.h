// The restart of simultaneous events (simulation stage; derived_restart.h
// asks for it): several transitions of a mode P that fire at one instant
// and lead together to their combined target N (simulation.cpp,
// combined_target).
//
// No fired clause's restart alone is right for N: each one's restart
// system covers only the part of the model its own switch touches, so
// applying it carries the other switches' states into N unchanged (two
// balls landing at once: the second one's velocity, which N requires to be
// 0, and the run stops as inadmissible; two clutches engaging at once: the
// second pair left at one shaft's speed, its momentum not kept, with no
// finding at all). The restart is derived
// for the combined transition P -> N itself, with the static stages' own
// functions:
//   - the Transition P -> N carries the union of the fired transitions'
//     resets and restart constraints; the first fired guard (clause order)
//     is its guard and the others are in Transition::simultaneous, so that
//     the root facts of every fired state guard hold in its arrays
//     (mode_change_array.h, root_guards) and in the symbolic continuity
//     test (restart/verdict.h);
//   - study_transition on a copy of the ModeSet with it appended (the
//     touched part is then the union of the switches' parts), the
//     rescaling stage on that study's arrays, and derive_restart for the
//     verdict and restart system.
// A combined transition has no contact mode: a cascade through a
// transient mode is not searched for it (only the direct route, and the
// alternative targets when restart constraints are given).
//
// The results are cached by (P, N, the fired transitions), so the
// reference run and the pipeline's sensitivity rerun (sequential, sharing
// one RestartFunction) derive each combined transition once; the cache is
// guarded by a mutex all the same.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "mode_change/transition_study.h"
#include "modes/simultaneous.h"
#include "rescaling/rescaling.h"
#include "restart/verdict.h"

namespace modeaudit {

struct CombinedRestart {
    Transition transition;    // as combine_transitions builds it
    TransitionRestart restart;  // its verdict, restart system and explanation
};

class CombinedRestarts {
public:
    CombinedRestarts(const StructureResult& structures, ModeChangeOptions mode_change, Z3Limits z3)
        : structures_(structures), mode_change_(mode_change), z3_(z3) {
        mode_change_.progress = false;
    }

    // The derived restart of the combined transition (cached). `fired` in
    // any order; LimitExceeded of a stage passes through.
    std::shared_ptr<const CombinedRestart> get(const FlatModel& flat, const ModeSet& modes, std::vector<int> fired,
                                               int target);

    std::size_t derived() const;  // how many combined transitions were derived (not found in the cache)

private:
    const StructureResult& structures_;
    ModeChangeOptions mode_change_;
    Z3Limits z3_;
    mutable std::mutex lock_;
    std::map<std::tuple<int, int, std::vector<int>>, std::shared_ptr<const CombinedRestart>> cache_;
};

}  // namespace modeaudit
