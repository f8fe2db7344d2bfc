// The simulation driver's run, initialization and segments (driver.h).
#include "simulation/driver.h"

#include "flatten/function_interpreter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "flatten/expression_builder.h"
#include "structure/numeric.h"

namespace modeaudit {

namespace {

using GiNaC::ex;
using sim::ModeSystem;

double start_value(const FlatModel& flat, const GiNaC::symbol& s) {
    auto m = flat.symbols.meaning(s);
    if (!m || m->role != SymbolTable::Meaning::Role::Variable) return 0;
    const FlatVariable& v = flat.variables[static_cast<std::size_t>(m->index)];
    if (v.start)
        if (auto n = numeric_value(*v.start); n && n->is_real()) return n->to_double();
    return 0;
}

bool has_start(const FlatModel& flat, const GiNaC::symbol& s) {
    auto m = flat.symbols.meaning(s);
    if (!m || m->role != SymbolTable::Meaning::Role::Variable) return false;
    const FlatVariable& v = flat.variables[static_cast<std::size_t>(m->index)];
    return v.start && numeric_value(*v.start).has_value();
}

bool fixed_start(const FlatModel& flat, const GiNaC::symbol& s) {
    auto m = flat.symbols.meaning(s);
    if (!m || m->role != SymbolTable::Meaning::Role::Variable) return false;
    const FlatVariable& v = flat.variables[static_cast<std::size_t>(m->index)];
    return v.fixed && v.start && numeric_value(*v.start).has_value();
}

// Initial states and leading variables of a mode (see simulation.h).
bool initial_values(const FlatModel& flat, const ModeStructure& st, ModeSystem& sys, bool initial_mode, double t0,
                    const std::map<std::string, double>& given, std::vector<double>& x, std::vector<double>& y,
                    std::string& why) {
    GiNaC::exmap fixed;
    fixed[flat.symbols.time()] = t0;
    std::vector<GiNaC::symbol> unknowns;
    std::vector<double> guess;
    x.assign(sys.state_count(), 0.0);
    // The structure's states that are copies of an integrated one (alias
    // states, mode_system.h), and the structure states behind each.
    GiNaC::exmap alias;
    std::vector<std::vector<std::pair<const GiNaC::symbol*, double>>> behind(sys.state_count());
    for (std::size_t j = 0; j < st.states.size(); ++j) {
        const auto [k, sign] = sys.state_of(j);
        behind[k].emplace_back(&st.states[j], sign);
        if (!st.states[j].is_equal(sys.states()[k])) alias[st.states[j]] = sign * sys.states()[k];
    }
    for (std::size_t i = 0; i < sys.state_count(); ++i) {
        const GiNaC::symbol& s = sys.states()[i];
        bool known = false;
        for (const auto& [sym, sign] : behind[i])
            if (auto it = given.find(sym->get_name()); it != given.end()) {
                x[i] = sign * it->second;
                known = true;
                break;
            }
        for (const auto& [sym, sign] : behind[i])
            if (!known && fixed_start(flat, *sym)) {
                x[i] = sign * start_value(flat, *sym);
                known = true;
            }
        if (known) {
            fixed[s] = x[i];
        } else {
            // Not fixed: the start value is where the state begins unless
            // the consistency conditions move it (with no conditions, it
            // stays there).
            x[i] = start_value(flat, s);
            for (const auto& [sym, sign] : behind[i])
                if (has_start(flat, *sym)) {
                    x[i] = sign * start_value(flat, *sym);
                    break;
                }
            unknowns.push_back(s);
            guess.push_back(x[i]);
        }
    }
    std::vector<ex> eqs;
    for (const CompletedEquation& c : st.consistency) eqs.push_back(c.residual.subs(alias, kExactSubs));
    const bool with_initial = initial_mode && !flat.initial_equations.empty();
    if (with_initial) {
        for (const FlatEquation& e : flat.initial_equations) eqs.push_back(e.residual().subs(alias, kExactSubs));
        for (const CompletedEquation& c : st.reduced) eqs.push_back(c.residual.subs(alias, kExactSubs));
        for (const GiNaC::symbol& s : sys.leading()) {
            unknowns.push_back(s);
            guess.push_back(start_value(flat, s));
        }
    }
    std::vector<double> lead(sys.leading_count());
    for (std::size_t k = 0; k < lead.size(); ++k) lead[k] = start_value(flat, sys.leading()[k]);
    if (!eqs.empty()) {
        std::set<std::string> skip;
        for (const GiNaC::symbol& s : unknowns) skip.insert(s.get_name());
        for (const auto& [s, v] : fixed) skip.insert(GiNaC::ex_to<GiNaC::symbol>(s).get_name());
        GiNaC::exmap params = parameter_values(flat, eqs, skip);
        for (const auto& [s, v] : fixed) params[s] = v;
        if (unknowns.empty()) {
            double r = 0;
            for (const ex& e : eqs) {
                auto n = numeric_value(GiNaC::evalf(e.subs(params, kExactSubs)));
                r = std::max(r, n ? std::fabs(n->to_double()) : HUGE_VAL);
            }
            if (!(r <= 1e-9)) {
                why = fmt::format("the given and fixed start values violate the consistency conditions of mode '{}' "
                                  "(residual {:.3g})",
                                  sys.mode_id(), r);
                return false;
            }
        } else {
            NewtonResult r = newton(eqs, unknowns, params, guess);
            if (!r.converged || !(r.residual <= 1e-9)) {
                why = fmt::format("no consistent initial values in mode '{}': {} (residual {:.3g})", sys.mode_id(),
                                  r.message.empty() ? "the consistency conditions cannot be met" : r.message, r.residual);
                return false;
            }
            for (std::size_t k = 0; k < unknowns.size(); ++k) {
                for (std::size_t i = 0; i < sys.state_count(); ++i)
                    if (sys.states()[i].is_equal(unknowns[k])) x[i] = r.values[k];
                for (std::size_t i = 0; i < sys.leading_count(); ++i)
                    if (sys.leading()[i].is_equal(unknowns[k])) lead[i] = r.values[k];
            }
        }
    }
    y = lead;
    if (!sys.solve_with_branches(t0, x.data(), y.data())) {
        why = fmt::format("the index-reduced equations of mode '{}' cannot be solved at the initial states",
                          sys.mode_id());
        return false;
    }
    return true;
}

struct ZenoCheck {
    bool zeno = false;
    double estimate = 0;
};

ZenoCheck check_zeno(const std::vector<double>& times, const SimulationOptions& o, double stop) {
    ZenoCheck z;
    const std::size_t n = times.size();
    // Chattering: three spacings in a row below the floor.
    if (n >= 4) {
        bool tiny = true;
        for (std::size_t k = n - 3; k < n; ++k)
            tiny = tiny && times[k] - times[k - 1] <= o.min_event_spacing * std::max(1.0, std::fabs(times[k]));
        if (tiny) {
            z.zeno = true;
            z.estimate = times[n - 1];
            return z;
        }
    }
    const std::size_t w = static_cast<std::size_t>(std::max(o.zeno_events, 2));
    if (n < w + 2) return z;
    std::vector<double> ratios;
    for (std::size_t k = n - w; k < n; ++k) {
        const double d1 = times[k] - times[k - 1], d0 = times[k - 1] - times[k - 2];
        if (!(d0 > 0) || !(d1 >= 0)) return z;
        ratios.push_back(d1 / d0);
    }
    const double lo = *std::min_element(ratios.begin(), ratios.end());
    const double hi = *std::max_element(ratios.begin(), ratios.end());
    double mean = 0;
    for (double r : ratios) mean += r;
    mean /= static_cast<double>(ratios.size());
    if (!(hi < 1) || !(lo > 0) || hi - lo > 0.1 * mean) return z;
    const double last = times[n - 1] - times[n - 2];
    const double estimate = times[n - 1] + last * mean / (1 - mean);
    if (!(estimate <= stop)) return z;
    if (last > o.zeno_spacing_fraction * (estimate - times.front())) return z;
    z.zeno = true;
    z.estimate = estimate;
    return z;
}


}  // namespace

SimulationDriver::SimulationDriver(const FlatModel& flat, const ModeSet& modes, const StructureResult& st,
                                   const SimulationOptions& o, const RestartFunction& restart, CompiledModes& cache)
    : flat_(flat), modes_(modes), st_(st), o_(o), restart_(restart), systems_(cache.systems_) {
    if (cache.flat_ && (cache.flat_ != &flat || cache.modes_ != &modes || cache.structures_ != &st))
        throw std::invalid_argument("the compiled modes given to simulate belong to another model");
    cache.flat_ = &flat;
    cache.modes_ = &modes;
    cache.structures_ = &st;
}

sim::ModeSystem* SimulationDriver::system(int mode) {
    auto it = systems_.find(mode);
    if (it != systems_.end()) return it->second.get();
    auto sys = std::make_unique<ModeSystem>(flat_, modes_, mode, st_.modes.at(static_cast<std::size_t>(mode)));
    ModeSystem* p = sys.get();
    systems_.emplace(mode, std::move(sys));
    return p;
}

void SimulationDriver::stop_chattering(const ModeSystem& sys, std::size_t g) {
    const EventRecord& last = result_.events.back();
    result_.chattering = true;
    result_.zeno_time = last.time;
    stop(StopReason::Zeno,
         fmt::format("chattering at t = {:.12g}: right after the switch '{}' -> '{}' the guard {} of mode '{}' is "
                     "already crossing zero; both modes' flows point across the switching surface (a sliding "
                     "motion the model does not define), so the mode would switch back and forth with vanishing "
                     "spacing",
                     last.time, last.from_id, last.to_id, sys.guards()[g].text, sys.mode_id()));
}

double SimulationDriver::take_simultaneous(std::vector<std::pair<double, std::size_t>>& crossings,
                                           std::size_t guard_count, std::vector<std::size_t>& fired,
                                           std::vector<std::size_t>& fired_branches) const {
    std::sort(crossings.begin(), crossings.end());
    const double t_e = crossings.front().first;
    const double window = o_.simultaneity * std::max(1.0, std::fabs(t_e));
    for (const auto& [tc, g] : crossings)
        if (tc <= t_e + window) {
            if (g < guard_count) fired.push_back(g);
            else fired_branches.push_back(g - guard_count);
        }
    return t_e;
}

sim::Integrator& SimulationDriver::integrator(int mode) {
    auto it = integrators_.find(mode);
    if (it != integrators_.end()) return *it->second;
    sim::IntegratorOptions io;
    io.rtol = o_.rtol;
    io.atol = o_.atol;
    io.project = o_.project;
    io.max_steps = o_.max_steps;
    io.deadline = started_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(std::min(o_.max_wall_seconds, 1e9)));
    auto p = std::make_unique<Integrator>(*system(mode), io);
    Integrator& ref = *p;
    integrators_.emplace(mode, std::move(p));
    return ref;
}

std::map<std::string, double> SimulationDriver::named(const ModeSystem& sys, const std::vector<double>& x,
                                                      const std::vector<double>& y) const {
    std::map<std::string, double> m;
    std::vector<double> all(sys.all_state_names().size());
    sys.expand(x.data(), all.data());
    for (std::size_t i = 0; i < all.size(); ++i) m[sys.all_state_names()[i]] = all[i];
    for (std::size_t i = 0; i < y.size(); ++i) m[sys.leading_names()[i]] = y[i];
    add_discrete(m);
    return m;
}

void SimulationDriver::finish_values(const ModeSystem& sys, const std::vector<double>& x, const std::vector<double>& y) {
    result_.final_values = named(sys, x, y);
    result_.final_mode = sys.mode_id();
    for (const FlatModel::Alias& a : flat_.aliases) {
        const std::string& rep = flat_.variables.at(static_cast<std::size_t>(a.representative)).name;
        auto it = result_.final_values.find(rep);
        if (it != result_.final_values.end())
            result_.final_values[flat_.variables.at(static_cast<std::size_t>(a.variable)).name] = a.sign * it->second;
    }
}

bool SimulationDriver::states_from(const ModeSystem& sys, const std::map<std::string, double>& values,
                                   std::vector<double>& x) const {
    x.assign(sys.state_count(), 0.0);
    for (std::size_t i = 0; i < x.size(); ++i) {
        auto it = values.find(sys.state_names()[i]);
        if (it == values.end()) return false;
        x[i] = it->second;
    }
    return true;
}

double SimulationDriver::boundary_tolerance(const std::vector<double>& x, const std::vector<double>& y) const {
    double scale = 1;
    for (double v : x) scale = std::max(scale, std::fabs(v));
    for (double v : y) scale = std::max(scale, std::fabs(v));
    return o_.boundary_tolerance * scale;
}

void SimulationDriver::check_asserts(SegmentRecord& seg, const ModeSystem& sys, const Integrator* integ,
                                     const sim::StatePolynomial* poly, double t_ok, double t,
                                     const std::vector<double>& x, const std::vector<double>& y, bool at_exit) {
    // At the instant a guard ends the mode, a margin within round-off of the
    // boundary is no violation (simulation.h, boundary_tolerance).
    const double round_off = at_exit ? boundary_tolerance(x, y) : 0.0;
    const double exit_window = o_.event_time_tolerance * std::max(1.0, std::fabs(t));
    for (std::size_t k = 0; k < sys.asserts().size(); ++k) {
        AssertRecord& rec = seg.asserts[k];
        if (!rec.unsupported.empty()) continue;
        const sim::AssertCheck& check = sys.asserts()[k];
        if (poly && check.on_interpolant && !rec.violated && t_ok < t) {
            sim::ConditionSearch cond;
            cond.over = [&](const sim::FastInterval* m) { return sys.assert_truth_over(k, m); };
            cond.at = [&](const double* m) { return sys.assert_holds_for(k, m, nullptr); };
            sim::CrossingOptions co;
            co.time_tolerance = o_.event_time_tolerance;
            const sim::StateFunction& margins_of = sys.assert_function(k);
            const sim::ViolationResult v = sim::first_violation(*poly, margins_of, cond, t_ok, t, co, work_);
            seg.event_search_enclosures += v.enclosures;
            if (v.exhausted) {
                result_.messages.push_back(fmt::format(
                    "the search for violations of assert \"{}\" gave up in [{:.12g}, {:.12g}] (work limit): a "
                    "violation there may be missed",
                    rec.message, t_ok, t));
                result_.searches_gave_up.push_back({t_ok, t, true, rec.message, sys.mode_id(), rec.assert_index, {}});
            }
            if (v.found) {
                rec.violated = true;
                std::vector<double> at(sys.state_count() + 1), margins(margins_of.output_count());
                poly->value(v.time, at.data());
                at[sys.state_count()] = v.time;
                margins_of.at(at.data(), margins.data());
                double m = 0;
                sys.assert_holds_for(k, margins.data(), &m);
                rec.min_margin = std::min(rec.min_margin, m);
                if (at_exit && v.time >= t - exit_window && m >= -round_off) {
                    rec.violated = false;  // the boundary itself, reached as the mode ends
                } else {
                    rec.time = v.time;
                    rec.value = m;
                }
            }
        }
        double margin = 0;
        const bool holds = check.on_interpolant ? sys.assert_holds_in_states(k, t, x.data(), &margin)
                                                : sys.assert_holds(k, t, x.data(), y.data(), &margin);
        rec.min_margin = std::min(rec.min_margin, margin);
        if (holds || rec.violated || (at_exit && margin >= -round_off)) continue;
        rec.violated = true;
        rec.time = t;
        rec.value = margin;
        if (integ && t_ok < t) {
            double lo = t_ok, hi = t;
            std::vector<double> xs, ys;
            for (int it = 0; it < 60 && hi - lo > 1e-14 * std::max(1.0, std::fabs(hi)); ++it) {
                const double mid = lo + (hi - lo) / 2;
                if (!integ->values_at(mid, xs, ys)) break;
                double mm = 0;
                if (sys.assert_holds(k, mid, xs.data(), ys.data(), &mm)) lo = mid;
                else hi = mid, rec.value = mm;
            }
            rec.time = hi;
        }
    }
}

SegmentRecord SimulationDriver::open_segment(int mode, const ModeSystem& sys, double t) const {
    SegmentRecord seg;
    seg.mode = mode;
    seg.mode_id = sys.mode_id();
    seg.begin = seg.end = t;
    seg.state_names = sys.all_state_names();
    for (const sim::AssertCheck& a : sys.asserts()) {
        AssertRecord r;
        r.assert_index = a.assert_index;
        r.message = a.message;
        r.level = a.level;
        r.unsupported = a.unsupported;
        r.min_margin = HUGE_VAL;
        seg.asserts.push_back(r);
    }
    return seg;
}

SimulationDriver::GuardStart SimulationDriver::guard_start(const ModeSystem& sys, double t,
                                                           const std::vector<double>& x,
                                                           const std::vector<double>& y) const {
    GuardStart gs;
    const std::size_t n = sys.guards().size();
    // Grazing is reported for a guard once it has left its surface: one at
    // zero at the restart that opened the segment stays near zero for a
    // while, which is no touch. It has left once a step ends with it below
    // -boundary_tolerance (so a touch within the first step after leaving
    // the surface goes unreported).
    const double surface = gs.surface = boundary_tolerance(x, y);
    for (std::size_t g = 0; g < n; ++g) {
        const double v = sys.guard_value(g, t, x.data());
        const bool sampled = modes_.transitions[static_cast<std::size_t>(sys.guards()[g].transition)].sampled;
        gs.departed.push_back(!(std::fabs(v) <= surface));
        // A sample() instant at the segment's start (the start time itself,
        // or an instant shared with the event that opened the segment) fires
        // at once, before integrating.
        if (sampled && v >= -o_.simultaneity * std::max(1.0, std::fabs(t))) gs.immediate.push_back(g);
        // A clock's guard is armed whenever its next instant is ahead.
        gs.armed.push_back(sampled ? v < 0 : v < -o_.guard_zero_tolerance);
        // After an event: a guard of the new mode that is ~0 at the
        // restart (it shares the switching surface with the guard that
        // fired, but is another condition) and then grows without ever
        // being negative means both modes' flows point across the
        // surface: chattering.
        // The guard that fired staying positive is no such crossing
        // (a when-condition that remains true fires once).
        bool fired_before = false;
        if (!result_.events.empty())
            for (const std::string& text : result_.events.back().guards)
                fired_before = fired_before || text == sys.guards()[g].text;
        gs.on_surface.push_back(!result_.events.empty() && !fired_before && std::fabs(v) <= o_.guard_zero_tolerance);
        // At the start of the run: a guard at zero (a relation at its
        // boundary, as a diode's s = 0 when a sine source starts at 0) is
        // decided by the flow. If it is positive at the end of the first
        // step without having been negative, the flow points out of the
        // mode: its transition fires at the start time, not a period later
        // when the guard next crosses from below.
        gs.start_touch.push_back(result_.events.empty() && !sampled && std::fabs(v) <= o_.guard_zero_tolerance);
    }
    for (std::size_t i = 0; i < sys.branch_guard_count(); ++i)
        gs.branch_armed.push_back(sys.branch_guard_value(i, t, x.data()) < -o_.guard_zero_tolerance);
    return gs;
}

SimulationDriver::SegmentEnd SimulationDriver::integrate_segment() {
    ModeSystem* sys = sys_;
    const int mode = mode_;
    const double t = t_;
    std::vector<double>& x = x_;
    std::vector<double>& y = y_;
    const double stop_time = stop_time_;
    Integrator& integ = integrator(mode);
    SegmentRecord seg = open_segment(mode, *sys, t);
    const std::size_t segment_index = result_.segments.size();
    auto sample = [&](double at, const std::vector<double>& xs) {
        if (!o_.record_steps) return;
        std::vector<double> all(sys->all_state_names().size());
        sys->expand(xs.data(), all.data());
        result_.samples.push_back(Sample{at, segment_index, std::move(all)});
    };
    sys->set_leading_guess(y.data());  // the warm start of implicit guards and asserts
    check_asserts(seg, *sys, nullptr, nullptr, t, t, x, y);
    seg.max_drift = sys->constraint_residual(t, x.data());
    sample(t, x);
    GuardStart gs = guard_start(*sys, t, x, y);
    std::vector<bool>&armed = gs.armed, &on_surface = gs.on_surface, &start_touch = gs.start_touch,
                     &departed = gs.departed;
    std::vector<bool> grazed(sys->guards().size(), false);
    const std::vector<std::size_t>& immediate = gs.immediate;
    const double surface = gs.surface;
    try {
        integ.start(t, x, y, stop_time);
    } catch (const std::exception& e) {
        stop(StopReason::SolverFailure, e.what());
        return {};
    }
    const sim::IntegratorStats base = integ.stats();
    auto close_segment = [&](double end) {
        seg.end = end;
        const sim::IntegratorStats& s = integ.stats();
        seg.steps = s.steps - base.steps;
        seg.rhs_evaluations = s.rhs_evaluations - base.rhs_evaluations;
        seg.jacobian_evaluations = s.jacobian_evaluations - base.jacobian_evaluations;
        seg.max_step = s.max_step;
        seg.max_drift_before_projection = s.max_drift_before_projection;
        for (AssertRecord& a : seg.asserts)
            if (a.min_margin == HUGE_VAL) a.min_margin = 0;
        result_.segments.push_back(seg);
        result_.end_time = end;
    };

    sim::CrossingOptions co;
    co.time_tolerance = o_.event_time_tolerance;
    co.zero_tolerance = o_.guard_zero_tolerance;
    const std::size_t guard_count = sys->guards().size(), branch_count = sys->branch_guard_count();
    std::vector<bool>& branch_armed = gs.branch_armed;
    std::vector<std::size_t> fired_branches;
    bool needs_interpolant = guard_count + branch_count > 0, point_asserts = false;
    for (const sim::AssertCheck& a : sys->asserts()) {
        needs_interpolant = needs_interpolant || a.on_interpolant;
        point_asserts = point_asserts || (!a.on_interpolant && a.unsupported.empty());
    }
    std::vector<std::pair<double, std::size_t>> crossings;
    bool event = !immediate.empty();
    double t_e = t;
    std::vector<std::size_t> fired = immediate;
    std::vector<double> xe, ye;
    while (!event && integ.time() < stop_time) {
        std::string error;
        if (integ.stats().steps - base.steps >= o_.max_steps || over_wall_time()) {
            const bool steps = integ.stats().steps - base.steps >= o_.max_steps;
            close_segment(integ.time());
            finish_values(*sys, x, y);
            if (steps)
                stop_at_limit(fmt::format("more than {} integration steps in mode '{}' by t = {:.12g}",
                                          o_.max_steps, sys->mode_id(), integ.time()),
                              "simulation steps", "--max-steps");
            else
                stop_at_limit(fmt::format("the simulation ran longer than {} s of wall time and stopped at "
                                          "t = {:.12g}", o_.max_wall_seconds, integ.time()),
                              "simulation wall time", "--max-sim-time");
            return {};
        }
        if (!integ.step(error)) {
            close_segment(integ.time());
            sys->solve_leading(integ.time(), x.data(), y.data());  // y of the last accepted step (best effort)
            finish_values(*sys, x, y);
            if (integ.past_deadline())  // inside the step: the limit, not a solver failure
                stop_at_limit(fmt::format("the simulation ran longer than {} s of wall time and stopped at "
                                          "t = {:.12g} (inside an integration step)",
                                          o_.max_wall_seconds, integ.time()),
                              "simulation wall time", "--max-sim-time");
            else
                stop(StopReason::SolverFailure, error);
            return {};
        }
        const sim::StatePolynomial* poly = needs_interpolant ? &integ.interpolant() : nullptr;
        if (guard_count + branch_count > 0) {
            const sim::StatePolynomial& p = *poly;
            crossings.clear();
            // The exit guards of the operators' branches (numbered after the guards).
            for (std::size_t i = 0; i < branch_count; ++i) {
                sim::CrossingResult r = sim::first_upward_crossing(p, sys->branch_guard_function(i), p.t0, p.t1,
                                                                   branch_armed[i], co, work_);
                seg.event_search_enclosures += r.enclosures;
                branch_armed[i] = r.armed;
                if (r.exhausted) {
                    result_.messages.push_back(fmt::format(
                        "event search for {} gave up in [{:.12g}, {:.12g}] (work limit): crossings there may be missed",
                        sys->branch_guard(i).text, p.t0, p.t1));
                    result_.searches_gave_up.push_back(
                        {p.t0, p.t1, false, sys->branch_guard(i).text, sys->mode_id(), -1, SourceRange{}});
                }
                if (r.found) crossings.emplace_back(r.time, guard_count + i);
            }
            for (std::size_t g = 0; g < sys->guards().size(); ++g) {
                sim::CrossingResult r =
                    sim::first_upward_crossing(p, sys->guard_function(g), p.t0, p.t1, armed[g], co, work_);
                seg.event_search_enclosures += r.enclosures;
                armed[g] = r.armed;
                if (!r.found && !std::isnan(r.first_touch) && departed[g] && !grazed[g]) {
                    grazed[g] = true;
                    const int tr = sys->guards()[g].transition;
                    result_.grazes.push_back({r.first_touch, tr, sys->guards()[g].text, sys->mode_id(),
                                              modes_.transitions[static_cast<std::size_t>(tr)].range});
                }
                if (r.exhausted) {
                    result_.messages.push_back(fmt::format(
                        "event search for guard {} gave up in [{:.12g}, {:.12g}] (work limit): crossings there may be missed",
                        sys->guards()[g].text, p.t0, p.t1));
                    const int tr = sys->guards()[g].transition;
                    result_.searches_gave_up.push_back(
                        {p.t0, p.t1, false, sys->guards()[g].text, sys->mode_id(), -1,
                         tr >= 0 ? modes_.transitions[static_cast<std::size_t>(tr)].range : SourceRange{}});
                }
                if (r.found) crossings.emplace_back(r.time, g);
                if (start_touch[g]) {
                    start_touch[g] = false;  // decided on the first step
                    surface_x_.resize(p.n);
                    p.value(p.t1, surface_x_.data());
                    if (!r.found && !armed[g] && sys->guard_value(g, p.t1, surface_x_.data()) > o_.guard_zero_tolerance)
                        crossings.emplace_back(p.t0, g);
                }
                if (!departed[g]) {
                    surface_x_.resize(p.n);
                    p.value(p.t1, surface_x_.data());
                    departed[g] = sys->guard_value(g, p.t1, surface_x_.data()) < -surface;
                }
            }
            if (crossings.empty() && std::find(on_surface.begin(), on_surface.end(), true) != on_surface.end()) {
                std::vector<double>& end = surface_x_;
                end.resize(p.n);
                for (std::size_t g = 0; g < sys->guards().size(); ++g) {
                    if (armed[g]) on_surface[g] = false;
                    if (!on_surface[g]) continue;
                    p.value(p.t1, end.data());
                    if (!(sys->guard_value(g, p.t1, end.data()) > o_.guard_zero_tolerance)) continue;
                    close_segment(integ.previous_time());
                    sys->solve_leading(integ.previous_time(), x.data(), y.data());  // best effort
                    finish_values(*sys, x, y);
                    stop_chattering(*sys, g);
                    return {};
                }
            }
            if (!crossings.empty()) {
                t_e = take_simultaneous(crossings, guard_count, fired, fired_branches);
                event = true;
            }
        }
        const double t_check = event ? t_e : integ.time();
        // The leading variables are solved where they are reported (an
        // event's left limits, the end) or needed (asserts checked at
        // points); between, the states suffice.
        const bool leading = event || !(integ.time() < stop_time) || point_asserts;
        if (leading ? !integ.values_at(t_check, xe, ye) : !integ.states_at(t_check, xe)) {
            close_segment(t_check);
            finish_values(*sys, x, y);
            stop(StopReason::SolverFailure,
                 fmt::format("the index-reduced equations of mode '{}' cannot be solved at t = {:.12g}",
                             sys->mode_id(), t_check));
            return {};
        }
        check_asserts(seg, *sys, &integ, poly, integ.previous_time(), t_check, xe, ye, event);
        seg.max_drift = std::max(seg.max_drift, sys->constraint_residual(t_check, xe.data()));
        x.swap(xe);
        if (leading) y.swap(ye);
        sample(t_check, x);
        if (event) break;
    }
    close_segment(event ? t_e : integ.time());
    SegmentEnd out;
    if (!event) {
        out.kind = SegmentEnd::Kind::StopTime;
        t_ = integ.time();
        return out;
    }
    out.kind = SegmentEnd::Kind::Event;
    out.time = t_e;
    out.fired = fired;
    out.branches = fired_branches;
    t_ = t_e;
    return out;
}

bool SimulationDriver::enter_mode(int mode) {
    const Mode& m = modes_.modes.at(static_cast<std::size_t>(mode));
    for (std::size_t k = 0; k < modes_.mode_variables.size(); ++k)
        if (modes_.mode_variables[k].variable >= 0) mode_variables_[modes_.mode_variables[k].variable] = m.values.at(k);
    try {
        sys_ = system(mode);
        sys_->set_parameters(parameter_values_of(*sys_));
    } catch (const std::exception& e) {
        stop(StopReason::Unsupported, fmt::format("mode '{}' cannot be simulated: {}", m.id, e.what()));
        return false;
    }
    mode_ = mode;
    for (const sim::Guard& g : sys_->guards())
        if (!g.unsupported.empty()) {
            stop(StopReason::Unsupported,
                 fmt::format("the guard {} of mode '{}' cannot be monitored: {}", g.text, sys_->mode_id(), g.unsupported));
            return false;
        }
    return true;
}

std::vector<std::size_t> SimulationDriver::contradicted_relations(double t) const {
    std::vector<std::size_t> out;
    const double tol = boundary_tolerance(x_, y_);
    for (std::size_t g = 0; g < sys_->guards().size(); ++g) {
        const Transition& tr = modes_.transitions[static_cast<std::size_t>(sys_->guards()[g].transition)];
        if (tr.when_clause >= 0 || tr.sampled) continue;
        if (sys_->guard_value(g, t, x_.data()) > tol) out.push_back(g);
    }
    return out;
}

int SimulationDriver::initial_mode_guess() const {
    if (o_.start_mode != 0) return o_.start_mode;
    // A Boolean defined by a relation (off = s < 0) with a start value of
    // its own starts from that value, not from the relation at the start
    // values of continuous variables (the relation is checked once the
    // initial system is solved).
    std::vector<std::int64_t> values = modes_.modes.front().values;
    bool changed = false;
    for (std::size_t k = 0; k < modes_.mode_variables.size(); ++k) {
        const int v = modes_.mode_variables[k].variable;
        if (v < 0) continue;
        bool defined = false;
        for (const RelationDefinition& rd : flat_.relation_definitions) defined = defined || rd.variable == v;
        const FlatVariable& var = flat_.variables[static_cast<std::size_t>(v)];
        if (!defined || !var.start) continue;
        auto n = numeric_value(*var.start);
        if (!n || !n->is_real()) continue;
        const std::int64_t start = n->to_double() != 0 ? 1 : 0;
        changed = changed || values[k] != start;
        values[k] = start;
    }
    if (!changed) return 0;
    for (std::size_t m = 0; m < modes_.modes.size(); ++m)
        if (modes_.modes[m].values == values && !modes_.modes[m].transient_only) return static_cast<int>(m);
    return 0;
}

bool SimulationDriver::relation_switch(std::size_t k) const {
    const int v = modes_.mode_variables[k].variable;
    if (v < 0) return true;  // a relation used directly as a condition
    for (const RelationDefinition& rd : flat_.relation_definitions)
        if (rd.variable == v) return true;
    return false;
}

int SimulationDriver::relation_neighbour(int mode, const std::vector<int>& tried) const {
    const auto& base = modes_.modes[static_cast<std::size_t>(mode)].values;
    int best = -1;
    std::size_t best_distance = 0;
    for (std::size_t m = 0; m < modes_.modes.size(); ++m) {
        const Mode& candidate = modes_.modes[m];
        if (candidate.transient_only || std::find(tried.begin(), tried.end(), static_cast<int>(m)) != tried.end())
            continue;
        std::size_t distance = 0;
        bool allowed = true;
        for (std::size_t k = 0; k < base.size() && allowed; ++k) {
            if (candidate.values[k] == base[k]) continue;
            allowed = relation_switch(k);
            ++distance;
        }
        if (allowed && (best < 0 || distance < best_distance)) {
            best = static_cast<int>(m);
            best_distance = distance;
        }
    }
    return best;
}

bool SimulationDriver::initialize() {
    const double t0 = o_.start_time;
    int mode = initial_mode_guess();
    // The initial equations hold in whichever mode the iteration settles in;
    // a start mode chosen by the caller starts from its given values.
    const bool with_initial = o_.start_mode == 0;
    std::vector<int> tried, failed;
    std::string first_failure;
    auto tried_text = [&] {
        std::vector<std::string> ids;
        for (int m : tried) ids.push_back("'" + modes_.modes[static_cast<std::size_t>(m)].id + "'");
        return fmt::format("{}", fmt::join(ids, " -> "));
    };
    for (;;) {
        tried.push_back(mode);
        reset_discrete(t0);
        if (!enter_mode(mode)) return false;
        if (tried.size() == 1)
            for (const auto& [name, v] : o_.initial_values) {
                const auto& sn = sys_->all_state_names();
                if (std::find(sn.begin(), sn.end(), name) == sn.end())
                    throw std::invalid_argument(fmt::format("an initial value is given for '{}', which is not a state of "
                                                            "mode '{}' (states: {})",
                                                            name, sys_->mode_id(), fmt::join(sn, ", ")));
            }
        std::string why;
        if (!initial_values(flat_, st_.modes.at(static_cast<std::size_t>(mode)), *sys_, with_initial, t0,
                            o_.initial_values, x_, y_, why)) {
            // No consistent values in this mode (an inductor's current with
            // every diode of its path blocking): the relation-defined
            // switches are part of the initial system (a mixed system), so
            // the nearest mode that differs in those alone is tried next.
            failed.push_back(mode);
            if (first_failure.empty()) first_failure = fmt::format("in mode '{}': {}", sys_->mode_id(), why);
            const int next = tried.size() < o_.max_event_iterations ? relation_neighbour(mode, tried) : -1;
            if (next >= 0) {
                mode = next;
                continue;
            }
            stop(StopReason::SolverFailure,
                 "initialization: " + (tried.size() > 1 ? first_failure : why) +
                     (tried.size() > 1 ? fmt::format(" (the initial event iteration tried the modes {}, none with "
                                                     "consistent initial values whose relations hold)",
                                                     tried_text())
                                       : std::string()));
            return false;
        }
        // `when initial()` clauses: their discrete assignments, at the
        // initial values.
        std::map<std::string, double> at = named(*sys_, x_, y_);
        for (const FlatWhen& w : flat_.whens) {
            if (!w.initial) continue;
            if (!assign_discrete(w.actions, at, t0, why)) {
                stop(StopReason::Unsupported, "initialization: " + why);
                return false;
            }
        }
        if (!settle_tracked_definitions(at, t0, why)) {
            stop(StopReason::Unsupported, "initialization: " + why);
            return false;
        }
        sys_->set_parameters(parameter_values_of(*sys_));
        sys_->set_leading_guess(y_.data());
        // The relations at the solution: a mode whose own relations are
        // violated there is not the initial mode (Modelica 3.6, 8.6).
        const std::vector<std::size_t> contradicted = contradicted_relations(t0);
        if (contradicted.empty()) break;
        std::vector<const Transition*> transitions;
        std::vector<std::string> guards;
        for (std::size_t g : contradicted) {
            transitions.push_back(&modes_.transitions[static_cast<std::size_t>(sys_->guards()[g].transition)]);
            guards.push_back(sys_->guards()[g].text);
        }
        const int to = combined_target(modes_, mode, transitions, why);
        if (to < 0) {
            stop(StopReason::SolverFailure,
                 fmt::format("initialization: in mode '{}' the relations {} do not hold at the initial values, and {}",
                             sys_->mode_id(), fmt::join(guards, ", "), why));
            return false;
        }
        if (std::find(failed.begin(), failed.end(), to) != failed.end()) {
            tried.push_back(to);
            stop(StopReason::SolverFailure,
                 fmt::format("initialization: in mode '{}' the relations {} do not hold at the initial values, and the "
                             "mode they imply has no consistent initial values (the initial event iteration tried the "
                             "modes {}; {})",
                             sys_->mode_id(), fmt::join(guards, ", "), tried_text(), first_failure));
            return false;
        }
        if (std::find(tried.begin(), tried.end(), to) != tried.end()) {
            tried.push_back(to);
            stop(StopReason::SolverFailure,
                 fmt::format("initialization: the modes' relations have no fixed point: the initial event iteration "
                             "cycles through {} (in mode '{}' the guard {} is positive at the initial values)",
                             tried_text(), sys_->mode_id(), fmt::join(guards, ", ")));
            return false;
        }
        if (tried.size() >= o_.max_event_iterations) {
            stop_at_limit(fmt::format("the initial event iteration did not settle after {} modes: {}", tried.size(),
                                      tried_text()),
                          "event iterations", "--max-event-iterations");
            return false;
        }
        mode = to;
    }
    for (int m : tried) result_.initial_modes.push_back(modes_.modes[static_cast<std::size_t>(m)].id);
    t_ = t0;
    std::string why;
    if (!settle_branches(t0, why)) {
        finish_values(*sys_, x_, y_);
        result_.chattering = !result_.chattering_operator.empty();
        if (result_.chattering) result_.zeno_time = t0;
        stop(result_.chattering ? StopReason::Zeno : StopReason::SolverFailure, "initialization: " + why);
        return false;
    }
    return true;
}

SimulationResult SimulationDriver::run() {
    // A user function that fails outside the integrator's callbacks (at
    // initialization, an event, a guard): the run stops with its message.
    try {
        return run_segments();
    } catch (const fn::FunctionError& e) {
        stop(StopReason::SolverFailure, fmt::format("at t = {:.12g}: {}", t_, e.what()));
        return result_;
    }
}

SimulationResult SimulationDriver::run_segments() {
    stop_time_ = o_.stop_time ? *o_.stop_time : flat_.stop_time.value_or(1.0);
    result_.end_time = o_.start_time;
    for (const ModeVariable& mv : modes_.mode_variables)
        if (mv.variable >= 0) mode_variables_[mv.variable] = 0;
    if (!initialize()) return result_;
    for (;;) {
        const SegmentEnd end = sys_->state_count() == 0 ? algebraic_segment() : integrate_segment();
        if (end.kind == SegmentEnd::Kind::Stopped) return result_;
        if (end.kind == SegmentEnd::Kind::StopTime) {
            // `when terminal()` clauses fire once, at the stop time (the run's
            // last instant): their assignments at the final values.
            const std::map<std::string, double> at = named(*sys_, x_, y_);
            std::string why;
            for (const FlatWhen& w : flat_.whens)
                if (w.terminal && !assign_discrete(w.actions, at, t_, why)) {
                    finish_values(*sys_, x_, y_);
                    stop(StopReason::Unsupported, fmt::format("at the stop time t = {:.12g}: {}", t_, why));
                    return result_;
                }
            finish_values(*sys_, x_, y_);
            stop(StopReason::StopTime, "");
            return result_;
        }
        if (end.fired.empty()) {
            // A guard that reads an operator which jumps (floor(x) - 2) jumps
            // with it: the transitions whose guards went from at most 0 to
            // above it fire at this instant.
            std::vector<double> before(sys_->guards().size());
            for (std::size_t g = 0; g < before.size(); ++g) before[g] = sys_->guard_value(g, end.time, x_.data());
            if (!branch_event(end.time, end.branches)) return result_;
            std::vector<std::size_t> jumped;
            for (std::size_t g = 0; g < before.size(); ++g) {
                const double after = sys_->guard_value(g, end.time, x_.data());
                if (before[g] <= 0 && after > o_.guard_zero_tolerance) jumped.push_back(g);
            }
            if (!jumped.empty() && !handle_instant(end.time, jumped)) return result_;
        } else {
            // Operator branches crossing at the instant of a transition:
            // crossed first, the transition's restart then chooses the new
            // mode's branches at its restart values.
            for (std::size_t i : end.branches) sys_->cross_branch_guard(i);
            if (!handle_instant(end.time, end.fired)) return result_;
        }
        instant_times_.push_back(end.time);
        ZenoCheck z = check_zeno(instant_times_, o_, stop_time_);
        if (z.zeno) {
            finish_values(*sys_, x_, y_);
            result_.zeno_time = z.estimate;
            stop(StopReason::Zeno, fmt::format("events accumulate: {} events, the last spacings shrinking geometrically; "
                                               "estimated accumulation time {:.12g}",
                                               instant_times_.size(), z.estimate));
            return result_;
        }
    }
}

}  // namespace modeaudit
