#include "common/source.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "common/files.h"
#include "common/internal_error.h"

namespace modeaudit {

std::uint32_t SourceManager::add(std::string path, std::string contents) {
    File f;
    f.path = std::move(path);
    f.contents = std::move(contents);
    f.line_starts.push_back(0);
    for (std::uint32_t i = 0; i < f.contents.size(); ++i)
        if (f.contents[i] == '\n') f.line_starts.push_back(i + 1);
    files_.push_back(std::move(f));
    return static_cast<std::uint32_t>(files_.size());
}

std::optional<std::uint32_t> SourceManager::load(const std::string& path, std::string& error,
                                                 std::size_t max_bytes) {
    std::string text;
    if (!read_input_file(path, max_bytes, text, error)) return std::nullopt;
    return add(path == "-" ? "<stdin>" : path, std::move(text));
}

const SourceManager::File& SourceManager::file(std::uint32_t id) const {
    MODEAUDIT_ASSERT(id >= 1 && id <= files_.size(), "unknown source file id");
    return files_[id - 1];
}

const std::string& SourceManager::path(std::uint32_t id) const { return file(id).path; }

std::string_view SourceManager::contents(std::uint32_t id) const { return file(id).contents; }

std::string_view SourceManager::line_text(std::uint32_t id, std::uint32_t line) const {
    const File& f = file(id);
    if (line == 0 || line > f.line_starts.size()) return {};
    std::uint32_t b = f.line_starts[line - 1];
    std::uint32_t e = line < f.line_starts.size() ? f.line_starts[line] - 1
                                                  : static_cast<std::uint32_t>(f.contents.size());
    std::string_view s(f.contents);
    s = s.substr(b, e - b);
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    return s;
}

SourceLocation SourceManager::locate(std::uint32_t id, std::uint32_t offset) const {
    const File& f = file(id);
    auto it = std::upper_bound(f.line_starts.begin(), f.line_starts.end(), offset);
    std::uint32_t line = static_cast<std::uint32_t>(it - f.line_starts.begin());
    return SourceLocation{id, line, offset - f.line_starts[line - 1] + 1, offset};
}

}  // namespace modeaudit
