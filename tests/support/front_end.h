// Test support: runs the front-end stages on a model given as text.
#pragma once

#include <ginac/ginac.h>

#include <memory>
#include <string>
#include <vector>

#include "pipeline/pipeline.h"

namespace modeaudit::testing {

struct FrontEnd {
    PipelineState state;
    PipelineResult result;

    // Runs parse..`until` on `text` (registered as "test.mo").
    FrontEnd(const std::string& text, std::string_view until = "modes", const std::string& model = "") {
        state.file = state.sources.add("test.mo", text);
        RunOptions options;
        options.flatten.model_name = model;
        result = run_pipeline(state, options, until);
    }
    // As above, with the options given.
    FrontEnd(const std::string& text, const RunOptions& options, std::string_view until) {
        state.file = state.sources.add("test.mo", text);
        result = run_pipeline(state, options, until);
    }
    // As above, with libraries (--library entries; MODELICAPATH is not read).
    // An empty text runs without a model file: `model` names a library class.
    FrontEnd(const std::string& text, const std::vector<std::string>& libraries, std::string_view until,
             const std::string& model) {
        if (!text.empty()) state.file = state.sources.add("test.mo", text);
        RunOptions options;
        options.flatten.model_name = model;
        std::vector<std::string> problems;
        options.libraries = library::make_library_path(libraries, nullptr, problems);
        result = run_pipeline(state, options, until);
    }
    static std::unique_ptr<FrontEnd> from_file(const std::string& path, std::string_view until = "modes");

    const FlatModel& flat() const { return *state.flat; }
    const ModeSet& modes() const { return *state.modes; }
    bool has(std::string_view rule) const {
        for (const Diagnostic& d : state.sink.all())
            if (d.rule == rule) return true;
        return false;
    }
    std::string diagnostics() const {
        std::string s;
        for (const Diagnostic& d : state.sink.all()) s += format_diagnostic(d, state.sources);
        return s;
    }
    // The symbol of a flat variable (or its derivative) by name; throws if absent.
    GiNaC::ex var(const std::string& name) const;
    GiNaC::ex der(const std::string& name, int order = 1) const;
    GiNaC::ex pre(const std::string& name) const;
    // A variable's value in terms of what is left after alias elimination:
    // +-(its representative's symbol).
    GiNaC::ex value(const std::string& name) const;
    const Mode& mode(const std::string& id) const;
};

// The text of a file (throws when it cannot be read).
std::string read_text(const std::string& path);
// The corpus's model files (corpus/**/*.mo outside corpus/libraries), sorted.
std::vector<std::string> corpus_models();
// RunOptions with the corpus's own libraries (corpus/libraries) loaded.
RunOptions with_corpus_libraries(RunOptions options = {});

// a and b are the same expression up to a non-zero constant factor.
bool proportional(const GiNaC::ex& a, const GiNaC::ex& b);

}  // namespace modeaudit::testing
