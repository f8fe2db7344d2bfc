#include "pipeline/pipeline.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <functional>

#include "common/command_deadline.h"
#include "common/internal_error.h"
#include "common/limits.h"
#include "pipeline/factorised.h"
#include "flatten/expression_limits.h"
#include "parse/ast_print.h"
#include "pipeline/simulation_run.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include "rule_checks.h"

namespace modeaudit {

namespace {

// What the stages after modes analyse: each part of a factorised model
// (pipeline/factorised.h), else the model itself. Findings go to the
// model's sink either way.
void for_each_analysis(PipelineState& s, const std::function<void(PipelineState&)>& stage) {
    if (s.parts.empty()) return stage(s);
    for (auto& p : s.parts) stage(*p);
}

// A stage's dump, of each part under a heading naming its mode variables.
void dump_each(const PipelineState& s, std::ostream& out,
               const std::function<void(const PipelineState&, std::ostream&)>& dump) {
    if (s.parts.empty()) return dump(s, out);
    out << fmt::format("analysed in {} independent parts ({:.4g} global modes)\n", s.parts.size(),
                       s.modes->global_mode_count());
    for (std::size_t k = 0; k < s.parts.size(); ++k) {
        const PipelineState& p = *s.parts[k];
        std::vector<std::string> names;
        for (const ModeVariable& v : p.modes->mode_variables) names.push_back(v.name);
        out << fmt::format("--- part {}: {}\n", k + 1,
                           names.empty() ? std::string("no mode variable") : fmt::format("{}", fmt::join(names, ", ")));
        dump(p, out);
    }
}

StageOutcome run_parse(PipelineState& s, const RunOptions& o) {
    if (s.file == 0) {  // the model is a library class named on the command line
        s.tree = std::make_unique<ast::StoredDefinition>();
        return StageOutcome::Ok;
    }
    s.tree = parse_file(s.sources, s.file, s.sink, o.parse);
    return s.sink.has_input_errors() ? StageOutcome::InputError : StageOutcome::Ok;
}
void dump_parse(const PipelineState& s, std::ostream& out) { ast::dump(*s.tree, out); }

StageOutcome run_flatten(PipelineState& s, const RunOptions& o) {
    std::size_t from = s.sink.size();
    s.loader = std::make_unique<library::ClassLoader>(s.sources, s.sink, o.libraries, o.parse);
    s.flat = flatten(*s.tree, s.sources, s.sink, o.flatten, s.loader.get());
    if (!s.flat || s.sink.has_input_errors()) return StageOutcome::InputError;
    apply_suppressions(*s.flat, s.sink, from);  // findings made while flattening (notes)
    run_flatten_checks(*s.flat, s.sink);
    return StageOutcome::Ok;
}
void dump_flatten(const PipelineState& s, std::ostream& out) { dump_flat(*s.flat, out); }

StageOutcome run_modes(PipelineState& s, const RunOptions& o) {
    if (factorise(s, o)) return s.sink.has_input_errors() ? StageOutcome::InputError : StageOutcome::Ok;
    s.modes = std::make_unique<ModeSet>(enumerate_modes(*s.flat, s.sink, o.modes));
    if (s.sink.has_input_errors()) return StageOutcome::InputError;
    run_mode_checks(*s.flat, *s.modes, s.sink);
    return StageOutcome::Ok;
}
void dump_modes_stage(const PipelineState& s, std::ostream& out) {
    dump_each(s, out, [](const PipelineState& p, std::ostream& o) { dump_modes(*p.flat, *p.modes, o); });
}

StageOutcome run_structure(PipelineState& s, const RunOptions& o) {
    for_each_analysis(s, [&](PipelineState& a) {
        std::size_t from = s.sink.size();
        a.structure = std::make_unique<StructureResult>(analyze_structure(*a.flat, *a.modes, s.sink, o.structure));
        apply_suppressions(*a.flat, s.sink, from);
    });
    return StageOutcome::Ok;
}
void dump_structure_stage(const PipelineState& s, std::ostream& out) {
    dump_each(s, out, [](const PipelineState& p, std::ostream& o) { dump_structure(*p.flat, *p.modes, *p.structure, o); });
}

StageOutcome run_mode_change(PipelineState& s, const RunOptions& o) {
    ModeChangeOptions mo = o.mode_change;
    mo.progress = o.progress;
    for_each_analysis(s, [&](PipelineState& a) {
        a.mode_change = std::make_unique<ModeChangeResult>(study_transitions(*a.flat, *a.modes, *a.structure, mo));
    });
    return StageOutcome::Ok;
}
void dump_mode_change_stage(const PipelineState& s, std::ostream& out) {
    dump_each(s, out,
              [](const PipelineState& p, std::ostream& o) { dump_mode_change(*p.flat, *p.modes, *p.mode_change, o); });
}

StageOutcome run_rescaling(PipelineState& s, const RunOptions& o) {
    for_each_analysis(s, [&](PipelineState& a) {
        a.rescaling = std::make_unique<RescalingStageResult>(rescale_transitions(*a.flat, *a.mode_change, o.progress, o.z3));
    });
    return StageOutcome::Ok;
}
void dump_rescaling_stage(const PipelineState& s, std::ostream& out) {
    dump_each(s, out,
              [](const PipelineState& p, std::ostream& o) { dump_rescaling(*p.flat, *p.mode_change, *p.rescaling, o); });
}

StageOutcome run_restart(PipelineState& s, const RunOptions&) {
    for_each_analysis(s, [&](PipelineState& a) {
        a.restarts = std::make_unique<RestartStageResult>(derive_restarts(*a.flat, *a.modes, *a.mode_change, *a.rescaling));
        run_restart_checks(*a.flat, *a.modes, *a.restarts, s.sink);
    });
    return StageOutcome::Ok;
}
void dump_restart_stage(const PipelineState& s, std::ostream& out) {
    dump_each(s, out, [](const PipelineState& p, std::ostream& o) { dump_restarts(*p.flat, *p.modes, *p.restarts, o); });
}

StageOutcome run_verification(PipelineState& s, const RunOptions&) {
    for_each_analysis(s, [&](PipelineState& a) {
        a.verification = std::make_unique<VerificationResult>(verify_model(*a.flat, *a.modes, *a.structure, *a.restarts));
        run_verification_checks(*a.flat, *a.modes, *a.verification, VerificationPhase::Static, s.sink);
    });
    return StageOutcome::Ok;
}
void dump_verification_stage(const PipelineState& s, std::ostream& out) {
    dump_each(s, out,
              [](const PipelineState& p, std::ostream& o) { dump_verification(*p.flat, *p.modes, *p.verification, o); });
}

StageOutcome run_simulation(PipelineState& s, const RunOptions& o) {
    if (!s.parts.empty()) {
        simulate_parts(s, o);
        return StageOutcome::Ok;
    }
    const double stop = simulation_stop_time(s, o);
    AnalysisSimulation run(s, o);
    const auto started = std::chrono::steady_clock::now();
    run.reference(stop, o.simulation.max_wall_seconds, o.simulation.max_events);
    // The wall-time limit holds for both runs together: the comparison run
    // gets what is left, and none after a run stopped by a limit.
    const double left = o.simulation.max_wall_seconds -
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (o.sensitivity && s.simulation->limit.empty() && left > 0) run.sensitivity(left);
    run.check(stop, s.sink);
    return StageOutcome::Ok;
}
void dump_simulation_stage(const PipelineState& s, std::ostream& out) {
    const SimulationResult& r = *s.simulation;
    out << fmt::format("simulation: stopped because {} at t = {:.12g}\n", stop_reason_name(r.stopped_because), r.end_time);
    if (r.initial_modes.size() > 1)
        out << fmt::format("  initial event iteration: {}\n", fmt::join(r.initial_modes, " -> "));
    // One line per event instant; a cascade lists its restart steps.
    auto step_text = [](const EventRecord& e) {
        const std::string modes = e.from_id.empty() && e.to_id.empty()
                                      ? std::string()
                                      : fmt::format("{} -> {} ", e.from_id, e.to_id);
        std::string text = fmt::format("{}({}) on {}", modes, e.verdict, fmt::join(e.guards, ", "));
        std::vector<std::string> impulses;
        for (const auto& [name, value] : e.impulses) impulses.push_back(fmt::format("{} = {:.12g}", name, value));
        if (!impulses.empty()) text += fmt::format("; impulse {}", fmt::join(impulses, ", "));
        return text;
    };
    for (std::size_t k = 0; k < r.events.size();) {
        std::size_t end = k + 1;
        while (end < r.events.size() && r.events[end].instant == r.events[k].instant) ++end;
        if (end == k + 1) {
            out << fmt::format("  event at t = {:.12g}: {}\n", r.events[k].time, step_text(r.events[k]));
        } else {
            out << fmt::format("  event at t = {:.12g}, a cascade of {} restarts:\n", r.events[k].time, end - k);
            for (std::size_t i = k; i < end; ++i)
                out << fmt::format("    step {}: {}\n", i - k + 1, step_text(r.events[i]));
        }
        k = end;
    }
    for (const std::string& m : r.messages) out << "  " << m << "\n";
    if (s.sensitivity.ran)
        out << fmt::format("  sensitivity (rtol {:g}): {}, events move by at most {:.3g}, final values by at most {:.3g}\n",
                           s.sensitivity.rtol, s.sensitivity.same_events ? "same events" : "DIFFERENT events",
                           s.sensitivity.max_event_shift, s.sensitivity.max_final_difference);
}

// The stage table, in data-flow order. Unbuilt stages are listed so that the
// command line can say precisely what is missing.
constexpr std::array kStages{
    Stage{"parse", "Modelica text to a syntax tree", true, run_parse, dump_parse},
    Stage{"flatten", "classes, components and connections to a flat multimode system", true,
          run_flatten, dump_flatten},
    Stage{"modes", "mode variables, reachable modes, active systems, transitions", true, run_modes,
          dump_modes_stage},
    Stage{"structure", "per-mode Sigma-method, Dulmage-Mendelsohn, numerical regularity", true,
          run_structure, dump_structure_stage},
    Stage{"mode_change", "mode-change arrays of every transition", true, run_mode_change,
          dump_mode_change_stage},
    Stage{"rescaling", "rescaling offsets with Z3", true, run_rescaling, dump_rescaling_stage},
    Stage{"restart", "hot restart of every transition", true, run_restart, dump_restart_stage},
    Stage{"verification", "conservation laws, admissibility, impact laws", true, run_verification,
          dump_verification_stage},
    Stage{"simulation", "reference simulation with guaranteed event location", true, run_simulation,
          dump_simulation_stage},
    Stage{"report", "Markdown/PDF review report", false, nullptr, nullptr},
};

}  // namespace

std::span<const Stage> stages() { return kStages; }

const std::vector<EventVerification>& simulated_event_checks(const PipelineState& s) {
    static const std::vector<EventVerification> none;
    if (!s.parts.empty()) return s.composed_event_checks;
    return s.verification ? s.verification->events : none;
}

const Stage* find_stage(std::string_view name) {
    for (const Stage& st : kStages)
        if (st.name == name) return &st;
    return nullptr;
}

namespace {

// Runs one stage; a resource limit it reaches (common/limits.h) becomes one
// limit-exceeded diagnostic naming the limit and its option, and the run
// stops there.
StageOutcome run_within_limits(const Stage& st, PipelineState& state, const RunOptions& options) {
    ExpressionLimitScope expression_limit(options.max_expression_terms);
    set_current_stage(st.name.data());  // kStages' names are literals
    try {
        return st.run(state, options);
    } catch (const LimitExceeded& e) {
        SourceRange at = e.range();
        if (!at.valid() && state.flat) at = state.flat->range;
        if (!at.valid()) at.begin = at.end = state.sources.locate(state.file, 0);
        state.sink.report(rule::limit_exceeded, at, fmt::format("stage {}: {}", st.name, e.what()),
                          {fmt::format("the {} limit is set by {}; raise it if the model is meant to be this large, "
                                       "or simplify the model",
                                       e.limit(), e.option())});
        return StageOutcome::InputError;
    }
}

}  // namespace

double simulation_stop_time(const PipelineState& s, const RunOptions& o) {
    return o.simulation.stop_time.value_or(s.flat->stop_time.value_or(1.0));
}

PipelineResult run_pipeline(PipelineState& state, const RunOptions& options, std::string_view until) {
    MODEAUDIT_ASSERT(find_stage(until) != nullptr, "unknown stage in run_pipeline");
    PipelineResult result;
    for (const Stage& st : kStages) {
        if (!st.implemented && st.skippable && st.name != until) {
            result.skipped.emplace_back(st.name);
            continue;
        }
        if (!st.implemented) {
            result.not_implemented = std::string(st.name);
            return result;
        }
        auto t0 = std::chrono::steady_clock::now();
        StageOutcome outcome = run_within_limits(st, state, options);
        auto t1 = std::chrono::steady_clock::now();
        result.timings.push_back(
            {std::string(st.name), std::chrono::duration<double, std::milli>(t1 - t0).count()});
        if (outcome == StageOutcome::InputError) {
            result.stopped_on_input_error = true;
            return result;
        }
        result.last_stage = std::string(st.name);
        if (st.name == until) break;
    }
    return result;
}

}  // namespace modeaudit
