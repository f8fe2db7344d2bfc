// Progress on long work (many modes, many transitions, a corpus run).
//
// A single line on stderr, rewritten in place, and only when stderr is a
// terminal: pipes, files and CI logs stay clean and deterministic.
#pragma once

#include <cstddef>
#include <string>

namespace modeaudit {

class Progress {
public:
    // `enabled` is normally Progress::stderr_is_terminal(); tests pass false.
    Progress(std::string label, std::size_t total, bool enabled);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    void advance(const std::string& item = {});  // one more unit done
    void finish();                               // clears the line

    static bool stderr_is_terminal();

private:
    std::string label_;
    std::size_t total_;
    std::size_t done_ = 0;
    bool enabled_;
    bool shown_ = false;
};

}  // namespace modeaudit
