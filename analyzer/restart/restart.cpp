#include "restart/restart.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "common/internal_error.h"
#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"
#include "flatten/flattener.h"
#include "structure/dulmage_mendelsohn.h"
#include "structure/numeric.h"

namespace modeaudit {

namespace {


std::string base_name(const FlatModel& flat, const ArrayVariable& v) {
    const std::string& n = flat.variables[static_cast<std::size_t>(v.variable)].name;
    return v.order == 0 ? n : v.order == 1 ? "der(" + n + ")" : fmt::format("der({},{})", n, v.order);
}

// Keeps the eps-free part of an expanded expression; a negative power of
// eps left over means the offsets were wrong (a bug, not a model problem).
GiNaC::ex at_eps_zero(const GiNaC::ex& e, const GiNaC::symbol& eps) {
    GiNaC::ex out = 0;
    for (const GiNaC::ex& t : terms_of(checked_expand(e))) {
        int lo = t.ldegree(eps), hi = t.degree(eps);
        MODEAUDIT_ASSERT(lo >= 0, "a negative power of eps survives rescaling");
        if (hi == 0) out += t;
    }
    return out;
}

// Row f0 = u^k * g with k >= 2 and g free of the unknowns: u = 0 at every
// solution, where the whole gradient of the row vanishes.
bool degenerate_power(const GiNaC::ex& f0, const GiNaC::symbol& u, const std::vector<GiNaC::symbol>& restart,
                      const std::vector<GiNaC::symbol>& auxiliary) {
    GiNaC::ex e = checked_expand(f0);
    if (!e.has(u) || !e.is_polynomial(u) || e.ldegree(u) < 2) return false;
    GiNaC::ex g = checked_expand(e / GiNaC::pow(u, e.ldegree(u)));
    if (g.has(u)) return false;
    for (const auto* unknowns : {&restart, &auxiliary})
        for (const GiNaC::symbol& v : *unknowns)
            if (g.has(v)) return false;
    return true;
}

}  // namespace

RestartSystem procedure1_fractional(const ArrayInput& in, const ModeChangeArray& a, const FractionalOffsets& f) {
    GiNaC::numeric d = 1;
    for (const GiNaC::numeric& q : f.mu) d = GiNaC::lcm(d, q.denom());
    ModeChangeArray scaled = a;  // the same symbols; eps now stands for delta
    for (ArrayEquation& e : scaled.equations) e.residual = e.residual.subs(a.eps == GiNaC::pow(a.eps, d), kExactSubs);
    RescalingResult r;
    for (const GiNaC::numeric& q : f.mu) r.mu.push_back((q * d).to_int());
    r.mu_equation = equation_offsets(scaled, r.mu);
    r.solved = true;
    return procedure1(in, scaled, r);
}

RestartSystem procedure1(const ArrayInput& in, const ModeChangeArray& a, const RescalingResult& r) {
    MODEAUDIT_ASSERT(r.solved, "Procedure 1 without rescaling offsets");
    const FlatModel& flat = *in.flat;
    RestartSystem s;
    GiNaC::exmap rescale, rename;
    std::vector<GiNaC::symbol> restart, auxiliary;
    std::map<int, GiNaC::symbol> unknown_of;  // dependent array variable -> its restart-system unknown
    for (std::size_t j = 0; j < a.variables.size(); ++j) {
        const ArrayVariable& v = a.variables[j];
        const GiNaC::symbol& sym = a.symbol(v);
        std::string base = base_name(flat, v);
        if (!a.dependent[j]) {
            // Data of the previous mode: at eps = 0 every instant gives the left limit.
            auto it = s.left_limits.find(base);
            if (it == s.left_limits.end())
                it = s.left_limits.emplace(base, v.order == 0 ? flat.symbols.pre(v.variable) : GiNaC::symbol("pre(" + base + ")")).first;
            rename[sym] = it->second;
            continue;
        }
        int mu = r.mu[j];
        if (mu > 0) {
            GiNaC::symbol scaled(sym.get_name() + "_r");
            rescale[sym] = GiNaC::pow(a.eps, -mu) * scaled;
            s.impulse_orders[sym.get_name()] = mu;
            auxiliary.push_back(scaled);
            unknown_of.emplace(static_cast<int>(j), scaled);
        } else if (is_restart_variable(in, a, j)) {
            GiNaC::symbol plus(base + "+");
            s.restart_values.emplace(base, plus);
            rename[sym] = plus;
            restart.push_back(plus);
            unknown_of.emplace(static_cast<int>(j), plus);
        } else {
            auxiliary.push_back(sym);
            unknown_of.emplace(static_cast<int>(j), sym);
        }
    }
    for (const auto& [ei, xj] : a.matching) {
        const ArrayEquation& eq = a.equations[static_cast<std::size_t>(ei)];
        GiNaC::ex f = GiNaC::pow(a.eps, r.mu_equation.at(ei)) * eq.residual.subs(rescale, kExactSubs);
        GiNaC::ex f0 = at_eps_zero(f, a.eps).subs(rename, kExactSubs);
        s.equations.push_back(f0);
        s.equation_names.push_back(eq.name);
        if (s.singular_row < 0 && degenerate_power(f0, unknown_of.at(xj), restart, auxiliary)) {
            s.singular_row = static_cast<int>(s.equations.size()) - 1;
            s.singular_array_equation = ei;
            s.singular_unknown = unknown_of.at(xj).get_name();
        }
    }
    // Variables the canonical formulation resolved (mode_change/normalize.h)
    // that are states of the new mode as written restart at their value:
    // u+ = v1+ - v2+ for a switch written with u = v1 - v2, id+ = 0.
    if (in.resolved_states)
        for (const auto& [u, value] : *in.resolved_states) {
            GiNaC::exmap plus;
            bool known = true;
            for (GiNaC::const_preorder_iterator it = value.preorder_begin(); it != value.preorder_end(); ++it) {
                if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
                auto m = flat.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
                using R = SymbolTable::Meaning::Role;
                if (!m || (m->role != R::Variable && m->role != R::Derivative)) continue;  // a parameter, time
                auto rv = s.restart_values.find(GiNaC::ex_to<GiNaC::symbol>(*it).get_name());
                if (rv == s.restart_values.end()) {
                    known = false;
                    break;
                }
                plus[*it] = rv->second;
            }
            const std::string& name = flat.variables[static_cast<std::size_t>(u)].name;
            if (!known || s.restart_values.count(name)) continue;
            GiNaC::symbol u_plus(name + "+");
            s.restart_values.emplace(name, u_plus);
            restart.push_back(u_plus);
            s.equations.push_back(u_plus - value.subs(plus, kExactSubs));
            s.equation_names.push_back(fmt::format("{} resolved as {}", name, canonical(value)));
        }
    s.unknowns = restart;
    s.unknowns.insert(s.unknowns.end(), auxiliary.begin(), auxiliary.end());
    // Rule 1: the eps = 0 system must keep a perfect matching.
    SignatureMatrix sig;
    sig.rows = static_cast<int>(s.equations.size());
    sig.cols = static_cast<int>(s.unknowns.size());
    sig.entries.resize(s.equations.size());
    for (std::size_t i = 0; i < s.equations.size(); ++i)
        for (std::size_t j = 0; j < s.unknowns.size(); ++j)
            if (s.equations[i].has(s.unknowns[j])) sig.entries[i].push_back({static_cast<int>(j), 0});
    DulmageMendelsohn dm = dulmage_mendelsohn(sig);
    s.rule1 = sig.rows == sig.cols && dm.perfect();
    if (!s.rule1) {
        std::string lost;
        for (int j : dm.under_cols) lost += (lost.empty() ? "" : ", ") + s.unknowns[static_cast<std::size_t>(j)].get_name();
        s.rule1_note = fmt::format("after eps := 0 the restart system is structurally singular{}",
                                   lost.empty() ? "" : ": " + lost + " lose their determining relation");
    }
    return s;
}

RestartSolution solve_restart(const FlatModel& flat, const RestartSystem& s, const std::map<std::string, double>& left,
                              double time) {
    RestartSolution out;
    GiNaC::exmap params;
    for (const auto& [name, sym] : s.left_limits) {
        auto it = left.find(name);
        if (it == left.end()) {
            out.message = "no left limit given for " + name;
            return out;
        }
        params[sym] = it->second;
    }
    std::set<std::string> unknown_names;
    for (const auto& u : s.unknowns) unknown_names.insert(u.get_name());
    for (const auto& [sym, value] : parameter_values(flat, s.equations, unknown_names, time)) params[sym] = value;
    // Restart values start at their left limits, auxiliaries at 0.
    std::vector<double> x0;
    for (const auto& u : s.unknowns) {
        double guess = 0;
        for (const auto& [base, plus] : s.restart_values)
            if (plus == u && left.count(base)) guess = left.at(base);
        x0.push_back(guess);
    }
    NewtonResult nr = newton(s.equations, s.unknowns, params, x0);
    out.solved = nr.converged;
    out.residual = nr.residual;
    out.message = nr.message;
    for (std::size_t k = 0; k < s.unknowns.size() && k < nr.values.size(); ++k) out.values[s.unknowns[k].get_name()] = nr.values[k];
    if (!out.solved || nr.values.size() != s.unknowns.size()) return out;
    GiNaC::exmap at = params;
    for (std::size_t k = 0; k < s.unknowns.size(); ++k) at[s.unknowns[k]] = nr.values[k];
    std::vector<std::vector<double>> jac(s.equations.size(), std::vector<double>(s.unknowns.size(), 0.0));
    for (std::size_t i = 0; i < s.equations.size(); ++i)
        for (std::size_t j = 0; j < s.unknowns.size(); ++j) {
            GiNaC::ex d = GiNaC::evalf(s.equations[i].diff(s.unknowns[j]).subs(at, kExactSubs));
            jac[i][j] = GiNaC::is_a<GiNaC::numeric>(d) ? GiNaC::ex_to<GiNaC::numeric>(d).to_double()
                                                       : std::numeric_limits<double>::quiet_NaN();
        }
    FloatRank fr = float_rank(jac);
    out.locally_unique = fr.rank == s.unknowns.size() && s.equations.size() == s.unknowns.size();
    out.condition = fr.condition;
    return out;
}

}  // namespace modeaudit
