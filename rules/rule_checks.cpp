#include "rule_checks.h"

#include <algorithm>

namespace modeaudit {

namespace {
void apply_model_suppressions(const FlatModel& flat, DiagnosticSink& sink, std::size_t from) {
    auto& all = const_cast<std::vector<Diagnostic>&>(sink.all());
    for (std::size_t i = from; i < all.size(); ++i)
        if (std::find(flat.suppress.begin(), flat.suppress.end(), all[i].rule) != flat.suppress.end())
            all[i].suppressed = true;
}
}  // namespace

bool suppressed(const FlatModel& flat, const std::vector<std::string>& local, std::string_view rule_id) {
    auto has = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), rule_id) != v.end(); };
    return has(local) || has(flat.suppress);
}

void run_flatten_checks(const FlatModel& flat, DiagnosticSink& sink) {
    std::size_t from = sink.size();
    check_flatten_reinit_not_state(flat, sink);
    check_flatten_reinit_outside_when(flat, sink);
    check_flatten_continuous_assigned_in_when(flat, sink);
    check_flatten_unbalanced_if(flat, sink);
    apply_model_suppressions(flat, sink, from);
}

void run_mode_checks(const FlatModel& flat, const ModeSet& modes, DiagnosticSink& sink) {
    std::size_t from = sink.size();
    check_modes_unbalanced(flat, modes, sink);
    apply_model_suppressions(flat, sink, from);
}

}  // namespace modeaudit
