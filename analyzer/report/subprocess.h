// Running a helper program (pandoc, gnuplot) from the report stage.
//
// The command is an argument vector handed to posix_spawnp: no shell ever
// sees it, so a path or model name holding spaces, quotes, `;` or `$(...)`
// is passed through as one argument and never interpreted. The child runs
// in its own process group with standard input from /dev/null and standard
// output and error captured together; when the timeout passes the whole
// group is killed (pandoc starts pdflatex as its own child), and after a
// normal exit any straggler left in the group is killed too.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace modeaudit {

struct ProcessOptions {
    std::filesystem::path working_dir;  // empty: the caller's
    // Variables set (or replaced) in the child's environment; the rest of
    // the environment is inherited.
    std::vector<std::pair<std::string, std::string>> env;
    double timeout_seconds = 300;
    std::size_t max_output = std::size_t{1} << 20;  // bytes of output kept (the rest is dropped)
};

struct ProcessResult {
    bool started = false;    // false: the program could not be started (`error` says why)
    bool timed_out = false;  // killed after ProcessOptions::timeout_seconds
    int exit_code = -1;      // the exit status when it exited normally, else -1
    int signal = 0;          // the signal that ended it, if any
    std::string output;      // standard output and error, interleaved
    std::string error;       // why it did not start (or why its exit status is unknown)

    bool succeeded() const { return started && !timed_out && exit_code == 0; }
    // One line for a user: "exited with status 43", "was killed by signal 9", ...
    std::string describe() const;
};

// Runs argv[0] (looked up in PATH when it holds no '/') with `argv`.
// Never throws for a failure of the child; an empty argv is not started.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

}  // namespace modeaudit
