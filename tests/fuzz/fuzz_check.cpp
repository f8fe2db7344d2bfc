// libFuzzer harness: the whole static `check` pipeline (parse through
// restart: modes, structure, mode-change arrays, Z3 rescaling, restart
// verdicts, and the rule checks of each stage) on small models. Limits are
// lowered so that one input stays within libFuzzer's per-input timeout; each
// limit hit must be a diagnostic.
#include "fuzz_common.h"
#include "fuzz_pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 4096) return 0;  // small models only (fuzz.sh runs it with -max_len=4096)
    modeaudit::fuzz::run_or_abort([&] {
        modeaudit::PipelineState state;
        state.file = modeaudit::fuzz::load(state.sources, data, size);
        modeaudit::run_pipeline(state, modeaudit::fuzz::small_model_options(), "restart");
    });
    return 0;
}
