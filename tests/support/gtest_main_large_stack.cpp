// GoogleTest's main, run on the command line's large stack
// (analyzer/common/large_stack.h). The stages recurse as deep as a model
// nests, and their limits are sized for that stack, not for the main
// thread's 8 MiB: a test that runs a stage in-process on a corpus model
// meets the same stack as `modeaudit check` on it (the metamorphic test on
// corpus/good/function_recursion_base_case.mo overflowed 8 MiB).
#include <gtest/gtest.h>

#include "common/large_stack.h"

namespace {

int run_all(int, char**) { return RUN_ALL_TESTS(); }

}  // namespace

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    return modeaudit::run_on_large_stack(run_all, argc, argv, 1);
}
