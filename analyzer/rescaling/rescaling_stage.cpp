// The rescaling stage: Z3 on every matched array of every route that the
// mode_change stage built (seed 001, sections 6-7).
#include <fmt/format.h>

#include <map>
#include <sstream>

#include "common/progress.h"
#include "mode_change/transition_study.h"
#include "rescaling/rescaling.h"

namespace modeaudit {

RescalingStageResult rescale_transitions(const FlatModel& flat, const ModeChangeResult& mc, bool progress,
                                         const Z3Limits& limits) {
    RescalingStageResult out;
    Progress bar("rescaling", mc.transitions.size(), progress && Progress::stderr_is_terminal());
    std::map<std::string, std::vector<ArrayRescaling>> cache;  // by Route::key
    for (const TransitionStudy& st : mc.transitions) {
        auto& per_route = out.arrays.emplace_back();
        for (const Route& route : st.routes) {
            auto& per_array = per_route.emplace_back();
            if (auto it = cache.find(route.key); it != cache.end()) {
                per_array = it->second;
                continue;
            }
            ArrayInput in = route_input(flat, route, st);
            for (const ModeChangeArray& a : route.arrays) {
                ArrayRescaling ar;
                if (a.matched) {
                    std::vector<int> rv = restart_variables(in, a);
                    ar.result = solve_rescaling(a, rv, true, limits);
                    if (!ar.result->solved && !ar.result->nonlinear.empty())
                        ar.relaxed = solve_rescaling(a, rv, /*nonlinear_finite=*/false, limits);
                    bool goodness = false;
                    for (const std::string& c : ar.result->core) goodness = goodness || c.rfind("goodness", 0) == 0;
                    if (!ar.result->solved && goodness) ar.without_goodness = solve_rescaling(a, {}, true, limits);
                }
                per_array.push_back(std::move(ar));
            }
            cache.emplace(route.key, per_array);
        }
        bar.advance();
    }
    bar.finish();
    return out;
}

void dump_rescaling(const FlatModel& flat, const ModeChangeResult& mc, const RescalingStageResult& r,
                    std::ostream& out) {
    for (std::size_t t = 0; t < mc.transitions.size(); ++t) {
        const TransitionStudy& st = mc.transitions[t];
        out << fmt::format("transition {}\n", t + 1);
        for (std::size_t k = 0; k < st.routes.size(); ++k) {
            const Route& route = st.routes[k];
            for (std::size_t h = 0; h < route.arrays.size(); ++h) {
                const ModeChangeArray& a = route.arrays[h];
                const ArrayRescaling& ar = r.arrays[t][k][h];
                if (!ar.result) continue;
                out << fmt::format("  route {} K = {}: ", k + 1, a.height);
                std::string rational;
                if (const auto& f = ar.result->fractional)
                    for (std::size_t j = 0; j < a.variables.size(); ++j)
                        if (f->mu[j] > 0) {
                            std::ostringstream q;
                            q << f->mu[j];
                            rational += fmt::format("{}{}={}", rational.empty() ? "" : ", ",
                                                    a.symbol(a.variables[j]).get_name(), q.str());
                        }
                if (!rational.empty()) rational = "\n    least offsets over the rationals (fractional): " + rational;
                if (!ar.result->solved) {
                    out << "no solution; conflict:";
                    for (const std::string& c : ar.result->core) out << "\n    " << c;
                    out << rational << "\n";
                    continue;
                }
                std::string impulsive;
                for (std::size_t j = 0; j < a.variables.size(); ++j)
                    if (ar.result->mu[j] > 0)
                        impulsive += fmt::format("{}{}={}", impulsive.empty() ? "" : ", ",
                                                 a.symbol(a.variables[j]).get_name(), ar.result->mu[j]);
                out << "offsets " << (impulsive.empty() ? "all 0" : impulsive)
                    << (ar.result->recheck_failure ? "; our check fails: " + *ar.result->recheck_failure : "; checked")
                    << rational << "\n";
            }
        }
    }
    (void)flat;
}

}  // namespace modeaudit
