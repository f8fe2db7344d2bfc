// Helper processes (pandoc, pdflatex, gnuplot, dot, regress workers) die
// with modeaudit.
//
// Each helper runs in its own process group (so a timeout kills pandoc's
// pdflatex too). A group registered here is killed (SIGKILL) when modeaudit
// receives a terminating signal it can catch (SIGINT, SIGTERM, SIGHUP,
// SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ); modeaudit
// then dies of that signal as it would have. A signal the caller set to be
// ignored (nohup) stays ignored.
#pragma once

#include <sys/types.h>

#include <csignal>

namespace modeaudit {

// Registers the process group `group` (the pid of its leader); installs the
// handlers on first use. False when the table (64 groups) is full.
bool register_child_group(pid_t group);

// Removes it once the group has been killed or has ended.
void unregister_child_group(pid_t group);

// Kills (SIGKILL) every registered group now: for an exit that no signal
// handler sees (the command's wall-time limit, common/command_deadline.h).
void kill_child_groups();

// In a forked child: forgets the parent's groups, so that a signal to the
// child never kills its siblings.
void forget_child_groups();

// Blocks the terminating signals in this thread while alive, and defers one
// taken meanwhile by another thread to the end of the scope: a helper
// started and then registered inside such a scope cannot escape a signal
// arriving between the two steps.
class TerminatingSignalsBlocked {
public:
    TerminatingSignalsBlocked();
    ~TerminatingSignalsBlocked();
    TerminatingSignalsBlocked(const TerminatingSignalsBlocked&) = delete;
    TerminatingSignalsBlocked& operator=(const TerminatingSignalsBlocked&) = delete;

private:
    sigset_t previous_;
};

}  // namespace modeaudit
