// Shared by the libFuzzer harnesses (tests/fuzz/): the input as a model file,
// and what counts as a finding.
//
// A model problem is a diagnostic; anything else is a bug of modeaudit. The
// harnesses therefore let libFuzzer see every InternalError and every other
// escaping exception as a crash (abort), the same events the command line
// turns into exit 3 ("internal error, please report").
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "common/internal_error.h"
#include "common/source.h"

namespace modeaudit::fuzz {

// Registers the fuzzer's bytes as one model file.
inline std::uint32_t load(SourceManager& sources, const std::uint8_t* data, std::size_t size) {
    return sources.add("fuzz.mo", std::string(reinterpret_cast<const char*>(data), size));
}

// Runs `body`, turning an escaping exception into an abort with its text.
template <typename Body>
void run_or_abort(Body&& body) {
    try {
        body();
    } catch (const InternalError& e) {
        std::fprintf(stderr, "modeaudit fuzz: internal error: %s\n", e.what());
        std::abort();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "modeaudit fuzz: escaping exception: %s\n", e.what());
        std::abort();
    } catch (...) {
        std::fprintf(stderr, "modeaudit fuzz: escaping non-standard exception\n");
        std::abort();
    }
}

}  // namespace modeaudit::fuzz
