// Tool bugs, as opposed to model problems.
//
// A model problem is a Diagnostic (see diagnostics.h) and never throws past
// its stage. A broken invariant of modeaudit itself is an InternalError: the
// command line catches it, prints "internal error, please report" and exits 3.
#pragma once

#include <stdexcept>
#include <string>

namespace modeaudit {

class InternalError : public std::logic_error {
public:
    InternalError(const std::string& what, const char* file, int line)
        : std::logic_error(what + " (" + file + ":" + std::to_string(line) + ")") {}
};

}  // namespace modeaudit

#define MODEAUDIT_ASSERT(cond, msg)                                          \
    do {                                                                     \
        if (!(cond)) throw ::modeaudit::InternalError((msg), __FILE__, __LINE__); \
    } while (0)

#define MODEAUDIT_UNREACHABLE(msg) throw ::modeaudit::InternalError((msg), __FILE__, __LINE__)
