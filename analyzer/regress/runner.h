// `modeaudit regress`: every corpus model against its own expectations.
//
// Each model runs in its own forked process (GiNaC's global state is not
// thread-safe, and a crash or a hang must fail only that model), at most
// `jobs` at once, with a per-model timeout. The result of each model comes
// back to the parent as JSON over a pipe. Output is in file order whatever
// the completion order, so it is deterministic; the last line is
// `N passed, N failed`.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "common/model_selection.h"

namespace modeaudit {

struct ModelOutcome {
    std::string path;
    std::string name;        // relative to its corpus folder (common/model_selection.h)
    std::string class_name;  // the corpus folder and the model's folders below it, dot-joined
    bool passed = false;
    // Non-empty: the model could not be compared at all (JUnit <error>):
    // timeout, crash, no-result, internal-error, unreadable. The message is
    // then mismatches[0].
    std::string error_type;
    std::vector<std::string> mismatches;
    std::string compared_through;   // the last stage whose results were compared
    std::string stopped_at;         // the stage where an input error stopped the model, if any
    std::string not_implemented;    // the first unbuilt stage the model's checks would need
    std::vector<std::string> pending;  // expected findings of rules not built yet
    double seconds = 0;
};

struct RegressOptions {
    int jobs = 1;
    std::string run_name = "modeaudit regress";  // the JUnit <testsuites> name (the shard, if any)
    double timeout_seconds = 120;
    std::string junit_path;   // empty: no JUnit XML
    bool progress = false;    // progress line on stderr when it is a terminal
    // What each model's process runs; empty: regress_one. Tests put a
    // model that crashes, hangs or exits without a result here.
    std::function<ModelOutcome(const std::string&)> run_model;
};

struct RegressSummary {
    int passed = 0, failed = 0;
    std::vector<ModelOutcome> models;
    bool setup_error = false;
    std::string setup_message;
};

// Runs one model in this process (what each child does); exposed for tests.
ModelOutcome regress_one(const std::string& path);

// Runs the selected models (in their order) and prints the results.
RegressSummary regress_models(const std::vector<SelectedModel>& models, const RegressOptions& options,
                              std::ostream& out);

// Every .mo file under corpus_dir (sorted); a setup error when there is none.
RegressSummary regress_corpus(const std::string& corpus_dir, const RegressOptions& options,
                              std::ostream& out);

}  // namespace modeaudit
