#include "simulation/mode_system.h"
#include "simulation/leading_blocks.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

#include "common/internal_error.h"
#include "flatten/expression_builder.h"

namespace modeaudit::sim {

namespace {

using GiNaC::ex;

// Positions of symbols in a list, for one walk over an expression instead
// of one has() per symbol (n equations times n unknowns was quadratic: 50 s
// to compile a mode of 5,000 independent states).
using SymbolIndex = std::map<ex, std::size_t, GiNaC::ex_is_less>;

SymbolIndex index_of(const std::vector<GiNaC::symbol>& syms) {
    SymbolIndex out;
    for (std::size_t k = 0; k < syms.size(); ++k) out.emplace(syms[k], k);
    return out;
}

// The positions (in `index`) of the symbols `e` contains, ascending.
std::vector<std::size_t> positions_in(const ex& e, const SymbolIndex& index) {
    std::vector<std::size_t> out;
    for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it))
            if (auto f = index.find(*it); f != index.end()) out.push_back(f->second);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// Leading variables that F_DOWN fixes to a constant (no state, no time, no
// other unknown leading variable): a library resistor's R_actual = R, a
// heat port's T_heatPort = T, and chains of them. Each defining row becomes
// y - value and the value replaces y in the other rows, so that
// v = R_actual*i is seen as v = R*i: affine, solved without Newton's method
// (whose Jacobian at the zero guess is singular there).
void fix_constant_leading(std::vector<ex>& down, const std::vector<GiNaC::symbol>& leading,
                          const SymbolIndex& leading_index, const SymbolIndex& state_index,
                          const GiNaC::symbol& time) {
    std::vector<std::vector<std::size_t>> uses(down.size()), rows_of(leading.size());
    std::vector<std::size_t> open(down.size());
    for (std::size_t i = 0; i < down.size(); ++i) {
        uses[i] = positions_in(down[i], leading_index);
        open[i] = uses[i].size();
        for (std::size_t j : uses[i]) rows_of[j].push_back(i);
    }
    GiNaC::exmap fixed;
    std::vector<bool> known(leading.size(), false), defining(down.size(), false);
    std::vector<std::size_t> work;
    for (std::size_t i = 0; i < down.size(); ++i)
        if (open[i] == 1) work.push_back(i);
    while (!work.empty()) {
        const std::size_t i = work.back();
        work.pop_back();
        if (defining[i] || open[i] != 1) continue;
        ex row = fixed.empty() ? down[i] : down[i].subs(fixed, kExactSubs).expand();
        if (row.has(time) || !positions_in(row, state_index).empty()) continue;
        std::size_t j = leading.size();
        for (std::size_t u : uses[i])
            if (!known[u]) j = u;
        if (j == leading.size()) continue;
        const ex d = row.diff(leading[j]);
        if (!GiNaC::is_a<GiNaC::numeric>(d) || d.is_zero()) continue;
        const ex value = (-(row - d * leading[j]) / d).expand();
        if (value.has(leading[j])) continue;
        fixed[leading[j]] = value;
        known[j] = true;
        defining[i] = true;
        down[i] = leading[j] - value;
        for (std::size_t k : rows_of[j])
            if (--open[k] == 1 && !defining[k]) work.push_back(k);
    }
    if (fixed.empty()) return;
    for (std::size_t i = 0; i < down.size(); ++i)
        if (!defining[i]) down[i] = down[i].subs(fixed, kExactSubs);
}

// True when `e` is built of sums, products, powers and the elementary
// functions only, so that its derivative encloses its slope over an interval
// (the centered form, event_detection.h). min, max, abs and the like have a
// derivative that is one branch's, wrong across their kink.
bool smooth(const ex& e) {
    static const std::set<std::string> elementary = {"sin",  "cos",  "tan",  "exp",  "log",  "sinh", "cosh",
                                                     "tanh", "asin", "acos", "atan", "sqrt"};
    for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it) {
        if (GiNaC::is_a<GiNaC::function>(*it)) {
            if (!elementary.count(GiNaC::ex_to<GiNaC::function>(*it).get_name())) return false;
        } else if (!GiNaC::is_a<GiNaC::symbol>(*it) && !GiNaC::is_a<GiNaC::numeric>(*it) &&
                   !GiNaC::is_a<GiNaC::add>(*it) && !GiNaC::is_a<GiNaC::mul>(*it) &&
                   !GiNaC::is_a<GiNaC::power>(*it) && !GiNaC::is_a<GiNaC::constant>(*it)) {
            return false;
        }
    }
    return true;
}

// Whether `e` holds a jump taken literally: an if-expression inside noEvent
// (ma_select) or a noEvent sign, floor, ceil, div, mod or rem. The
// Krawczyk enclosure (implicit_function.cpp) rests on the mean value theorem,
// which fails across a jump, so guards and asserts followed through such an
// F_DOWN are refused rather than searched without a guarantee.
bool literal_jump(const ex& e) {
    // Operators that jump; inside noEvent their arguments carry ma_noevent.
    static const std::set<std::string> jumps = {"ma_sign", "ma_floor", "ma_ceil", "ma_div", "ma_mod", "ma_rem"};
    for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it) {
        if (!GiNaC::is_a<GiNaC::function>(*it)) continue;
        const std::string name = GiNaC::ex_to<GiNaC::function>(*it).get_name();
        if (name == "ma_select" || name == "ma_select_ge") return true;
        if (!jumps.count(name)) continue;
        for (std::size_t k = 0; k < it->nops(); ++k)
            if (GiNaC::is_a<GiNaC::function>(it->op(k)) &&
                GiNaC::ex_to<GiNaC::function>(it->op(k)).get_name() == "ma_noevent")
                return true;
    }
    return false;
}
const char* const kLiteralJump =
    "it depends on variables that F_DOWN defines implicitly through a jump taken literally (an if-expression, "
    "sign, floor, ceil, div, mod or rem inside noEvent), which the guaranteed search cannot enclose";

// An assert's condition with each Boolean variable that no mode fixes but
// an equation defines by a relation (`Boolean b = x < 0.5;` that selects no
// equation, so the modes stage keeps no mode variable for it) replaced by
// that relation, so that the assert reads the relation's value along the run
// (it read false before: a violation at t = 0 that was none). Definitions
// with pre() (latches) are left as they are.
ConditionPtr inline_relation_variables(const ConditionPtr& c, const FlatModel& flat,
                                       const std::map<int, std::int64_t>& mode_variables, int depth = 0) {
    if (depth > 64) return c;  // a definition cycle: left to the modes stage
    auto has_pre = [](const Condition& d, auto&& self) -> bool {
        if (d.kind == Condition::Kind::Variable) return d.pre;
        for (const ConditionPtr& o : d.operands)
            if (self(*o, self)) return true;
        return false;
    };
    switch (c->kind) {
        case Condition::Kind::Variable: {
            if (c->pre || mode_variables.count(c->variable)) return c;
            for (const RelationDefinition& d : flat.relation_definitions)
                if (d.variable == c->variable && d.condition && !has_pre(*d.condition, has_pre))
                    return inline_relation_variables(d.condition, flat, mode_variables, depth + 1);
            return c;
        }
        case Condition::Kind::Not:
        case Condition::Kind::And:
        case Condition::Kind::Or: {
            auto copy = std::make_shared<Condition>(*c);
            for (ConditionPtr& o : copy->operands) o = inline_relation_variables(o, flat, mode_variables, depth + 1);
            return copy;
        }
        default: return c;
    }
}

void collect_relations(const Condition& c, std::vector<const Condition*>& out, std::string& unsupported) {
    switch (c.kind) {
        case Condition::Kind::Relation: out.push_back(&c); break;
        case Condition::Kind::Not:
        case Condition::Kind::And:
        case Condition::Kind::Or:
            for (const ConditionPtr& o : c.operands) collect_relations(*o, out, unsupported);
            break;
        case Condition::Kind::Constant:
        case Condition::Kind::Variable:
        case Condition::Kind::Initial: break;
        case Condition::Kind::Sample: unsupported = "sample() in an assert condition is not monitored"; break;
    }
}

// A rational function in a form that does not depend on GiNaC's term order:
// lsolve's answers (through normal()) come with signs and factor orders
// that follow hash values, which change from run to run with the address
// layout, and so would the tapes' rounding. Numerator and denominator are
// expanded and both divided by the denominator's value at a fixed rational
// point, which fixes the common factor (and sign) left free.
ex canonical_rational(const ex& e) {
    const ex nd = e.numer_denom();
    const ex num = nd.op(0).expand(), den = nd.op(1).expand();
    if (GiNaC::is_a<GiNaC::numeric>(den)) return (num / den).expand();
    std::map<std::string, GiNaC::symbol> symbols;
    for (const ex& part : {num, den})
        for (GiNaC::const_preorder_iterator it = part.preorder_begin(); it != part.preorder_end(); ++it)
            if (GiNaC::is_a<GiNaC::symbol>(*it)) symbols.emplace(GiNaC::ex_to<GiNaC::symbol>(*it).get_name(), GiNaC::ex_to<GiNaC::symbol>(*it));
    for (int attempt = 0; attempt < 4; ++attempt) {
        GiNaC::exmap at;
        int k = 0;
        for (const auto& [name, sym] : symbols) at[sym] = GiNaC::numeric(2 * k++ + 3 + attempt, 7 + attempt);
        const ex d0 = den.subs(at, kExactSubs);
        if (GiNaC::is_a<GiNaC::numeric>(d0) && !d0.is_zero()) return (num / d0).expand() / (den / d0).expand();
    }
    return e;
}

}  // namespace

ModeSystem::ModeSystem(const FlatModel& flat, const ModeSet& modes, int mode_index, const ModeStructure& structure)
    : mode_(mode_index) {
    const Mode& mode = modes.modes.at(static_cast<std::size_t>(mode_index));
    mode_id_ = mode.id;
    if (structure.status != ModeStatus::Regular)
        throw std::runtime_error(fmt::format("mode '{}' is {}: it has no index-reduced system to integrate", mode.id,
                                             mode_status_name(structure.status)));
    leading_ = structure.leading;
    for (const GiNaC::symbol& s : leading_) leading_names_.push_back(s.get_name());

    // Alias states: a consistency condition a - b = 0 or a + b = 0 between
    // two states (the rope's der(x) = vx, which the Sigma-method keeps as
    // two states) leaves one of them to integrate and the other its copy.
    // Fewer states and constraints make every step cheaper; the copies are
    // reported with the states (all_state_names, expand).
    GiNaC::exmap alias_subs;
    {
        const std::vector<GiNaC::symbol>& all_states = structure.states;
        std::vector<int> rep(all_states.size());
        std::vector<double> sign(all_states.size(), 1.0);
        for (std::size_t i = 0; i < rep.size(); ++i) rep[i] = static_cast<int>(i);
        auto index_of = [&](const ex& e) -> int {
            for (std::size_t i = 0; i < all_states.size(); ++i)
                if (e.is_equal(all_states[i])) return static_cast<int>(i);
            return -1;
        };
        // State i's representative and the sign with which i copies it.
        auto find = [&](int i) {
            double sg = 1;
            while (rep[static_cast<std::size_t>(i)] != i) {
                sg *= sign[static_cast<std::size_t>(i)];
                i = rep[static_cast<std::size_t>(i)];
            }
            return std::make_pair(i, sg);
        };
        auto plain = [&](int i) {
            auto m = flat.symbols.meaning(all_states[static_cast<std::size_t>(i)]);
            return m && m->role == SymbolTable::Meaning::Role::Variable;
        };
        for (const CompletedEquation& c : structure.consistency) {
            const ex r = c.residual.expand();
            if (!GiNaC::is_a<GiNaC::add>(r) || r.nops() != 2) continue;
            int idx[2];
            double coef[2];
            bool ok = true;
            for (std::size_t k = 0; k < 2 && ok; ++k) {
                ex term = r.op(k), factor = 1;
                if (GiNaC::is_a<GiNaC::mul>(term) && term.nops() == 2 && GiNaC::is_a<GiNaC::numeric>(term.op(1))) {
                    factor = term.op(1);
                    term = term.op(0);
                }
                idx[k] = index_of(term);
                ok = idx[k] >= 0 && GiNaC::is_a<GiNaC::numeric>(factor) &&
                     (factor.is_equal(1) || factor.is_equal(-1));
                coef[k] = ok && factor.is_equal(-1) ? -1.0 : 1.0;
            }
            if (!ok) continue;
            // Follow both to their representatives (the sign composes).
            const auto [a, sa] = find(idx[0]);
            const auto [b, sb] = find(idx[1]);
            if (a == b) continue;
            // coef0 * s0 + coef1 * s1 = 0 with s0 = sa * A, s1 = sb * B: B = -(coef0 sa)/(coef1 sb) A.
            const double ratio = -(coef[0] * sa) / (coef[1] * sb);
            // Keep a plain variable rather than a derivative, else the earlier.
            const bool keep_a = plain(a) != plain(b) ? plain(a) : a < b;
            if (keep_a) rep[static_cast<std::size_t>(b)] = a, sign[static_cast<std::size_t>(b)] = ratio;
            else rep[static_cast<std::size_t>(a)] = b, sign[static_cast<std::size_t>(a)] = 1 / ratio;
        }
        std::vector<int> core(all_states.size(), -1);
        for (std::size_t i = 0; i < all_states.size(); ++i)
            if (rep[i] == static_cast<int>(i)) {
                core[i] = static_cast<int>(states_.size());
                states_.push_back(all_states[i]);
            }
        for (std::size_t i = 0; i < all_states.size(); ++i) {
            const auto [r, sg] = find(static_cast<int>(i));
            all_state_names_.push_back(all_states[i].get_name());
            expansion_.push_back(Slot{true, static_cast<std::size_t>(core[static_cast<std::size_t>(r)]), sg});
            if (r != static_cast<int>(i)) alias_subs[all_states[i]] = sg * all_states[static_cast<std::size_t>(r)];
        }
    }
    for (const GiNaC::symbol& s : states_) state_names_.push_back(s.get_name());
    for (std::size_t k = 0; k < modes.mode_variables.size(); ++k)
        if (modes.mode_variables[k].variable >= 0)
            mode_variable_values_[modes.mode_variables[k].variable] = mode.values.at(k);

    // d/dt of each state: the next derivative, a state or a leading variable.
    for (const GiNaC::symbol& s : states_) {
        auto m = flat.symbols.meaning(s);
        MODEAUDIT_ASSERT(m && (m->role == SymbolTable::Meaning::Role::Variable ||
                               m->role == SymbolTable::Meaning::Role::Derivative),
                         "a state of mode " + mode.id + " is not a variable or derivative: " + s.get_name());
        const int order = m->role == SymbolTable::Meaning::Role::Variable ? 0 : m->order;
        auto next = flat.symbols.find_derivative(m->index, order + 1);
        MODEAUDIT_ASSERT(next.has_value(), "the derivative of state " + s.get_name() + " has no symbol");
        Slot slot;
        bool found = false;
        for (std::size_t j = 0; j < all_state_names_.size() && !found; ++j)
            if (structure.states[j].is_equal(*next)) slot = expansion_[j], found = true;
        for (std::size_t j = 0; j < leading_.size() && !found; ++j)
            if (leading_[j].is_equal(*next)) slot = Slot{false, j}, found = true;
        MODEAUDIT_ASSERT(found, "the derivative of state " + s.get_name() + " is neither a state nor leading");
        derivative_.push_back(slot);
    }

    std::set<std::string> own;
    for (const auto& n : all_state_names_) own.insert(n);
    for (const auto& n : leading_names_) own.insert(n);
    own.insert(flat.symbols.time().get_name());
    std::vector<ex> all;
    for (const CompletedEquation& c : structure.reduced) all.push_back(c.residual);
    for (const CompletedEquation& c : structure.consistency) all.push_back(c.residual);
    for (const Transition& t : modes.transitions)
        if (t.from == mode_index) all.push_back(t.guard);
    for (int a : mode.asserts) {
        std::vector<const Condition*> rel;
        std::string ignored;
        collect_relations(*flat.asserts.at(static_cast<std::size_t>(a)).condition, rel, ignored);
        for (const Condition* r : rel) all.push_back(r->lhs - r->rhs);
    }
    GiNaC::exmap params = parameter_values(flat, all, own);
    params.insert(alias_subs.begin(), alias_subs.end());

    // Discrete variables in the equations: a mode variable's value is this
    // mode's; any other (a sampled value, a counter) is a tape parameter the
    // simulation sets at each segment (set_parameters). Between events
    // pre(v) is v.
    std::set<int> tracked;
    for (const ex& e : all)
        for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
            if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
            const GiNaC::symbol& sym = GiNaC::ex_to<GiNaC::symbol>(*it);
            auto m = flat.symbols.meaning(sym);
            if (!m || (m->role != SymbolTable::Meaning::Role::Variable && m->role != SymbolTable::Meaning::Role::Pre))
                continue;
            const FlatVariable& v = flat.variables.at(static_cast<std::size_t>(m->index));
            if (v.variability != Variability::Discrete) continue;
            if (auto mv = mode_variable_values_.find(m->index); mv != mode_variable_values_.end())
                params[sym] = static_cast<long>(mv->second);
            else {
                tracked.insert(m->index);
                if (m->role == SymbolTable::Meaning::Role::Pre) params[sym] = flat.symbols.variable(m->index);
            }
        }
    for (int v : tracked) {
        parameters_.push_back(flat.symbols.variable(v));
        parameter_sources_.push_back(ParameterSource{v, -1});
    }

    // F_DOWN and its Jacobians.
    std::vector<ex> down, fy, fx;
    // The event-generating operators are frozen into branch parameters
    // (event_operators.h), appended to the parameters as they appear.
    auto add_branch_parameters = [&] {
        for (std::size_t j = branch_slot_.size(); j < events_.parameters().size(); ++j) {
            branch_slot_.push_back(parameters_.size());
            parameters_.push_back(events_.parameters()[j]);
            parameter_sources_.push_back(ParameterSource{-1, -1, static_cast<int>(j)});
        }
    };
    for (const CompletedEquation& c : structure.reduced)
        down.push_back(events_.freeze(c.residual.subs(params, kExactSubs)));
    add_branch_parameters();
    const SymbolIndex leading_index = index_of(leading_), state_index = index_of(states_);
    fix_constant_leading(down, leading_, leading_index, state_index, flat.symbols.time());
    affine_ = true;
    constant_ = true;
    for (std::size_t i = 0; i < down.size(); ++i) {
        // Only the symbols the equation contains: a zero diff() is far dearer.
        for (std::size_t j : positions_in(down[i], leading_index)) {
            ex d = down[i].diff(leading_[j]);
            if (d.is_zero()) continue;
            fy_.emplace_back(i, j);
            fy.push_back(d);
            if (!positions_in(d, leading_index).empty()) affine_ = false;
            if (!GiNaC::is_a<GiNaC::numeric>(d)) constant_ = false;
        }
        for (std::size_t j : positions_in(down[i], state_index)) {
            ex d = down[i].diff(states_[j]);
            if (d.is_zero()) continue;
            fx_.emplace_back(i, j);
            fx.push_back(d);
        }
    }
    if (!affine_) constant_ = false;
    const bool down_jumps = std::any_of(down.begin(), down.end(), [](const ex& e) { return literal_jump(e); });
    std::vector<GiNaC::symbol> down_inputs = states_;
    down_inputs.insert(down_inputs.end(), leading_.begin(), leading_.end());
    down_inputs.push_back(flat.symbols.time());
    down_ = Tape(down_inputs, parameters_, {down, fy, fx});

    // F_UP and its Jacobian.
    std::vector<ex> up, upx;
    for (const CompletedEquation& c : structure.consistency) {
        ex e = events_.freeze(c.residual.subs(params, kExactSubs));
        if (!e.expand().is_zero()) up.push_back(e);  // an alias condition itself holds identically now
    }
    add_branch_parameters();
    up_rows_ = up.size();
    for (const ex& e : up) up_moving_ = up_moving_ || e.has(flat.symbols.time());
    for (std::size_t i = 0; i < up.size(); ++i)
        for (std::size_t j : positions_in(up[i], state_index)) {
            ex d = up[i].diff(states_[j]);
            if (d.is_zero()) continue;
            upx_.emplace_back(i, j);
            upx.push_back(d);
        }
    std::vector<GiNaC::symbol> up_inputs = states_;
    up_inputs.push_back(flat.symbols.time());
    up_ = Tape(up_inputs, parameters_, {up, upx});

    // Guards, in the states.
    std::optional<GiNaC::exmap> solved;  // leading -> expression in states (affine F_DOWN only)
    auto solve_symbolically = [&]() -> const GiNaC::exmap& {
        if (!solved) {
            GiNaC::lst eqs, syms;
            for (const ex& d : down) eqs.append(d == 0);
            for (const GiNaC::symbol& s : leading_) syms.append(s);
            ex sol = GiNaC::lsolve(eqs, syms);
            solved = GiNaC::exmap{};
            if (sol.nops() == leading_.size())
                for (std::size_t k = 0; k < sol.nops(); ++k)
                    (*solved)[sol.op(k).lhs()] = canonical_rational(sol.op(k).rhs());
        }
        return *solved;
    };
    // Where F_DOWN as a whole is not affine, block by block (leading_blocks.h).
    std::optional<BlockSolution> by_blocks;
    auto solved_in_states = [&](const ex& e) -> std::optional<ex> {
        if (affine_) {
            if (solve_symbolically().empty()) return std::nullopt;
            return e.subs(solve_symbolically(), kExactSubs).expand();
        }
        if (!by_blocks) by_blocks.emplace(down, leading_, fy_, canonical_rational);
        return by_blocks->substitute(e);
    };
    for (std::size_t ti = 0; ti < modes.transitions.size(); ++ti) {
        const Transition& t = modes.transitions[ti];
        // A combined transition has no guard of its own: its parts fire.
        if (t.from != mode_index || !t.parts.empty()) continue;
        Guard g;
        g.transition = static_cast<int>(ti);
        g.text = t.guard_text;
        // Operators that jump are frozen: the guard jumps at their events.
        ex e = events_.freeze(t.guard.subs(params, kExactSubs), true);
        add_branch_parameters();
        if (t.sampled) {
            // time - (the clock's next instant), a parameter the simulation
            // moves on after each firing.
            GiNaC::symbol next("next_sample_" + std::to_string(ti));
            parameters_.push_back(next);
            parameter_sources_.push_back(ParameterSource{-1, static_cast<int>(ti)});
            e = flat.symbols.time() - next;
        }
        if (!positions_in(e, leading_index).empty()) {
            // In the states where F_DOWN can be solved symbolically, else
            // followed through F_DOWN (ImplicitFunction).
            if (auto solved_e = solved_in_states(e)) e = *solved_e;
            else g.implicit = true;
        }
        if (g.implicit && down_jumps) g.unsupported = kLiteralJump;
        g.in_states = e;
        std::vector<GiNaC::symbol> inputs = g.implicit ? down_inputs : states_;
        if (!g.implicit) inputs.push_back(flat.symbols.time());
        try {
            g.tape = Tape(inputs, parameters_, {{e}});
        } catch (const TapeError& err) {
            g.unsupported = err.what();
        }
        if (!g.implicit && g.unsupported.empty() && smooth(e)) {
            // The gradient for the centered enclosure (event_detection.h).
            try {
                std::vector<ex> gradient;
                for (std::size_t i : TapeFunction::slope_inputs(g.tape)) gradient.push_back(e.diff(states_[i]));
                gradient.push_back(e.diff(flat.symbols.time()));
                g.slope = Tape(inputs, parameters_, {gradient});
            } catch (const TapeError&) {
                g.slope = Tape();  // a function with no derivative: the natural enclosure alone
            }
        }
        guards_.push_back(std::move(g));
    }

    // The exit guards of the operators' branches, in the states like the
    // guards; and the branches' plain arguments, for a choice at a point.
    branch_guards_ = events_.exit_guards();
    for (const BranchGuard& bg : branch_guards_) {
        ex e = bg.expression;
        bool implicit = false;
        if (!positions_in(e, leading_index).empty()) {
            if (auto solved_e = solved_in_states(e)) e = *solved_e;
            else implicit = true;
        }
        std::vector<GiNaC::symbol> inputs = implicit ? down_inputs : states_;
        if (!implicit) inputs.push_back(flat.symbols.time());
        branch_tapes_.emplace_back(inputs, parameters_, std::vector<std::vector<ex>>{{e}});
        branch_implicit_.push_back(implicit);
    }
    {
        std::vector<ex> arguments;
        for (const Branch& b : events_.branches()) arguments.push_back(b.plain);
        if (!arguments.empty()) branch_arguments_ = Tape(down_inputs, parameters_, {arguments});
    }

    // Asserts of this mode.
    for (int a : mode.asserts) {
        const FlatAssert& fa = flat.asserts.at(static_cast<std::size_t>(a));
        AssertCheck c;
        c.assert_index = a;
        c.message = fa.message;
        c.level = fa.level.empty() ? "error" : fa.level;
        c.condition = inline_relation_variables(fa.condition, flat, mode_variable_values_);
        collect_relations(*c.condition, c.relations, c.unsupported);
        std::vector<ex> margins;
        for (const Condition* r : c.relations) margins.push_back((r->lhs - r->rhs).subs(params, kExactSubs));
        if (c.unsupported.empty()) {
            try {
                c.tape = Tape(down_inputs, parameters_, {margins});
            } catch (const TapeError& err) {
                c.unsupported = err.what();
            }
        }
        if (c.unsupported.empty()) {
            // The margins in the states and time, for the search along the
            // interpolant (like the guards).
            std::vector<ex> in_states = margins;
            bool ok = true;
            for (ex& e : in_states) {
                if (positions_in(e, leading_index).empty()) continue;
                auto solved_e = solved_in_states(e);
                if (!solved_e) {
                    ok = false;
                    break;
                }
                e = *solved_e;
            }
            // Not in the states alone: the margins' tape followed through
            // F_DOWN (ImplicitFunction).
            c.implicit = !ok;
            c.on_interpolant = c.implicit;
            if (c.implicit && down_jumps) {
                c.unsupported = kLiteralJump;
                c.on_interpolant = false;
            }
            if (ok) {
                std::vector<GiNaC::symbol> inputs = states_;
                inputs.push_back(flat.symbols.time());
                try {
                    c.state_tape = Tape(inputs, parameters_, {in_states});
                    c.on_interpolant = true;
                } catch (const TapeError&) {
                    c.on_interpolant = false;
                }
            }
        }
        asserts_.push_back(std::move(c));
    }
    // An affine F_DOWN whose matrix depends on the states (the taut rope's
    // lambda*x): its symbolic solution, compiled, replaces the LU
    // factorization at every right-hand side. Only while it stays small
    // (the solution of a large system can grow far beyond F_DOWN); where
    // its denominators vanish the Newton path below takes over.
    if (affine_ && !constant_ && leading_.size() <= 12) {
        const GiNaC::exmap& sol = solve_symbolically();
        if (sol.size() == leading_.size()) {
            // The leading variables the state derivatives are (the rope's
            // der(vx), der(vy)) in the first group, so that the right-hand
            // side runs only the instructions they need; the others
            // (lambda, declared quantities such as an energy) after.
            std::vector<ex> needed, others;
            std::vector<std::size_t> order_needed, order_others;
            for (std::size_t j = 0; j < leading_.size(); ++j) {
                const bool used = std::any_of(derivative_.begin(), derivative_.end(),
                                              [&](const Slot& d) { return !d.is_state && d.index == j; });
                (used ? needed : others).push_back(sol.at(leading_[j]));
                (used ? order_needed : order_others).push_back(j);
            }
            explicit_order_ = order_needed;
            explicit_order_.insert(explicit_order_.end(), order_others.begin(), order_others.end());
            std::vector<GiNaC::symbol> inputs = states_;
            inputs.push_back(flat.symbols.time());
            try {
                Tape t(inputs, parameters_, {needed, others});
                if (t.instruction_count() <= 4 * down_.instruction_count() + 64) {
                    explicit_ = std::move(t);
                    explicit_ready_ = true;
                }
            } catch (const TapeError&) {
            }
        }
    }
    for (const Guard& g : guards_) {
        if (!g.unsupported.empty()) guard_functions_.push_back(nullptr);
        else if (g.implicit) guard_functions_.push_back(std::make_unique<ImplicitFunction>(*this, g.tape));
        else guard_functions_.push_back(std::make_unique<TapeFunction>(g.tape, g.slope.output_count() ? &g.slope : nullptr));
    }
    for (std::size_t i = 0; i < branch_tapes_.size(); ++i) {
        if (branch_implicit_[i]) branch_functions_.push_back(std::make_unique<ImplicitFunction>(*this, branch_tapes_[i]));
        else branch_functions_.push_back(std::make_unique<TapeFunction>(branch_tapes_[i]));
    }
    parameter_values_.assign(parameters_.size(), 0.0);
    for (std::size_t b = 0; b < events_.branches().size(); ++b) {
        // Until chosen: the side +1, the integer 0 with its region.
        const Branch& br = events_.branches()[b];
        std::vector<double> p(EventOperators::parameter_count(br.kind));
        EventOperators::choose(br.kind, 0.5, p.data());
        for (std::size_t k = 0; k < p.size(); ++k) parameter_values_[branch_slot_[br.first + k]] = p[k];
    }
    apply_parameters();
    for (const AssertCheck& c : asserts_) {
        if (!c.on_interpolant) assert_functions_.push_back(nullptr);
        else if (c.implicit) assert_functions_.push_back(std::make_unique<ImplicitFunction>(*this, c.tape));
        else assert_functions_.push_back(std::make_unique<TapeFunction>(c.state_tape));
    }
    const std::size_t m = leading_.size();
    guess_.assign(m, 0.0);
    k_mid_.resize(states_.size() + 1);
    k_y_.resize(m);
    k_c_.resize(m * m);
    k_in_.resize(down_inputs.size());
    k_out_.resize(down_.output_count());
    k_r_.resize(m);
    k_box_.resize(m);
    k_next_.resize(m);
    k_jac_.resize(m * m);
    in_.resize(down_inputs.size());
    out_.resize(down_.output_count());
    explicit_in_.resize(states_.size() + 1);
    explicit_out_.resize(explicit_.output_count());
    up_in_.resize(states_.size() + 1);
    up_out_.resize(up_.output_count());
    up_jac_.resize(up_rows_ * states_.size());
    up_dx_.resize(states_.size());
    up_je_.resize(up_rows_);
    assert_in_.resize(down_inputs.size());
}

void ModeSystem::set_parameters(const std::vector<double>& values) {
    MODEAUDIT_ASSERT(values.size() == parameters_.size(), "wrong number of parameter values for mode " + mode_id_);
    parameter_values_ = values;
    apply_parameters();
}

double ModeSystem::branch_parameter(std::size_t j) const {
    const std::size_t slot = branch_slot_.at(j);
    return slot < parameter_values_.size() ? parameter_values_[slot] : 0.0;
}

double ModeSystem::branch_guard_value(std::size_t i, double t, const double* x) const {
    std::vector<double>& in = up_in_;  // states, time
    std::copy(x, x + states_.size(), in.begin());
    in[states_.size()] = t;
    double v = 0;
    branch_functions_.at(i)->at(in.data(), &v);
    return v;
}

bool ModeSystem::choose_branches(double t, const double* x, const double* y) {
    if (events_.branches().empty()) return false;
    const std::size_t n = states_.size(), m = leading_.size();
    std::vector<double> in(n + m + 1), out(events_.branches().size());
    std::copy(x, x + n, in.begin());
    std::copy(y, y + m, in.begin() + static_cast<std::ptrdiff_t>(n));
    in[n + m] = t;
    branch_arguments_.evaluate(in.data(), out.data());
    bool changed = false;
    for (std::size_t b = 0; b < out.size(); ++b) {
        const Branch& br = events_.branches()[b];
        if (!std::isfinite(out[b])) continue;  // keeps its choice
        std::vector<double> p(EventOperators::parameter_count(br.kind));
        EventOperators::choose(br.kind, out[b], p.data());
        for (std::size_t k = 0; k < p.size(); ++k) {
            double& v = parameter_values_[branch_slot_[br.first + k]];
            changed = changed || v != p[k];
            v = p[k];
        }
    }
    if (changed) apply_parameters();
    return changed;
}

void ModeSystem::cross_branch_guard(std::size_t i) {
    const BranchGuard& bg = branch_guards_.at(i);
    const Branch& br = events_.branches()[bg.branch];
    std::vector<double> p(EventOperators::parameter_count(br.kind));
    for (std::size_t k = 0; k < p.size(); ++k) p[k] = parameter_values_[branch_slot_[br.first + k]];
    EventOperators::cross(br.kind, bg.upper, p.data());
    for (std::size_t k = 0; k < p.size(); ++k) parameter_values_[branch_slot_[br.first + k]] = p[k];
    apply_parameters();
}

std::vector<double> ModeSystem::branch_choices() const {
    std::vector<double> out;
    for (std::size_t slot : branch_slot_) out.push_back(parameter_values_[slot]);
    return out;
}

void ModeSystem::set_branch_choices(const std::vector<double>& choices) {
    for (std::size_t j = 0; j < branch_slot_.size() && j < choices.size(); ++j)
        parameter_values_[branch_slot_[j]] = choices[j];
    apply_parameters();
}

bool ModeSystem::solve_with_branches(double t, const double* x, double* y) {
    if (events_.branches().empty()) return solve_leading(t, x, y);
    choose_branches(t, x, y);
    for (int round = 0; round < 8; ++round) {
        if (!solve_leading(t, x, y)) return false;
        if (!choose_branches(t, x, y)) return true;
    }
    return solve_leading(t, x, y);
}

void ModeSystem::apply_parameters() {
    const std::vector<double>& values = parameter_values_;
    // A guard tape compiled before a sampled guard added its parameter has
    // fewer; every tape's parameters are a prefix of parameters_.
    auto set = [&](Tape& t) {
        if (t.parameter_count() > 0) t.set_parameters(values.data());
    };
    for (Tape& t : branch_tapes_) set(t);
    set(branch_arguments_);
    set(down_);
    set(up_);
    set(explicit_);
    for (Guard& g : guards_) {
        set(g.tape);
        set(g.slope);
    }
    for (AssertCheck& a : asserts_) {
        set(a.tape);
        set(a.state_tape);
    }
    constant_lu_ready_ = false;
    k_last_box_.clear();  // the enclosures depend on the parameters
}

bool ModeSystem::solve_leading(double t, const double* x, double* y) const {
    const std::size_t n = states_.size(), m = leading_.size();
    if (explicit_ready_) {
        std::copy(x, x + n, explicit_in_.begin());
        explicit_in_[n] = t;
        explicit_.evaluate(explicit_in_.data(), explicit_out_.data());
        bool finite = true;
        for (std::size_t i = 0; i < m; ++i) finite = finite && std::isfinite(explicit_out_[i]);
        if (finite) {
            for (std::size_t k = 0; k < m; ++k) y[explicit_order_[k]] = explicit_out_[k];
            return true;
        }
    }
    std::copy(x, x + n, in_.begin());
    in_[n + m] = t;
    mat_.assign(m * m, 0.0);
    rhs_.resize(m);
    if (constant_) {
        // F = A y + b(x, t): one solve with the factors computed once.
        if (!constant_lu_ready_) {
            std::fill(in_.begin() + static_cast<std::ptrdiff_t>(n), in_.begin() + static_cast<std::ptrdiff_t>(n + m), 0.0);
            down_.evaluate(in_.data(), out_.data(), 2);
            leading_jacobian(out_.data(), mat_);
            if (!constant_lu_.factor(mat_.data(), m)) return false;
            constant_lu_ready_ = true;
        }
        std::fill(in_.begin() + static_cast<std::ptrdiff_t>(n), in_.begin() + static_cast<std::ptrdiff_t>(n + m), 0.0);
        down_.evaluate(in_.data(), out_.data(), 1);
        for (std::size_t i = 0; i < m; ++i) rhs_[i] = -out_[i];
        constant_lu_.solve(rhs_.data());
        for (std::size_t i = 0; i < m; ++i) {
            if (!std::isfinite(rhs_[i])) return false;
            y[i] = rhs_[i];
        }
        return true;
    }
    DenseLu& lu = newton_lu_;
    y_start_.assign(y, y + m);
    auto by_blocks = [&] {
        std::copy(y_start_.begin(), y_start_.end(), y);
        return solve_leading_by_blocks(t, x, y);
    };
    double previous_step = HUGE_VAL;
    for (int it = 0; it < 30; ++it) {
        std::copy(y, y + m, in_.begin() + static_cast<std::ptrdiff_t>(n));
        down_.evaluate(in_.data(), out_.data(), 2);
        leading_jacobian(out_.data(), mat_);
        double rnorm = 0;
        for (std::size_t i = 0; i < m; ++i) {
            rhs_[i] = -out_[i];
            rnorm = std::max(rnorm, std::fabs(out_[i]));
        }
        if (!std::isfinite(rnorm)) return false;
        if (rnorm == 0) return true;
        if (!lu.factor(mat_.data(), m)) return by_blocks();
        lu.solve(rhs_.data());
        double step = 0, size = 0;
        for (std::size_t i = 0; i < m; ++i) {
            y[i] += rhs_[i];
            step = std::max(step, std::fabs(rhs_[i]));
            size = std::max(size, std::fabs(y[i]));
        }
        if (!std::isfinite(step)) return false;
        if (affine_) return true;  // exact after one step (up to rounding)
        if (newton_settled(it, step, previous_step, size)) return true;
        previous_step = step;
    }
    return by_blocks();
}

bool ModeSystem::explicit_state_derivative(double t, const double* x, double* xdot) const {
    if (!explicit_ready_) return false;
    const std::size_t n = states_.size();
    std::copy(x, x + n, explicit_in_.begin());
    explicit_in_[n] = t;
    explicit_.evaluate(explicit_in_.data(), explicit_out_.data(), 1);  // the first group: what xdot needs
    const std::size_t needed = explicit_.group_end(0);
    for (std::size_t k = 0; k < needed; ++k)
        if (!std::isfinite(explicit_out_[k])) return false;
    for (std::size_t i = 0; i < derivative_.size(); ++i) {
        const Slot& d = derivative_[i];
        if (d.is_state) {
            xdot[i] = d.sign * x[d.index];
            continue;
        }
        const auto pos = std::find(explicit_order_.begin(), explicit_order_.begin() + static_cast<std::ptrdiff_t>(needed), d.index);
        xdot[i] = explicit_out_[static_cast<std::size_t>(pos - explicit_order_.begin())];
    }
    return true;
}

void ModeSystem::state_derivative(const double* x, const double* y, double* xdot) const {
    for (std::size_t i = 0; i < derivative_.size(); ++i)
        xdot[i] = derivative_[i].is_state ? derivative_[i].sign * x[derivative_[i].index] : y[derivative_[i].index];
}

void ModeSystem::expand(const double* x, double* all) const {
    for (std::size_t i = 0; i < expansion_.size(); ++i) all[i] = expansion_[i].sign * x[expansion_[i].index];
}

bool ModeSystem::ode_jacobian(double t, const double* x, const double* y, double* jac,
                              std::chrono::steady_clock::time_point deadline) const {
    const std::size_t n = states_.size(), m = leading_.size();
    std::copy(x, x + n, in_.begin());
    std::copy(y, y + m, in_.begin() + static_cast<std::ptrdiff_t>(n));
    in_[n + m] = t;
    down_.evaluate(in_.data(), out_.data(), 3);
    mat_.resize(m * m);
    leading_jacobian(out_.data(), mat_);
    DenseLu& lu = newton_lu_;
    if (!lu.factor(mat_.data(), m, deadline)) return false;
    const bool timed = deadline != std::chrono::steady_clock::time_point::max();
    // dy/dx, column by column: solve Fy * col = -Fx(:, j).
    std::vector<double>& dydx = dydx_;
    std::vector<double>& col = col_;
    dydx.assign(m * n, 0.0);
    col.resize(m);
    for (std::size_t j = 0; j < n; ++j) {
        if (timed && j % 32 == 31 && std::chrono::steady_clock::now() > deadline) return false;
        std::fill(col.begin(), col.end(), 0.0);
        bool any = false;
        for (std::size_t k = 0; k < fx_.size(); ++k)
            if (fx_[k].second == j) {
                col[fx_[k].first] = -out_[down_.group_begin(2) + k];
                any = true;
            }
        if (!any) continue;
        lu.solve(col.data());
        for (std::size_t i = 0; i < m; ++i) dydx[i * n + j] = col[i];
    }
    std::fill(jac, jac + n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        const Slot& s = derivative_[i];
        if (s.is_state) jac[i * n + s.index] = s.sign;
        else
            for (std::size_t j = 0; j < n; ++j) jac[i * n + j] = dydx[s.index * n + j];
    }
    return true;
}

double ModeSystem::constraint_residual(double t, const double* x) const {
    if (up_rows_ == 0) return 0;
    const std::size_t n = states_.size();
    std::vector<double>& in = up_in_;
    std::vector<double>& out = up_out_;
    std::copy(x, x + n, in.begin());
    in[n] = t;
    up_.evaluate(in.data(), out.data(), 1);
    double r = 0;
    for (std::size_t i = 0; i < up_rows_; ++i) r = std::max(r, std::fabs(out[i]));
    return r;
}

bool ModeSystem::project(double t, double* x, double* err, double* before) const {
    if (before) *before = 0;
    if (up_rows_ == 0) return true;
    const std::size_t n = states_.size(), m = up_rows_;
    std::vector<double>& in = up_in_;
    std::vector<double>& out = up_out_;
    std::vector<double>& jac = up_jac_;
    std::vector<double>& dx = up_dx_;
    std::copy(x, x + n, in.begin());
    in[n] = t;
    double size = 0;
    for (std::size_t j = 0; j < n; ++j) size = std::max(size, std::fabs(x[j]));
    const double tol = 1e-14 * (1 + size);
    bool converged = false;
    // The Jacobian of the last correction and its factors (in norm_work_)
    // serve the error's projection too: the point has moved by less than
    // the tolerance since, and the tangent space with it.
    bool factored = false;
    for (int it = 0; it < 10; ++it) {
        up_.evaluate(in.data(), out.data(), factored ? 1 : 2);
        double r = 0;
        for (std::size_t i = 0; i < m; ++i) r = std::max(r, std::fabs(out[i]));
        if (it == 0 && before) *before = r;
        if (!std::isfinite(r)) return false;
        // Only an exact solution is left as it is: a residual below the
        // tolerance still gets its Newton step, the step being what is
        // judged. Left uncorrected (as before), such residuals built up
        // over steps, and the rope's taut mode took 111 steps instead of 94.
        if (r == 0) {
            converged = true;
            break;
        }
        if (factored) up_.evaluate(in.data(), out.data(), 2);
        std::fill(jac.begin(), jac.end(), 0.0);
        for (std::size_t k = 0; k < upx_.size(); ++k) jac[upx_[k].first * n + upx_[k].second] = out[up_.group_begin(1) + k];
        if (!min_norm_correction(jac, m, n, out.data(), dx.data(), norm_work_)) return false;
        factored = true;
        double step = 0;
        for (std::size_t j = 0; j < n; ++j) {
            in[j] += dx[j];
            step = std::max(step, std::fabs(dx[j]));
        }
        if (step <= tol) {
            converged = true;
            break;
        }
    }
    if (!converged) return false;
    std::copy(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(n), x);
    if (err) {
        // err -= J^T (J J^T)^-1 J err: its component off the tangent space.
        std::vector<double>& je = up_je_;
        if (!factored) {
            std::fill(jac.begin(), jac.end(), 0.0);
            for (std::size_t k = 0; k < upx_.size(); ++k) jac[upx_[k].first * n + upx_[k].second] = out[up_.group_begin(1) + k];
        }
        std::fill(je.begin(), je.end(), 0.0);
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) je[i] += jac[i * n + j] * err[j];
        if (factored) min_norm_again(jac, m, n, je.data(), dx.data(), norm_work_);
        else if (!min_norm_correction(jac, m, n, je.data(), dx.data(), norm_work_)) return false;
        for (std::size_t j = 0; j < n; ++j) err[j] += dx[j];
    }
    return true;
}

double ModeSystem::guard_value(std::size_t g, double t, const double* x) const {
    std::vector<double>& in = up_in_;  // states, time
    std::copy(x, x + states_.size(), in.begin());
    in[states_.size()] = t;
    if (!guard_functions_.at(g)) return std::nan("");  // unsupported (Guard::unsupported says why)
    double v = 0;
    guard_functions_[g]->at(in.data(), &v);
    return v;
}

ModeSystem::~ModeSystem() = default;

void ModeSystem::set_leading_guess(const double* y) const {
    std::copy(y, y + leading_.size(), guess_.begin());
    k_last_box_.clear();  // the enclosure followed the branch of the old guess
}

bool ModeSystem::solve_leading_from_guess(double t, const double* x, double* y) const {
    std::copy(guess_.begin(), guess_.end(), y);
    if (!solve_leading(t, x, y)) return false;
    std::copy(y, y + leading_.size(), guess_.begin());
    return true;
}

namespace {

// The truth of an assert's leaf that is not a relation, in a mode whose
// mode variables have these values: initial() is false and sample() true
// while the mode runs.
Truth assert_leaf(const Condition& c, const std::map<int, std::int64_t>& mode_variables) {
    switch (c.kind) {
        case Condition::Kind::Initial: return Truth::False;
        case Condition::Kind::Sample: return Truth::True;
        case Condition::Kind::Variable: {
            auto it = mode_variables.find(c.variable);
            return truth_of(it != mode_variables.end() && it->second != 0);
        }
        default: return Truth::Unknown;  // not a leaf
    }
}

}  // namespace

Truth ModeSystem::assert_truth_over(std::size_t k, const FastInterval* margins) const {
    const AssertCheck& a = asserts_.at(k);
    std::size_t next = 0;
    const double equal = relation_tolerance(1.0);  // margins are differences: scale 1
    return condition_truth(*a.condition, [&](const Condition& c) {
        if (c.kind != Condition::Kind::Relation) return assert_leaf(c, mode_variable_values_);
        const FastInterval& d = margins[next++];
        return relation_truth(c.op, d.lower(), d.upper(), equal);
    });
}

bool ModeSystem::assert_holds_for(std::size_t k, const double* margins, double* margin) const {
    const AssertCheck& a = asserts_.at(k);
    std::size_t next = 0;
    double first_failing = std::nan("");
    const double equal = relation_tolerance(1.0);
    const bool holds = condition_truth(*a.condition, [&](const Condition& c) {
                           if (c.kind != Condition::Kind::Relation) return assert_leaf(c, mode_variable_values_);
                           const double d = margins[next++];
                           const bool h = relation_holds(c.op, d, equal);
                           if (!h && std::isnan(first_failing)) first_failing = relation_margin(c.op, d);
                           return truth_of(h);
                       }) == Truth::True;
    if (margin) {
        const double first = a.relations.empty() ? 0.0 : relation_margin(a.relations[0]->op, margins[0]);
        *margin = holds || std::isnan(first_failing) ? first : first_failing;
    }
    return holds;
}

bool ModeSystem::assert_holds_in_states(std::size_t k, double t, const double* x, double* margin) const {
    const StateFunction& f = assert_function(k);
    std::vector<double>& in = up_in_;  // states, time
    std::copy(x, x + states_.size(), in.begin());
    in[states_.size()] = t;
    std::vector<double>& out = assert_out_;
    out.resize(f.output_count());
    f.at(in.data(), out.data());
    return assert_holds_for(k, out.data(), margin);
}

bool ModeSystem::assert_holds(std::size_t k, double t, const double* x, const double* y, double* margin) const {
    const AssertCheck& a = asserts_.at(k);
    const std::size_t n = states_.size(), m = leading_.size();
    std::vector<double>& in = assert_in_;
    std::copy(x, x + n, in.begin());
    std::copy(y, y + m, in.begin() + static_cast<std::ptrdiff_t>(n));
    in[n + m] = t;
    std::vector<double>& out = assert_out_;
    out.resize(a.tape.output_count());
    a.tape.evaluate(in.data(), out.data());
    return assert_holds_for(k, out.data(), margin);
}

}  // namespace modeaudit::sim
