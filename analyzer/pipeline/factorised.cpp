#include "pipeline/factorised.h"

#include "modes/model_partition.h"
#include "rule_checks.h"

namespace modeaudit {

bool factorise(PipelineState& s, const RunOptions& o) {
    std::vector<ModelPart> split = split_model(*s.flat);
    if (split.size() < 2) return false;
    std::vector<std::unique_ptr<PipelineState>> parts;
    double product = 1;
    for (ModelPart& p : split) {
        auto part = std::make_unique<PipelineState>();
        part->flat = std::make_unique<FlatModel>(std::move(p.model));
        part->modes = std::make_unique<ModeSet>(enumerate_modes(*part->flat, part->sink, o.modes));
        run_mode_checks(*part->flat, *part->modes, part->sink);
        product *= static_cast<double>(part->modes->long_mode_count());
        parts.push_back(std::move(part));
    }
    if (product <= static_cast<double>(o.modes.max_modes)) return false;
    // The summary: a cluster per part with modes of its own.
    auto summary = std::make_unique<ModeSet>();
    for (const auto& part : parts) {
        for (const Diagnostic& d : part->sink.all()) s.sink.take(d);
        const ModeSet& m = *part->modes;
        if (m.mode_variables.empty()) continue;
        SwitchingCluster c;
        for (const ModeVariable& v : m.mode_variables) {
            c.mode_variables.push_back(static_cast<int>(summary->mode_variables.size()));
            summary->mode_variables.push_back(v);
        }
        c.local_modes = m.long_mode_count();
        c.complete = m.complete;
        summary->complete = summary->complete && m.complete;
        summary->clusters.push_back(std::move(c));
    }
    s.modes = std::move(summary);
    s.parts = std::move(parts);
    return true;
}

}  // namespace modeaudit
