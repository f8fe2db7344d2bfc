// Running a command on a large stack.
//
// The parser, the tree walks, the flattener's nested function calls and
// GiNaC recurse as deep as a model nests; the nesting limits (--max-nesting
// up to its largest value, 100000, and the chain allowance of
// parse/parser.cpp, 25 times it; 200 nested function calls) are sized for
// this stack, not for the 8 MiB of the main thread, where a legal chain of
// 20,000 terms overflowed (signal 11, no message). The size is reserved
// address space: pages are committed only as deep as the recursion goes.
// Used by the command line (cli/main.cpp) and the fuzz replay
// (tests/fuzz/replay_main.cpp), so that both meet the same limits.
#pragma once

#include <cstddef>

namespace modeaudit {

inline constexpr std::size_t kLargeStack = std::size_t{1} << 30;

// main(argc, argv) run on a thread with a kLargeStack stack: its result, or
// `failed` when the thread was created but could not be joined. Where no
// such thread can be made, main runs on the calling thread's stack.
int run_on_large_stack(int (*main)(int, char**), int argc, char** argv, int failed);

}  // namespace modeaudit
