// Events of the event-generating operators (abs, sign, min, max, floor,
// ceil, integer, div, mod, rem; simulation/event_operators.h) in the
// driver: the branches settled at a point, and an event of branches alone.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "simulation/driver.h"

namespace modeaudit {

bool SimulationDriver::settle_branches(double t, std::string& why) {
    ModeSystem& sys = *sys_;
    const std::size_t count = sys.branch_guard_count();
    if (count == 0) return true;
    std::vector<std::vector<double>> seen{sys.branch_choices()};
    std::vector<std::string> crossed;
    std::vector<double> xdot(x_.size()), plus(x_.size()), minus(x_.size());
    for (std::size_t round = 0; round < o_.max_event_iterations; ++round) {
        // The flow with the current choices.
        if (!sys.explicit_state_derivative(t, x_.data(), xdot.data())) {
            if (!sys.solve_leading(t, x_.data(), y_.data())) {
                why = "the index-reduced equations cannot be solved with the branches of " +
                      fmt::format("{}", fmt::join(crossed, ", ")) + " chosen";
                return false;
            }
            sys.state_derivative(x_.data(), y_.data(), xdot.data());
        }
        double flow_scale = 1;
        for (double v : xdot) flow_scale = std::max(flow_scale, std::fabs(v));
        for (double v : x_) flow_scale = std::max(flow_scale, std::fabs(v));
        const double tol = boundary_tolerance(x_, y_);
        const double h = 1e-7 * std::max(1.0, std::fabs(t));
        for (std::size_t i = 0; i < x_.size(); ++i) {
            plus[i] = x_[i] + h * xdot[i];
            minus[i] = x_[i] - h * xdot[i];
        }
        std::size_t cross = count;
        for (std::size_t i = 0; i < count && cross == count; ++i) {
            const double g = sys.branch_guard_value(i, t, x_.data());
            if (std::isnan(g)) continue;
            if (g > tol) {
                cross = i;  // the choice does not hold here at all
                continue;
            }
            if (g < -tol) continue;
            // At the exit surface: the flow decides whether the argument leaves.
            const double rate =
                (sys.branch_guard_value(i, t + h, plus.data()) - sys.branch_guard_value(i, t - h, minus.data())) / (2 * h);
            if (rate > 1e-8 * flow_scale) cross = i;
        }
        if (cross == count) {
            if (!sys.solve_leading(t, x_.data(), y_.data())) {
                why = "the index-reduced equations cannot be solved with the operators' branches chosen";
                return false;
            }
            sys.set_leading_guess(y_.data());
            return true;
        }
        sys.cross_branch_guard(cross);
        crossed.push_back(sys.branch_guard(cross).text);
        const std::vector<double> now = sys.branch_choices();
        if (std::find(seen.begin(), seen.end(), now) != seen.end()) {
            result_.chattering_operator = sys.branch_guard(cross).text;
            why = fmt::format("chattering at t = {:.12g}: {} is at its switching point and the flow on either side "
                              "points across it (a sliding motion the model does not define; noEvent() or a "
                              "hysteresis would make it explicit)",
                              t, sys.branch_guard(cross).text);
            return false;
        }
        seen.push_back(now);
    }
    why = fmt::format("the branches of the event-generating operators did not settle after {} changes at t = {:.12g}",
                      o_.max_event_iterations, t);
    return false;
}

bool SimulationDriver::branch_event(double t_e, const std::vector<std::size_t>& fired) {
    ModeSystem& sys = *sys_;
    EventRecord ev;
    ev.time = t_e;
    ev.instant = static_cast<int>(instant_times_.size());
    ev.step = 0;
    ev.from = ev.to = mode_;
    ev.from_id = ev.to_id = sys.mode_id();
    ev.operator_event = true;
    for (std::size_t i : fired) ev.guards.push_back(sys.branch_guard(i).text);
    ev.before = named(sys, x_, y_);
    for (std::size_t i : fired) sys.cross_branch_guard(i);
    std::string why;
    if (!settle_branches(t_e, why)) {
        ev.verdict = "continuous";
        ev.message = why;
        result_.events.push_back(ev);
        finish_values(sys, x_, y_);
        result_.chattering = !result_.chattering_operator.empty();
        if (result_.chattering) result_.zeno_time = t_e;
        stop(result_.chattering ? StopReason::Zeno : StopReason::SolverFailure, sys.mode_id().empty() ? why : fmt::format("in mode '{}': {}", sys.mode_id(), why));
        return false;
    }
    ev.verdict = "continuous";
    ev.message = "event of an operator: its branch is chosen again, the states carry over";
    ev.after = named(sys, x_, y_);
    result_.events.push_back(ev);
    finish_values(sys, x_, y_);
    t_ = t_e;
    if (result_.events.size() >= o_.max_events) {
        stop_at_limit(fmt::format("more than {} events by t = {:.12g}", o_.max_events, t_e), "simulation events",
                      "--max-events");
        return false;
    }
    return true;
}

}  // namespace modeaudit
