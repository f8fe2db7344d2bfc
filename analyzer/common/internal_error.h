// Tool bugs, as opposed to model problems.
//
// A model problem is a Diagnostic (see diagnostics.h) and never throws past
// its stage. A broken invariant of modeaudit itself is an InternalError: the
// command line catches it, prints "internal error, please report" and exits 3.
//
// InternalError is deliberately outside the std::exception hierarchy: the
// stages catch std::exception where a library signals an expected failure
// (GiNaC's lsolve and evalf throw std::logic_error and std::domain_error), and
// such a handler must never turn a bug of the tool into "cannot be solved" or
// "unsupported". Only main(), the regress worker and the fuzz harnesses catch
// it; a `catch (...)` elsewhere rethrows it first.
#pragma once

#include <string>

namespace modeaudit {

class InternalError {
public:
    InternalError(const std::string& what, const char* file, int line)
        : what_(what + " (" + file + ":" + std::to_string(line) + ")") {}
    const char* what() const noexcept { return what_.c_str(); }

private:
    std::string what_;
};

}  // namespace modeaudit

#define MODEAUDIT_ASSERT(cond, msg)                                          \
    do {                                                                     \
        if (!(cond)) throw ::modeaudit::InternalError((msg), __FILE__, __LINE__); \
    } while (0)

#define MODEAUDIT_UNREACHABLE(msg) throw ::modeaudit::InternalError((msg), __FILE__, __LINE__)
