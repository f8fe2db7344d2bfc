#include "simulation/derived_restart.h"

#include <fmt/format.h>

namespace modeaudit {

RestartFunction derived_restart(const StructureResult& structures, const RestartStageResult& restarts) {
    RestartFunction fallback = supplied_restart(structures);
    return [&restarts, fallback](const RestartRequest& req) {
        const TransitionRestart* tr = nullptr;
        for (const TransitionRestart& r : restarts.transitions)
            if (&req.modes.transitions[static_cast<std::size_t>(r.transition)] == &req.transition) tr = &r;
        RestartAnswer a;
        if (!tr) {
            a.verdict = "not-analysed";
            a.message = "the transition that fired has no derived restart";
            return a;
        }
        const std::string verdict(verdict_name(tr->verdict));
        if (req.transitions.size() > 1 && !tr->system) return fallback(req);
        if (tr->verdict == Verdict::Supplied || ((tr->verdict == Verdict::Continuous) && !tr->system)) {
            a = fallback(req);
            a.verdict = verdict;
            return a;
        }
        if (!tr->system) {
            a.verdict = verdict;
            a.message = tr->explanation;
            return a;
        }
        std::map<std::string, double> left;
        for (const auto& [base, sym] : tr->system->left_limits) {
            auto it = req.left_limits.find(base);
            if (it == req.left_limits.end()) {
                a.verdict = verdict;
                a.message = fmt::format("the left limit of {} is not known at the event", base);
                return a;
            }
            left[base] = it->second;
        }
        RestartSolution sol = solve_restart(req.flat, *tr->system, left, req.time);
        a.verdict = verdict;
        if (!sol.solved) {
            a.message = "the restart system has no solution at these left limits: " + sol.message;
            return a;
        }
        if (!sol.locally_unique) {
            a.message = "the restart system is singular at these left limits: its solution is not locally unique";
            return a;
        }
        // Restart values by the new mode's names (der(x)+ -> vx, and der(x)).
        for (const auto& [base, plus] : tr->system->restart_values) {
            double v = sol.values.at(plus.get_name());
            a.values[base] = v;
            std::string shown = display_name(*tr, plus.get_name());
            if (!shown.empty() && shown.back() == '+') a.values[shown.substr(0, shown.size() - 1)] = v;
        }
        a.ok = true;
        return a;
    };
}

}  // namespace modeaudit
