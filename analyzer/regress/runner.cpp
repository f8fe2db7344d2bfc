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

#include "common/child_processes.h"
#include "common/files.h"
#include "common/internal_error.h"
#include "common/json_output.h"
#include "common/progress.h"
#include "pipeline/pipeline.h"
#include "regress/expectations.h"

namespace modeaudit {

namespace {

constexpr std::string_view kDefaultStage = "verification";  // as far as `check` goes

std::vector<std::string> find_models(const std::string& dir) {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
        if (entry.is_regular_file() && entry.path().extension() == ".mo")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

Json outcome_to_json(const ModelOutcome& o) {
    return Json{{"passed", o.passed},
                {"mismatches", o.mismatches},
                {"compared_through", o.compared_through},
                {"stopped_at", o.stopped_at},
                {"not_implemented", o.not_implemented},
                {"pending", o.pending}};
}

std::string xml_escape(std::string_view s) {
    std::string out;
    for (char ch : s) {
        switch (ch) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default:
                if (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t')
                    out += fmt::format("&#{};", static_cast<int>(ch));
                else
                    out += ch;
        }
    }
    return out;
}

bool write_junit(const std::string& path, const RegressSummary& summary, std::string& error) {
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    xml += fmt::format("<testsuites><testsuite name=\"modeaudit-corpus\" tests=\"{}\" failures=\"{}\">\n",
                       summary.models.size(), summary.failed);
    for (const ModelOutcome& m : summary.models) {
        xml += fmt::format("  <testcase classname=\"corpus\" name=\"{}\" time=\"{:.3f}\">", xml_escape(m.path),
                           m.seconds);
        if (!m.passed) {
            std::string text;
            for (const std::string& s : m.mismatches) text += s + "\n";
            xml += fmt::format("<failure message=\"{} mismatches\">{}</failure>", m.mismatches.size(),
                               xml_escape(text));
        }
        xml += "</testcase>\n";
    }
    xml += "</testsuite></testsuites>\n";
    return write_file_atomically(path, xml, &error);
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
    RegressSummary summary;
    std::vector<std::string> files;
    try {
        files = find_models(corpus_dir);
    } catch (const std::filesystem::filesystem_error& e) {
        summary.setup_error = true;
        summary.setup_message = e.what();
        return summary;
    }
    summary.models.resize(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) summary.models[i].path = files[i];

    Progress progress("regress", files.size(), options.progress && Progress::stderr_is_terminal());
    std::vector<Running> running;
    std::size_t next = 0;
    auto timeout = std::chrono::duration<double>(options.timeout_seconds);

    auto finish = [&](Running& r, int status, bool timed_out) {
        ModelOutcome& o = summary.models[r.index];
        o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - r.start).count();
        if (timed_out) {
            o.mismatches = {fmt::format("timed out after {} s", options.timeout_seconds)};
        } else if (WIFSIGNALED(status)) {
            o.mismatches = {fmt::format("crashed with signal {}", WTERMSIG(status))};
        } else {
            Json j = Json::parse(r.data, nullptr, false);
            if (j.is_discarded() || !j.is_object()) {
                o.mismatches = {fmt::format("the model's process exited with status {} and no result",
                                            WIFEXITED(status) ? WEXITSTATUS(status) : -1)};
            } else {
                o.passed = j["passed"].get<bool>();
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
                               .dump(-1, ' ', false, Json::error_handler_t::replace);
                } catch (const InternalError& e) {
                    ModelOutcome o;
                    o.mismatches = {std::string("internal error: ") + e.what()};
                    text = outcome_to_json(o).dump(-1, ' ', false, Json::error_handler_t::replace);
                } catch (const std::exception& e) {
                    ModelOutcome o;
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

    std::map<std::string, int> unbuilt;
    for (const ModelOutcome& m : summary.models) {
        out << (m.passed ? "PASS " : "FAIL ") << m.path;
        if (!m.stopped_at.empty())
            out << "  (stopped by an input error in " << m.stopped_at << ")";
        else if (!m.compared_through.empty())
            out << "  (through " << m.compared_through << ")";
        if (!m.pending.empty()) {
            out << "  pending:";
            for (const std::string& p : m.pending) out << " " << p;
        }
        out << "\n";
        for (const std::string& s : m.mismatches) out << "    " << s << "\n";
        (m.passed ? summary.passed : summary.failed)++;
        if (!m.not_implemented.empty()) unbuilt[m.not_implemented]++;
    }
    for (const auto& [stage, n] : unbuilt)
        out << fmt::format("note: {} models were compared only up to the last built stage; "
                           "stage '{}' is not implemented yet\n", n, stage);
    if (std::string why; !options.junit_path.empty() && !write_junit(options.junit_path, summary, why)) {
        summary.setup_error = true;
        summary.setup_message = "cannot write the JUnit XML: " + why;
    }
    out << fmt::format("{} passed, {} failed\n", summary.passed, summary.failed);
    return summary;
}

}  // namespace modeaudit
