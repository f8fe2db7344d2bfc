#include "cli/sampled_quantities.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "simulation/mode_system.h"

namespace modeaudit::cli {

namespace {

// One mode compiled for evaluation, or why it is not evaluated.
struct CompiledMode {
    std::unique_ptr<sim::ModeSystem> system;  // null: not evaluated
};

}  // namespace

SampledQuantities sample_quantities(const FlatModel& flat, const ModeSet& modes, const StructureResult& structures,
                                    const SimulationResult& result) {
    SampledQuantities out;
    std::map<int, CompiledMode> compiled;
    auto system_of = [&](int mode) -> const sim::ModeSystem* {
        auto it = compiled.find(mode);
        if (it != compiled.end()) return it->second.system.get();
        CompiledMode& c = compiled[mode];
        if (mode < 0 || static_cast<std::size_t>(mode) >= structures.modes.size()) return nullptr;
        try {
            auto sys = std::make_unique<sim::ModeSystem>(flat, modes, mode, structures.modes[static_cast<std::size_t>(mode)]);
            // Discrete parameters (a counter, a clock's next instant) change at
            // events, and the samples do not record them.
            if (sys->parameter_sources().empty()) c.system = std::move(sys);
        } catch (const std::exception&) {
            // A mode that cannot be compiled again is left out (NaN).
        }
        return c.system.get();
    };

    // The columns, in order of first appearance over the segments.
    std::vector<std::string> solved, guards, margins;
    std::map<int, std::string> guard_columns, margin_columns;
    bool residual = false;
    auto add_unique = [](std::vector<std::string>& list, const std::string& name) {
        if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
    };
    for (const SegmentRecord& sg : result.segments) {
        const sim::ModeSystem* sys = system_of(sg.mode);
        if (!sys) continue;
        for (const std::string& n : sys->leading_names())
            if (!n.starts_with("der(") &&
                std::find(sg.state_names.begin(), sg.state_names.end(), n) == sg.state_names.end())
                add_unique(solved, n);
        for (const sim::Guard& g : sys->guards()) {
            if (!g.unsupported.empty() || g.transition < 0) continue;
            const std::string col = fmt::format("guard({})", g.transition + 1);
            guard_columns[g.transition] = col;
            out.descriptions[col] = g.text;
        }
        for (const sim::AssertCheck& a : sys->asserts()) {
            if (!a.unsupported.empty() || a.assert_index < 0) continue;
            const std::string col = fmt::format("margin({})", a.assert_index + 1);
            margin_columns[a.assert_index] = col;
            out.descriptions[col] = a.message;
        }
        residual = residual || sys->has_constraints();
    }
    // A name of the states' CSV must not appear twice.
    std::vector<std::string> state_names;
    for (const SegmentRecord& sg : result.segments)
        for (const std::string& n : sg.state_names) add_unique(state_names, n);
    for (const std::string& n : solved)
        if (std::find(state_names.begin(), state_names.end(), n) == state_names.end()) out.columns.push_back(n);
    for (const auto& [k, col] : guard_columns) out.columns.push_back(col);
    for (const auto& [k, col] : margin_columns) out.columns.push_back(col);
    if (residual) {
        out.columns.push_back("residual(consistency)");
        out.descriptions["residual(consistency)"] = "largest residual of the mode's consistency conditions";
    }
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < out.columns.size(); ++i) index[out.columns[i]] = i;

    // The values, sample by sample; the leading variables warm-started from
    // the previous sample of the same segment.
    std::vector<double> x, all, y, margin_values;
    std::size_t last_segment = static_cast<std::size_t>(-1);
    for (const Sample& s : result.samples) {
        std::vector<double> row(out.columns.size(), NAN);
        const SegmentRecord* sg = s.segment < result.segments.size() ? &result.segments[s.segment] : nullptr;
        const sim::ModeSystem* sys = sg ? system_of(sg->mode) : nullptr;
        if (sys && s.states.size() == sys->all_state_names().size()) {
            x.assign(sys->state_count(), 0.0);
            for (std::size_t j = 0; j < s.states.size(); ++j) {
                const auto [first, sign] = sys->state_of(j);
                if (first < x.size()) x[first] = sign * s.states[j];
            }
            if (s.segment != last_segment) y.assign(sys->leading_count(), 0.0);
            last_segment = s.segment;
            const bool solved_ok = sys->solve_leading(s.time, x.data(), y.data());
            if (solved_ok) {
                sys->set_leading_guess(y.data());
                for (std::size_t k = 0; k < sys->leading_names().size(); ++k) {
                    auto it = index.find(sys->leading_names()[k]);
                    if (it != index.end() && std::isfinite(y[k])) row[it->second] = y[k];
                }
            } else {
                y.assign(sys->leading_count(), 0.0);
            }
            for (std::size_t g = 0; g < sys->guards().size(); ++g) {
                const sim::Guard& gd = sys->guards()[g];
                auto col = guard_columns.find(gd.transition);
                if (col == guard_columns.end() || !gd.unsupported.empty() || (gd.implicit && !solved_ok)) continue;
                row[index[col->second]] = sys->guard_value(g, s.time, x.data());
            }
            for (std::size_t k = 0; k < sys->asserts().size() && solved_ok; ++k) {
                const sim::AssertCheck& a = sys->asserts()[k];
                auto col = margin_columns.find(a.assert_index);
                if (col == margin_columns.end() || !a.unsupported.empty()) continue;
                double m = NAN;
                sys->assert_holds(k, s.time, x.data(), y.data(), &m);
                row[index[col->second]] = m;
            }
            if (sys->has_constraints()) row[index["residual(consistency)"]] = sys->constraint_residual(s.time, x.data());
        }
        out.rows.push_back(std::move(row));
    }
    return out;
}

}  // namespace modeaudit::cli
