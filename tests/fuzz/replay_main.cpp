// A main() for the fuzz harnesses without libFuzzer: runs the harness once
// on each file named on the command line (or every file of a named folder).
// Built with any compiler; with -DMODEAUDIT_SANITIZE=ON it replays the corpus
// and the fuzzers' findings under ASan and UBSan (CI, tests/robustness/).
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "common/large_stack.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

#if defined(__SANITIZE_ADDRESS__)
// CLN and GiNaC leak a few bytes on purpose (see analyzer/cli/main.cpp).
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
#endif

namespace {

int replay(int argc, char** argv);

}  // namespace

// On the tool's large stack (common/large_stack.h), so that deep models
// (nested function calls up to their limit, long extends chains) meet the
// tool's limits and not the main thread's 8 MiB, which a sanitizer build's
// larger frames overflow where the tool itself would not.
int main(int argc, char** argv) { return modeaudit::run_on_large_stack(replay, argc, argv, 2); }

namespace {

int replay(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        fs::path p = argv[i];
        if (fs::is_directory(p)) {
            for (const auto& e : fs::recursive_directory_iterator(p))
                if (e.is_regular_file()) files.push_back(e.path());
        } else {
            files.push_back(p);
        }
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
        std::ifstream in(f, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "replay: cannot read %s\n", f.c_str());
            return 2;
        }
        std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
    }
    std::printf("replay: %zu inputs, no finding\n", files.size());
    return 0;
}

}  // namespace
