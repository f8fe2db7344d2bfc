#include "report/subprocess.h"

#include "common/child_processes.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>

extern char** environ;

namespace modeaudit {

std::string ProcessResult::describe() const {
    if (!started) return "could not be started: " + error;
    if (timed_out) return "did not finish in time and was stopped";
    if (signal != 0) return fmt::format("was killed by signal {} ({})", signal, strsignal(signal));
    if (exit_code < 0) return "ended without an exit status: " + error;
    return fmt::format("exited with status {}", exit_code);
}

namespace {

// The child's environment: the parent's, with `overrides` set or replaced.
// Kept in a map by name so that the order is stable and no name is doubled.
std::vector<std::string> child_environment(
    const std::vector<std::pair<std::string, std::string>>& overrides) {
    std::map<std::string, std::string> vars;
    for (char** e = environ; e && *e; ++e) {
        std::string entry(*e);
        auto eq = entry.find('=');
        if (eq == std::string::npos) continue;
        vars[entry.substr(0, eq)] = entry.substr(eq + 1);
    }
    for (const auto& [name, value] : overrides) vars[name] = value;
    std::vector<std::string> out;
    out.reserve(vars.size());
    for (const auto& [name, value] : vars) out.push_back(name + "=" + value);
    return out;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
    std::vector<char*> out;
    out.reserve(strings.size() + 1);
    for (std::string& s : strings) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

// RAII holders so that every early return releases what it set up.
struct FileActions {
    posix_spawn_file_actions_t fa;
    FileActions() { posix_spawn_file_actions_init(&fa); }
    ~FileActions() { posix_spawn_file_actions_destroy(&fa); }
    FileActions(const FileActions&) = delete;
    FileActions& operator=(const FileActions&) = delete;
};
struct SpawnAttr {
    posix_spawnattr_t attr;
    SpawnAttr() { posix_spawnattr_init(&attr); }
    ~SpawnAttr() { posix_spawnattr_destroy(&attr); }
    SpawnAttr(const SpawnAttr&) = delete;
    SpawnAttr& operator=(const SpawnAttr&) = delete;
};
struct Fd {
    int fd = -1;
    ~Fd() { reset(); }
    void reset() {
        if (fd >= 0) close(fd);
        fd = -1;
    }
};

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
    ProcessResult result;
    if (argv.empty() || argv[0].empty()) {
        result.error = "no program given";
        return result;
    }
    if (!options.working_dir.empty() && !std::filesystem::is_directory(options.working_dir)) {
        result.error = "the folder '" + options.working_dir.string() + "' to run it in does not exist";
        return result;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        result.error = fmt::format("cannot create a pipe: {}", std::strerror(errno));
        return result;
    }
    Fd read_end{fds[0]}, write_end{fds[1]};

    FileActions actions;
    posix_spawn_file_actions_addopen(&actions.fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions.fa, write_end.fd, 1);
    posix_spawn_file_actions_adddup2(&actions.fa, write_end.fd, 2);
    std::string dir = options.working_dir.string();
    if (!dir.empty()) posix_spawn_file_actions_addchdir_np(&actions.fa, dir.c_str());

    // Own process group (so a timeout can kill pandoc's pdflatex too),
    // default signal dispositions and an empty signal mask in the child.
    SpawnAttr attr;
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr.attr, &none);
    posix_spawnattr_setsigdefault(&attr.attr, &all);
    posix_spawnattr_setpgroup(&attr.attr, 0);
    posix_spawnattr_setflags(&attr.attr, static_cast<short>(POSIX_SPAWN_SETPGROUP |
                                                            POSIX_SPAWN_SETSIGMASK |
                                                            POSIX_SPAWN_SETSIGDEF));

    std::vector<std::string> args = argv;
    std::vector<char*> c_args = c_strings(args);
    std::vector<std::string> env = child_environment(options.env);
    std::vector<char*> c_env = c_strings(env);

    pid_t pid = -1;
    int rc = 0;
    {
        // Started and registered with the terminating signals blocked: a
        // Ctrl-C, SIGTERM or SIGHUP of modeaudit kills the group
        // (common/child_processes.h), with no window where it escapes.
        TerminatingSignalsBlocked blocked;
        rc = posix_spawnp(&pid, c_args[0], &actions.fa, &attr.attr, c_args.data(), c_env.data());
        if (rc == 0 && !register_child_group(pid)) {
            kill(-pid, SIGKILL);
            while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
            }
            rc = EAGAIN;
        }
    }
    write_end.reset();
    if (rc != 0) {
        result.error = std::strerror(rc);
        return result;
    }
    result.started = true;
    struct Unregister {
        pid_t group;
        ~Unregister() { unregister_child_group(group); }
    } unregister{pid};

    using Clock = std::chrono::steady_clock;
    const auto deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(options.timeout_seconds));
    bool open = true;
    char buffer[8192];
    while (true) {
        if (Clock::now() >= deadline) {
            result.timed_out = true;
            break;
        }
        if (open) {
            pollfd p{read_end.fd, POLLIN, 0};
            int ready = poll(&p, 1, 50);
            if (ready > 0) {
                ssize_t n = read(read_end.fd, buffer, sizeof buffer);
                if (n > 0) {
                    std::size_t room = options.max_output > result.output.size()
                                           ? options.max_output - result.output.size()
                                           : 0;
                    result.output.append(buffer, std::min(room, static_cast<std::size_t>(n)));
                    continue;
                }
                if (n == 0 || errno != EINTR) open = false;
            }
        } else {
            usleep(20000);
        }
        // Has the child exited? WNOWAIT leaves it unreaped, so its process
        // group still exists while stragglers are killed below.
        siginfo_t info;
        std::memset(&info, 0, sizeof info);
        int waited = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
        if (waited != 0 && errno == ECHILD) {
            // Reaped behind our back (SIGCHLD ignored by the embedding
            // program): the exit status is lost; say so rather than wait.
            kill(-pid, SIGKILL);
            result.error = "its exit status was lost (SIGCHLD is ignored)";
            return result;
        }
        if (waited == 0 && info.si_pid == pid) {
            if (!open) break;
            // Drain what is already in the pipe without waiting for EOF: a
            // straggler may hold the write end open.
            pollfd p{read_end.fd, POLLIN, 0};
            if (poll(&p, 1, 0) <= 0) break;
            continue;
        }
    }
    kill(-pid, SIGKILL);  // the timed-out group, or stragglers after a normal exit
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    return result;
}

}  // namespace modeaudit
