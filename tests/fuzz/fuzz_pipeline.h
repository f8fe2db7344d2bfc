// The pipeline options of the harnesses that run whole stages (check,
// simulate): limits lowered so that one input stays within libFuzzer's
// per-input timeout; each limit reached must be a diagnostic.
#pragma once

#include "flatten/function_interpreter.h"
#include "pipeline/pipeline.h"

namespace modeaudit::fuzz {

inline RunOptions small_model_options() {
    // Loop iterations per numerically evaluated call: 100,000, not 10
    // million. A Newton loop that does not end for a negative argument ran
    // to the limit at each of the structure stage's start points: 11 s in a
    // Release build, past the 60 s timeout under ASan.
    fn::set_default_max_iterations(100'000);
    RunOptions options;
    options.flatten.max_array_size = 1000;
    options.flatten.max_variables = 2000;
    // The total of inlined calls (--max-function-work): reaching the
    // default of a million takes 2 s in a Release build and more than the
    // fuzzers' 60 s timeout under ASan with other fuzzers running.
    options.flatten.max_function_work = 20000;
    // Nested calls times expression nesting is the depth of the recursion:
    // under ASan a level takes about 25 KiB of stack (a Release build about
    // 0.2), and the harness's stack is 48 MiB (fuzz.sh): 20 nested calls of
    // expressions nested up to 50 fit, 200 of 200 (the tool's limits, on its
    // 1 GiB stack) do not.
    options.flatten.max_call_depth = 20;
    options.parse.max_depth = 50;
    // 32 modes: the corpus's 64-mode B6 bridge and its mutants take up to 37 s
    // per input under ASan on an idle machine (2.2 s in a Release build), and
    // ran past the 60 s timeout beside another fuzzer and a busy core.
    options.modes.max_modes = 32;
    return options;
}

}  // namespace modeaudit::fuzz
