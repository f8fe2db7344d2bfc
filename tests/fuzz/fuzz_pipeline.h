// The pipeline options of the harnesses that run whole stages (check,
// simulate): limits lowered so that one input stays within libFuzzer's
// per-input timeout; each limit reached must be a diagnostic.
#pragma once

#include "pipeline/pipeline.h"

namespace modeaudit::fuzz {

inline RunOptions small_model_options() {
    RunOptions options;
    options.flatten.max_array_size = 1000;
    options.flatten.max_variables = 2000;
    // The total of inlined calls (--max-function-work): reaching the
    // default of a million takes 2 s in a Release build and more than the
    // fuzzers' 60 s timeout under ASan with other fuzzers running.
    options.flatten.max_function_work = 20000;
    options.modes.max_modes = 64;
    return options;
}

}  // namespace modeaudit::fuzz
