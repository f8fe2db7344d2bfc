// The subcommands of the modeaudit executable (output-contract.md).
//
// Each returns the process exit code: 0 clean, 1 error findings (or, for
// regress, a mismatch), 2 cannot run on this input, 3 internal error (thrown
// as InternalError and mapped in main.cpp).
#pragma once

#include <string>
#include <vector>

#include "common/limits.h"

namespace modeaudit::cli {

enum ExitCode { kClean = 0, kFindings = 1, kCannotRun = 2, kInternal = 3 };

// Resource limits (common/limits.h), the same options on check, simulate
// and report. Defaults are those of the stages.
struct LimitArgs {
    std::size_t max_nesting = 200;              // parser nesting depth
    std::size_t max_expression_terms = 1000;    // terms of an expanded expression
    int max_height = 8;                         // mode-change array height
    unsigned z3_timeout_ms = 10000;             // per Z3 query
    unsigned z3_memory_mb = 2048;               // Z3's memory
    std::size_t max_events = 10000;             // simulation events
    std::size_t max_event_iterations = 50;      // restarts at one instant; initial modes tried
    long max_steps = 1000000;                   // simulation steps per segment
    double max_sim_seconds = 300;               // simulation wall time
    std::size_t max_input_mib = 64;             // size of each file read: model, library, list (MiB)
    std::size_t max_function_work = 1000000;    // calls inlined and their loop iterations, per model
    double max_time = 0;                        // wall time of the whole command (s); 0: none
};

struct CheckArgs {
    std::vector<std::string> models;  // files, folders, "-" (README.md, "Many models per call")
    std::string files_from;           // --files-from FILE ("-": stdin)
    std::string source_root;          // --source-root: SARIF URIs relative to it (default: current directory)
    std::string sarif_category = "modeaudit";  // --sarif-category: SARIF automationDetails.id = NAME/
    std::string model_name;
    std::vector<std::string> libraries;  // --library, before MODELICAPATH
    std::string format = "text";  // text | json | sarif
    std::string output;           // -o FILE; empty: stdout
    std::string dump_after;       // a stage name
    bool time_stages = false;
    bool no_progress = false;
    std::size_t max_modes = 4096;
    int max_index = 3;
    LimitArgs limits;
};
int run_check(const CheckArgs& args);

struct SimulateArgs {
    std::string model_file;
    std::string model_name;
    std::vector<std::string> libraries;  // --library, before MODELICAPATH
    double stop_time = -1;
    double rtol = 1e-12;  // a reference simulation: the seeds' numbers are stated to 1e-9..1e-10
    std::string format = "text";
    std::string csv;
    LimitArgs limits;
};
int run_simulate(const SimulateArgs& args);

struct ReportArgs {
    std::string model_file;
    std::string model_name;
    std::vector<std::string> libraries;  // --library, before MODELICAPATH
    std::string output_dir = "modeaudit-report";
    bool no_pdf = false;
    bool reproducible = false;
    std::string command_line;  // as typed, for the report's footer
    LimitArgs limits;
};
int run_report(const ReportArgs& args);

struct RegressArgs {
    std::vector<std::string> inputs;  // corpus folders and model files
    std::string files_from;           // --files-from FILE ("-": stdin)
    std::string shard;                // --shard K/N; not given: CI_NODE_INDEX/CI_NODE_TOTAL when both are set
    bool shard_given = false;         // --shard was on the command line (an empty value is then an error)
    bool list_only = false;           // --list: print the selected models, run none
    std::string junit;
    int jobs = 1;
    double timeout_seconds = 120;
};
int run_regress(const RegressArgs& args);

int run_rules();
int run_explain(const std::string& rule_id);

std::string version_text();
// "GiNaC 1.8.6, Z3 4.8.12, SUNDIALS 6.4.1": the libraries of this build.
std::string library_versions_text();

}  // namespace modeaudit::cli
