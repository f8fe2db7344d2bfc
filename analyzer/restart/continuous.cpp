#include "restart/continuous.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "flatten/expression_builder.h"
#include "structure/numeric.h"

namespace modeaudit {


ContinuousRestart continuous_restart(const FlatModel& flat, const ModeStructure& previous, const ModeStructure& next,
                                     const std::map<std::string, double>& left, double time, double tolerance) {
    ContinuousRestart out;
    std::set<std::string> inherited;
    for (const GiNaC::symbol& s : previous.states) inherited.insert(s.get_name());
    GiNaC::exmap fixed;
    for (const GiNaC::symbol& s : next.states)
        if (inherited.count(s.get_name())) {
            auto it = left.find(s.get_name());
            if (it == left.end()) {
                out.message = "no left limit given for " + s.get_name();
                return out;
            }
            fixed[s] = it->second;
        }
    std::vector<GiNaC::symbol> free_states;
    std::vector<double> guess;
    std::set<std::string> unknown_names;
    for (const GiNaC::symbol& s : next.states)
        if (!inherited.count(s.get_name())) {
            free_states.push_back(s);
            guess.push_back(left.count(s.get_name()) ? left.at(s.get_name()) : 0.0);
            unknown_names.insert(s.get_name());
        }
    std::vector<GiNaC::ex> cons;
    for (const CompletedEquation& c : next.consistency) cons.push_back(c.residual.subs(fixed, kExactSubs));
    std::set<std::string> skip = unknown_names;
    for (const auto& [s, v] : fixed) skip.insert(GiNaC::ex_to<GiNaC::symbol>(s).get_name());
    GiNaC::exmap params = parameter_values(flat, cons, skip, time);
    std::vector<double> states = guess;
    if (!cons.empty()) {
        NewtonResult r = newton(cons, free_states, params, guess);
        out.residual = r.residual;
        states = r.values;
        // Least squares on an overdetermined but consistent set lands on a
        // zero residual; an inconsistent one does not.
        if (!(r.residual <= tolerance)) {
            out.message = fmt::format("the inherited values violate the new consistency conditions (residual {:.3g})",
                                      r.residual);
            return out;
        }
    }
    out.consistent = true;
    GiNaC::exmap at = fixed;
    for (std::size_t k = 0; k < free_states.size(); ++k) at[free_states[k]] = states[k];
    for (const auto& [s, v] : at) out.values[GiNaC::ex_to<GiNaC::symbol>(s).get_name()] = GiNaC::ex_to<GiNaC::numeric>(GiNaC::evalf(v)).to_double();
    std::vector<GiNaC::ex> reduced;
    for (const CompletedEquation& c : next.reduced) reduced.push_back(c.residual.subs(at, kExactSubs));
    std::set<std::string> lead_names;
    for (const GiNaC::symbol& s : next.leading) lead_names.insert(s.get_name());
    GiNaC::exmap p2 = parameter_values(flat, reduced, lead_names, time);
    NewtonResult lr = newton(reduced, next.leading, p2, std::vector<double>(next.leading.size(), 0.0));
    if (!lr.converged) {
        out.message = "the new leading variables could not be solved: " + lr.message;
        return out;
    }
    for (std::size_t k = 0; k < next.leading.size(); ++k) out.values[next.leading[k].get_name()] = lr.values[k];
    return out;
}

}  // namespace modeaudit
