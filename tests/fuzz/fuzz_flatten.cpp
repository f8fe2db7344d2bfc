// libFuzzer harness: parse and flatten on arbitrary bytes. Array, variable
// and function-work limits are lowered from their defaults so one input cannot spend the whole
// run allocating a legal million-element array; hitting them must still be a
// diagnostic. (The flatten-stage rule checks run in the check harness.)
#include "common/limits.h"
#include "flatten/flattener.h"
#include "fuzz_common.h"
#include "parse/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    modeaudit::fuzz::run_or_abort([&] {
        modeaudit::SourceManager sources;
        modeaudit::DiagnosticSink sink;
        std::uint32_t file = modeaudit::fuzz::load(sources, data, size);
        // As in fuzz_pipeline.h: nested calls and expression nesting
        // lowered to fit the harness's stack under ASan.
        modeaudit::ParseLimits limits;
        limits.max_depth = 50;
        auto tree = modeaudit::parse_file(sources, file, sink, limits);
        if (sink.has_input_errors()) return;
        modeaudit::FlattenOptions options;
        options.max_array_size = 10000;
        options.max_variables = 20000;
        // The total of inlined calls (--max-function-work): reaching the
        // default of a million takes 2 s in a Release build and more than
        // the 60 s timeout under ASan with other fuzzers running.
        options.max_function_work = 20000;
        options.max_call_depth = 20;
        // A resource limit reached (common/limits.h) is a finding, as the
        // pipeline reports it (limit-exceeded), not a crash.
        try {
            auto flat = modeaudit::flatten(*tree, sources, sink, options);
            // null exactly when the model cannot be flattened, and then an input error says why
            if (!flat && !sink.has_input_errors()) std::abort();
        } catch (const modeaudit::LimitExceeded&) {
            return;
        }
    });
    return 0;
}
