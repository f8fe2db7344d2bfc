// The whole command's wall-time limit (--max-time): a limit that holds
// wherever the time goes, including inside GiNaC, Z3 or a stage that checks
// no clock of its own (a model nested 50,000 deep under a raised
// --max-nesting ran for more than 300 s without output).
//
// A watchdog thread waits for the deadline. If the command is still running
// then, it kills the helper processes (common/child_processes.h), prints one
// limit-exceeded error naming the limit and the stage that was running, and
// ends the process with exit 2. Output files are written under temporary
// names and renamed when complete (common/files.h), so an interrupted
// command leaves no partial output in place; a report's staging folder is
// removed by the next report into that folder.
#pragma once

namespace modeaudit {

// Starts the watchdog; `seconds` <= 0 means no limit. Once per process.
void start_command_deadline(double seconds);

// The stage the message names when the deadline passes: a NUL-terminated
// string with static storage (a stage's name, a literal), published with
// one atomic store so that the watchdog never reads half of an update.
void set_current_stage(const char* name);

}  // namespace modeaudit
