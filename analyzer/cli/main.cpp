// The modeaudit executable: command-line parsing (CLI11) and the mapping of
// every failure to the exit codes of output-contract.md. A usage error is one
// line and exit 2; a bug of the tool is "internal error, please report" and
// exit 3; nothing escapes as an uncaught exception.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>

#include <cctype>
#include <cmath>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <iostream>
#include <new>

#include "cli/commands.h"
#include "common/command_deadline.h"
#include "common/files.h"
#include "common/internal_error.h"
#include "common/large_stack.h"
#include "common/suggest.h"

#if defined(__SANITIZE_ADDRESS__)
// CLN allocates a few bytes at start-up that it never frees (and GiNaC on a
// division by zero); LeakSanitizer would fail every run of a sanitizer build
// on them, so leak detection is off by default there (ASAN_OPTIONS overrides).
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
#endif

namespace {

using namespace modeaudit::cli;

// The command line as a reader can type it again: arguments holding
// anything but safe characters single-quoted (POSIX shell style). For the
// report's footer only; nothing ever runs it.
std::string command_line_text(int argc, char** argv) {
    std::string out;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        bool safe = !a.empty();
        for (char ch : a)
            safe = safe && (std::isalnum(static_cast<unsigned char>(ch)) || std::string_view("-_./=:,+@%").find(ch) != std::string_view::npos);
        if (!safe) {
            std::string q = "'";
            for (char ch : a) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
            a = q + "'";
        }
        out += (out.empty() ? "" : " ") + a;
    }
    return out;
}

// A number option's check: a finite number in [lo, hi] (or (lo, hi] when
// `open_low`). CLI11's Range lets NaN through (every comparison with it is
// false), which would switch a limit off; this refuses NaN and infinities.
CLI::Validator finite_in(double lo, double hi, bool open_low = false) {
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            const char* begin = text.c_str();
            char* end = nullptr;
            errno = 0;
            double v = std::strtod(begin, &end);
            bool parsed = end != begin && *end == '\0';
            if (!parsed || !std::isfinite(v) || errno == ERANGE)
                return "'" + text + "' is not a finite number";
            if (v < lo || v > hi || (open_low && v == lo))
                return "'" + text + "' is out of range; give a number in " + (open_low ? "(" : "[") +
                       CLI::detail::to_string(lo) + ", " + CLI::detail::to_string(hi) + "]";
            return {};
        },
        std::string("FINITE in ") + (open_low ? "(" : "[") + CLI::detail::to_string(lo) + " - " +
            CLI::detail::to_string(hi) + "]");
}

// The resource limits (common/limits.h), in the "Limits" group of each
// command's help; `simulation` adds those of the simulation stage.
void add_limit_options(CLI::App* app, LimitArgs& l, bool simulation) {
    const std::string g = "Limits (reaching one is limit-exceeded, exit 2)";
    app->add_option("--max-input-size", l.max_input_mib,
                    "MiB read at most of each file: the model, each library file, the --files-from list (default 64)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{4095}))->group(g);
    app->add_option("--max-nesting", l.max_nesting, "parser nesting depth (default 200)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{100000}))->group(g);
    app->add_option("--max-expression-terms", l.max_expression_terms,
                    "terms of an expression multiplied out (default 1000)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30))->group(g);
    app->add_option("--max-function-work", l.max_function_work,
                    "function calls inlined and loop iterations run in them when flattening, in total over the "
                    "model (default 1000000)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40))->group(g);
    app->add_option("--max-height", l.max_height, "height of the mode-change arrays searched (default 8)")
        ->check(CLI::Range(0, 1000))->group(g);
    app->add_option("--z3-timeout", l.z3_timeout_ms, "milliseconds per Z3 query (default 10000)")
        ->check(CLI::Range(1u, 86400000u))->group(g);
    app->add_option("--z3-memory", l.z3_memory_mb, "MiB of memory for Z3 (default 2048)")
        ->check(CLI::Range(1u, 1u << 20))->group(g);
    app->add_option("--max-time", l.max_time,
                    "seconds of wall time for the whole command, every stage (default 0: no limit)")
        ->check(finite_in(0, 1e7))->group(g);
    if (!simulation) return;
    app->add_option("--max-events", l.max_events, "events of the simulation (default 10000)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30))->group(g);
    app->add_option("--max-event-iterations", l.max_event_iterations,
                    "restarts at one event instant, and modes tried by the initial event iteration (default 50)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20))->group(g);
    app->add_option("--max-steps", l.max_steps, "integration steps per mode segment (default 1000000)")
        ->check(CLI::Range(1L, 1L << 40))->group(g);
    app->add_option("--max-sim-time", l.max_sim_seconds, "seconds of wall time for the simulation (default 300)")
        ->check(finite_in(0.001, 1e7))->group(g);
}

// "Did you mean": for a command or an option of the command that the
// parser did not know, the closest known one (common/suggest.h); "" when
// every word is known or nothing is close.
std::string did_you_mean(const CLI::App& app, int argc, char** argv) {
    std::vector<std::string> commands;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        commands.push_back(sub->get_name());
    const CLI::App* command = nullptr;
    int i = 1;
    for (; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.starts_with("-")) continue;  // --help, --version
        for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
            if (sub->get_name() == a) command = sub;
        if (command) break;
        const std::string guess = modeaudit::closest_match(a, commands);
        return guess.empty() ? std::string() : fmt::format("unknown command '{}'; did you mean '{}'?", a, guess);
    }
    if (!command) return "";
    std::vector<std::string> options;
    for (const CLI::App* scope : {command, &app})
        for (const CLI::Option* o : scope->get_options()) {
            for (const std::string& n : o->get_lnames()) options.push_back("--" + n);
            for (const std::string& n : o->get_snames()) options.push_back("-" + n);
        }
    for (++i; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--") break;
        if (!a.starts_with("-") || a == "-" || (a.size() > 1 && (std::isdigit(static_cast<unsigned char>(a[1])) || a[1] == '.')))
            continue;
        if (auto eq = a.find('='); eq != std::string::npos) a.resize(eq);
        if (std::find(options.begin(), options.end(), a) != options.end()) continue;
        const std::string guess = modeaudit::closest_match(a, options);
        if (!guess.empty())
            return fmt::format("unknown option '{}' for '{}'; did you mean '{}'?", a, command->get_name(), guess);
    }
    return "";
}

int dispatch(int argc, char** argv) {
    CLI::App app{"modeaudit: audits multimode physical models (a Modelica subset) before anyone "
                 "relies on them.\nEvery reachable mode's structure, every mode change's restart, "
                 "and a review report.",
                 "modeaudit"};
    app.require_subcommand(0, 1);
    app.set_version_flag("--version", version_text());
    app.footer("Exit codes: 0 clean, 1 error findings (regress: a mismatch), 2 cannot run on "
               "this input, 3 internal error.\nRun `modeaudit COMMAND --help` for a command's "
               "options.");

    CheckArgs check;
    auto* c = app.add_subcommand("check", "static audit: flatten, each mode's structure, each "
                                          "transition's restart, conservation and admissibility");
    c->add_option("MODEL", check.models,
                  "model files (.mo), folders (every .mo under them), - for standard input, or class names such as Lib.Examples.M");
    c->add_option("--files-from", check.files_from,
                  "also check the models listed in FILE, one path per line (- reads standard input)");
    c->add_option("--source-root", check.source_root,
                  "SARIF: file URIs relative to DIR, with uriBaseId %SRCROOT% (default: the current directory)");
    c->add_option("--sarif-category", check.sarif_category,
                  "SARIF: the run's category (automationDetails.id NAME/; default modeaudit)");
    c->add_option("--model", check.model_name, "the class to audit (default: the last top-level model)");
    c->add_option("--format", check.format,
                  "output format: text, json, sarif, or github (GitHub Actions workflow annotations)")
        ->check(CLI::IsMember({"text", "json", "sarif", "github"}));
    c->add_option("-o,--output", check.output, "write the output to FILE instead of stdout (- for stdout)");
    c->add_option("--dump-after", check.dump_after,
                  "stop after STAGE and print its result (parse, flatten, modes, ...)");
    c->add_flag("--time-stages", check.time_stages, "print each stage's wall time on stderr");
    c->add_flag("--no-progress", check.no_progress, "never show a progress line");
    c->add_option("--max-modes", check.max_modes, "limit on the reachable modes explored (default 4096)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 24));
    c->add_option("--max-index", check.max_index,
                  "warn (structure-index-high) above this structural index (default 3)")
        ->check(CLI::Range(0, 1000));
    c->add_option("--library", check.libraries,
                  "a library: a package directory, a .mo file, or a directory of libraries (repeatable; "
                  "searched before MODELICAPATH)")
        ->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    add_limit_options(c, check.limits, false);

    SimulateArgs sim;
    auto* s = app.add_subcommand("simulate", "short reference simulation with guaranteed event location");
    s->add_option("MODEL", sim.model_file, "model file (.mo), -, or a class name")->required();
    s->add_option("--model", sim.model_name, "the class to simulate");
    s->add_option("--stop-time", sim.stop_time,
                  "end time, after the start time 0 and at most 1e9 (default: experiment(StopTime), else 1)")
        ->check(finite_in(0, modeaudit::kMaxStopTime, true));
    s->add_option("--rtol", sim.rtol, "relative tolerance of the integrator, in (0, 1)")
        ->check(finite_in(-1e308, 1e308));  // finite here; the range is checked (and named) by run_simulate
    s->add_option("--format", sim.format, "text or json")->check(CLI::IsMember({"text", "json"}));
    s->add_option("--csv", sim.csv,
                  "write the trajectory to FILE as CSV (- for stdout: the CSV alone, the findings on stderr)");
    s->add_option("--library", sim.libraries,
                  "a library: a package directory, a .mo file, or a directory of libraries (repeatable; "
                  "searched before MODELICAPATH)")
        ->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    add_limit_options(s, sim.limits, true);

    ReportArgs rep;
    auto* r = app.add_subcommand("report", "full audit written as Markdown, PDF and JSON with plots");
    r->add_option("MODEL", rep.model_file, "model file (.mo), -, or a class name")->required();
    r->add_option("--model", rep.model_name, "the class to audit");
    r->add_option("-o,--output-dir", rep.output_dir, "folder for the report (default: modeaudit-report)");
    r->add_flag("--no-pdf", rep.no_pdf, "write Markdown and JSON only");
    r->add_flag("--reproducible", rep.reproducible, "omit the timestamp footer");
    r->add_option("--library", rep.libraries,
                  "a library: a package directory, a .mo file, or a directory of libraries (repeatable; "
                  "searched before MODELICAPATH)")
        ->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    add_limit_options(r, rep.limits, true);

    RegressArgs reg;
    auto* g = app.add_subcommand("regress", "run every corpus model against its recorded expectations");
    g->add_option("CORPUS", reg.inputs, "corpus folders (searched recursively for .mo files) and model files");
    g->add_option("--files-from", reg.files_from, "also run the models listed in FILE, one path per line (- reads standard input)");
    CLI::Option* shard_option = g->add_option("--shard", reg.shard,
                  "run only shard K of N (K/N, 1 <= K <= N; round robin over the sorted selection); default: "
                  "CI_NODE_INDEX/CI_NODE_TOTAL when both are set");
    g->add_flag("--list", reg.list_only,
                "print the selected models (after sharding) on standard output, one a line, and run none");
    g->add_option("--junit", reg.junit,
                  "write JUnit XML to FILE (one testsuite per corpus folder; - for stdout: the XML alone, the results "
                  "on stderr)");
    g->add_option("-j,--jobs", reg.jobs, "models run at once, each in its own process (1 to 64)");
    g->add_option("--timeout", reg.timeout_seconds, "seconds per model before it counts as failed")
        ->check(finite_in(0, 1e7, true));

    app.add_subcommand("rules", "list the rule catalog");
    std::string rule_id;
    auto* e = app.add_subcommand("explain", "print one rule's documentation");
    e->add_option("RULE-ID", rule_id, "a rule id from `modeaudit rules`")->required();

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return kClean;
    } catch (const CLI::CallForAllHelp&) {
        std::cout << app.help("", CLI::AppFormatMode::All);
        return kClean;
    } catch (const CLI::CallForVersion&) {
        std::cout << version_text();
        return kClean;
    } catch (const CLI::ParseError& err) {
        // Help of a subcommand arrives here as CallForHelp raised inside it.
        if (err.get_exit_code() == 0) {
            for (CLI::App* sub : app.get_subcommands()) {
                std::cout << sub->help();
                return kClean;
            }
            std::cout << app.help();
            return kClean;
        }
        if (const std::string guess = did_you_mean(app, argc, argv); !guess.empty()) {
            std::cerr << "modeaudit: error: " << guess << " (run `modeaudit --help` for usage)\n";
            return kCannotRun;
        }
        std::cerr << "modeaudit: error: " << err.what() << "; run `modeaudit --help` for usage\n";
        return kCannotRun;
    }

    if (c->parsed()) {
        modeaudit::start_command_deadline(check.limits.max_time);
        return run_check(check);
    }
    if (s->parsed()) {
        modeaudit::start_command_deadline(sim.limits.max_time);
        return run_simulate(sim);
    }
    if (r->parsed()) {
        rep.command_line = command_line_text(argc, argv);
        modeaudit::start_command_deadline(rep.limits.max_time);
        return run_report(rep);
    }
    if (g->parsed()) {
        reg.shard_given = shard_option->count() > 0;
        return run_regress(reg);
    }
    if (app.got_subcommand("rules")) return run_rules();
    if (e->parsed()) return run_explain(rule_id);
    // No command: a usage error (a script that forgot the command must not
    // pass); the help goes to standard error.
    std::cerr << app.help() << "modeaudit: error: no command given; run `modeaudit COMMAND --help`\n";
    return kCannotRun;
}

}  // namespace

// Exit code `code` once standard output is flushed: output lost on the way
// (a full device, a closed descriptor) is an error, exit 2, never a silent 0.
int flushed(int code) {
    errno = 0;
    std::cout.flush();
    const int flush_errno = errno;  // the cause, when this flush is the one that failed
    std::string why;
    if (!modeaudit::flush_stdout(why) || !std::cout) {
        if (why == "write error" && flush_errno != 0) why = std::strerror(flush_errno);
        std::cerr << "modeaudit: error: cannot write to standard output: " << (why.empty() ? "write error" : why) << "\n";
        return code == kInternal ? code : kCannotRun;
    }
    return code;
}

namespace {

// The whole command, with every failure mapped to its exit code.
int guarded_main(int argc, char** argv) {
    try {
        return flushed(dispatch(argc, argv));
    } catch (const modeaudit::InternalError& err) {
        std::cerr << "modeaudit: internal error, please report: " << err.what() << "\n";
    } catch (const std::bad_alloc&) {
        std::cerr << "modeaudit: internal error, please report: out of memory\n";
    } catch (const std::exception& err) {
        std::cerr << "modeaudit: internal error, please report: " << err.what() << "\n";
    } catch (...) {
        std::cerr << "modeaudit: internal error, please report: unknown exception\n";
    }
    return kInternal;
}

}  // namespace

int main(int argc, char** argv) {
    // On a large stack (common/large_stack.h): the nesting limits are sized for it.
    return modeaudit::run_on_large_stack(guarded_main, argc, argv, kInternal);
}
