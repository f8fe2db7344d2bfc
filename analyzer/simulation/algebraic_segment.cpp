// Segments of modes without states (driver.h, algebraic_segment).
//
// A mode whose structure has no states (a purely algebraic model such as
// v = sin(time) with a relation on v, or a mode in which an ideal switch has
// removed every energy store and a resistive network is left) has nothing to
// integrate: F_DOWN defines its leading variables as functions of time, the
// parameters and the discrete variables. The driver advances time itself,
// over a grid that divides [start_time, stop time] into
// SimulationOptions::algebraic_intervals intervals (the segment's start and
// its event or the stop time being points too):
//
//  - at each grid point, and at an event's instant, the leading variables
//    are solved from F_DOWN (ModeSystem::solve_leading, warm-started from
//    the previous point): these are the segment's output points
//    (SegmentRecord::steps counts them);
//  - over each grid interval [a, b] the guards, and the exit guards of the
//    event-generating operators, are searched for their earliest upward
//    crossing by the same guaranteed search as on an integrator's step
//    (event_detection.h, first_upward_crossing), on a StatePolynomial with
//    no states: time is the search's only variable. The guards are compiled
//    as in every mode (mode_system.h): in the states and time, which here
//    is time alone, through the symbolic solution of an affine F_DOWN, or
//    through ImplicitFunction, whose parametric Krawczyk enclosure of the
//    leading variables over a time interval makes an implicitly defined
//    guard's enclosure guaranteed as well. Since the function searched is
//    the mode's exact solution and not an interpolant, the crossing is
//    located to the time tolerance with no integration error at all;
//  - the asserts are searched over each interval the same way
//    (check_asserts with the time-only polynomial), and an assert that is
//    only checked at points is located by bisection on solved points.
//
// The arming, the start-of-run decision of a guard at zero, the chattering
// check right after a restart, grazing and the search's work limit follow
// integrate_segment (driver.cpp) rule for rule, so that a guard behaves the
// same whether its mode has states or not; events then go through the same
// event iteration and restart callback (event_instant.cpp) in both
// directions: the leading variables of the algebraic mode are the left
// limits from which the next mode's states continue.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "simulation/driver.h"

namespace modeaudit {

namespace {

// The states of a mode without states as a polynomial over [a, b]: there is
// nothing to enclose but time itself.
sim::StatePolynomial time_only(double a, double b) {
    sim::StatePolynomial p;
    p.t0 = a;
    p.t1 = b;
    p.center = a;
    p.n = 0;
    p.degree = 0;
    return p;
}

}  // namespace

SimulationDriver::SegmentEnd SimulationDriver::algebraic_segment() {
    ModeSystem* sys = sys_;
    const double t = t_;
    std::vector<double>& x = x_;  // no states: empty
    std::vector<double>& y = y_;
    const double stop_time = stop_time_;
    SegmentRecord seg = open_segment(mode_, *sys, t);
    seg.algebraic = true;
    const std::size_t segment_index = result_.segments.size();
    auto sample = [&](double at) {
        if (o_.record_steps) result_.samples.push_back(Sample{at, segment_index, {}});
    };
    sys->set_leading_guess(y.data());  // the warm start of implicit guards and asserts
    check_asserts(seg, *sys, nullptr, nullptr, t, t, x, y);
    seg.max_drift = sys->constraint_residual(t, x.data());
    sample(t);

    // The guards at the segment's start, as in integrate_segment.
    const std::size_t guard_count = sys->guards().size(), branch_count = sys->branch_guard_count();
    GuardStart gs = guard_start(*sys, t, x, y);
    std::vector<bool>&armed = gs.armed, &on_surface = gs.on_surface, &start_touch = gs.start_touch,
                     &departed = gs.departed, &branch_armed = gs.branch_armed;
    std::vector<bool> grazed(guard_count, false);
    const std::vector<std::size_t>& immediate = gs.immediate;
    const double surface = gs.surface;
    // Grazing (a guard at zero without crossing: no event) is reported once
    // per guard and segment; a touch at an interval's end waits for the next
    // interval, which may find the crossing right there.
    std::vector<double> pending_touch(guard_count, NAN);
    auto touch_window = [&](double at) { return o_.event_time_tolerance * std::max(1.0, std::fabs(at)); };
    auto commit_touch = [&](std::size_t g, double at) {
        if (grazed[g]) return;
        grazed[g] = true;
        const int tr = sys->guards()[g].transition;
        result_.grazes.push_back({at, tr, sys->guards()[g].text, sys->mode_id(),
                                  modes_.transitions[static_cast<std::size_t>(tr)].range});
    };

    auto close_segment = [&](double end) {
        seg.end = end;
        for (AssertRecord& a : seg.asserts)
            if (a.min_margin == HUGE_VAL) a.min_margin = 0;
        result_.segments.push_back(seg);
        result_.end_time = end;
    };
    // The output grid: start_time + k * spacing, k = 1 .. algebraic_intervals.
    const int intervals = std::max(1, o_.algebraic_intervals);
    const double spacing = (stop_time - o_.start_time) / intervals;
    auto next_point = [&](double from) {
        if (!(spacing > 0)) return stop_time;
        double k = std::floor((from - o_.start_time) / spacing) + 1;
        double p = o_.start_time + k * spacing;
        // Not a sliver of an interval right after an event near a point.
        while (!(p > from + 1e-6 * spacing)) p = o_.start_time + (++k) * spacing;
        return std::min(p, stop_time);
    };
    // An assert only checked at points, violated at `b` and not at `a`: its
    // first violation located by bisection on solved points.
    auto locate_point_violation = [&](std::size_t k, double a, double b, const std::vector<double>& ya) {
        AssertRecord& rec = seg.asserts[k];
        double lo = a, hi = b;
        std::vector<double> ym = ya;
        for (int it = 0; it < 60 && hi - lo > 1e-14 * std::max(1.0, std::fabs(hi)); ++it) {
            const double mid = lo + (hi - lo) / 2;
            if (!sys->solve_leading(mid, x.data(), ym.data())) break;
            double m = 0;
            if (sys->assert_holds(k, mid, x.data(), ym.data(), &m)) lo = mid;
            else hi = mid, rec.value = m;
        }
        rec.time = hi;
    };

    sim::CrossingOptions co;
    co.time_tolerance = o_.event_time_tolerance;
    co.zero_tolerance = o_.guard_zero_tolerance;
    std::vector<std::pair<double, std::size_t>> crossings;
    bool event = !immediate.empty();
    double t_e = t;
    std::vector<std::size_t> fired = immediate, fired_branches;
    std::vector<double> ye;
    std::vector<bool> violated_before(seg.asserts.size());
    double a = t;
    while (!event && a < stop_time) {
        if (seg.steps >= o_.max_steps || over_wall_time()) {
            const bool steps = seg.steps >= o_.max_steps;
            close_segment(a);
            finish_values(*sys, x, y);
            if (steps)
                stop_at_limit(fmt::format("more than {} output points solved in mode '{}' (a mode without states) by "
                                          "t = {:.12g}",
                                          o_.max_steps, sys->mode_id(), a),
                              "simulation steps", "--max-steps");
            else
                stop_at_limit(fmt::format("the simulation ran longer than {} s of wall time and stopped at "
                                          "t = {:.12g}", o_.max_wall_seconds, a),
                              "simulation wall time", "--max-sim-time");
            return {};
        }
        const double b = next_point(a);
        const sim::StatePolynomial p = time_only(a, b);
        crossings.clear();
        // The exit guards of the operators' branches (numbered after the guards).
        for (std::size_t i = 0; i < branch_count; ++i) {
            const sim::CrossingResult r =
                sim::first_upward_crossing(p, sys->branch_guard_function(i), a, b, branch_armed[i], co, work_);
            seg.event_search_enclosures += r.enclosures;
            branch_armed[i] = r.armed;
            if (r.exhausted) {
                result_.messages.push_back(fmt::format(
                    "event search for {} gave up in [{:.12g}, {:.12g}] (work limit): crossings there may be missed",
                    sys->branch_guard(i).text, a, b));
                result_.searches_gave_up.push_back({a, b, false, sys->branch_guard(i).text, sys->mode_id(), -1, SourceRange{}});
            }
            if (r.found) crossings.emplace_back(r.time, guard_count + i);
        }
        for (std::size_t g = 0; g < guard_count; ++g) {
            const sim::CrossingResult r = sim::first_upward_crossing(p, sys->guard_function(g), a, b, armed[g], co, work_);
            seg.event_search_enclosures += r.enclosures;
            armed[g] = r.armed;
            const int tr = sys->guards()[g].transition;
            // A touch at the end of the previous interval followed by a
            // crossing at the start of this one is the crossing itself (a
            // grid point falls on it, as on a time event at a round time).
            if (!std::isnan(pending_touch[g])) {
                if (!(r.found && r.time <= a + 4 * touch_window(a))) commit_touch(g, pending_touch[g]);
                pending_touch[g] = NAN;
            }
            if (!r.found && !std::isnan(r.first_touch) && departed[g] && !grazed[g]) {
                if (r.first_touch >= b - 4 * touch_window(b)) pending_touch[g] = r.first_touch;
                else commit_touch(g, r.first_touch);
            }
            if (r.exhausted) {
                result_.messages.push_back(fmt::format(
                    "event search for guard {} gave up in [{:.12g}, {:.12g}] (work limit): crossings there may be missed",
                    sys->guards()[g].text, a, b));
                result_.searches_gave_up.push_back(
                    {a, b, false, sys->guards()[g].text, sys->mode_id(), -1,
                     tr >= 0 ? modes_.transitions[static_cast<std::size_t>(tr)].range : SourceRange{}});
            }
            if (r.found) crossings.emplace_back(r.time, g);
            const double at_end = sys->guard_value(g, b, x.data());
            if (start_touch[g]) {
                // At zero at the start of the run: positive at the end of the
                // first interval without having been negative means the
                // relation's flow (here: time) points out of the mode.
                start_touch[g] = false;
                if (!r.found && !armed[g] && at_end > o_.guard_zero_tolerance) crossings.emplace_back(a, g);
            }
            if (!departed[g]) departed[g] = at_end < -surface;
        }
        if (crossings.empty() && std::find(on_surface.begin(), on_surface.end(), true) != on_surface.end()) {
            for (std::size_t g = 0; g < guard_count; ++g) {
                if (armed[g]) on_surface[g] = false;
                if (!on_surface[g]) continue;
                if (!(sys->guard_value(g, b, x.data()) > o_.guard_zero_tolerance)) continue;
                close_segment(a);
                finish_values(*sys, x, y);
                stop_chattering(*sys, g);
                return {};
            }
        }
        if (!crossings.empty()) {
            t_e = take_simultaneous(crossings, guard_count, fired, fired_branches);
            event = true;
        }
        // The output point (or the event's instant): F_DOWN solved there.
        const double t_check = event ? t_e : b;
        ye = y;
        if (!sys->solve_leading(t_check, x.data(), ye.data())) {
            close_segment(a);
            finish_values(*sys, x, y);
            stop(StopReason::SolverFailure,
                 fmt::format("the equations of mode '{}' (a mode without states) cannot be solved at t = {:.12g}",
                             sys->mode_id(), t_check));
            return {};
        }
        ++seg.steps;
        seg.max_step = std::max(seg.max_step, t_check - a);
        for (std::size_t k = 0; k < seg.asserts.size(); ++k) violated_before[k] = seg.asserts[k].violated;
        check_asserts(seg, *sys, nullptr, &p, a, t_check, x, ye, event);
        for (std::size_t k = 0; k < seg.asserts.size(); ++k)
            if (seg.asserts[k].violated && !violated_before[k] && !sys->asserts()[k].on_interpolant && a < t_check)
                locate_point_violation(k, a, t_check, y);
        seg.max_drift = std::max(seg.max_drift, sys->constraint_residual(t_check, x.data()));
        y.swap(ye);
        sample(t_check);
        a = t_check;
    }
    // A touch pending at the stop time is not reported: whether the guard
    // crosses there lies beyond the run (a time event at the stop time).
    close_segment(event ? t_e : a);
    SegmentEnd out;
    if (!event) {
        out.kind = SegmentEnd::Kind::StopTime;
        t_ = a;
        return out;
    }
    out.kind = SegmentEnd::Kind::Event;
    out.time = t_e;
    out.fired = fired;
    out.branches = fired_branches;
    t_ = t_e;
    return out;
}

}  // namespace modeaudit
