#include "common/child_processes.h"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <atomic>
#include <mutex>

namespace modeaudit {

namespace {

constexpr std::array kTerminating = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM,
                                     SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ};

// Lock-free, so that the signal handler may read it.
std::array<std::atomic<pid_t>, 64> groups{};
static_assert(std::atomic<pid_t>::is_always_lock_free);

// Threads inside a TerminatingSignalsBlocked scope, and a signal that
// arrived meanwhile. The mask is per thread: another thread (Z3's, a
// worker's) may take a signal while one thread has started a helper and not
// registered it yet; the signal then waits until that thread has.
std::atomic<int> starting{0};
std::atomic<int> deferred{0};
static_assert(std::atomic<int>::is_always_lock_free);

void kill_all_groups() {
    for (auto& g : groups) {
        pid_t p = g.load();
        if (p > 0) ::kill(-p, SIGKILL);
    }
}

void kill_groups_and_die(int sig) {
    kill_all_groups();
    // Die of the same signal: the default action once the handler returns
    // (the signal is blocked while it runs).
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void on_terminating_signal(int sig) {
    const int saved = errno;
    if (starting.load() > 0)
        deferred.store(sig);
    else
        kill_groups_and_die(sig);
    errno = saved;
}

void install_handlers() {
    static std::once_flag once;
    std::call_once(once, [] {
        for (int sig : kTerminating) {
            struct sigaction old {};
            if (::sigaction(sig, nullptr, &old) != 0) continue;
            if (old.sa_handler == SIG_IGN) continue;  // nohup and the like: stays ignored
            struct sigaction sa {};
            sa.sa_handler = on_terminating_signal;
            sigfillset(&sa.sa_mask);  // no other handler runs in between
            sa.sa_flags = SA_RESTART;
            ::sigaction(sig, &sa, nullptr);
        }
    });
}

}  // namespace

bool register_child_group(pid_t group) {
    install_handlers();
    for (auto& g : groups) {
        pid_t empty = 0;
        if (g.compare_exchange_strong(empty, group)) return true;
    }
    return false;
}

void unregister_child_group(pid_t group) {
    for (auto& g : groups) {
        pid_t expected = group;
        if (g.compare_exchange_strong(expected, 0)) return;
    }
}

void kill_child_groups() { kill_all_groups(); }

void forget_child_groups() {
    for (auto& g : groups) g.store(0);
}

TerminatingSignalsBlocked::TerminatingSignalsBlocked() {
    install_handlers();
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kTerminating) sigaddset(&set, sig);
    ::pthread_sigmask(SIG_BLOCK, &set, &previous_);
    starting.fetch_add(1);
}

TerminatingSignalsBlocked::~TerminatingSignalsBlocked() {
    starting.fetch_sub(1);
    ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);  // a signal pending for this thread arrives here
    if (starting.load() == 0)  // else the last thread to leave its scope does it
        if (const int sig = deferred.exchange(0); sig != 0) kill_groups_and_die(sig);
}

}  // namespace modeaudit
