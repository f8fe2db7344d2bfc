// The event iteration at an event instant (driver.h, handle_instant), as
// Modelica's event iteration (Modelica 3.6, section 8.6) carried over to
// derived restarts: after each restart the new mode's guards are evaluated
// at the restart values (pre() being the values before the step); the
// guards that fire there make the next step at the same instant, until
// none fires. A cascade (Newton's cradle: the first impact at once implies
// the second) is one instant of several steps. A repeated mode with the same
// states is a cycle: chattering, both modes' flows pointing across a
// switching surface. The iteration is bounded (--max-event-iterations).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "simulation/driver.h"

namespace modeaudit {

double SimulationDriver::guard_rate(std::size_t g, double t, const std::vector<double>& xdot) const {
    const double h = 1e-7 * std::max(1.0, std::fabs(t));
    std::vector<double> plus(x_), minus(x_);
    for (std::size_t i = 0; i < x_.size(); ++i) {
        plus[i] += h * xdot[i];
        minus[i] -= h * xdot[i];
    }
    return (sys_->guard_value(g, t + h, plus.data()) - sys_->guard_value(g, t - h, minus.data())) / (2 * h);
}

std::vector<std::size_t> SimulationDriver::firing_at_restart(double t, const std::map<std::string, double>& before,
                                                             const std::vector<std::pair<int, int>>& fired_clauses,
                                                             std::string& why) const {
    std::vector<std::size_t> out;
    if (sys_->guards().empty()) return out;
    const double tol = boundary_tolerance(x_, y_);
    std::vector<double> pre;
    const bool have_pre = states_from(*sys_, before, pre);
    // The flow of the new mode at the restart values.
    std::vector<double> xdot(x_.size()), y(y_);
    if (!sys_->explicit_state_derivative(t, x_.data(), xdot.data())) {
        if (!sys_->solve_leading(t, x_.data(), y.data())) {
            why = "the new mode's index-reduced equations cannot be solved at the restart values";
            return out;
        }
        sys_->state_derivative(x_.data(), y.data(), xdot.data());
    }
    double flow_scale = 1;
    for (double v : xdot) flow_scale = std::max(flow_scale, std::fabs(v));
    for (double v : x_) flow_scale = std::max(flow_scale, std::fabs(v));
    for (std::size_t g = 0; g < sys_->guards().size(); ++g) {
        const Transition& tr = modes_.transitions[static_cast<std::size_t>(sys_->guards()[g].transition)];
        if (tr.sampled) continue;  // clocks fire at a segment's start (integrate_segment)
        // A when-clause fires once at an instant: its condition stays true.
        if (tr.when_clause >= 0 &&
            std::find(fired_clauses.begin(), fired_clauses.end(), std::make_pair(tr.when_clause, tr.trigger_index)) !=
                fired_clauses.end())
            continue;
        const double v = sys_->guard_value(g, t, x_.data());
        if (std::isnan(v)) continue;
        if (v > tol) {
            // A relation the mode assumes is violated; a when-condition
            // fires when the restart made it true (it was false before).
            // Before: the guard at the values before the step by name (its
            // solved variables too: in a mode without states, or for a
            // current that a switch reverses, the states alone do not give
            // them), else the new mode's guard at the states before.
            if (tr.when_clause < 0) {
                out.push_back(g);
                continue;
            }
            std::string missing;
            std::optional<double> was = event_value(tr.guard, before, t, missing);
            if (!was && have_pre) was = sys_->guard_value(g, t, pre.data());
            if (!was || !(*was > tol)) out.push_back(g);
            continue;
        }
        // At the surface with the new mode's flow pointing across it: the
        // guard crosses as soon as time advances, so it fires now.
        if (v >= -tol && guard_rate(g, t, xdot) > 1e-8 * flow_scale) out.push_back(g);
    }
    return out;
}

bool SimulationDriver::restart_step(double t_e, const std::vector<std::size_t>& fired_guards,
                                    const std::map<std::string, double>& left, int instant, int step) {
    std::vector<std::size_t> fired = fired_guards;
    std::sort(fired.begin(), fired.end(), [&](std::size_t a, std::size_t b) {
        return sys_->guards()[a].transition < sys_->guards()[b].transition;
    });
    std::vector<const Transition*> transitions;
    for (std::size_t g : fired)
        transitions.push_back(&modes_.transitions[static_cast<std::size_t>(sys_->guards()[g].transition)]);
    EventRecord ev;
    ev.time = t_e;
    ev.instant = instant;
    ev.step = step;
    ev.from = mode_;
    ev.from_id = sys_->mode_id();
    for (const Transition* tr : transitions) ev.guards.push_back(tr->guard_text);
    ev.before = left;
    finish_values(*sys_, x_, y_);
    std::string why;
    // The clauses' assignments to discrete variables other than the mode
    // variables (a counter, a sampled value), and the clocks moved on.
    const std::vector<double> pre_discrete = discrete_;
    std::set<int> clauses;
    for (const Transition* tr : transitions) {
        if (tr->when_clause >= 0) clauses.insert(tr->when_clause);
        if (tr->when_clause < 0) continue;
        if (!assign_discrete(flat_.whens.at(static_cast<std::size_t>(tr->when_clause)).actions, ev.before, t_e, why)) {
            ev.verdict = "undetermined";
            ev.message = why;
            result_.events.push_back(ev);
            stop(StopReason::Unsupported, fmt::format("at t = {:.12g}: {}", t_e, why));
            return false;
        }
        if (tr->sampled) {
            Clock& c = clock(*tr);
            while (c.next() <= t_e + o_.simultaneity * std::max(1.0, std::fabs(t_e))) ++c.count;
        }
    }
    // The discrete event conditions those assignments make true (change(k)
    // of a counter the clauses just moved) fire in the same step.
    if (!fire_discrete_triggers(ev.before, pre_discrete, t_e, clauses, ev.guards, why)) {
        ev.verdict = "undetermined";
        ev.message = why;
        result_.events.push_back(ev);
        stop(StopReason::Unsupported, fmt::format("at t = {:.12g}: {}", t_e, why));
        return false;
    }
    const int to = event_target(transitions, ev.before, t_e, why);
    if (to < 0) {
        ev.verdict = "undetermined";
        ev.message = why;
        result_.events.push_back(ev);
        stop(StopReason::UndeterminedRestart, fmt::format("at t = {:.12g}: {}", t_e, why));
        return false;
    }
    ev.to = to;
    ev.to_id = modes_.modes[static_cast<std::size_t>(to)].id;
    RestartRequest req{flat_, modes_, *transitions.front(), transitions, mode_, to, t_e, ev.before};
    add_discrete(req.discrete_after);
    RestartAnswer ans = restart_(req);
    ev.verdict = ans.verdict;
    ev.message = ans.message;
    ev.impulses = ans.impulses;
    if (!ans.ok) {
        result_.events.push_back(ev);
        stop(ans.verdict == "inadmissible" ? StopReason::Inadmissible : StopReason::UndeterminedRestart,
             fmt::format("at t = {:.12g} ({} -> {}): {}", t_e, ev.from_id, ev.to_id,
                         ans.message.empty() ? ans.verdict : ans.message));
        return false;
    }
    if (!enter_mode(to)) {
        result_.events.push_back(ev);
        return false;
    }
    ModeSystem& next = *sys_;
    std::vector<double> xn(next.state_count()), yn(next.leading_count(), 0.0);
    for (std::size_t i = 0; i < xn.size(); ++i) {
        const std::string& name = next.state_names()[i];
        if (auto it = ans.values.find(name); it != ans.values.end()) xn[i] = it->second;
        else if (auto jt = ev.before.find(name); jt != ev.before.end()) xn[i] = jt->second;
        else {
            result_.events.push_back(ev);
            stop(StopReason::UndeterminedRestart,
                 fmt::format("at t = {:.12g}: the restart gives no value for the state {} of mode '{}'", t_e, name,
                             ev.to_id));
            return false;
        }
    }
    for (std::size_t i = 0; i < yn.size(); ++i) {
        const std::string& name = next.leading_names()[i];
        if (auto it = ans.values.find(name); it != ans.values.end()) yn[i] = it->second;
        else if (auto jt = ev.before.find(name); jt != ev.before.end()) yn[i] = jt->second;
    }
    double scale = 1;
    for (double v : xn) scale = std::max(scale, std::fabs(v));
    const double residual = next.constraint_residual(t_e, xn.data());
    if (!(residual <= 1e-8 * scale) || !next.solve_with_branches(t_e, xn.data(), yn.data())) {
        ev.after = named(next, xn, yn);
        result_.events.push_back(ev);
        stop(StopReason::Inadmissible,
             fmt::format("at t = {:.12g}: the restart values do not satisfy mode '{}' ({})", t_e, ev.to_id,
                         residual <= 1e-8 * scale ? std::string("its index-reduced equations cannot be solved")
                                                  : fmt::format("consistency residual {:.3g}", residual)));
        return false;
    }
    ev.after = named(next, xn, yn);
    result_.events.push_back(ev);
    x_ = std::move(xn);
    y_ = std::move(yn);
    t_ = t_e;
    next.set_leading_guess(y_.data());
    finish_values(next, x_, y_);
    if (result_.events.size() >= o_.max_events) {
        stop_at_limit(fmt::format("more than {} events by t = {:.12g}", o_.max_events, t_e), "simulation events",
                      "--max-events");
        return false;
    }
    return true;
}

bool SimulationDriver::handle_instant(double t_e, std::vector<std::size_t> fired) {
    const int instant = static_cast<int>(instant_times_.size());
    std::vector<std::pair<int, int>> fired_clauses;
    // (mode, states and discrete values) before each step: a repeat is a
    // cycle. The discrete values count: a when-clause that assigns a
    // counter or a held value without changing the mode is no cycle.
    auto with_discrete = [&] {
        std::vector<double> key = x_;
        key.insert(key.end(), discrete_.begin(), discrete_.end());
        return key;
    };
    std::vector<std::pair<int, std::vector<double>>> visited{{mode_, with_discrete()}};
    std::map<std::string, double> left = named(*sys_, x_, y_);
    for (int step = 0;; ++step) {
        for (std::size_t g : fired) {
            const Transition& tr = modes_.transitions[static_cast<std::size_t>(sys_->guards()[g].transition)];
            if (tr.when_clause >= 0) fired_clauses.emplace_back(tr.when_clause, tr.trigger_index);
        }
        if (!restart_step(t_e, fired, left, instant, step)) return false;
        std::string why;
        if (!settle_branches(t_e, why)) {
            result_.chattering = !result_.chattering_operator.empty();
            if (result_.chattering) result_.zeno_time = t_e;
            stop(result_.chattering ? StopReason::Zeno : StopReason::SolverFailure, fmt::format("at t = {:.12g} in mode '{}': {}", t_e, sys_->mode_id(), why));
            return false;
        }
        fired = firing_at_restart(t_e, left, fired_clauses, why);
        if (!why.empty()) {
            stop(StopReason::SolverFailure, fmt::format("at t = {:.12g} in mode '{}': {}", t_e, sys_->mode_id(), why));
            return false;
        }
        if (fired.empty()) return true;
        std::vector<std::string> guards;
        for (std::size_t g : fired) guards.push_back(sys_->guards()[g].text);
        const double tol = boundary_tolerance(x_, y_);
        const std::vector<double> now = with_discrete();
        for (std::size_t k = 0; k < visited.size(); ++k) {
            const auto& [m, xs] = visited[k];
            if (m != mode_ || xs.size() != now.size()) continue;
            bool same = true;
            for (std::size_t i = 0; i < xs.size() && same; ++i)
                same = i < x_.size() ? std::fabs(xs[i] - now[i]) <= tol : xs[i] == now[i];
            if (!same) continue;
            std::vector<std::string> cycle;
            for (std::size_t j = k; j < visited.size(); ++j)
                cycle.push_back("'" + modes_.modes[static_cast<std::size_t>(visited[j].first)].id + "'");
            cycle.push_back("'" + sys_->mode_id() + "'");
            result_.chattering = true;
            result_.chattering_cycle = fmt::format("{}", fmt::join(cycle, " -> "));
            result_.zeno_time = t_e;
            stop(StopReason::Zeno,
                 fmt::format("chattering at t = {:.12g}: the event iteration cycles through the modes {} without time "
                             "advancing: at each restart a guard of the new mode ({} in mode '{}') is at zero with the "
                             "flow pointing across it, so both modes' flows point across the switching surface (a "
                             "sliding motion the model does not define)",
                             t_e, fmt::join(cycle, " -> "), fmt::join(guards, ", "), sys_->mode_id()));
            return false;
        }
        visited.emplace_back(mode_, now);
        if (step + 1 >= static_cast<int>(o_.max_event_iterations)) {
            stop_at_limit(fmt::format("the event iteration at t = {:.12g} did not settle after {} restarts (last in "
                                      "mode '{}', guards {} still firing)",
                                      t_e, step + 1, sys_->mode_id(), fmt::join(guards, ", ")),
                          "event iterations", "--max-event-iterations");
            return false;
        }
        left = named(*sys_, x_, y_);
    }
}

}  // namespace modeaudit
