#include "simulation/derived_restart.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>
#include <set>

#include "simulation/combined_restart.h"

namespace modeaudit {

std::map<std::string, double> impulse_magnitudes(const TransitionRestart& tr, const RestartSolution& sol) {
    std::map<std::string, double> sum;
    if (!tr.system) return sum;
    std::set<std::string> unbounded;
    for (const auto& [name, mu] : tr.system->impulse_orders) {
        std::string shown = display_name(tr, name + "_r");
        if (shown.size() > 2 && shown.compare(shown.size() - 2, 2, "_r") == 0) shown.resize(shown.size() - 2);
        if (std::size_t at = shown.rfind('@'); at != std::string::npos) shown.resize(at);
        if (shown.rfind("der(", 0) == 0) continue;
        auto v = sol.values.find(name + "_r");
        if (mu != 1 || v == sol.values.end()) {
            unbounded.insert(shown);
            continue;
        }
        sum[shown] += v->second;
    }
    for (const std::string& u : unbounded) sum.erase(u);
    return sum;
}

namespace {

// The restart `tr` prescribes, at the request's left limits.
RestartAnswer apply_restart(const TransitionRestart& tr, const RestartRequest& req, const RestartFunction& fallback) {
    RestartAnswer a;
    const std::string verdict(verdict_name(tr.verdict));
    if (tr.verdict == Verdict::Supplied || ((tr.verdict == Verdict::Continuous) && !tr.system)) {
        a = fallback(req);
        a.verdict = verdict;
        return a;
    }
    a.verdict = verdict;
    if (!tr.system) {
        a.message = tr.explanation;
        return a;
    }
    std::map<std::string, double> left;
    for (const auto& [base, sym] : tr.system->left_limits) {
        auto it = req.left_limits.find(base);
        if (it == req.left_limits.end()) {
            a.message = fmt::format("the left limit of {} is not known at the event", base);
            return a;
        }
        left[base] = it->second;
    }
    RestartSolution sol = solve_restart(req.flat, *tr.system, left, req.time);
    if (!sol.solved) {
        a.message = "the restart system has no solution at these left limits: " + sol.message;
        return a;
    }
    if (!sol.locally_unique) {
        a.message = "the restart system is singular at these left limits: its solution is not locally unique";
        return a;
    }
    // Restart values by the new mode's names (der(x)+ -> vx, and der(x)).
    for (const auto& [base, plus] : tr.system->restart_values) {
        double v = sol.values.at(plus.get_name());
        a.values[base] = v;
        std::string shown = display_name(tr, plus.get_name());
        if (!shown.empty() && shown.back() == '+') a.values[shown.substr(0, shown.size() - 1)] = v;
    }
    a.impulses = impulse_magnitudes(tr, sol);
    a.ok = true;
    return a;
}

int index_of(const RestartRequest& req, const Transition* t) {
    return static_cast<int>(t - req.modes.transitions.data());
}

}  // namespace

RestartFunction derived_restart(const StructureResult& structures, const RestartStageResult& restarts,
                                const ModeChangeOptions& mode_change, const Z3Limits& z3) {
    RestartFunction fallback = supplied_restart(structures);
    auto combined = std::make_shared<CombinedRestarts>(structures, mode_change, z3);
    return [&restarts, fallback, combined](const RestartRequest& req) {
        if (req.transitions.size() > 1) {
            std::vector<int> fired;
            std::vector<std::string> guards;
            for (const Transition* t : req.transitions) {
                fired.push_back(index_of(req, t));
                guards.push_back(t->guard_text);
            }
            // The static stages studied it already when the guards coincide
            // identically (modes/simultaneous.h); else it is derived now.
            const TransitionRestart* studied = nullptr;
            std::vector<int> sorted = fired;
            std::sort(sorted.begin(), sorted.end());
            for (const TransitionRestart& r : restarts.transitions) {
                const Transition& t = req.modes.transitions.at(static_cast<std::size_t>(r.transition));
                std::vector<int> parts = t.parts;
                std::sort(parts.begin(), parts.end());
                if (!parts.empty() && parts == sorted && t.to == req.to) studied = &r;
            }
            std::shared_ptr<const CombinedRestart> c =
                studied ? nullptr : combined->get(req.flat, req.modes, fired, req.to);
            const TransitionRestart& restart = studied ? *studied : c->restart;
            RestartAnswer a = apply_restart(restart, req, fallback);
            const std::string what = fmt::format("combined transition of {} guards ({})", req.transitions.size(),
                                                 fmt::join(guards, ", "));
            const std::string& why = a.message.empty() ? restart.explanation : a.message;
            a.message = why.empty() ? what : what + ": " + why;
            return a;
        }
        const TransitionRestart* tr = nullptr;
        const int fired = index_of(req, &req.transition);
        for (const TransitionRestart& r : restarts.transitions)
            if (r.transition == fired) tr = &r;
        if (!tr) {
            RestartAnswer a;
            a.verdict = "not-analysed";
            a.message = "the transition that fired has no derived restart";
            return a;
        }
        return apply_restart(*tr, req, fallback);
    };
}

}  // namespace modeaudit
