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

#include <pthread.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

#if defined(__SANITIZE_ADDRESS__)
// CLN and GiNaC leak a few bytes on purpose (see analyzer/cli/main.cpp).
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
#endif

namespace {

// The tool runs its commands on a 1 GiB stack (analyzer/cli/main.cpp), so
// that deep models (nested function calls up to their limit, long extends
// chains) meet the tool's limits and not the main thread's 8 MiB: the
// replay does the same, or a sanitizer build's larger frames overflow the
// stack where the tool itself would not.
constexpr std::size_t kReplayStack = std::size_t{1} << 30;

struct Replay {
    int argc;
    char** argv;
    int exit_code = 2;
};

int replay(int argc, char** argv);

extern "C" void* run_replay(void* p) {
    auto* r = static_cast<Replay*>(p);
    r->exit_code = replay(r->argc, r->argv);
    return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    Replay r{argc, argv};
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) == 0) {
        const bool ok = pthread_attr_setstacksize(&attr, kReplayStack) == 0 &&
                        pthread_create(&thread, &attr, run_replay, &r) == 0;
        pthread_attr_destroy(&attr);
        if (ok && pthread_join(thread, nullptr) == 0) return r.exit_code;
        if (ok) return 2;
    }
    return replay(argc, argv);  // no thread: the main thread's stack
}

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
