#include "metamorphic/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "flatten/expression_builder.h"
#include "restart/restart.h"
#include "restart/verdict.h"

namespace modeaudit::metamorphic {

namespace {

// ---- names ------------------------------------------------------------------

// "der(x,2)+" -> {x, "der(", ",2)", "+"}.
struct Name {
    std::string prefix, base, tail, suffix;
};

Name split(std::string s) {
    Name n;
    if (s.size() > 1 && s.back() == '+') n.suffix = "+", s.pop_back();
    else if (s.size() > 2 && s.compare(s.size() - 2, 2, "_r") == 0) n.suffix = "_r", s.resize(s.size() - 2);
    if (s.rfind("der(", 0) == 0 && s.back() == ')') {
        std::string inner = s.substr(4, s.size() - 5);
        std::size_t comma = inner.find(',');
        n.prefix = "der(";
        n.base = inner.substr(0, comma);
        n.tail = comma == std::string::npos ? ")" : inner.substr(comma) + ")";
    } else {
        n.base = s;
    }
    return n;
}

// A quantity of the original, up to its alias class: value = factor * value(key).
struct Canonical {
    std::string key;  // "" for a variable that is 0
    double factor = 1;
};

// Quantities of the original that are constant multiples of each other
// in every mode are one quantity: an alias (flattener), a velocity
// der(x) = v, a torque J*der(w) = tau; and their derivatives alike. Which
// of them a restart system or an impulse list names is the writing's
// choice, so they are compared by class (weighted union-find: value(q) =
// factor * value(root)).
class Names {
public:
    explicit Names(const FlatModel& original) {
        constexpr int kOrders = 4;
        for (const FlatModel::Alias& a : original.aliases)
            for (int k = 0; k < kOrders; ++k)
                join(node(original.variables.at(static_cast<std::size_t>(a.variable)).name, k),
                     node(original.variables.at(static_cast<std::size_t>(a.representative)).name, k), a.sign);
        for (const FlatEquation& e : original.equations) {
            if (!e.active_when.empty() || e.initial) continue;
            GiNaC::ex r = e.residual().expand();
            if (!GiNaC::is_a<GiNaC::add>(r) || r.nops() != 2) continue;
            std::string base[2];
            int order[2] = {0, 0};
            double coef[2] = {0, 0};
            bool ok = true;
            for (std::size_t i = 0; i < 2 && ok; ++i) {
                GiNaC::ex t = r.op(i), c = 1;
                if (GiNaC::is_a<GiNaC::mul>(t) && t.nops() == 2 && GiNaC::is_a<GiNaC::numeric>(t.op(1))) c = t.op(1), t = t.op(0);
                ok = GiNaC::is_a<GiNaC::symbol>(t) && GiNaC::is_a<GiNaC::numeric>(c);
                if (!ok) break;
                auto m = original.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(t));
                using R = SymbolTable::Meaning::Role;
                ok = m && (m->role == R::Variable || m->role == R::Derivative) &&
                     original.variables.at(static_cast<std::size_t>(m->index)).variability == Variability::Continuous;
                if (!ok) break;
                base[i] = original.variables.at(static_cast<std::size_t>(m->index)).name;
                order[i] = m->role == R::Derivative ? m->order : 0;
                coef[i] = GiNaC::ex_to<GiNaC::numeric>(c).to_double();
            }
            if (!ok || coef[0] == 0 || coef[1] == 0) continue;
            for (int d = 0; d + std::max(order[0], order[1]) < kOrders; ++d)
                join(node(base[0], order[0] + d), node(base[1], order[1] + d), -coef[1] / coef[0]);
        }
    }
    // A name of the original model.
    Canonical original(const std::string& name) const {
        Name n = split(name);
        const int order = n.prefix.empty() ? 0 : n.tail == ")" ? 1 : std::stoi(n.tail.substr(1));
        auto [root, f] = find(node(n.base, order));
        return Canonical{root + n.suffix, f};
    }
    // A name of the variant; nullopt for a new variable without an image.
    std::optional<Canonical> variant(const std::string& name, const Variant& v) const {
        Name n = split(name);
        if (auto it = v.images.find(n.base); it != v.images.end()) {
            if (it->second.original.empty()) return Canonical{"", 0};
            Canonical c = original(n.prefix + it->second.original + n.tail + n.suffix);
            c.factor *= it->second.factor;
            return c;
        }
        if (n.base.rfind("mm_", 0) == 0) return std::nullopt;
        return original(name);
    }

private:
    static std::string node(const std::string& base, int order) {
        return order == 0 ? base : order == 1 ? "der(" + base + ")" : "der(" + base + "," + std::to_string(order) + ")";
    }
    std::pair<std::string, double> find(const std::string& q) const {
        std::string r = q;
        double f = 1;
        for (auto it = parent_.find(r); it != parent_.end(); it = parent_.find(r)) {
            f *= it->second.second;
            r = it->second.first;
        }
        return {r, f};
    }
    // value(a) = f * value(b).
    void join(const std::string& a, const std::string& b, double f) {
        auto [ra, fa] = find(a);
        auto [rb, fb] = find(b);
        if (ra == rb) return;
        // value(ra) = value(a)/fa = f*fb/fa * value(rb); the smaller name is the root.
        if (rb < ra) parent_[ra] = {rb, f * fb / fa};
        else parent_[rb] = {ra, fa / (f * fb)};
    }
    std::map<std::string, std::pair<std::string, double>> parent_;
};

bool close(double a, double b) { return std::fabs(a - b) <= 1e-10 * (1 + std::max(std::fabs(a), std::fabs(b))); }

// ---- a consistent point of a mode at an event ---------------------------------

// Solves F = 0 for the free unknowns by minimum-norm Newton (x <- x - J^T (J J^T)^-1 F).
bool newton(const std::vector<GiNaC::ex>& f, const std::vector<GiNaC::symbol>& x, std::vector<double>& v) {
    const std::size_t m = f.size(), n = x.size();
    std::vector<std::vector<GiNaC::ex>> jac(m, std::vector<GiNaC::ex>(n));
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) jac[i][j] = f[i].diff(x[j]);
    auto eval = [&](const GiNaC::ex& e, const GiNaC::exmap& at, double& out) {
        try {
            GiNaC::ex r = GiNaC::evalf(e.subs(at, kExactSubs));
            if (!GiNaC::is_a<GiNaC::numeric>(r) || !GiNaC::ex_to<GiNaC::numeric>(r).is_real()) return false;
            out = GiNaC::ex_to<GiNaC::numeric>(r).to_double();
        } catch (const std::exception&) {
            return false;  // CLN's underflow or overflow far from a solution
        }
        return std::isfinite(out);
    };
    for (int it = 0; it < 60; ++it) {
        GiNaC::exmap at;
        for (std::size_t j = 0; j < n; ++j) at[x[j]] = v[j];
        std::vector<double> F(m);
        double norm = 0, scale = 1;
        for (std::size_t i = 0; i < m; ++i) {
            if (!eval(f[i], at, F[i])) return false;
            norm = std::max(norm, std::fabs(F[i]));
        }
        for (double a : v) scale = std::max(scale, std::fabs(a));
        if (norm <= 1e-14 * scale) return true;
        if (n == 0) return false;
        std::vector<std::vector<double>> J(m, std::vector<double>(n));
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j)
                if (!eval(jac[i][j], at, J[i][j])) return false;
        // (J J^T + mu I) y = F, by Gaussian elimination with partial pivoting.
        std::vector<std::vector<double>> A(m, std::vector<double>(m + 1));
        double tr = 0;
        for (std::size_t i = 0; i < m; ++i) {
            for (std::size_t k = 0; k < m; ++k) {
                double s = 0;
                for (std::size_t j = 0; j < n; ++j) s += J[i][j] * J[k][j];
                A[i][k] = s;
            }
            tr += A[i][i];
            A[i][m] = F[i];
        }
        const double mu = 1e-13 * (tr / static_cast<double>(std::max<std::size_t>(m, 1)) + 1e-300);
        for (std::size_t i = 0; i < m; ++i) A[i][i] += mu;
        for (std::size_t c = 0; c < m; ++c) {
            std::size_t p = c;
            for (std::size_t r = c + 1; r < m; ++r)
                if (std::fabs(A[r][c]) > std::fabs(A[p][c])) p = r;
            std::swap(A[c], A[p]);
            if (A[c][c] == 0) continue;
            for (std::size_t r = c + 1; r < m; ++r) {
                double q = A[r][c] / A[c][c];
                for (std::size_t k = c; k <= m; ++k) A[r][k] -= q * A[c][k];
            }
        }
        std::vector<double> y(m, 0);
        for (std::size_t c = m; c-- > 0;) {
            if (A[c][c] == 0) continue;
            double s = A[c][m];
            for (std::size_t k = c + 1; k < m; ++k) s -= A[c][k] * y[k];
            y[c] = s / A[c][c];
        }
        for (std::size_t j = 0; j < n; ++j) {
            double d = 0;
            for (std::size_t i = 0; i < m; ++i) d += J[i][j] * y[i];
            v[j] -= d;
            if (std::fabs(v[j]) < 1e-100) v[j] = 0;  // CLN's floats underflow on products of such
        }
    }
    return false;
}

// The completed system of the transition's source mode with the guard's
// root, solved for what `fixed` does not give. Returns every state and
// leading variable by name, and the time.
std::optional<std::map<std::string, double>> solve_point(const Audit& a, std::size_t transition,
                                                         const std::map<std::string, double>& fixed,
                                                         std::uint64_t seed) {
    const FlatModel& flat = a.fe->flat();
    const Transition& t = a.fe->modes().transitions.at(transition);
    const ModeStructure& ms = a.fe->state.structure->modes.at(static_cast<std::size_t>(t.from));
    if (ms.status != ModeStatus::Regular) return std::nullopt;
    std::vector<GiNaC::symbol> all(ms.states.begin(), ms.states.end());
    all.insert(all.end(), ms.leading.begin(), ms.leading.end());
    all.push_back(flat.symbols.time());
    std::vector<GiNaC::ex> f;
    for (const CompletedEquation& e : ms.consistency) f.push_back(e.residual);
    for (const CompletedEquation& e : ms.reduced) f.push_back(e.residual);
    if (!t.compound) f.push_back(t.guard);
    std::set<std::string> names;
    for (const auto& s : all) names.insert(s.get_name());
    GiNaC::exmap at = parameter_values(flat, f, names);
    std::vector<GiNaC::symbol> free;
    for (const auto& s : all)
        if (auto it = fixed.find(s.get_name()); it != fixed.end()) at[s] = std::fabs(it->second) < 1e-100 ? 0.0 : it->second;
        else free.push_back(s);
    for (auto& e : f) e = e.subs(at, kExactSubs);
    // Every symbol left must be a free unknown.
    std::set<std::string> free_names;
    for (const auto& s : free) free_names.insert(s.get_name());
    for (const auto& e : f)
        for (GiNaC::const_preorder_iterator i = e.preorder_begin(); i != e.preorder_end(); ++i)
            if (GiNaC::is_a<GiNaC::symbol>(*i) && !free_names.count(GiNaC::ex_to<GiNaC::symbol>(*i).get_name()))
                return std::nullopt;
    std::mt19937_64 rng(seed);
    for (int attempt = 0; attempt < 6; ++attempt) {
        std::vector<double> v(free.size());
        for (std::size_t j = 0; j < v.size(); ++j)
            v[j] = (0.3 + static_cast<double>(rng() % 1000) / 1000.0) * (rng() % 2 ? 1 : -1);
        if (!newton(f, free, v)) continue;
        std::map<std::string, double> out;
        for (const auto& s : all)
            if (auto it = fixed.find(s.get_name()); it != fixed.end()) out[s.get_name()] = it->second;
        for (std::size_t j = 0; j < free.size(); ++j) out[free[j].get_name()] = v[j];
        return out;
    }
    return std::nullopt;
}

std::optional<std::map<std::string, double>> consistent_point(const Audit& a, std::size_t transition,
                                                              const std::map<std::string, double>& fixed,
                                                              std::uint64_t seed) {
    try {
        return solve_point(a, transition, fixed, seed);
    } catch (const std::exception&) {
        return std::nullopt;  // GiNaC/CLN arithmetic failed at the start point
    }
}

const TransitionRestart& restart_of(const Audit& a, std::size_t t) {
    const TransitionRestart& r = a.fe->state.restarts->transitions.at(t);
    if (r.transition != static_cast<int>(t)) throw std::logic_error("restarts not parallel to transitions");
    return r;
}


// Restart values (v+ and rescaled impulses v_r) at the left limits.
std::optional<std::map<std::string, double>> restart_values(const Audit& a, const TransitionRestart& r,
                                                            const std::map<std::string, double>& left, double time,
                                                            std::string& why) {
    std::map<std::string, double> l;
    for (const auto& [base, sym] : r.system->left_limits) {
        auto it = left.find(base);
        if (it == left.end()) {
            why = "no left limit for " + base;
            return std::nullopt;
        }
        l[base] = it->second;
    }
    RestartSolution s;
    try {
        s = solve_restart(a.fe->flat(), *r.system, l, time);
    } catch (const std::exception& e) {
        why = std::string("solving the restart system threw: ") + e.what();
        return std::nullopt;
    }
    if (!s.solved || !s.locally_unique) {
        why = "the restart system is not solved: " + s.message;
        return std::nullopt;
    }
    std::map<std::string, double> out;
    for (const auto& [name, v] : s.values)
        if (name.back() == '+' || (name.size() > 2 && name.compare(name.size() - 2, 2, "_r") == 0)) out[name] = v;
    return out;
}

std::set<std::string> rule_ids(const Audit& a) {
    std::set<std::string> out;
    for (const Diagnostic& d : a.fe->state.sink.all()) out.insert(d.rule);
    return out;
}

// Mode ids that do not depend on the writing: "var=value" pairs sorted by
// variable (a reordering moves the mode variables). An implicit mode
// variable (an if-condition's relation) is named by its text, with the
// variant's aliases written back as their originals; when the relations
// still differ in text (a scaled or negated variable in the relation) but
// are as many, they are matched by their order.
class ModeKeys {
public:
    ModeKeys(const Audit& orig, const Audit& variant, const Variant& v) {
        names_o_ = variable_names(orig, nullptr);
        names_v_ = variable_names(variant, &v);
        std::vector<std::string> io, iv;
        for (std::size_t k = 0; k < orig.fe->modes().mode_variables.size(); ++k)
            if (orig.fe->modes().mode_variables[k].variable < 0) io.push_back(names_o_[k]);
        for (std::size_t k = 0; k < variant.fe->modes().mode_variables.size(); ++k)
            if (variant.fe->modes().mode_variables[k].variable < 0) iv.push_back(names_v_[k]);
        std::vector<std::string> so = io, sv = iv;
        std::sort(so.begin(), so.end());
        std::sort(sv.begin(), sv.end());
        if (so != sv && io.size() == iv.size()) {
            ordinal(orig, names_o_);
            ordinal(variant, names_v_);
        }
    }
    std::string original(const Audit& a, int mode) const { return key(a, mode, names_o_); }
    std::string variant(const Audit& a, int mode) const { return key(a, mode, names_v_); }

private:
    static std::vector<std::string> variable_names(const Audit& a, const Variant* v) {
        std::vector<std::string> out;
        for (const ModeVariable& mv : a.fe->modes().mode_variables) {
            std::string n = mv.name;
            if (v && mv.variable < 0)
                for (const auto& [name, im] : v->images)
                    if (im.factor == 1 && !im.original.empty())
                        for (std::size_t p = n.find(name); p != std::string::npos; p = n.find(name, p))
                            n.replace(p, name.size(), im.original);
            out.push_back(n);
        }
        return out;
    }
    static void ordinal(const Audit& a, std::vector<std::string>& names) {
        int k = 0;
        for (std::size_t i = 0; i < names.size(); ++i)
            if (a.fe->modes().mode_variables[i].variable < 0) names[i] = "relation#" + std::to_string(k++);
    }
    static std::string key(const Audit& a, int mode, const std::vector<std::string>& names) {
        const Mode& m = a.fe->modes().modes.at(static_cast<std::size_t>(mode));
        std::vector<std::string> parts;
        for (std::size_t i = 0; i < names.size() && i < m.values.size(); ++i)
            parts.push_back(names[i] + "=" + std::to_string(m.values[i]));
        std::sort(parts.begin(), parts.end());
        std::string out;
        for (const std::string& p : parts) out += (out.empty() ? "" : ",") + p;
        return out;
    }
    std::vector<std::string> names_o_, names_v_;
};

}  // namespace

Audit audit(const std::string& text) {
    Audit a;
    a.fe = std::make_unique<testing::FrontEnd>(text, "verification");
    return a;
}

Reference reference(const Audit& original, std::uint64_t seed) {
    Reference ref;
    ref.original = &original;
    const std::size_t n = original.fe->modes().transitions.size();
    ref.left.resize(n);
    ref.time.resize(n, 0);
    for (std::size_t t = 0; t < n; ++t) {
        const TransitionRestart& r = restart_of(original, t);
        if (!r.system) continue;
        ref.left[t] = consistent_point(original, t, {}, seed + t);
        if (ref.left[t]) ref.time[t] = ref.left[t]->at("time");
    }
    return ref;
}

Comparison compare(const Reference& ref, const Audit& variant, const Variant& v) {
    Comparison c;
    const Audit& orig = *ref.original;
    auto differ = [&](std::string what) { c.differences.push_back(std::move(what)); };
    if (!variant.complete()) {
        differ("the variant's audit stopped before the restart stage: " + variant.fe->diagnostics());
        return c;
    }
    const Names names(orig.fe->flat());
    // Findings: the same rule ids.
    const std::set<std::string> ro = rule_ids(orig), rv = rule_ids(variant);
    for (const std::string& r : ro)
        if (!rv.count(r)) differ("finding " + r + " is missing");
    for (const std::string& r : rv)
        if (!ro.count(r)) differ("finding " + r + " is new");
    // The modes.
    const ModeKeys keys(orig, variant, v);
    std::vector<std::string> mo, mv;
    for (std::size_t m = 0; m < orig.fe->modes().modes.size(); ++m) mo.push_back(keys.original(orig, static_cast<int>(m)));
    for (std::size_t m = 0; m < variant.fe->modes().modes.size(); ++m)
        mv.push_back(keys.variant(variant, static_cast<int>(m)));
    std::sort(mo.begin(), mo.end());
    std::sort(mv.begin(), mv.end());
    if (mo != mv) {
        std::string a, b;
        for (const std::string& m : mo) a += " {" + m + "}";
        for (const std::string& m : mv) b += " {" + m + "}";
        differ("modes differ:" + a + "\n      vs" + b);
    }
    // Transitions by (from, to); several between the same modes (a contact
    // and a rebound to the same mode) by their guard's text where it is the
    // same, else in order.
    const auto& ot = orig.fe->modes().transitions;
    const auto& vt = variant.fe->modes().transitions;
    std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> go, gv;
    for (std::size_t t = 0; t < ot.size(); ++t)
        go[{keys.original(orig, ot[t].from), keys.original(orig, ot[t].to)}].push_back(t);
    for (std::size_t t = 0; t < vt.size(); ++t)
        gv[{keys.variant(variant, vt[t].from), keys.variant(variant, vt[t].to)}].push_back(t);
    std::map<std::size_t, std::size_t> partner;  // original transition -> variant transition
    for (const auto& [key, list] : go) {
        std::vector<std::size_t> free = gv.count(key) ? gv.at(key) : std::vector<std::size_t>{};
        std::vector<std::size_t> unmatched;
        for (std::size_t t : list) {
            auto same = std::find_if(free.begin(), free.end(),
                                     [&](std::size_t u) { return vt[u].guard_text == ot[t].guard_text; });
            if (same == free.end()) {
                unmatched.push_back(t);
                continue;
            }
            partner[t] = *same;
            free.erase(same);
        }
        for (std::size_t k = 0; k < unmatched.size() && k < free.size(); ++k) partner[unmatched[k]] = free[k];
    }
    std::set<std::size_t> used;
    for (const auto& [o, u] : partner) used.insert(u);
    for (std::size_t u = 0; u < vt.size(); ++u)
        if (!used.count(u))
            differ(variant.fe->modes().modes.at(static_cast<std::size_t>(vt[u].from)).id + " -> " +
                   variant.fe->modes().modes.at(static_cast<std::size_t>(vt[u].to)).id +
                   ": a transition only the variant has");
    for (std::size_t t = 0; t < ot.size(); ++t) {
        const Transition& tr = ot[t];
        const std::string where = orig.fe->modes().modes.at(static_cast<std::size_t>(tr.from)).id + " -> " +
                                  orig.fe->modes().modes.at(static_cast<std::size_t>(tr.to)).id;
        if (!partner.count(t)) {
            differ(where + ": no such transition in the variant");
            continue;
        }
        const std::size_t u = partner.at(t);
        const TransitionRestart& a = restart_of(orig, t);
        const TransitionRestart& b = restart_of(variant, u);
        ++c.transitions;
        if (a.verdict != b.verdict) {
            differ(fmt::format("{}: verdict {} vs {} ({})", where, verdict_name(a.verdict), verdict_name(b.verdict),
                               b.explanation));
            continue;
        }
        // Impulse orders, through the images and aliases.
        std::map<std::string, int> oa, ob;
        for (const auto& [n, o] : a.impulse_orders) oa[names.original(n).key] = o;
        for (const auto& [n, o] : b.impulse_orders) {
            auto cn = names.variant(n, v);
            if (!cn) continue;  // a new variable that stands for nothing of the original
            if (auto p = ob.find(cn->key); p != ob.end() && p->second != o)
                differ(fmt::format("{}: {} has two impulse orders in the variant", where, cn->key));
            ob[cn->key] = o;
        }
        if (oa != ob) {
            std::string sa, sb;
            for (const auto& [n, o] : oa) sa += fmt::format(" {}:{}", n, o);
            for (const auto& [n, o] : ob) sb += fmt::format(" {}:{}", n.empty() ? "0" : n, o);
            differ(fmt::format("{}: impulse orders{} vs{}", where, sa, sb));
        }
        std::set<std::string> ja, jb;
        for (const std::string& n : a.position_jump) ja.insert(names.original(n).key);
        for (const std::string& n : b.position_jump)
            if (auto cn = names.variant(n, v)) jb.insert(cn->key);
        if (ja != jb) differ(where + ": the positions that jump differ");
        // Restart values at the original's consistent left limits.
        if (!a.system || !b.system || !ref.left[t]) continue;
        const std::map<std::string, double>& left = *ref.left[t];
        // The variant's states from the original's values, the rest solved.
        const ModeStructure& ms = variant.fe->state.structure->modes.at(static_cast<std::size_t>(
            vt[u].from));
        std::map<std::string, double> fixed{{"time", ref.time[t]}};
        for (const auto& s : ms.states) {
            auto cn = names.variant(s.get_name(), v);
            if (!cn) continue;
            if (cn->key.empty()) {
                fixed[s.get_name()] = 0;
                continue;
            }
            // The original's value of the canonical quantity: find a name of its class.
            for (const auto& [n, x] : left) {
                Canonical co = names.original(n);
                if (co.key == cn->key) {
                    fixed[s.get_name()] = cn->factor * x / co.factor;
                    break;
                }
            }
        }
        auto vleft = consistent_point(variant, u, fixed, 7 + t);
        if (!vleft) {
            differ(where + ": the variant has no consistent point at the original's left limits");
            continue;
        }
        std::string why;
        auto va = restart_values(orig, a, left, ref.time[t], why);
        if (!va) continue;  // the original itself gives no values here: nothing to compare
        auto vb = restart_values(variant, b, *vleft, ref.time[t], why);
        if (!vb) {
            differ(where + ": the variant's restart has no values where the original's has: " + why);
            continue;
        }
        std::map<std::string, double> cb;
        for (const auto& [n, x] : *vb)
            if (auto cn = names.variant(n, v); cn && !cn->key.empty()) cb[cn->key] = x / cn->factor;
        ++c.value_transitions;
        for (const auto& [n, x] : *va) {
            Canonical co = names.original(n);
            auto p = cb.find(co.key);
            if (p == cb.end()) {
                differ(fmt::format("{}: the variant's restart has no value for {}", where, n));
                continue;
            }
            ++c.values;
            if (!close(x / co.factor, p->second))
                differ(fmt::format("{}: restart value {} = {:.15g} vs {:.15g}", where, n, x / co.factor, p->second));
        }
    }
    return c;
}

}  // namespace modeaudit::metamorphic
