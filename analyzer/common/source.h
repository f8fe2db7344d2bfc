// Source files and locations.
//
// Sits at the very start of the pipeline: every stage refers back to the
// user's text through a SourceRange, so that each diagnostic can be printed as
// `file:line:col`. The SourceManager owns the file contents for the whole run;
// ranges are small values that name a file by its id.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace modeaudit {

// A position in a source file. Lines and columns are 1-based; column counts
// bytes (the input language is ASCII outside strings and comments, and
// non-UTF-8 input is refused before lexing). file == 0 means "no location".
struct SourceLocation {
    std::uint32_t file = 0;
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::uint32_t offset = 0;  // byte offset into the file

    bool valid() const { return file != 0; }
    friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

// A half-open range [begin, end) of source text.
struct SourceRange {
    SourceLocation begin;
    SourceLocation end;

    bool valid() const { return begin.valid(); }
    friend bool operator==(const SourceRange&, const SourceRange&) = default;
};

class SourceManager {
public:
    // Registers a buffer under a display path (as given on the command line).
    // Returns its id (>= 1).
    std::uint32_t add(std::string path, std::string contents);

    // Reads a file ("-": standard input) of at most `max_bytes`; returns
    // nullopt and sets `error` when it cannot be read (common/files.h).
    std::optional<std::uint32_t> load(const std::string& path, std::string& error,
                                      std::size_t max_bytes = std::size_t{64} << 20);

    const std::string& path(std::uint32_t file) const;
    std::string_view contents(std::uint32_t file) const;
    // The text of one line (without its newline), for caret displays.
    std::string_view line_text(std::uint32_t file, std::uint32_t line) const;
    // The location of a byte offset in a file.
    SourceLocation locate(std::uint32_t file, std::uint32_t offset) const;

private:
    struct File {
        std::string path;
        std::string contents;
        std::vector<std::uint32_t> line_starts;
    };
    std::vector<File> files_;
    const File& file(std::uint32_t id) const;
};

}  // namespace modeaudit
