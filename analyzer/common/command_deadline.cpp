#include "common/command_deadline.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "common/child_processes.h"

namespace modeaudit {

namespace {

std::atomic<const char*> stage_name{nullptr};

// Exit 2: a limit was reached (the "Limits" group of the help).
constexpr int kLimitExit = 2;

}  // namespace

void set_current_stage(const char* name) { stage_name.store(name); }

void start_command_deadline(double seconds) {
    if (!(seconds > 0)) return;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    std::thread([deadline, seconds] {
        std::this_thread::sleep_until(deadline);
        kill_child_groups();
        const char* name = stage_name.load();
        const std::string where = name ? fmt::format(" (in stage {})", name) : "";
        const std::string message = fmt::format(
            "modeaudit: error: the command ran longer than the wall-time limit of {:g} s{}; it was stopped and "
            "wrote no further output [limit-exceeded]\n  note: the limit is set by --max-time; raise it if the "
            "model is meant to take this long, or simplify the model\n",
            seconds, where);
        // write(2), not std::cerr: the command's thread may be inside cerr.
        const ssize_t ignored = ::write(STDERR_FILENO, message.data(), message.size());
        (void)ignored;
        ::_exit(kLimitExit);
    }).detach();
}

}  // namespace modeaudit
