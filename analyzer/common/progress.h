// Progress on long work (many modes, many transitions, a corpus run).
//
// A single line on stderr, rewritten in place, and only when stderr is a
// terminal: pipes, files and CI logs stay clean and deterministic. The line
// is redrawn at most ten times a second (kMinRedrawSeconds apart): a loop of
// thousands of quick items would otherwise spend its time writing to the
// terminal, and a slow terminal (a remote session) would fall behind.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace modeaudit {

class Progress {
public:
    static constexpr double kMinRedrawSeconds = 0.1;

    // `enabled` is normally Progress::stderr_is_terminal(); tests pass false,
    // or a `write` (receives each redraw, control characters included) and
    // a `clock` (seconds, monotonic) of their own.
    Progress(std::string label, std::size_t total, bool enabled,
             std::function<void(const std::string&)> write = {}, std::function<double()> clock = {});
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    void advance(const std::string& item = {});  // one more unit done
    void finish();                               // clears the line

    static bool stderr_is_terminal();

private:
    void write(const std::string& text);

    std::string label_;
    std::size_t total_;
    std::size_t done_ = 0;
    bool enabled_;
    bool shown_ = false;
    double last_draw_ = 0;
    std::function<void(const std::string&)> write_;
    std::function<double()> clock_;
};

}  // namespace modeaudit
