#include "common/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace modeaudit {

Progress::Progress(std::string label, std::size_t total, bool enabled, std::function<void(const std::string&)> write,
                   std::function<double()> clock)
    : label_(std::move(label)), total_(total), enabled_(enabled), write_(std::move(write)), clock_(std::move(clock)) {
    if (!clock_)
        clock_ = [] {
            return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
        };
}

Progress::~Progress() { finish(); }

bool Progress::stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

void Progress::write(const std::string& text) {
    if (write_) {
        write_(text);
        return;
    }
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
}

void Progress::advance(const std::string& item) {
    ++done_;
    if (!enabled_) return;
    // At most ten redraws a second; the first item and the last (done ==
    // total) are always drawn, so the line never stays behind at the end.
    const double now = clock_();
    const bool last = total_ != 0 && done_ == total_;
    if (shown_ && !last && now - last_draw_ < kMinRedrawSeconds) return;
    last_draw_ = now;
    std::string line = total_ ? fmt::format("{}: {}/{}", label_, done_, total_)
                              : fmt::format("{}: {}", label_, done_);
    if (!item.empty()) line += " " + item;
    if (line.size() > 78) line.resize(78);
    write("\r\033[K" + line);
    shown_ = true;
}

void Progress::finish() {
    if (shown_) {
        write("\r\033[K");
        shown_ = false;
    }
}

}  // namespace modeaudit
