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
    options.modes.max_modes = 64;
    return options;
}

}  // namespace modeaudit::fuzz
