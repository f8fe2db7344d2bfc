#include "common/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace modeaudit {

Progress::Progress(std::string label, std::size_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled) {}

Progress::~Progress() { finish(); }

bool Progress::stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

void Progress::advance(const std::string& item) {
    ++done_;
    if (!enabled_) return;
    std::string line = total_ ? fmt::format("{}: {}/{}", label_, done_, total_)
                              : fmt::format("{}: {}", label_, done_);
    if (!item.empty()) line += " " + item;
    if (line.size() > 78) line.resize(78);
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
    shown_ = true;
}

void Progress::finish() {
    if (shown_) {
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
        shown_ = false;
    }
}

}  // namespace modeaudit
