// The verification stage, static part: declared rates in every mode,
// declared jump laws and discovered invariants on every restart system,
// incomplete impact laws (see verification.h).
#include "verification/verification.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <cmath>
#include <random>
#include <set>
#include <sstream>

#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"
#include "flatten/flattener.h"
#include "structure/numeric.h"
#include "verification/verification_internal.h"

namespace modeaudit {

std::string_view check_status_name(CheckStatus s) {
    switch (s) {
        case CheckStatus::Holds: return "holds";
        case CheckStatus::Violated: return "violated";
        case CheckStatus::NotEvaluated: return "not-evaluated";
    }
    return "not-evaluated";
}

namespace verification_detail {

std::vector<DeclaredInvariant> declared_invariants(const FlatModel& flat) {
    std::vector<DeclaredInvariant> out;
    for (std::size_t v = 0; v < flat.variables.size(); ++v) {
        const FlatVariable& var = flat.variables[v];
        if (!var.invariant) continue;
        DeclaredInvariant d;
        d.variable = static_cast<int>(v);
        d.name = var.name;
        d.decl = &*var.invariant;
        const GiNaC::ex sym = flat.symbols.variable(static_cast<int>(v));
        for (const FlatEquation& eq : flat.equations) {
            if (eq.origin != "binding of " + var.name) continue;
            if (eq.lhs.is_equal(sym)) d.quantity = eq.rhs;
            else if (eq.rhs.is_equal(sym)) d.quantity = eq.lhs;
        }
        if (d.quantity.is_zero() && !var.value) continue;  // an annotation without a binding: nothing to check
        d.quantity_text = canonical(d.quantity);
        out.push_back(std::move(d));
    }
    return out;
}

bool applies_to(const InvariantDecl& decl, const Mode& mode) {
    if (decl.modes.empty()) return true;
    std::set<std::string> parts;
    {
        std::stringstream ss(mode.id);
        std::string p;
        while (std::getline(ss, p, ',')) parts.insert(p);
    }
    for (const std::string& entry : decl.modes) {
        std::stringstream ss(entry);
        std::string p;
        bool all = true;
        while (std::getline(ss, p, ',')) {
            p.erase(std::remove(p.begin(), p.end(), ' '), p.end());
            if (!parts.count(p)) all = false;
        }
        if (all) return true;
    }
    return false;
}

int certain_sign(const GiNaC::ex& e) {
    using namespace GiNaC;
    if (is_a<numeric>(e)) {
        const numeric& n = ex_to<numeric>(e);
        if (!n.is_real()) return 0;
        return n.is_zero() ? 0 : (n.is_positive() ? 1 : -1);
    }
    if (is_a<power>(e)) {
        const ex& ex_ = e.op(1);
        if (is_a<numeric>(ex_) && ex_to<numeric>(ex_).is_integer()) {
            if (ex_to<numeric>(ex_).is_even()) return 1;
            return certain_sign(e.op(0));
        }
        return 0;
    }
    if (is_a<mul>(e)) {
        int s = 1;
        for (std::size_t i = 0; i < e.nops(); ++i) {
            int f = certain_sign(e.op(i));
            if (f == 0) return 0;
            s *= f;
        }
        return s;
    }
    if (is_a<add>(e)) {
        int s = 0;
        for (std::size_t i = 0; i < e.nops(); ++i) {
            int f = certain_sign(e.op(i));
            if (f == 0 || (s != 0 && f != s)) return 0;
            s = f;
        }
        return s;
    }
    return 0;
}

// The sign of a rational expression when it is certain (-1, 0 for unknown, 1);
// `zero` says it is identically zero.
int sign_of(const GiNaC::ex& e, bool& zero) {
    GiNaC::ex n = GiNaC::normal(e);
    zero = n.is_zero();
    if (zero) return 0;
    GiNaC::ex nd = GiNaC::numer_denom(n);
    int sn = certain_sign(GiNaC::factor(checked_expand(nd.op(0))));
    if (sn == 0) sn = certain_sign(checked_expand(nd.op(0)));
    int sd = certain_sign(GiNaC::factor(checked_expand(nd.op(1))));
    if (sd == 0) sd = certain_sign(checked_expand(nd.op(1)));
    return sn * sd;
}

std::optional<double> evaluate(const GiNaC::ex& e, const std::map<std::string, double>& values,
                               const GiNaC::exmap& params) {
    GiNaC::exmap m = params;
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
        const GiNaC::symbol& s = GiNaC::ex_to<GiNaC::symbol>(*it);
        if (m.count(s)) continue;
        auto v = values.find(s.get_name());
        if (v == values.end()) return std::nullopt;
        m[s] = v->second;
    }
    GiNaC::ex r = GiNaC::evalf(e.subs(m, kExactSubs));
    if (!GiNaC::is_a<GiNaC::numeric>(r) || !GiNaC::ex_to<GiNaC::numeric>(r).is_real()) return std::nullopt;
    return GiNaC::ex_to<GiNaC::numeric>(r).to_double();
}

// The model names of a restart system's symbols: "vx+" -> vx (after),
// "pre(vx)" -> vx (before).
RestartNames restart_names(const TransitionRestart& tr) {
    RestartNames n;
    if (!tr.system) return n;
    for (const auto& [base, plus] : tr.system->restart_values) {
        std::string shown = display_name(tr, plus.get_name());
        if (!shown.empty() && shown.back() == '+') shown.pop_back();
        n.after.emplace(shown, plus);
    }
    for (const auto& [base, pre] : tr.system->left_limits) {
        std::string shown = display_name(tr, pre.get_name());
        if (shown.rfind("pre(", 0) == 0 && shown.back() == ')') shown = shown.substr(4, shown.size() - 5);
        n.before.emplace(shown, pre);
    }
    for (const GiNaC::symbol& u : tr.system->unknowns) {
        bool value = false;
        for (const auto& [base, plus] : tr.system->restart_values) value = value || plus == u;
        if (value) continue;
        const std::string& name = u.get_name();
        if (name.size() > 2 && name.compare(name.size() - 2, 2, "_r") == 0) n.impulses.push_back(u);
        else n.tail.push_back(u);
    }
    return n;
}

// The equations of the restart system without the new mode's leading
// variables (the impulse balance, the new constraints, the carried values),
// solved for the restart values and impulses when they are linear there.
LinearPart linear_part(const TransitionRestart& tr, const RestartNames& names) {
    LinearPart lp;
    if (!tr.system) return lp;
    GiNaC::lst eqs, syms;
    std::set<GiNaC::ex, GiNaC::ex_is_less> used;
    for (const GiNaC::ex& e : tr.system->equations) {
        bool tail = false;
        for (const GiNaC::symbol& t : names.tail) tail = tail || e.has(t);
        if (tail) continue;
        lp.equations.push_back(e);
        eqs.append(e == 0);
    }
    for (const GiNaC::symbol& u : tr.system->unknowns) {
        bool in = false;
        for (const GiNaC::ex& e : lp.equations) in = in || e.has(u);
        if (in) {
            syms.append(u);
            lp.unknowns.push_back(u);
        }
    }
    if (lp.equations.empty() || lp.unknowns.empty()) return lp;
    for (const GiNaC::ex& e : lp.equations)
        for (const GiNaC::symbol& u : lp.unknowns)
            if (auto d = polynomial_degree(checked_expand(e), u); !d || *d > 1)
                return lp;  // nonlinear: decided at events only
    try {
        GiNaC::ex sol = GiNaC::lsolve(eqs, syms);
        if (!GiNaC::is_a<GiNaC::lst>(sol) || sol.nops() != syms.nops()) return lp;
        for (std::size_t i = 0; i < sol.nops(); ++i) {
            GiNaC::ex value = GiNaC::normal(sol.op(i).rhs());
            bool free = false;
            for (const GiNaC::symbol& u : lp.unknowns) free = free || value.has(u);
            if (free) continue;
            lp.solution[GiNaC::ex_to<GiNaC::symbol>(sol.op(i).lhs())] = value;
        }
        lp.solved = true;
    } catch (const std::exception&) {
        lp.solution.clear();
    }
    return lp;
}

std::string stable_text(const GiNaC::ex& e) {
    // normal() may return n/d or (-n)/(-d) depending on GiNaC's internal
    // term order; expanded numerator and denominator with the denominator's
    // leading sign fixed print the same every run.
    GiNaC::ex nd = GiNaC::numer_denom(GiNaC::normal(e));
    GiNaC::ex n = checked_expand(nd.op(0)), d = checked_expand(nd.op(1));
    std::string dt = canonical(d);
    if (!dt.empty() && dt[0] == '-') {
        n = checked_expand(-n);
        d = checked_expand(-d);
        dt = canonical(d);
    }
    if (d.is_equal(1)) return canonical(n);
    auto wrap = [](const GiNaC::ex& x, std::string t) {
        return GiNaC::is_a<GiNaC::add>(x) || GiNaC::is_a<GiNaC::mul>(x) ? "(" + t + ")" : t;
    };
    return wrap(n, canonical(n)) + "/" + wrap(d, dt);
}

}  // namespace verification_detail

using namespace verification_detail;

namespace {

GiNaC::ex symbol_of(const FlatModel& flat, const std::string& name) {
    int v = flat.find_variable(name);
    if (v < 0) return GiNaC::ex(0);
    return flat.symbols.variable(v);
}

// ---- rates -------------------------------------------------------------

RateCheck check_rate(const FlatModel& flat, const Mode& mode, int mode_index, const ModeStructure& ms,
                     const DeclaredInvariant& inv) {
    RateCheck rc;
    rc.mode = mode_index;
    rc.invariant = inv.name;
    rc.rate = canonical(*inv.decl->rate);
    rc.range = inv.decl->range;
    (void)mode;
    if (ms.status != ModeStatus::Regular) {
        rc.note = fmt::format("mode {} is not structurally regular ({})", mode.id, mode_status_name(ms.status));
        return rc;
    }
    GiNaC::ex r = total_derivative(flat, inv.quantity) - *inv.decl->rate;
    std::set<std::string> state_names, leading_names;
    for (const GiNaC::symbol& s : ms.states) state_names.insert(s.get_name());
    for (const GiNaC::symbol& s : ms.leading) leading_names.insert(s.get_name());

    // The leading variables from F_DOWN, when it is linear in them.
    std::vector<GiNaC::ex> reduced;
    for (const CompletedEquation& c : ms.reduced) reduced.push_back(c.residual);
    GiNaC::exmap params = parameter_values(flat, reduced, state_names);
    {
        std::vector<GiNaC::ex> rr{r};
        for (const auto& [k, v] : parameter_values(flat, rr, state_names)) params[k] = v;
    }
    GiNaC::ex substituted = r;
    bool symbolic = false;
    try {
        GiNaC::lst eqs, syms;
        for (const GiNaC::ex& e : reduced) eqs.append(e.subs(params, kExactSubs) == 0);
        for (const GiNaC::symbol& s : ms.leading) syms.append(s);
        GiNaC::ex sol = GiNaC::lsolve(eqs, syms);
        if (GiNaC::is_a<GiNaC::lst>(sol) && sol.nops() == syms.nops()) {
            GiNaC::exmap m;
            for (std::size_t i = 0; i < sol.nops(); ++i) m[sol.op(i).lhs()] = sol.op(i).rhs();
            substituted = GiNaC::normal(r.subs(params, kExactSubs).subs(m, kExactSubs));
            symbolic = true;
            for (const GiNaC::symbol& s : ms.leading) symbolic = symbolic && !substituted.has(s);
        }
    } catch (const std::exception&) {
        symbolic = false;
    }
    if (symbolic && substituted.is_zero()) {
        rc.status = CheckStatus::Holds;
        rc.method = "symbolic";
        return rc;
    }
    // What the residual still needs beyond states and leading variables.
    for (GiNaC::const_preorder_iterator it = r.preorder_begin(); it != r.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
        const GiNaC::symbol& s = GiNaC::ex_to<GiNaC::symbol>(*it);
        if (params.count(s) || state_names.count(s.get_name()) || leading_names.count(s.get_name())) continue;
        rc.note = fmt::format("d{}/dt needs {}, which the completed system of mode {} does not determine", inv.name,
                              s.get_name(), mode.id);
        return rc;
    }
    if (symbolic) rc.residual = stable_text(substituted);

    // On the consistency manifold: F_UP = 0 from deterministic starts.
    std::vector<GiNaC::ex> up;
    for (const CompletedEquation& c : ms.consistency) up.push_back(c.residual.subs(params, kExactSubs));
    std::vector<GiNaC::symbol> states(ms.states.begin(), ms.states.end());
    std::mt19937 gen(20261202u);
    std::uniform_real_distribution<double> dist(-2.0, 2.0);
    const int points = 8;
    int checked = 0;
    for (int p = 0; p < points * 3 && checked < points; ++p) {
        std::vector<double> x0(states.size());
        for (double& v : x0) v = dist(gen);
        std::vector<double> xs = x0;
        if (!up.empty()) {
            NewtonResult nr = newton(up, states, {}, x0);
            if (!nr.converged) continue;
            xs = nr.values;
        }
        GiNaC::exmap at;
        std::map<std::string, double> point;
        for (std::size_t i = 0; i < states.size(); ++i) {
            at[states[i]] = xs[i];
            point[states[i].get_name()] = xs[i];
        }
        GiNaC::ex value;
        double scale = 1;
        if (symbolic) {
            value = GiNaC::evalf(substituted.subs(at, kExactSubs));
        } else {
            std::vector<GiNaC::ex> down;
            for (const GiNaC::ex& e : reduced) down.push_back(e.subs(params, kExactSubs).subs(at, kExactSubs));
            std::vector<GiNaC::symbol> lead(ms.leading.begin(), ms.leading.end());
            NewtonResult nr = newton(down, lead, {}, std::vector<double>(lead.size(), 0.5));
            if (!nr.converged) continue;
            GiNaC::exmap all = at;
            for (std::size_t i = 0; i < lead.size(); ++i) {
                all[lead[i]] = nr.values[i];
                point[lead[i].get_name()] = nr.values[i];
            }
            value = GiNaC::evalf(r.subs(params, kExactSubs).subs(all, kExactSubs));
        }
        if (!GiNaC::is_a<GiNaC::numeric>(value)) continue;
        for (const auto& [name, v] : point) scale = std::max(scale, std::fabs(v));
        const double rv = GiNaC::ex_to<GiNaC::numeric>(value).to_double();
        ++checked;
        if (!(std::fabs(rv) <= 1e-8 * scale * scale)) {
            rc.status = CheckStatus::Violated;
            rc.method = up.empty() ? "at a point" : "at a point of the consistency manifold";
            rc.value = rv;
            rc.point = point;
            if (rc.residual.empty()) rc.residual = stable_text(r);
            return rc;
        }
    }
    if (checked == 0) {
        rc.note = fmt::format("no point of mode {} could be found to evaluate the residual", mode.id);
        return rc;
    }
    rc.status = CheckStatus::Holds;
    rc.method = fmt::format("on the consistency manifold, at {} points", checked);
    rc.residual.clear();
    return rc;
}

// ---- jumps -------------------------------------------------------------

// Q after and before the restart as expressions in the left limits, when
// the restart determines them statically.
struct JumpExpression {
    bool known = false;
    GiNaC::ex before, after;
    std::string note;
};

JumpExpression jump_expression(const FlatModel& flat, const ModeSet& modes, const StructureResult& structures,
                               const TransitionRestart& tr, const DeclaredInvariant& inv) {
    JumpExpression j;
    const Transition& t = modes.transitions[static_cast<std::size_t>(tr.transition)];
    const ModeStructure& target = structures.modes[static_cast<std::size_t>(t.to)];
    std::set<std::string> target_states;
    for (const GiNaC::symbol& s : target.states) target_states.insert(s.get_name());
    GiNaC::exmap after, before;
    std::set<std::string> names;
    for (GiNaC::const_preorder_iterator it = inv.quantity.preorder_begin(); it != inv.quantity.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it)) {
            auto m = flat.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
            if (m && m->role == SymbolTable::Meaning::Role::Variable &&
                flat.variables[static_cast<std::size_t>(m->index)].variability == Variability::Continuous)
                names.insert(GiNaC::ex_to<GiNaC::symbol>(*it).get_name());
        }
    const bool with_system = tr.system && (tr.verdict == Verdict::Impulsive || tr.verdict == Verdict::Continuous);
    RestartNames rn;
    LinearPart lp;
    if (with_system) {
        rn = restart_names(tr);
        lp = linear_part(tr, rn);
    }
    for (const std::string& n : names) {
        GiNaC::ex sym = symbol_of(flat, n);
        if (!target_states.count(n)) {
            j.note = fmt::format("{} depends on {}, which is no state of mode {}: its value after the restart comes from "
                                 "the new mode's equations",
                                 inv.name, n, modes.modes[static_cast<std::size_t>(t.to)].id);
            return j;
        }
        if (tr.verdict == Verdict::Supplied) {
            before[sym] = sym;
            after[sym] = sym;
            for (const WhenAction& a : t.resets)
                if (a.kind == WhenAction::Kind::Reinit && flat.variables[static_cast<std::size_t>(a.variable)].name == n)
                    after[sym] = a.value;
            continue;
        }
        if (!with_system) {  // carried over unchanged
            before[sym] = sym;
            after[sym] = sym;
            continue;
        }
        auto b = rn.before.find(n);
        GiNaC::ex pre = b != rn.before.end() ? GiNaC::ex(b->second) : sym;
        before[sym] = pre;
        auto a = rn.after.find(n);
        if (a == rn.after.end()) {
            after[sym] = pre;
            continue;
        }
        auto s = lp.solution.find(a->second);
        if (s == lp.solution.end()) {
            j.note = fmt::format("the restart value of {} is not given by the linear part of the restart system", n);
            return j;
        }
        after[sym] = s->second;
    }
    std::vector<GiNaC::ex> q{inv.quantity};
    // An explicit time stays a symbol: the event time is the same on both
    // sides, and no particular value (0) may cancel a jump.
    GiNaC::exmap params = parameter_values(flat, q, {flat.symbols.time().get_name()});
    // Supplied resets are written in the flat symbols, meaning left limits.
    GiNaC::ex qa = inv.quantity.subs(after, kExactSubs).subs(params, kExactSubs);
    GiNaC::ex qb = inv.quantity.subs(before, kExactSubs).subs(params, kExactSubs);
    j.before = qb;
    j.after = qa;
    j.known = true;
    return j;
}

// Shown in model names: pre(vx) -> vx, with the left limits meant.
GiNaC::ex in_model_names(const GiNaC::ex& e, const TransitionRestart& tr) {
    if (!tr.system) return e;
    RestartNames rn = restart_names(tr);
    GiNaC::exmap m;
    for (const auto& [name, pre] : rn.before) m[pre] = GiNaC::symbol(name);
    return e.subs(m, kExactSubs);
}

JumpCheck check_jump(const FlatModel& flat, const ModeSet& modes, const StructureResult& structures,
                     const TransitionRestart& tr, const DeclaredInvariant& inv) {
    JumpCheck jc;
    jc.invariant = inv.name;
    jc.kind = inv.decl->at_events;
    jc.range = inv.decl->range;
    switch (tr.verdict) {
        case Verdict::Continuous:
        case Verdict::Impulsive:
        case Verdict::Supplied: break;
        default:
            jc.note = fmt::format("the restart is {}: there is no restart to check", verdict_name(tr.verdict));
            return jc;
    }
    JumpExpression je = jump_expression(flat, modes, structures, tr, inv);
    if (!je.known) {
        jc.note = je.note + "; checked at the simulated events";
        return jc;
    }
    GiNaC::ex jump = GiNaC::normal(je.after - je.before);
    bool zero = false;
    int sign = sign_of(jump, zero);
    jc.jump = zero ? "0" : stable_text(in_model_names(jump, tr));
    if (zero) {
        jc.status = CheckStatus::Holds;
        jc.note = "the jump vanishes identically";
        return jc;
    }
    if (jc.kind == "conserved") {
        jc.note = "the jump does not vanish identically; checked at the simulated events";
        if (sign != 0) {
            jc.status = CheckStatus::Violated;
            jc.note = fmt::format("the jump is {} wherever it does not vanish", sign > 0 ? "positive" : "negative");
        }
        return jc;
    }
    const int wanted = jc.kind == "nonincreasing" ? -1 : 1;
    if (sign == wanted) {
        jc.status = CheckStatus::Holds;
        jc.note = fmt::format("the jump is {} for every left limit", sign < 0 ? "non-positive" : "non-negative");
    } else if (sign == -wanted) {
        jc.status = CheckStatus::Violated;
        jc.note = fmt::format("the jump is {} for every left limit where it does not vanish",
                              sign < 0 ? "negative" : "positive");
    } else {
        jc.note = "the sign of the jump depends on the left limits; checked at the simulated events";
    }
    return jc;
}

// ---- discovered invariants ----------------------------------------------

// The basis of {y : A^T y = 0} for an r x c matrix A of expressions.
std::vector<std::vector<GiNaC::ex>> left_null_space(std::vector<std::vector<GiNaC::ex>> a, std::size_t cols) {
    const std::size_t rows = a.size();
    // Row-reduce A^T (c x r).
    std::vector<std::vector<GiNaC::ex>> m(cols, std::vector<GiNaC::ex>(rows));
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j) m[j][i] = a[i][j];
    std::vector<int> pivot_col;
    std::size_t r = 0;
    for (std::size_t c = 0; c < rows && r < cols; ++c) {
        std::size_t p = r;
        while (p < cols && GiNaC::normal(m[p][c]).is_zero()) ++p;
        if (p == cols) continue;
        std::swap(m[p], m[r]);
        GiNaC::ex pv = m[r][c];
        for (std::size_t k = 0; k < rows; ++k) m[r][k] = GiNaC::normal(m[r][k] / pv);
        for (std::size_t q = 0; q < cols; ++q) {
            if (q == r) continue;
            GiNaC::ex f = m[q][c];
            if (GiNaC::normal(f).is_zero()) continue;
            for (std::size_t k = 0; k < rows; ++k) m[q][k] = GiNaC::normal(m[q][k] - f * m[r][k]);
        }
        pivot_col.push_back(static_cast<int>(c));
        ++r;
    }
    std::vector<std::vector<GiNaC::ex>> basis;
    std::set<int> pivots(pivot_col.begin(), pivot_col.end());
    for (std::size_t f = 0; f < rows; ++f) {
        if (pivots.count(static_cast<int>(f))) continue;
        std::vector<GiNaC::ex> y(rows, GiNaC::ex(0));
        y[f] = 1;
        for (std::size_t k = 0; k < pivot_col.size(); ++k) y[static_cast<std::size_t>(pivot_col[k])] = -m[k][f];
        basis.push_back(std::move(y));
    }
    return basis;
}

std::vector<std::pair<std::string, GiNaC::ex>> discover(const FlatModel& flat, const TransitionRestart& tr) {
    std::vector<std::pair<std::string, GiNaC::ex>> out;
    if (tr.verdict != Verdict::Impulsive || !tr.system) return out;
    RestartNames rn = restart_names(tr);
    if (rn.impulses.empty()) return out;
    LinearPart lp = linear_part(tr, rn);
    std::set<GiNaC::ex, GiNaC::ex_is_less> unknowns(lp.unknowns.begin(), lp.unknowns.end());
    // The rows carrying an impulse, linear in the impulses with data coefficients.
    std::vector<GiNaC::ex> rows;
    std::vector<std::vector<GiNaC::ex>> coeffs;
    for (const GiNaC::ex& e0 : lp.equations) {
        GiNaC::ex e = checked_expand(e0);
        bool any = false;
        for (const GiNaC::symbol& a : rn.impulses) any = any || e.has(a);
        if (!any) continue;
        std::vector<GiNaC::ex> row;
        for (const GiNaC::symbol& a : rn.impulses) {
            if (auto d = polynomial_degree(e, a); !d || *d > 1) return out;
            GiNaC::ex c = e.coeff(a, 1);
            for (const GiNaC::ex& u : unknowns)
                if (c.has(u)) return out;
            row.push_back(c);
        }
        rows.push_back(e);
        coeffs.push_back(std::move(row));
    }
    if (rows.empty()) return out;
    // Restart values that stay equal to their left limits (continuous data).
    std::map<std::string, GiNaC::ex> continuous_pre;
    for (const auto& [name, pre] : rn.before) {
        auto a = rn.after.find(name);
        if (a == rn.after.end()) continuous_pre[name] = pre;
        else if (auto s = lp.solution.find(a->second); s != lp.solution.end() && (s->second - pre).is_zero())
            continuous_pre[name] = pre;
    }
    for (const std::vector<GiNaC::ex>& y : left_null_space(coeffs, rn.impulses.size())) {
        GiNaC::ex c = 0;
        for (std::size_t i = 0; i < rows.size(); ++i) c += y[i] * rows[i];
        c = checked_expand(GiNaC::normal(c));
        c = checked_expand(GiNaC::numer(GiNaC::normal(c)));
        if (c.is_zero()) continue;
        bool impulse_left = false;
        for (const GiNaC::symbol& a : rn.impulses) impulse_left = impulse_left || c.has(a);
        if (impulse_left) continue;
        // c = sum_j k_j (X_j+ - X_j-), k_j depending on continuous data only.
        GiNaC::ex q = 0, check = c;
        bool ok = true;
        for (const auto& [name, plus] : rn.after) {
            GiNaC::ex k = c.coeff(plus, 1);
            if (k.is_zero()) continue;
            if (auto d = polynomial_degree(c, plus); !d || *d > 1) ok = false;
            auto b = rn.before.find(name);
            if (b == rn.before.end()) {
                ok = false;
                break;
            }
            for (const GiNaC::ex& u : unknowns)
                if (k.has(u)) ok = false;
            check -= k * (plus - b->second);
            q += k * GiNaC::symbol(name);
        }
        if (!ok || !GiNaC::normal(check).is_zero() || q.is_zero()) continue;
        // The coefficients' data must be carried over unchanged.
        GiNaC::exmap to_names;
        for (const auto& [name, pre] : rn.before) {
            if (!q.has(pre)) continue;
            if (!continuous_pre.count(name)) ok = false;
            to_names[pre] = symbol_of(flat, name).is_zero() ? GiNaC::ex(GiNaC::symbol(name)) : symbol_of(flat, name);
        }
        if (!ok) continue;
        // In flat symbols, so that canonical() prints and orders them as elsewhere.
        GiNaC::exmap names_to_flat;
        for (const auto& [name, plus] : rn.after)
            if (!symbol_of(flat, name).is_zero()) names_to_flat[GiNaC::symbol(name)] = symbol_of(flat, name);
        q = q.subs(to_names, kExactSubs);
        // Names created above are fresh symbols: substitute by name.
        GiNaC::exmap by_name;
        for (GiNaC::const_preorder_iterator it = q.preorder_begin(); it != q.preorder_end(); ++it)
            if (GiNaC::is_a<GiNaC::symbol>(*it)) {
                GiNaC::ex f = symbol_of(flat, GiNaC::ex_to<GiNaC::symbol>(*it).get_name());
                if (!f.is_zero()) by_name[*it] = f;
            }
        q = checked_expand(GiNaC::numer(GiNaC::normal(q.subs(by_name, kExactSubs))));
        // Deterministic scale and sign: integer coefficients, the printed form not starting with '-'.
        GiNaC::ex content = q.integer_content();
        if (!content.is_zero()) q = checked_expand(q / content);
        std::string text = canonical(q);
        if (!text.empty() && text[0] == '-') {
            q = checked_expand(-q);
            text = canonical(q);
        }
        bool seen = false;
        for (const auto& [t, e] : out) seen = seen || t == text;
        if (!seen) out.emplace_back(text, q);
    }
    return out;
}

ImpactLaw impact_law(const FlatModel& flat, const Transition& t) {
    ImpactLaw law;
    std::set<int> seen;
    for (const WhenAction& a : t.restart_constraints)
        for (const GiNaC::ex& side : {a.lhs, a.rhs})
            for (GiNaC::const_preorder_iterator it = side.preorder_begin(); it != side.preorder_end(); ++it) {
                if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
                auto m = flat.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
                if (!m || m->role != SymbolTable::Meaning::Role::Variable) continue;
                const FlatVariable& v = flat.variables[static_cast<std::size_t>(m->index)];
                if (!v.unknown_constant || !seen.insert(m->index).second) continue;
                law.coefficient_variables.push_back(m->index);
                law.free_coefficients.push_back(fmt::format("{} <= {} <= {}", v.min ? canonical(*v.min) : "-inf",
                                                            v.name, v.max ? canonical(*v.max) : "inf"));
            }
    law.incomplete = !law.free_coefficients.empty();
    if (law.incomplete) {
        std::string list;
        for (const std::string& s : law.free_coefficients) list += (list.empty() ? "" : ", ") + s;
        law.message = fmt::format("the impact law is incomplete: its coefficient has no value, only bounds ({}), so "
                                  "the restart is not determined",
                                  list);
    }
    return law;
}

}  // namespace

namespace {

// Why a check is not evaluated when the mode or the restart makes one of its
// expressions undefined (a log(0), or a division by a quantity that is zero).
std::string undefined_note(const std::domain_error& e) {
    return fmt::format("not evaluated: an expression of the check is undefined after substituting the mode's "
                       "values ({})",
                       e.what());
}

}  // namespace

VerificationResult verify_model(const FlatModel& flat, const ModeSet& modes, const StructureResult& structures,
                                const RestartStageResult& restarts) {
    VerificationResult v;
    v.invariants = declared_invariants(flat);
    for (const DeclaredInvariant& inv : v.invariants) {
        if (!inv.decl->rate) continue;
        for (std::size_t m = 0; m < modes.modes.size(); ++m) {
            const Mode& mode = modes.modes[m];
            if (mode.transient_only || !applies_to(*inv.decl, mode)) continue;
            try {
                v.rates.push_back(check_rate(flat, mode, static_cast<int>(m), structures.modes[m], inv));
            } catch (const std::domain_error& e) {  // GiNaC's pole_error: the mode makes an expression undefined
                RateCheck rc;
                rc.mode = static_cast<int>(m);
                rc.invariant = inv.name;
                rc.rate = canonical(*inv.decl->rate);
                rc.note = undefined_note(e);
                rc.range = inv.decl->range;
                v.rates.push_back(std::move(rc));
            }
        }
    }
    for (std::size_t t = 0; t < modes.transitions.size(); ++t) {
        TransitionVerification tv;
        tv.transition = static_cast<int>(t);
        const Transition& tr = modes.transitions[t];
        const TransitionRestart* r = t < restarts.transitions.size() ? &restarts.transitions[t] : nullptr;
        tv.impact_law = impact_law(flat, tr);
        if (r) {
            for (const DeclaredInvariant& inv : v.invariants) {
                if (inv.decl->at_events.empty()) continue;
                if (!applies_to(*inv.decl, modes.modes[static_cast<std::size_t>(tr.to)])) continue;
                JumpCheck jc;
                try {
                    jc = check_jump(flat, modes, structures, *r, inv);
                } catch (const std::domain_error& e) {  // GiNaC's pole_error, as above
                    jc = JumpCheck{};
                    jc.invariant = inv.name;
                    jc.kind = inv.decl->at_events;
                    jc.note = undefined_note(e);
                    jc.range = inv.decl->range;
                }
                if (jc.status == CheckStatus::Holds && jc.kind == "conserved") tv.conserved.push_back(inv.quantity_text);
                tv.jumps.push_back(std::move(jc));
            }
            std::vector<std::pair<std::string, GiNaC::ex>> found;
            try {
                found = discover(flat, *r);
            } catch (const std::domain_error&) {  // GiNaC's pole_error: nothing is discovered, nothing claimed
            }
            for (auto& [text, q] : found) {
                tv.discovered.push_back(text);
                tv.discovered_quantities.push_back(q);
            }
            for (const std::string& d : tv.discovered)
                if (std::find(tv.conserved.begin(), tv.conserved.end(), d) == tv.conserved.end()) tv.conserved.push_back(d);
        }
        v.transitions.push_back(std::move(tv));
    }
    return v;
}

void dump_verification(const FlatModel& flat, const ModeSet& modes, const VerificationResult& v, std::ostream& out) {
    (void)flat;
    for (const DeclaredInvariant& inv : v.invariants)
        out << fmt::format("invariant {} = {}{}{}\n", inv.name, inv.quantity_text,
                           inv.decl->rate ? "  rate = " + canonical(*inv.decl->rate) : "",
                           inv.decl->at_events.empty() ? "" : "  atEvents = " + inv.decl->at_events);
    for (const RateCheck& r : v.rates) {
        out << fmt::format("mode {}: d{}/dt = {}: {}", modes.modes[static_cast<std::size_t>(r.mode)].id, r.invariant,
                           r.rate, check_status_name(r.status));
        if (!r.method.empty()) out << " (" << r.method << ")";
        if (r.status == CheckStatus::Violated)
            out << fmt::format("; residual {} = {:.6g} at a point", r.residual, r.value);
        if (!r.note.empty()) out << "; " << r.note;
        out << "\n";
    }
    for (const TransitionVerification& t : v.transitions) {
        const Transition& tr = modes.transitions[static_cast<std::size_t>(t.transition)];
        out << fmt::format("transition {} -> {}:\n", modes.modes[static_cast<std::size_t>(tr.from)].id,
                           modes.modes[static_cast<std::size_t>(tr.to)].id);
        for (const JumpCheck& j : t.jumps)
            out << fmt::format("  {} {}: {}{}{}\n", j.invariant, j.kind, check_status_name(j.status),
                               j.jump.empty() ? "" : "; jump " + j.jump, j.note.empty() ? "" : "; " + j.note);
        for (const std::string& d : t.discovered) out << "  discovered conserved: " << d << "\n";
        if (t.impact_law.incomplete) out << "  " << t.impact_law.message << "\n";
    }
    for (const EventVerification& e : v.events) {
        out << fmt::format("event at t = {:.12g}:\n", e.time);
        for (const EventJump& j : e.jumps)
            out << fmt::format("  {} {}: {:.12g} -> {:.12g} (jump {:.6g}): {}\n", j.invariant, j.kind, j.before, j.after,
                               j.jump, check_status_name(j.status));
        for (const EventAdmissibility& a : e.admissibility)
            out << fmt::format("  admissibility {}: margin {:.12g}: {}\n", a.condition, a.value,
                               check_status_name(a.status));
        for (const std::string& a : e.alternatives) out << "  admissible instead: " << a << "\n";
        for (const ImpulseRange& r : e.ranges)
            out << fmt::format("  impact law free: {} in [{:.12g}, {:.12g}] ({} at the low end, {} at the high end)\n",
                               r.impulse, r.low, r.high, r.low_mode.empty() ? "no admissible mode" : r.low_mode,
                               r.high_mode.empty() ? "no admissible mode" : r.high_mode);
        if (!e.range_note.empty()) out << "  " << e.range_note << "\n";
        if (e.missing_impact_law) out << "  missing impact law: " << e.missing_note << "\n";
    }
}

}  // namespace modeaudit
