#include "regress/runner.h"

#include <fmt/format.h>
#include <poll.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "common/child_processes.h"
#include "common/files.h"
#include "common/internal_error.h"
#include "common/json_output.h"
#include "common/progress.h"
#include "common/terminal_text.h"
#include "pipeline/pipeline.h"
#include "regress/expectations.h"
#include "regress/junit.h"

namespace modeaudit {

namespace {

constexpr std::string_view kDefaultStage = "verification";  // as far as `check` goes

Json outcome_to_json(const ModelOutcome& o) {
    return Json{{"passed", o.passed},
                {"error_type", o.error_type},
                {"mismatches", o.mismatches},
                {"compared_through", o.compared_through},
                {"stopped_at", o.stopped_at},
                {"not_implemented", o.not_implemented},
                {"pending", o.pending}};
}

struct Running {
    pid_t pid;
    int fd;
    std::size_t index;
    std::string data;
    std::chrono::steady_clock::time_point start;
};

}  // namespace

ModelOutcome regress_one(const std::string& path) {
    ModelOutcome o;
    o.path = path;
    PipelineState state;
    std::string error;
    auto id = state.sources.load(path, error);
    if (!id) {
        o.error_type = "unreadable";
        o.mismatches.push_back("cannot read the model: " + error);
        return o;
    }
    state.file = *id;
    CorpusExpectations ex = read_expectations(state.sources.contents(*id));
    std::string stage = ex.stage.empty() ? std::string(kDefaultStage) : ex.stage;
    if (!find_stage(stage)) {
        o.mismatches.push_back(fmt::format("unknown stage '{}' in the header", stage));
        return o;
    }
    RunOptions options;
    options.flatten.model_name = ex.model;
    std::vector<std::string> libraries;
    for (const std::string& l : ex.libraries)
        libraries.push_back((std::filesystem::path(path).parent_path() / l).lexically_normal().string());
    std::vector<std::string> problems;
    options.libraries = library::make_library_path(libraries, nullptr, problems);
    for (const std::string& p : problems) o.mismatches.push_back("bad library header: " + p);
    if (!problems.empty()) return o;
    PipelineResult result = run_pipeline(state, options, stage);
    o.compared_through = result.last_stage;
    if (result.stopped_on_input_error) {
        // The stage after the last completed one is where the input failed.
        bool next = result.last_stage.empty();
        for (const Stage& st : stages()) {
            if (next) {
                o.stopped_at = std::string(st.name);
                break;
            }
            if (st.name == result.last_stage) next = true;
        }
    }
    o.not_implemented = result.not_implemented;
    o.pending = ex.pending;
    o.mismatches = compare_diagnostics(ex, state.sink, state.sources);
    o.passed = o.mismatches.empty();
    return o;
}

RegressSummary regress_corpus(const std::string& corpus_dir, const RegressOptions& options,
                              std::ostream& out) {
    std::istringstream no_input;
    ModelSelection sel = select_models({{corpus_dir}, "", false}, no_input);
    if (!sel.error.empty()) {
        RegressSummary summary;
        summary.setup_error = true;
        summary.setup_message = sel.error;
        return summary;
    }
    return regress_models(sel.models, options, out);
}

RegressSummary regress_models(const std::vector<SelectedModel>& models, const RegressOptions& options,
                              std::ostream& out) {
    RegressSummary summary;
    const auto started = std::chrono::system_clock::now();
    const auto started_steady = std::chrono::steady_clock::now();
    std::vector<std::string> files;
    for (const SelectedModel& m : models) files.push_back(m.path);
    summary.models.resize(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        summary.models[i].path = files[i];
        summary.models[i].name = relative_name(models[i]);
        summary.models[i].class_name = class_name(models[i]);
    }

    Progress progress("regress", files.size(), options.progress && Progress::stderr_is_terminal());
    std::vector<Running> running;
    std::size_t next = 0;
    auto timeout = std::chrono::duration<double>(options.timeout_seconds);

    auto finish = [&](Running& r, int status, bool timed_out) {
        ModelOutcome& o = summary.models[r.index];
        o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - r.start).count();
        if (timed_out) {
            o.error_type = "timeout";
            o.mismatches = {fmt::format("timed out after {} s", options.timeout_seconds)};
        } else if (WIFSIGNALED(status)) {
            o.error_type = "crash";
            o.mismatches = {fmt::format("crashed with signal {}", WTERMSIG(status))};
        } else {
            Json j = Json::parse(r.data, nullptr, false);
            if (j.is_discarded() || !j.is_object()) {
                o.error_type = "no-result";
                o.mismatches = {fmt::format("the model's process exited with status {} and no result",
                                            WIFEXITED(status) ? WEXITSTATUS(status) : -1)};
            } else {
                o.passed = j["passed"].get<bool>();
                o.error_type = j["error_type"].get<std::string>();
                o.mismatches = j["mismatches"].get<std::vector<std::string>>();
                o.compared_through = j["compared_through"].get<std::string>();
                o.stopped_at = j["stopped_at"].get<std::string>();
                o.not_implemented = j["not_implemented"].get<std::string>();
                o.pending = j["pending"].get<std::vector<std::string>>();
            }
        }
        progress.advance(o.path);
    };

    while (next < files.size() || !running.empty()) {
        while (next < files.size() && running.size() < static_cast<std::size_t>(options.jobs)) {
            int fds[2];
            if (pipe(fds) != 0) {
                summary.setup_error = true;
                summary.setup_message = "cannot create a pipe for a model process";
                return summary;
            }
            std::cout.flush();
            // The worker in its own process group, registered while the
            // terminating signals are blocked: a signal to regress kills it
            // (common/child_processes.h), and it dies with regress even on
            // SIGKILL (PR_SET_PDEATHSIG).
            const pid_t parent = getpid();
            std::optional<TerminatingSignalsBlocked> blocked;
            blocked.emplace();
            pid_t pid = fork();
            if (pid == 0) {
                forget_child_groups();
                setpgid(0, 0);
                prctl(PR_SET_PDEATHSIG, SIGKILL);
                if (getppid() != parent) _exit(1);
                blocked.reset();
                close(fds[0]);
                std::string text;
                try {
                    text = outcome_to_json(options.run_model ? options.run_model(files[next]) : regress_one(files[next]))
                               .dump(-1, ' ', false, Json::error_handler_t::replace);  // the model's bytes may not be UTF-8
                } catch (const InternalError& e) {
                    ModelOutcome o;
                    o.error_type = "internal-error";
                    o.mismatches = {std::string("internal error: ") + e.what()};
                    text = outcome_to_json(o).dump(-1, ' ', false, Json::error_handler_t::replace);
                } catch (const std::exception& e) {
                    ModelOutcome o;
                    o.error_type = "internal-error";
                    o.mismatches = {std::string("internal error: ") + e.what()};
                    text = outcome_to_json(o).dump(-1, ' ', false, Json::error_handler_t::replace);
                }
                std::size_t off = 0;
                while (off < text.size()) {
                    ssize_t w = write(fds[1], text.data() + off, text.size() - off);
                    if (w <= 0) break;
                    off += static_cast<std::size_t>(w);
                }
                close(fds[1]);
                _exit(0);
            }
            close(fds[1]);
            if (pid > 0) {
                setpgid(pid, pid);
                if (!register_child_group(pid)) kill(pid, SIGKILL);  // more than 64 workers: not left unguarded
            }
            blocked.reset();
            if (pid < 0) {
                close(fds[0]);
                summary.setup_error = true;
                summary.setup_message = "cannot fork a model process";
                return summary;
            }
            running.push_back({pid, fds[0], next, {}, std::chrono::steady_clock::now()});
            ++next;
        }
        std::vector<pollfd> pfds;
        for (const Running& r : running) pfds.push_back({r.fd, POLLIN, 0});
        poll(pfds.data(), pfds.size(), 100);
        for (std::size_t k = running.size(); k-- > 0;) {
            Running& r = running[k];
            bool closed = false;
            if (pfds[k].revents & (POLLIN | POLLHUP | POLLERR)) {
                char buf[65536];
                ssize_t n = read(r.fd, buf, sizeof buf);
                if (n > 0)
                    r.data.append(buf, static_cast<std::size_t>(n));
                else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
                    closed = true;
            }
            bool timed_out = !closed && std::chrono::steady_clock::now() - r.start > timeout;
            if (!closed && !timed_out) continue;
            if (timed_out) kill(-r.pid, SIGKILL);
            int status = 0;
            while (waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
            }
            unregister_child_group(r.pid);
            close(r.fd);
            finish(r, status, timed_out);
            running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
        }
    }
    progress.finish();

    // Paths, expectations and messages come from the corpus files: escaped
    // for the terminal (common/terminal_text.h); the JUnit file escapes for
    // XML on its own.
    std::map<std::string, int> unbuilt;
    for (const ModelOutcome& m : summary.models) {
        out << (m.passed ? "PASS " : "FAIL ") << terminal_safe(m.path);
        if (!m.stopped_at.empty())
            out << "  (stopped by an input error in " << terminal_safe(m.stopped_at) << ")";
        else if (!m.compared_through.empty())
            out << "  (through " << terminal_safe(m.compared_through) << ")";
        if (!m.pending.empty()) {
            out << "  pending:";
            for (const std::string& p : m.pending) out << " " << terminal_safe(p);
        }
        out << "\n";
        for (const std::string& s : m.mismatches) out << "    " << terminal_safe(s) << "\n";
        (m.passed ? summary.passed : summary.failed)++;
        if (!m.not_implemented.empty()) unbuilt[m.not_implemented]++;
    }
    for (const auto& [stage, n] : unbuilt)
        out << fmt::format("note: {} models were compared only up to the last built stage; "
                           "stage '{}' is not implemented yet\n", n, stage);
    if (!options.junit_path.empty()) {
        JUnitRun run;
        run.name = options.run_name;
        run.timestamp = started;
        run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_steady).count();
        if (std::string why; !write_file_atomically(options.junit_path, junit_xml(summary.models, run), &why)) {
            summary.setup_error = true;
            summary.setup_message = fmt::format("cannot write the JUnit file '{}': {}", options.junit_path, why);
        }
    }
    out << fmt::format("{} passed, {} failed\n", summary.passed, summary.failed);
    return summary;
}

}  // namespace modeaudit
