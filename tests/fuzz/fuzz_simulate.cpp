// libFuzzer harness: the whole pipeline through the reference simulation
// (every stage of `simulate`, the sensitivity rerun included) on small
// models with a short horizon. The limits are lowered so that one input
// stays within libFuzzer's per-input timeout: at most 16 modes, a stop time
// of at most 1, 50 events, 20,000 steps per segment and one second of wall
// time per run. Each limit reached must be a diagnostic, never an escaping
// exception. 16 modes, not the check harness's 64: the corpus's B6 bridge
// (64 modes, 7 s of `simulate` in a Release build, mostly the restarts of
// its transitions, issue 20) took 77 s under ASan and libFuzzer and stopped
// the first 30-minute run as a timeout; the static stages' cost on such
// models is the check harness's to explore.
#include <algorithm>

#include "fuzz_common.h"
#include "fuzz_pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 4096) return 0;  // small models only (fuzz.sh runs it with -max_len=4096)
    modeaudit::fuzz::run_or_abort([&] {
        modeaudit::PipelineState state;
        state.file = modeaudit::fuzz::load(state.sources, data, size);
        modeaudit::RunOptions options = modeaudit::fuzz::small_model_options();
        options.modes.max_modes = 16;
        options.simulation.max_events = 50;
        options.simulation.max_steps = 20000;
        options.simulation.max_wall_seconds = 1;
        // A short horizon whatever the model asks: its StopTime is known
        // after flattening, so a first run up to flatten reads it and the
        // whole run starts afresh with the stop time capped.
        double stop = 1.0;
        {
            modeaudit::PipelineState first;
            first.file = modeaudit::fuzz::load(first.sources, data, size);
            modeaudit::run_pipeline(first, options, "flatten");
            if (!first.flat) return;
            stop = std::min(first.flat->stop_time.value_or(1.0), 1.0);
        }
        options.simulation.stop_time = stop;
        modeaudit::run_pipeline(state, options, "simulation");
    });
    return 0;
}
