#include "cli/commands.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <ginac/version.h>
#include <sundials/sundials_config.h>
#include <z3.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "common/files.h"
#include "common/github_annotations.h"
#include "common/json_output.h"
#include "common/model_selection.h"
#include "common/sarif.h"
#include "common/text_sanitize.h"
#include "common/rules.h"
#include "common/command_deadline.h"
#include "common/terminal_text.h"
#include "common/version.h"
#include "cli/sampled_quantities.h"
#include "modes/clusters_json.h"
#include "pipeline/pipeline.h"
#include "regress/junit.h"
#include "regress/runner.h"
#include "report/report.h"
#include "common/sha256.h"

namespace modeaudit::cli {

namespace {

void print_error(const std::string& message) { std::cerr << "modeaudit: error: " << terminal_safe(message) << "\n"; }
void print_warning(const std::string& message) { std::cerr << "modeaudit: warning: " << terminal_safe(message) << "\n"; }


// The stage `check` runs to: the static audit ends with verification. Until
// that stage is built, check runs every built stage before it and says
// what it did not check.
constexpr std::string_view kCheckUntil = "verification";

std::string_view check_until() {
    std::string_view last;
    for (const Stage& s : stages()) {
        if (!s.implemented) break;
        last = s.name;
        if (s.name == kCheckUntil) break;
    }
    return last;
}

// The stages up to kCheckUntil that are not built (for the JSON and a note).
std::vector<std::string> unbuilt_check_stages() {
    std::vector<std::string> out;
    for (const Stage& s : stages()) {
        if (!s.implemented) out.emplace_back(s.name);
        if (s.name == kCheckUntil) break;
    }
    return out;
}

// Loads the model into the state and sets up the libraries; reports and
// returns false when it cannot. MODEL is a file, `-`, or, when no such file
// exists, the full name of a library class (`Lib.Examples.Foo`), found
// through --library and MODELICAPATH.
bool load_model(PipelineState& state, const std::string& path, const std::string& model_name,
                const std::vector<std::string>& libraries, const LimitArgs& limits, RunOptions& options) {
    std::vector<std::string> problems;
    options.libraries = library::make_library_path(libraries, std::getenv("MODELICAPATH"), problems);
    for (const std::string& p : problems) print_error(p + " [parse-unreadable-file]");
    if (!problems.empty()) return false;
    options.flatten.model_name = model_name;
    std::error_code ec;
    bool mo_file = path.size() > 3 && path.compare(path.size() - 3, 3, ".mo") == 0;
    if (path != "-" && !mo_file && !std::filesystem::exists(path, ec) && library::looks_like_class_name(path)) {
        if (!model_name.empty()) {
            print_error(fmt::format("'{}' is a class name; give either a class name or --model with a file", path));
            return false;
        }
        state.file = 0;
        options.flatten.model_name = path;
        return true;
    }
    std::string error;
    auto id = state.sources.load(path, error, limits.max_input_mib << 20);
    if (!id) {
        print_error(fmt::format("cannot read '{}': {}; check the path, or give a class name such as "
                                "Lib.Examples.Model with its library on MODELICAPATH or --library "
                                "[parse-unreadable-file]",
                                path, error));
        return false;
    }
    state.file = *id;
    return true;
}

void apply_limits(RunOptions& o, const LimitArgs& l) {
    o.parse.max_depth = l.max_nesting;
    o.parse.max_file_bytes = l.max_input_mib << 20;
    o.max_expression_terms = l.max_expression_terms;
    o.flatten.max_function_work = l.max_function_work;
    o.mode_change.max_height = l.max_height;
    o.z3.timeout_ms = l.z3_timeout_ms;
    o.z3.max_memory_mb = l.z3_memory_mb;
    o.simulation.max_events = l.max_events;
    o.simulation.max_event_iterations = l.max_event_iterations;
    o.simulation.max_steps = l.max_steps;
    o.simulation.max_wall_seconds = l.max_sim_seconds;
}

std::string render_text_diagnostics(const PipelineState& state) {
    std::string out;
    for (const Diagnostic& d : state.sink.all()) out += format_diagnostic(d, state.sources);
    if (state.sink.dropped())
        out += fmt::format("modeaudit: note: {} more diagnostics not shown\n", state.sink.dropped());
    return terminal_safe(out);  // the model's names and strings may hold escape sequences
}

// ---- detail for the review report (extra fields; the contract allows them) ----

// The signature matrix of a mode larger than this (rows x columns) is given
// as its entries instead of as a dense matrix.
constexpr std::size_t kDenseSignatureLimit = 10000;

// A mode's active equations with their source lines, the signature matrix
// with the Sigma-method's offsets, the certificate and the regularity check
// (structure.h).
void add_mode_detail(Json& jm, const FlatModel& flat, const Mode& m, const ModeStructure* ms) {
    Json eqs = Json::array();
    for (std::size_t i = 0; i < m.equations.size(); ++i) {
        const FlatEquation& fe = flat.equations[static_cast<std::size_t>(m.equations[i].equation)];
        Json je = {{"name", fmt::format("e{}", i + 1)}, {"residual", canonical_in(flat, m.equations[i].residual)}};
        je["line"] = fe.range.valid() ? Json(fe.range.begin.line) : Json(nullptr);
        je["origin"] = fe.origin;
        eqs.push_back(je);
    }
    jm["equations_text"] = eqs;
    if (!ms) return;
    const SignatureMatrix& sg = ms->signature;
    Json sig;
    Json rows = Json::array(), cols = Json::array();
    for (int i = 0; i < sg.rows; ++i) rows.push_back(fmt::format("e{}", sg.row_equation[static_cast<std::size_t>(i)] + 1));
    for (int j = 0; j < sg.cols; ++j) cols.push_back(flat.variables[static_cast<std::size_t>(sg.col_variable[static_cast<std::size_t>(j)])].name);
    sig["equations"] = rows;
    sig["variables"] = cols;
    if (static_cast<std::size_t>(sg.rows) * static_cast<std::size_t>(sg.cols) <= kDenseSignatureLimit) {
        Json matrix = Json::array();
        for (int i = 0; i < sg.rows; ++i) {
            Json row = Json::array();
            for (int j = 0; j < sg.cols; ++j) {
                int v = sg.sigma(i, j);
                row.push_back(v == SignatureMatrix::kNoEntry ? Json(nullptr) : Json(v));
            }
            matrix.push_back(row);
        }
        sig["matrix"] = matrix;  // null: no entry (-infinity)
    } else {
        Json entries = Json::array();
        for (int i = 0; i < sg.rows; ++i)
            for (const SignatureEntry& e : sg.entries[static_cast<std::size_t>(i)]) entries.push_back({i, e.col, e.sigma});
        sig["entries"] = entries;  // [row, column, sigma], 0-based; absent pairs are -infinity
    }
    if (ms->sigma.well_posed) {
        sig["c"] = ms->sigma.c;
        sig["d"] = ms->sigma.d;
        sig["transversal"] = ms->sigma.transversal;  // per row: the column of the highest-value transversal
        sig["value"] = ms->sigma.value;
        sig["certificate"] = ms->certificate_failure ? *ms->certificate_failure : std::string("holds");
    }
    jm["signature"] = sig;
    const Regularity& r = ms->regularity;
    Json reg = {{"checked", r.checked}};
    if (r.checked) {
        reg["rank"] = r.rank;
        reg["size"] = r.size;
        reg["exact"] = r.exact;
        reg["constant"] = r.constant;
        reg["condition"] = std::isinf(r.condition) ? Json(nullptr) : Json(r.condition);  // null: singular
        // cond_2 after row and column equilibration, what the rank decision rests on
        reg["scaled_condition"] = std::isinf(r.scaled_condition) ? Json(nullptr) : Json(r.scaled_condition);
        reg["point_consistent"] = r.point_consistent;
        reg["conclusive"] = r.conclusive;  // false: rank-deficient only at a point that is not consistent
        if (!r.dependencies.empty()) reg["dependencies"] = r.dependencies;
    }
    if (!r.point_note.empty()) reg["note"] = r.point_note;
    jm["regularity"] = reg;
}

// The mode-change array the restart of transition k comes from (the route
// and height of TransitionRestart), its matching and the offsets of the
// rescaling stage; nothing when the restart stage used none.
void add_transition_array(Json& jt, const PipelineState& state, std::size_t k) {
    if (!state.mode_change || !state.restarts || k >= state.mode_change->transitions.size()) return;
    const TransitionRestart& r = state.restarts->transitions[k];
    const TransitionStudy& st = state.mode_change->transitions[k];
    if (r.route < 0 || r.height < 0 || static_cast<std::size_t>(r.route) >= st.routes.size()) return;
    const Route& route = st.routes[static_cast<std::size_t>(r.route)];
    int at = r.height - route.first_height;
    if (at < 0 || static_cast<std::size_t>(at) >= route.arrays.size()) return;
    const ModeChangeArray& a = route.arrays[static_cast<std::size_t>(at)];
    // The array the restart system comes from (Procedure 1), or the one a
    // verdict without a restart is diagnosed on; a continuous verdict shown
    // from the consistency conditions alone used none.
    const bool diagnosis = r.verdict == Verdict::Undetermined || r.verdict == Verdict::Inconsistent ||
                           r.verdict == Verdict::Unsupported;
    if (!r.system && !diagnosis) return;
    Json ja;
    ja["role"] = r.system ? "restart" : "diagnosis";
    ja["route"] = route.describe(*state.modes);
    ja["height"] = a.height;
    Json rows = Json::array();
    for (const ArrayEquation& e : a.equations) {
        const char* kind = e.kind == ArrayEquation::Kind::Euler ? "euler" : e.row < 0 ? "restart-constraint" : "model";
        rows.push_back({{"equation", e.name}, {"kind", kind}, {"instant", e.instant},
                        {"status", e.fact ? "fact" : e.enabled ? "enabled" : "disabled"},
                        // Expanded: the array's symbols are made by worker threads, so GiNaC's
                        // internal order (and the sign it factors out of a sum) differs between
                        // runs; a sum of monomials prints the same every time.
                        {"residual", canonical_in(*state.flat, GiNaC::expand(e.residual))}});
    }
    ja["rows"] = rows;
    Json matching = Json::array();
    for (const auto& [eq, var] : a.matching)
        matching.push_back({a.equations[static_cast<std::size_t>(eq)].name,
                            a.symbol(a.variables[static_cast<std::size_t>(var)]).get_name()});
    ja["matched"] = a.matched;
    ja["matching"] = matching;
    if (!a.matched && !a.why_not_matched.empty()) ja["why_not_matched"] = a.why_not_matched;
    if (state.rescaling && k < state.rescaling->arrays.size() &&
        static_cast<std::size_t>(r.route) < state.rescaling->arrays[k].size() &&
        static_cast<std::size_t>(at) < state.rescaling->arrays[k][static_cast<std::size_t>(r.route)].size()) {
        const ArrayRescaling& ar = state.rescaling->arrays[k][static_cast<std::size_t>(r.route)][static_cast<std::size_t>(at)];
        if (ar.result && ar.result->solved) {
            Json offsets = Json::object();  // impulsive array variables only (mu > 0)
            for (std::size_t j = 0; j < ar.result->mu.size() && j < a.variables.size(); ++j)
                if (ar.result->mu[j] > 0) offsets[a.symbol(a.variables[j]).get_name()] = ar.result->mu[j];
            ja["offsets"] = offsets;
        }
    }
    jt["array"] = ja;
}

Json modes_to_json(const PipelineState& state) {
    Json modes = Json::array();
    if (!state.modes) return modes;
    for (std::size_t k = 0; k < state.modes->modes.size(); ++k) {
        const Mode& m = state.modes->modes[k];
        Json jm;
        jm["id"] = m.id;
        const ModeStructure* ms = state.structure ? &state.structure->modes[k] : nullptr;
        if (ms) jm["status"] = std::string(mode_status_name(ms->status));
        jm["equations"] = m.equations.size();
        jm["unknowns"] = m.unknowns.size();
        if (m.transient_only) jm["transient_only"] = true;
        if (ms && ms->sigma.well_posed) {
            jm["index"] = ms->sigma.index;
            jm["dof"] = ms->sigma.dof;
            Json states = Json::array();
            for (const auto& s : ms->states) states.push_back(s.get_name());
            jm["states"] = states;
            Json cons = Json::array();
            for (const auto& c : ms->consistency) cons.push_back(canonical_in(*state.flat, c.residual));
            jm["consistency"] = cons;
        }
        add_mode_detail(jm, *state.flat, m, ms);
        if (state.verification) {
            Json invs = Json::array();
            for (const RateCheck& r : state.verification->rates) {
                if (r.mode != static_cast<int>(k)) continue;
                Json ji = {{"name", r.invariant}, {"rate", r.rate}, {"status", std::string(check_status_name(r.status))}};
                if (!r.method.empty()) ji["method"] = r.method;
                if (!r.residual.empty()) ji["residual"] = r.residual;
                if (r.status == CheckStatus::Violated) ji["value"] = r.value;
                if (!r.note.empty()) ji["note"] = r.note;
                invs.push_back(ji);
            }
            if (!invs.empty()) jm["invariants"] = invs;
        }
        modes.push_back(jm);
    }
    return modes;
}

// A transition's verification: declared jump laws (with the values at the
// first simulated event through it, when there is one), the discovered
// conserved quantities, admissibility at that event, the impact law.
Json transition_verification_json(const VerificationResult& v, std::size_t k) {
    const TransitionVerification& tv = v.transitions[k];
    const EventVerification* first = nullptr;
    for (const EventVerification& e : v.events)
        if (e.transition == static_cast<int>(k)) {
            first = &e;
            break;
        }
    Json invs = Json::array();
    for (const JumpCheck& jc : tv.jumps) {
        Json ji = {{"name", jc.invariant}, {"kind", jc.kind}, {"status", std::string(check_status_name(jc.status))}};
        for (const DeclaredInvariant& d : v.invariants)
            if (d.name == jc.invariant) ji["expression"] = d.quantity_text;
        if (!jc.jump.empty()) ji["jump_text"] = jc.jump;
        if (!jc.note.empty()) ji["note"] = jc.note;
        if (first)
            for (const EventJump& ej : first->jumps)
                if (ej.invariant == jc.invariant && ej.status != CheckStatus::NotEvaluated) {
                    ji["before"] = ej.before;
                    ji["after"] = ej.after;
                    ji["jump"] = ej.jump;
                    ji["event_time"] = first->time;
                    if (jc.status == CheckStatus::NotEvaluated || ej.status == CheckStatus::Violated)
                        ji["status"] = std::string(check_status_name(ej.status));
                }
        invs.push_back(ji);
    }
    for (const std::string& d : tv.discovered) {
        Json ji = {{"name", d}, {"expression", d}, {"kind", "conserved (discovered)"}, {"status", "holds"},
                   {"note", "preserved by the restart system: the impulses do not change it"}};
        if (first)
            for (const EventJump& ej : first->jumps)
                if (ej.invariant == d && ej.status != CheckStatus::NotEvaluated) {
                    ji["before"] = ej.before;
                    ji["after"] = ej.after;
                    ji["jump"] = ej.jump;
                    ji["event_time"] = first->time;
                    ji["status"] = std::string(check_status_name(ej.status));
                }
        invs.push_back(ji);
    }
    Json adm = Json::array();
    if (first)
        for (const EventAdmissibility& a : first->admissibility) {
            Json ja = {{"condition", a.condition}, {"message", a.message}, {"status", std::string(check_status_name(a.status))},
                       {"event_time", first->time}};
            if (a.status != CheckStatus::NotEvaluated) ja["value"] = a.value;
            adm.push_back(ja);
        }
    Json out = {{"invariants", invs}, {"discovered", tv.discovered}, {"admissibility", adm}};
    if (first && !first->alternatives.empty()) out["admissible_instead"] = first->alternatives;
    if (tv.impact_law.incomplete || (first && first->missing_impact_law)) {
        Json law = {{"status", "missing"},
                    {"message", tv.impact_law.incomplete ? tv.impact_law.message : first->missing_note}};
        if (tv.impact_law.incomplete) law["free_coefficients"] = tv.impact_law.free_coefficients;
        if (first && !first->ranges.empty()) {
            const ImpulseRange& r = first->ranges.front();
            law["impulse"] = r.impulse;
            law["range"] = {r.low, r.high};
            law["modes"] = {r.low_mode, r.high_mode};
            law["event_time"] = first->time;
        }
        if (first && !first->range_note.empty()) law["note"] = first->range_note;
        out["impact_law"] = law;
    }
    return out;
}

Json transitions_to_json(const PipelineState& state) {
    Json trs = Json::array();
    if (!state.modes) return trs;
    for (std::size_t k = 0; k < state.modes->transitions.size(); ++k) {
        const Transition& t = state.modes->transitions[k];
        Json jt;
        jt["from"] = state.modes->modes[static_cast<std::size_t>(t.from)].id;
        jt["to"] = state.modes->modes[static_cast<std::size_t>(t.to)].id;
        jt["trigger"] = t.trigger == Transition::Trigger::State ? "state" : "time";
        jt["guard"] = t.guard_text;
        if (state.restarts) {
            const TransitionRestart& r = state.restarts->transitions[k];
            jt["verdict"] = std::string(verdict_name(r.verdict));
            Json orders = Json::object();
            for (const auto& [n, mu] : r.impulse_orders) orders[n] = mu;
            jt["impulse_orders"] = orders;
            jt["restart"] = r.restart;
            jt["undetermined"] = r.undetermined;
            jt["conserved"] = state.verification ? state.verification->transitions[k].conserved : r.conserved;
            jt["route"] = r.route_text;
            if (r.height >= 0) jt["height"] = r.height;
            jt["explanation"] = r.explanation;
            if (!r.determined.empty()) jt["determined"] = r.determined;
            if (!r.conditions.empty()) jt["requires"] = r.conditions;
            if (!r.conflict.empty()) jt["conflict"] = r.conflict;
            if (!r.continuations.empty()) jt["admissible_continuations"] = r.continuations;
            if (!r.nonlinear.empty()) jt["unsupported"] = r.nonlinear;
            jt["standard_tool"] = {{"action", r.standard_tool.action}, {"violates", r.standard_tool.violates}};
            add_transition_array(jt, state, k);
        }
        if (state.verification) jt["verification"] = transition_verification_json(*state.verification, k);
        trs.push_back(jt);
    }
    return trs;
}

std::string render_json(const PipelineState& state, const PipelineResult& result) {
    Json j;
    j["tool"] = {{"name", "modeaudit"}, {"version", MODEAUDIT_VERSION}};
    j["model"] = state.flat ? Json(state.flat->name) : Json(nullptr);
    if (state.flat && !state.flat->description.empty()) j["description"] = state.flat->description;
    if (state.flat) {
        // The declared units (unit = "..."), for the report's tables and plots.
        Json units = Json::object();
        for (const FlatVariable& v : state.flat->variables)
            if (v.unit && !v.unit->empty()) units[v.name] = *v.unit;
        if (!units.empty()) j["units"] = units;
    }
    j["modes"] = modes_to_json(state);
    if (state.modes && state.modes->clusters.size() > 1) j["switching_clusters"] = clusters_to_json(*state.modes);
    if (!state.parts.empty()) {
        // Factorised (pipeline/factorised.h): each cluster's local modes and
        // transitions with its own analysis; the parts without mode
        // variables (what cannot switch) as one more object.
        Json& clusters = j["switching_clusters"];
        clusters["factorised"] = true;
        std::size_t k = 0;
        for (const auto& part : state.parts) {
            if (part->modes->mode_variables.empty()) {
                clusters["unswitched"] = {{"modes", modes_to_json(*part)}};
                continue;
            }
            Json& jc = clusters["clusters"][k++];
            jc["modes"] = modes_to_json(*part);
            jc["transitions"] = transitions_to_json(*part);
        }
    }
    j["transitions"] = transitions_to_json(state);
    j["diagnostics"] = diagnostics_to_json(state.sink, state.sources);
    Json stagesj = Json::array();
    for (const StageTiming& t : result.timings) stagesj.push_back(t.stage);
    j["stages_run"] = stagesj;
    if (!result.not_implemented.empty()) j["not_implemented"] = result.not_implemented;
    std::vector<std::string> unbuilt = unbuilt_check_stages();
    if (!unbuilt.empty()) j["not_checked"] = unbuilt;
    // A path given on the command line may hold bytes that are not UTF-8:
    // they become U+FFFD instead of an exception.
    return json_document(j);
}

int exit_code_for(const PipelineState& state, const PipelineResult& result, bool complete_request) {
    if (state.sink.has_input_errors() || result.stopped_on_input_error) return kCannotRun;
    if (!complete_request) return kCannotRun;
    return state.sink.has_errors() ? kFindings : kClean;
}

void report_not_implemented(const PipelineResult& result, std::string_view command) {
    const Stage* st = find_stage(result.not_implemented);
    std::cerr << fmt::format(
        "modeaudit: {} is incomplete: ran {}; stage '{}' ({}) is not implemented yet\n", command,
        result.last_stage.empty() ? std::string("nothing") : "up to '" + result.last_stage + "'",
        result.not_implemented, st ? st->summary : "");
}

void print_timings(const PipelineResult& result) {
    for (const StageTiming& t : result.timings)
        std::cerr << fmt::format("modeaudit: stage {:<12} {:10.3f} ms\n", t.stage, t.milliseconds);
}

}  // namespace

int run_check(const CheckArgs& args) {
    if (args.format != "text" && args.format != "json" && args.format != "sarif" && args.format != "github") {
        print_error(fmt::format("unknown format '{}'; use text, json, sarif or github", args.format));
        return kCannotRun;
    }
    const Stage* dump_stage = nullptr;
    if (!args.dump_after.empty()) {
        dump_stage = find_stage(args.dump_after);
        if (!dump_stage) {
            std::string names;
            for (const Stage& s : stages()) names += (names.empty() ? "" : ", ") + std::string(s.name);
            print_error(fmt::format("unknown stage '{}' for --dump-after; stages: {}",
                                    args.dump_after, names));
            return kCannotRun;
        }
        if (!dump_stage->implemented) {
            print_error(fmt::format("stage '{}' is not implemented yet; nothing to dump",
                                    args.dump_after));
            return kCannotRun;
        }
    }

    ModelSelectionRequest request;
    request.inputs = args.models;
    request.files_from = args.files_from;
    request.max_list_bytes = args.limits.max_input_mib << 20;
    ModelSelection selection = select_models(request, std::cin);
    for (const std::string& w : selection.warnings) print_warning(w);
    if (!selection.error.empty()) {
        print_error(selection.error);
        return kCannotRun;
    }
    if (dump_stage && selection.models.size() > 1) {
        print_error(fmt::format("--dump-after prints one model's stage; {} models are selected",
                                selection.models.size()));
        return kCannotRun;
    }
    // One file named alone keeps the one-model JSON document of the
    // contract; a folder, a list or several files give the document of many.
    std::error_code ec;
    const bool many = !(args.models.size() == 1 && args.files_from.empty() &&
                        !std::filesystem::is_directory(args.models.front(), ec));

    // What each model leaves for the output: its sources and findings (for
    // SARIF) and its rendered text or JSON; the pipeline state is freed.
    struct Checked {
        std::string path;
        SourceManager sources;
        DiagnosticSink sink;
        std::string failure;  // could not be read at all
        std::string text;
        Json json;
        int exit_code = kClean;
    };
    std::vector<Checked> checked;
    checked.reserve(selection.models.size());
    bool incomplete_noted = false, unbuilt_noted = false;
    for (const SelectedModel& model : selection.models) {
        Checked c;
        c.path = model.path;
        PipelineState state;
        RunOptions options;
        if (!load_model(state, model.path, args.model_name, args.libraries, args.limits, options)) {
            c.failure = model.path != "-" && std::filesystem::is_directory(model.path, ec)
                            ? "a directory, not a model file"
                            : "the model file cannot be read";
            c.exit_code = kCannotRun;
            checked.push_back(std::move(c));
            continue;
        }
        options.progress = !args.no_progress;
        options.modes.progress = options.progress;
        options.modes.max_modes = args.max_modes;
        options.structure.max_index = args.max_index;
        apply_limits(options, args.limits);
        std::string_view until = dump_stage ? dump_stage->name : check_until();
        PipelineResult result = run_pipeline(state, options, until);

        bool complete = result.not_implemented.empty();
        if (args.format == "json") {
            c.json = Json::parse(render_json(state, result));
        } else if (args.format == "text") {
            c.text = render_text_diagnostics(state);
            if (many) {
                // A finding without a place names its model instead of the tool.
                c.text.clear();
                for (const Diagnostic& d : state.sink.all()) {
                    std::string line = format_diagnostic(d, state.sources);
                    if (!d.range.valid() && line.starts_with("modeaudit: "))
                        line = model.path + ": " + line.substr(std::string_view("modeaudit: ").size());
                    c.text += line;
                }
                if (state.sink.dropped())
                    c.text += fmt::format("{}: note: {} more diagnostics not shown\n", model.path, state.sink.dropped());
            }
            if (dump_stage && result.last_stage == dump_stage->name) {
                std::ostringstream dump;
                dump_stage->dump(state, dump);
                c.text += terminal_safe(dump.str());
            }
        }
        if (args.time_stages) print_timings(result);
        if (!complete && !result.stopped_on_input_error && !incomplete_noted) {
            report_not_implemented(result, "check");
            incomplete_noted = true;
        }
        if (complete && !dump_stage && !result.stopped_on_input_error && !unbuilt_noted) {
            for (const std::string& st : unbuilt_check_stages())
                std::cerr << fmt::format("modeaudit: note: stage '{}' ({}) is not built yet; check did not run it\n", st,
                                         find_stage(st)->summary);
            unbuilt_noted = true;
        }
        c.exit_code = exit_code_for(state, result, complete);
        c.sources = std::move(state.sources);
        c.sink = std::move(state.sink);
        checked.push_back(std::move(c));
    }

    // The exit code of the call: the worst of its models (2 over 1 over 0).
    int exit_code = kClean;
    for (const Checked& c : checked) exit_code = std::max(exit_code, c.exit_code);

    std::string out;
    if (args.format == "sarif") {
        std::vector<SarifModel> models;
        for (const Checked& c : checked)
            models.push_back({c.path, c.failure.empty() ? &c.sources : nullptr, c.failure.empty() ? &c.sink : nullptr,
                              c.failure.empty() ? std::string() : c.path + ": " + c.failure});
        SarifOptions so;
        so.tool_version = MODEAUDIT_VERSION;
        so.information_uri = MODEAUDIT_HOMEPAGE;
        so.source_root = args.source_root;
        so.category = args.sarif_category;
        SarifInvocation inv;
        inv.exit_code = exit_code;
        inv.execution_successful = exit_code != kCannotRun;
        out = json_document(sarif_log(models, so, inv));
    } else if (args.format == "github") {
        // GitHub Actions workflow annotations (common/github_annotations.h).
        for (const Checked& c : checked)
            out += c.failure.empty()
                       ? github_annotations(c.path, c.sources, c.sink)
                       : fmt::format("::error title=modeaudit::{}\n", github_escape_data(sanitize_text(c.path + ": " + c.failure)));
    } else if (args.format == "json") {
        if (!many) {
            out = json_document(checked.front().json.is_null() ? Json::object() : checked.front().json);
        } else {
            Json doc;
            doc["tool"] = {{"name", "modeaudit"}, {"version", MODEAUDIT_VERSION}};
            doc["exit_code"] = exit_code;
            Json list = Json::array();
            for (Checked& c : checked) {
                Json m;
                m["file"] = sanitize_text(c.path);
                m["exit_code"] = c.exit_code;
                if (!c.failure.empty()) m["failure"] = c.failure;
                for (auto& [k, v] : c.json.items())
                    if (k != "tool") m[k] = std::move(v);
                list.push_back(std::move(m));
            }
            doc["models"] = std::move(list);
            out = json_document(doc);
        }
    } else {
        for (const Checked& c : checked) out += c.text;
        if (many) {
            std::size_t counts[4] = {0, 0, 0, 0};
            for (const Checked& c : checked) counts[c.exit_code]++;
            out += fmt::format("{} models: {} clean, {} with error findings, {} not analysable\n", checked.size(),
                               counts[kClean], counts[kFindings], counts[kCannotRun]);
        }
    }

    if (args.output.empty() || args.output == "-") {
        std::cout << out;
        std::cout.flush();
    } else if (std::string why; !write_file_atomically(args.output, out, &why)) {
        print_error(fmt::format("cannot write the output: {}", why));
        return kCannotRun;
    }
    return exit_code;
}


namespace {

Json values_to_json(const std::map<std::string, double>& values) {
    Json j = Json::object();
    for (const auto& [name, v] : values) j[name] = v;
    return j;
}

// The `simulate` document of the contract.
Json simulation_to_json(const PipelineState& state, double stop_time) {
    const SimulationResult& r = *state.simulation;
    Json j;
    j["model"] = state.flat->name;
    j["stop_time"] = stop_time;
    j["end_time"] = r.end_time;
    j["stopped_because"] = std::string(stop_reason_name(r.stopped_because));
    if (r.zeno_time) j["zeno_time"] = *r.zeno_time;
    // One entry per event instant. A cascade (several restart steps at the
    // instant) lists them in "steps", and the entry's from/before are the
    // first step's, its to/after the last one's.
    std::vector<Json> steps(r.events.size());
    std::vector<const EventVerification*> check_of(r.events.size(), nullptr);  // by event
    for (const EventVerification& ev : simulated_event_checks(state))
        if (ev.event < check_of.size()) check_of[ev.event] = &ev;
    for (std::size_t k = 0; k < r.events.size(); ++k) {
        const EventRecord& e = r.events[k];
        Json je = {{"time", e.time}, {"from", e.from_id}, {"to", e.to_id}, {"verdict", e.verdict},
                   {"guards", e.guards}, {"before", values_to_json(e.before)}, {"after", values_to_json(e.after)},
                   {"message", e.message}};
        if (!e.impulses.empty()) je["impulses"] = values_to_json(e.impulses);
        if (const EventVerification* found = check_of[k]) {
            const EventVerification& ev = *found;
            Json invs = Json::array(), adm = Json::array(), ranges = Json::array();
            for (const EventJump& jj : ev.jumps)
                invs.push_back({{"name", jj.invariant}, {"kind", jj.kind}, {"before", jj.before}, {"after", jj.after},
                                {"jump", jj.jump}, {"status", std::string(check_status_name(jj.status))}});
            for (const EventAdmissibility& a : ev.admissibility)
                adm.push_back({{"condition", a.condition}, {"value", a.value},
                               {"status", std::string(check_status_name(a.status))}});
            for (const ImpulseRange& ir : ev.ranges)
                ranges.push_back({{"impulse", ir.impulse}, {"low", ir.low}, {"high", ir.high},
                                  {"low_mode", ir.low_mode}, {"high_mode", ir.high_mode}});
            Json jv = {{"invariants", invs}, {"admissibility", adm}};
            if (!ev.alternatives.empty()) jv["admissible_instead"] = ev.alternatives;
            if (!ranges.empty()) jv["impulse_ranges"] = ranges;
            if (ev.missing_impact_law) jv["missing_impact_law"] = ev.missing_note;
            je["verification"] = jv;
        }
        steps[k] = std::move(je);
    }
    Json events = Json::array();
    for (std::size_t k = 0; k < r.events.size();) {
        std::size_t end = k + 1;
        while (end < r.events.size() && r.events[end].instant == r.events[k].instant) ++end;
        Json je;
        if (end == k + 1) {
            je = steps[k];
        } else {
            std::vector<std::string> verdicts, messages;
            for (std::size_t s = k; s < end; ++s) {
                if (std::find(verdicts.begin(), verdicts.end(), r.events[s].verdict) == verdicts.end())
                    verdicts.push_back(r.events[s].verdict);
                if (!r.events[s].message.empty()) messages.push_back(r.events[s].message);
            }
            je = {{"time", r.events[k].time}, {"from", r.events[k].from_id}, {"to", r.events[end - 1].to_id},
                  {"verdict", fmt::format("{}", fmt::join(verdicts, ", "))}, {"guards", r.events[k].guards},
                  {"before", values_to_json(r.events[k].before)}, {"after", values_to_json(r.events[end - 1].after)},
                  {"message", fmt::format("{}", fmt::join(messages, "; "))}};
        }
        if (end > k + 1) {
            Json list = Json::array();
            for (std::size_t s = k; s < end; ++s) {
                Json step = steps[s];
                step.erase("time");
                list.push_back(std::move(step));
            }
            je["steps"] = std::move(list);
        }
        events.push_back(std::move(je));
        k = end;
    }
    j["events"] = events;
    j["final"] = values_to_json(r.final_values);
    j["final_mode"] = r.final_mode;
    if (!r.initial_modes.empty()) j["initial_modes"] = r.initial_modes;
    Json segments = Json::array();
    for (const SegmentRecord& sg : r.segments) {
        Json asserts = Json::array();
        for (const AssertRecord& a : sg.asserts)
            asserts.push_back({{"message", a.message}, {"violated", a.violated}, {"min_margin", a.min_margin}});
        segments.push_back({{"mode", sg.mode_id}, {"begin", sg.begin}, {"end", sg.end}, {"steps", sg.steps},
                            {"rhs_evaluations", sg.rhs_evaluations}, {"jacobian_evaluations", sg.jacobian_evaluations},
                            {"max_constraint_drift", sg.max_drift}, {"asserts", asserts}});
        // A mode without states: `steps` counts the output points solved.
        if (sg.algebraic) segments.back()["algebraic"] = true;
        // A model simulated in independent parts: whose segment it is (1-based).
        if (!state.parts.empty()) segments.back()["part"] = sg.part + 1;
    }
    j["segments"] = segments;
    j["messages"] = r.messages;
    if (state.sensitivity.ran)
        j["sensitivity"] = {{"rtol", state.sensitivity.rtol},
                            {"same_events", state.sensitivity.same_events},
                            {"max_event_shift", state.sensitivity.max_event_shift},
                            {"max_final_difference", state.sensitivity.max_final_difference}};
    j["diagnostics"] = diagnostics_to_json(state.sink, state.sources);
    return j;
}

// A CSV header field per RFC 4180: quoted (with "" for a quote) when it
// holds a comma, a quote or a space; control characters are written as
// \xNN first, so that the header stays one line.
std::string csv_field(const std::string& name) {
    std::string safe = terminal_safe(name);
    if (safe.find_first_of(",\" ") == std::string::npos) return safe;
    std::string out = "\"";
    for (char c : safe) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// The trajectories as CSV: time, then the states that every segment has
// (in the first segment's order), so that each row is complete. A model
// simulated in independent parts (simulation/composition.h): each part's
// such states in turn, and its samples (rows ordered by part, then time)
// give its own columns, "nan" in the other parts' (sampled at other times).
// `extra` (the report's): further columns, one value per sample ("nan"
// where a quantity is not defined).
std::string trajectories_csv(const SimulationResult& r, const SampledQuantities* extra = nullptr) {
    std::vector<std::string> names;
    for (std::size_t first = 0; first < r.segments.size();) {
        const int part = r.segments[first].part;
        std::size_t end = first;
        while (end < r.segments.size() && r.segments[end].part == part) ++end;
        for (const std::string& n : r.segments[first].state_names) {
            bool everywhere = true;
            for (std::size_t k = first; k < end; ++k)
                everywhere = everywhere && std::find(r.segments[k].state_names.begin(), r.segments[k].state_names.end(),
                                                     n) != r.segments[k].state_names.end();
            if (everywhere) names.push_back(n);
        }
        first = end;
    }
    std::map<std::string, std::size_t> column;  // of each name
    for (std::size_t k = 0; k < names.size(); ++k) column.emplace(names[k], k);
    std::string out = "time";
    for (const std::string& n : names) out += "," + csv_field(n);
    if (extra)
        for (const std::string& n : extra->columns) out += "," + csv_field(n);
    out += "\n";
    for (std::size_t i = 0; i < r.samples.size(); ++i) {
        const Sample& s = r.samples[i];
        const SegmentRecord& sg = r.segments[s.segment];
        std::vector<std::string> row(names.size(), "nan");
        for (std::size_t k = 0; k < sg.state_names.size() && k < s.states.size(); ++k)
            if (auto it = column.find(sg.state_names[k]); it != column.end())
                row[it->second] = fmt::format("{:.17g}", s.states[k]);
        out += fmt::format("{:.17g}", s.time);
        for (const std::string& v : row) out += "," + v;
        if (extra && i < extra->rows.size())
            for (double v : extra->rows[i]) out += fmt::format(",{:.17g}", v);
        out += "\n";
    }
    return out;
}

std::string simulation_text(const PipelineState& state) {
    std::ostringstream out;
    const Stage* st = find_stage("simulation");
    st->dump(state, out);
    for (const auto& [name, v] : state.simulation->final_values) out << fmt::format("  final {} = {:.12g}\n", name, v);
    if (!simulated_event_checks(state).empty()) {
        VerificationResult events_only;
        events_only.events = simulated_event_checks(state);
        dump_verification(*state.flat, *state.modes, events_only, out);
    }
    return out.str();
}

}  // namespace

int run_simulate(const SimulateArgs& args) {
    if (args.format != "text" && args.format != "json") {
        print_error(fmt::format("unknown format '{}'; use text or json", args.format));
        return kCannotRun;
    }
    if (!(args.rtol > 0 && args.rtol < 1)) {
        print_error(fmt::format("--rtol must be in (0, 1); got {}", args.rtol));
        return kCannotRun;
    }
    PipelineState state;
    RunOptions options;
    if (!load_model(state, args.model_file, args.model_name, args.libraries, args.limits, options)) return kCannotRun;
    options.simulation.rtol = args.rtol;
    options.simulation.atol = args.rtol * 1e-2;
    options.simulation.record_steps = !args.csv.empty();
    apply_limits(options, args.limits);
    if (args.stop_time > 0) options.simulation.stop_time = args.stop_time;
    PipelineResult result = run_pipeline(state, options, "simulation");
    if (result.stopped_on_input_error || !state.simulation) {
        std::cerr << render_text_diagnostics(state);
        if (!result.stopped_on_input_error) report_not_implemented(result, "simulate");
        return kCannotRun;
    }
    const double stop = simulation_stop_time(state, options);
    std::string out = args.format == "json" ? json_document(simulation_to_json(state, stop))
                                            : render_text_diagnostics(state) + terminal_safe(simulation_text(state));
    if (args.csv == "-") {
        // The CSV alone on standard output (for a pipe); the findings on
        // standard error, the summary left out.
        std::cerr << render_text_diagnostics(state);
        std::cout << trajectories_csv(*state.simulation);
    } else {
        std::cout << out;
    }
    if (std::string why; !args.csv.empty() && args.csv != "-" && !write_file_atomically(args.csv, trajectories_csv(*state.simulation), &why)) {
        print_error(fmt::format("cannot write the CSV: {}", why));
        return kCannotRun;
    }
    bool ran = state.simulation->stopped_because == StopReason::StopTime ||
               state.simulation->stopped_because == StopReason::Zeno;
    if (state.sink.has_input_errors()) return kCannotRun;  // a resource limit stopped the run (limit-exceeded)
    return state.sink.has_errors() || !ran ? kFindings : kClean;
}

// The report of what the built stages found: the check document rendered by
// the report stage (report/report.h); no simulation yet. The files are
// written even when a stage is missing (the report says which); the exit
// code then stays 2 with the usual "not implemented yet" line.
int run_report(const ReportArgs& args) {
    PipelineState state;
    RunOptions options;
    if (!load_model(state, args.model_file, args.model_name, args.libraries, args.limits, options)) return kCannotRun;
    options.simulation.record_steps = true;
    apply_limits(options, args.limits);
    PipelineResult result = run_pipeline(state, options, "simulation");
    std::cerr << render_text_diagnostics(state);
    ReportInput input;
    input.check = Json::parse(render_json(state, result));
    input.model_file = args.model_file;
    // A library class named on the command line: the digest of the file that defines it.
    std::uint32_t model_file = state.file ? state.file : state.flat ? state.flat->range.begin.file : 0;
    input.model_sha256 = model_file ? sha256_hex(state.sources.contents(model_file)) : sha256_hex("");
    if (state.simulation) {
        input.simulation = simulation_to_json(state, simulation_stop_time(state, options));
        // Beside the states, the report plots what the samples give: solved
        // variables, guards, assert margins, the constraint residual.
        // (Not for a model simulated in parts: no global mode to evaluate in.)
        const SampledQuantities extra = state.structure ? sample_quantities(*state.flat, *state.modes,
                                                                            *state.structure, *state.simulation)
                                                        : SampledQuantities{};
        if (!extra.descriptions.empty()) {
            Json described = Json::object();
            for (const auto& [column, what] : extra.descriptions) described[column] = what;
            (*input.simulation)["sampled_columns"] = described;
        }
        input.trajectories_csv = trajectories_csv(*state.simulation, &extra);
    } else {
        input.simulation_not_run = result.stopped_on_input_error ? "the model could not be analysed (see the findings)"
                                                                 : "the simulation stage did not run";
    }
    ReportOptions report;
    report.output_dir = args.output_dir;
    report.pdf = !args.no_pdf;
    report.reproducible = args.reproducible;
    report.command_line = args.command_line;
    report.library_versions = library_versions_text();
    int written = 0;
    set_current_stage("report (writing the files)");
    {
        TerminalSafeStream err(std::cerr);  // the report's messages name paths and models
        written = write_report(input, report, err);
    }
    bool complete = result.not_implemented.empty();
    if (!complete && !result.stopped_on_input_error) report_not_implemented(result, "report");
    for (const std::string& st : result.skipped)
        std::cerr << fmt::format("modeaudit: note: stage '{}' ({}) is not built yet; the report says so\n", st,
                                 find_stage(st)->summary);
    return written != 0 ? kCannotRun : exit_code_for(state, result, complete);
}

int run_regress(const RegressArgs& args) {
    if (args.jobs < 1 || args.jobs > 64) {
        print_error("-j takes a positive number of jobs, at most 64");
        return kCannotRun;
    }
    const bool junit_to_stdout = args.junit == "-";
    if (!args.junit.empty() && !junit_to_stdout) {
        // Before the run, not after it: a missing folder or a JUnit path that
        // is a link or a device is known at once.
        std::error_code ec;
        std::filesystem::path folder = std::filesystem::path(args.junit).parent_path();
        if (folder.empty()) folder = ".";
        if (!std::filesystem::is_directory(folder, ec)) {
            print_error(fmt::format("cannot write the JUnit XML '{}': the folder '{}' does not exist", args.junit,
                                    folder.string()));
            return kCannotRun;
        }
        if (std::string why = destination_problem(args.junit); !why.empty()) {
            print_error("cannot write the JUnit XML: " + why);
            return kCannotRun;
        }
    }
    ModelSelectionRequest request;
    request.inputs = args.inputs;
    request.files_from = args.files_from;
    request.allow_stdin_model = false;  // a corpus model's expectations are in its file
    for (const std::string& in : args.inputs) {
        std::error_code ec;
        if (in != "-" && !std::filesystem::exists(in, ec)) {
            print_error(fmt::format("'{}' does not exist; give corpus folders or model files", in));
            return kCannotRun;
        }
    }
    ModelSelection selection = select_models(request, std::cin);
    for (const std::string& w : selection.warnings) print_warning(w);
    if (!selection.error.empty()) {
        print_error(selection.error);
        return kCannotRun;
    }

    // The shard: --shard K/N, else the CI's parallel-job variables.
    std::string shard_text = args.shard, shard_from = "--shard";
    const char* ci_index = std::getenv("CI_NODE_INDEX");
    const char* ci_total = std::getenv("CI_NODE_TOTAL");
    // An empty --shard is an unset CI variable (--shard "$CI_NODE_INDEX/..."
    // gives "/", --shard "$SHARD" gives ""): refused, never "run everything".
    if (!args.shard_given && ci_index && ci_total && (*ci_index || *ci_total)) {
        shard_text = fmt::format("{}/{}", ci_index, ci_total);
        shard_from = "CI_NODE_INDEX/CI_NODE_TOTAL";
    }
    std::vector<SelectedModel> models = selection.models;
    RegressOptions options;
    if (args.shard_given || !shard_text.empty()) {
        std::string error;
        std::optional<Shard> shard = parse_shard(shard_text, error);
        if (!shard) {
            print_error(fmt::format("{} (from {})", error, shard_from));
            return kCannotRun;
        }
        models = shard_of(selection.models, *shard);
        if (models.empty()) {
            print_error(fmt::format("shard {}/{} selects no model: {} models over {} shards", shard->index,
                                    shard->total, selection.models.size(), shard->total));
            return kCannotRun;
        }
        options.run_name = fmt::format("modeaudit regress, shard {}/{}", shard->index, shard->total);
        // On standard error: standard output holds the results (or, with
        // --list, only the list of models).
        std::cerr << fmt::format("shard {}/{} (from {}): {} of {} models\n", shard->index, shard->total, shard_from,
                                 models.size(), selection.models.size());
    }
    if (args.list_only) {
        for (const SelectedModel& m : models) std::cout << m.path << "\n";
        return kClean;
    }
    options.jobs = args.jobs;
    options.timeout_seconds = args.timeout_seconds;
    options.junit_path = junit_to_stdout ? std::string() : args.junit;
    options.progress = true;
    // --junit -: the XML alone on standard output, the results on standard error.
    const auto started = std::chrono::system_clock::now();
    const auto started_steady = std::chrono::steady_clock::now();
    RegressSummary summary = regress_models(models, options, junit_to_stdout ? std::cerr : std::cout);
    if (summary.setup_error) {
        print_error(summary.setup_message);
        return kCannotRun;
    }
    if (junit_to_stdout) {
        JUnitRun run;
        run.name = options.run_name;
        run.timestamp = started;
        run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_steady).count();
        std::cout << junit_xml(summary.models, run);
        std::cout.flush();
    }
    return summary.failed == 0 ? kClean : kFindings;
}

int run_rules() {
    for (const Rule& r : all_rules())
        std::cout << fmt::format("{:<38} {:<7} {:<7} {}\n", r.id, severity_name(r.severity),
                                 r.kind == RuleKind::input ? "input" : "finding", r.summary);
    return kClean;
}

int run_explain(const std::string& rule_id) {
    auto r = find_rule(rule_id);
    if (!r) {
        print_error(fmt::format("unknown rule '{}'; `modeaudit rules` lists the rules", rule_id));
        return kCannotRun;
    }
    std::string_view doc = rule_doc(rule_id);
    if (doc.empty()) {
        print_error(fmt::format("rule '{}' has no doc page (rules/{}/{}.md)", rule_id, r->family(),
                                rule_id));
        return kCannotRun;
    }
    std::cout << doc;
    if (doc.back() != '\n') std::cout << "\n";
    return kClean;
}

std::string library_versions_text() {
    return fmt::format("GiNaC {}.{}.{}, Z3 {}, SUNDIALS {}", GINACLIB_MAJOR_VERSION, GINACLIB_MINOR_VERSION,
                       GINACLIB_MICRO_VERSION, Z3_get_full_version(), SUNDIALS_VERSION);
}

std::string version_text() { return fmt::format("modeaudit {}\n{}\n", MODEAUDIT_VERSION, library_versions_text()); }

}  // namespace modeaudit::cli
