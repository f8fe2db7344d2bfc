// libFuzzer harness: the parse stage (lexer and parser) on arbitrary bytes.
#include "fuzz_common.h"
#include "parse/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    modeaudit::fuzz::run_or_abort([&] {
        modeaudit::SourceManager sources;
        modeaudit::DiagnosticSink sink;
        std::uint32_t file = modeaudit::fuzz::load(sources, data, size);
        auto tree = modeaudit::parse_file(sources, file, sink);
        if (!tree) std::abort();  // parse_file always returns a tree
    });
    return 0;
}
