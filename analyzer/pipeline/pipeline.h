// The pipeline: the ordered table of named stages.
//
// parse -> flatten -> modes -> structure -> mode_change -> rescaling ->
// restart -> verification -> simulation -> report. Each stage reads the
// results of earlier stages from PipelineState and adds its own. A stage
// that is not built yet is in the table with implemented = false: running
// the pipeline up to it stops and says "not implemented yet" (exit code 2),
// it never pretends. `--dump-after=STAGE` prints a stage's result in
// canonical form; `--time-stages` reports each stage's wall time on stderr.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostics.h"
#include "common/source.h"
#include "flatten/flat_model.h"
#include "flatten/expression_limits.h"
#include "flatten/flattener.h"
#include "library/class_loader.h"
#include "library/library_path.h"
#include "modes/modes.h"
#include "parse/ast.h"
#include "parse/parser.h"
#include "mode_change/transition_study.h"
#include "rescaling/rescaling.h"
#include "restart/verdict.h"
#include "simulation/simulation.h"
#include "structure/structure.h"
#include "verification/verification.h"

namespace modeaudit {

struct RunOptions {
    ParseLimits parse;
    library::LibraryPath libraries;  // --library and MODELICAPATH (library/library_path.h)
    FlattenOptions flatten;
    ModeLimits modes;
    StructureOptions structure;
    ModeChangeOptions mode_change;
    Z3Limits z3;
    SimulationOptions simulation;
    std::size_t max_expression_terms = kDefaultMaxExpressionTerms;  // flatten/expression_limits.h
    bool sensitivity = true;  // repeat the simulation at tolerances ten times tighter
    bool progress = false;  // progress line on stderr (only when it is a terminal)
};

// Everything the stages have produced so far, in data-flow order.
struct PipelineState {
    SourceManager sources;
    DiagnosticSink sink;
    std::uint32_t file = 0;                       // 0: no model file (the model is a library class)
    std::unique_ptr<ast::StoredDefinition> tree;  // parse
    std::unique_ptr<library::ClassLoader> loader; // flatten: the library files it read
    std::unique_ptr<FlatModel> flat;              // flatten
    std::unique_ptr<ModeSet> modes;               // modes
    std::unique_ptr<StructureResult> structure;   // structure
    std::unique_ptr<ModeChangeResult> mode_change;      // mode_change
    std::unique_ptr<RescalingStageResult> rescaling;    // rescaling
    std::unique_ptr<RestartStageResult> restarts;       // restart
    std::unique_ptr<VerificationResult> verification;   // verification (its event part after simulation)
    std::unique_ptr<SimulationResult> simulation;       // simulation
    // The same run at tolerances ten times tighter (seed 000 4.4: a result
    // that moves with the tolerance is not a reference).
    struct Sensitivity : ToleranceComparison {
        bool ran = false;
        double rtol = 0;                   // of the tighter run
    } sensitivity;
    // The factorised analysis (modes/model_partition.h): when the model's
    // independent switching parts combine to more global modes than
    // --max-modes, each part is analysed on its own, from the modes stage to
    // verification, with its results here (its own flat model, modes, ...;
    // its findings go to `sink` above). `modes` then holds only the
    // switching clusters (one per switching part) and no global mode, and
    // the later stages' results above stay empty. Empty: the model is
    // analysed whole.
    std::vector<std::unique_ptr<PipelineState>> parts;
    // Its simulation (simulation/composition.h): the parts' runs composed
    // in `simulation` and `sensitivity` above, and the parts' event
    // verifications here, numbered by the composed events
    // (simulated_event_checks gives the one list either way).
    std::vector<EventVerification> composed_event_checks;
};

// The verification of the simulated events: the model's, or a factorised
// model's composed from its parts' (empty before the simulation stage).
const std::vector<EventVerification>& simulated_event_checks(const PipelineState& s);

enum class StageOutcome {
    Ok,              // produced its result
    InputError,      // the input cannot be analysed further (diagnostics say why)
};

struct Stage {
    std::string_view name;
    std::string_view summary;
    bool implemented;
    StageOutcome (*run)(PipelineState&, const RunOptions&);
    void (*dump)(const PipelineState&, std::ostream&);
    // Not built yet, and no later stage needs its result: the pipeline goes
    // on without it and says so (PipelineResult::skipped).
    bool skippable = false;
};

std::span<const Stage> stages();
const Stage* find_stage(std::string_view name);

struct StageTiming {
    std::string stage;
    double milliseconds = 0;
};

struct PipelineResult {
    std::string last_stage;            // the last stage that ran to completion
    bool stopped_on_input_error = false;
    std::string not_implemented;       // the first unbuilt stage reached, if any
    std::vector<std::string> skipped;  // unbuilt stages passed over (skippable)
    std::vector<StageTiming> timings;
};

// Runs the stages in order, from parse up to and including `until`
// (a stage name). Stops early on an input error or an unbuilt stage.
PipelineResult run_pipeline(PipelineState& state, const RunOptions& options, std::string_view until);

// The end time of the reference simulation: --stop-time, else the model's
// experiment(StopTime = ...), else 1. Needs the flattened model.
double simulation_stop_time(const PipelineState& state, const RunOptions& options);

}  // namespace modeaudit
