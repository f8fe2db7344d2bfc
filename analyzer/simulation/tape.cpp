#include "simulation/tape.h"

#include <fmt/format.h>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <tuple>

#include "common/internal_error.h"
#include "flatten/expression_builder.h"
#include "flatten/flat_model.h"
#include "flatten/function_call.h"
#include "flatten/function_interpreter.h"

namespace modeaudit::sim {

namespace {

using GiNaC::ex;

bool commutative(Tape::Op op) {
    return op == Tape::Op::Add || op == Tape::Op::Mul || op == Tape::Op::Min || op == Tape::Op::Max;
}

// The interval enclosing a rational: the double itself when the rational is
// one (integer below 2^53, or a dyadic fraction with a small numerator),
// otherwise its two neighbours.
Interval enclose(const GiNaC::numeric& q) {
    double d = q.to_double();
    if (!std::isfinite(d)) return Interval(-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity());
    GiNaC::numeric num = q.numer(), den = q.denom();
    const GiNaC::numeric two53("9007199254740992");
    bool exact = false;
    if (q.is_rational() && GiNaC::abs(num) < two53 && den < two53) {
        long dl = den.to_long();
        exact = (dl & (dl - 1)) == 0;  // a power of two: num/den is a double
    }
    if (exact) return Interval(d, d);
    return Interval(std::nextafter(d, -std::numeric_limits<double>::infinity()),
                    std::nextafter(d, std::numeric_limits<double>::infinity()));
}

const char* op_name(Tape::Op op) {
    switch (op) {
        case Tape::Op::Add: return "+";
        case Tape::Op::Sub: return "-";
        case Tape::Op::Mul: return "*";
        case Tape::Op::Div: return "/";
        case Tape::Op::Neg: return "neg";
        case Tape::Op::Recip: return "recip";
        case Tape::Op::Square: return "square";
        case Tape::Op::PowInt: return "powi";
        case Tape::Op::Pow: return "pow";
        case Tape::Op::Sqrt: return "sqrt";
        case Tape::Op::Exp: return "exp";
        case Tape::Op::Log: return "log";
        case Tape::Op::Sin: return "sin";
        case Tape::Op::Cos: return "cos";
        case Tape::Op::Tan: return "tan";
        case Tape::Op::Asin: return "asin";
        case Tape::Op::Acos: return "acos";
        case Tape::Op::Atan: return "atan";
        case Tape::Op::Sinh: return "sinh";
        case Tape::Op::Cosh: return "cosh";
        case Tape::Op::Tanh: return "tanh";
        case Tape::Op::Abs: return "abs";
        case Tape::Op::Atan2: return "atan2";
        case Tape::Op::Min: return "min";
        case Tape::Op::Max: return "max";
        case Tape::Op::Sign: return "sign";
        case Tape::Op::Floor: return "floor";
        case Tape::Op::Ceil: return "ceil";
        case Tape::Op::IntDiv: return "div";
        case Tape::Op::Mod: return "mod";
        case Tape::Op::Rem: return "rem";
        case Tape::Op::SelectGt: return "select>";
        case Tape::Op::SelectGe: return "select>=";
        case Tape::Op::Call: return "call";
    }
    return "?";
}

bool binary(Tape::Op op) {
    switch (op) {
        case Tape::Op::Add: case Tape::Op::Sub: case Tape::Op::Mul: case Tape::Op::Div: case Tape::Op::Pow:
        case Tape::Op::Atan2: case Tape::Op::Min: case Tape::Op::Max: case Tape::Op::IntDiv: case Tape::Op::Mod:
        case Tape::Op::Rem: case Tape::Op::SelectGt: case Tape::Op::SelectGe: return true;
        default: return false;
    }
}

bool select(Tape::Op op) { return op == Tape::Op::SelectGt || op == Tape::Op::SelectGe; }

}  // namespace

// Expression DAG -> instructions. Registers are numbered as in tape.h; the
// constants are collected first into their own numbering and renumbered
// when the tape is finished (the instruction base depends on how many
// constants there are).
class TapeCompiler {
public:
    TapeCompiler(Tape& tape, const std::vector<GiNaC::symbol>& inputs, const std::vector<GiNaC::symbol>& parameters)
        : tape_(tape) {
        tape_.inputs_ = inputs.size();
        tape_.params_ = parameters.size();
        // A parameter is an input the caller does not copy in per call: its
        // register follows the inputs' and keeps what set_parameters wrote.
        for (std::size_t k = 0; k < inputs.size(); ++k) memo_[inputs[k]] = Ref{Kind::Input, static_cast<std::uint32_t>(k)};
        for (std::size_t k = 0; k < parameters.size(); ++k)
            memo_[parameters[k]] = Ref{Kind::Input, static_cast<std::uint32_t>(inputs.size() + k)};
    }

    void compile(const std::vector<std::vector<ex>>& groups) {
        std::vector<Ref> outs;
        std::vector<std::size_t> prefix;
        for (const std::vector<ex>& g : groups) {
            for (const ex& e : g) outs.push_back(node(e));
            prefix.push_back(code_.size());
            tape_.group_end_.push_back(outs.size());
        }
        // Renumber: inputs, parameters, then constants, then instructions.
        tape_.constants_ = constants_.size();
        const std::size_t first_constant = tape_.inputs_ + tape_.params_;
        const std::size_t base = first_constant + tape_.constants_;
        auto reg = [&](Ref r) -> std::uint32_t {
            switch (r.kind) {
                case Kind::Input: return r.index;
                case Kind::Constant: return static_cast<std::uint32_t>(first_constant + r.index);
                case Kind::Instruction: return static_cast<std::uint32_t>(base + r.index);
            }
            return 0;
        };
        for (const Pending& p : code_) {
            if (p.op == Tape::Op::Call) {
                const PendingCall& pc = pending_calls_[p.a.index];
                Tape::Call c{pc.function, pc.output, pc.partial, {}};
                for (Ref r : pending_calls_[p.a.index].args) c.args.push_back(reg(r));
                tape_.calls_.push_back(std::move(c));
                tape_.code_.push_back(Tape::Instruction{p.op, static_cast<std::uint32_t>(tape_.calls_.size() - 1), 0, 0});
                continue;
            }
            Tape::Instruction in{p.op, reg(p.a), binary(p.op) ? reg(p.b) : 0, p.n};
            if (select(p.op)) in.n = static_cast<std::int32_t>(reg(p.c));  // the else branch's register
            tape_.code_.push_back(in);
        }
        for (Ref r : outs) tape_.outputs_.push_back(reg(r));
        tape_.prefix_ = prefix;
        tape_.used_inputs_.assign(tape_.inputs_, false);
        auto use = [&](std::uint32_t r) {
            if (r < tape_.inputs_) tape_.used_inputs_[r] = true;
        };
        for (const Tape::Instruction& in : tape_.code_) {
            if (in.op == Tape::Op::Call) {
                for (std::uint32_t r : tape_.calls_[in.a].args) use(r);
                continue;
            }
            use(in.a);
            if (binary(in.op)) use(in.b);
            if (select(in.op)) use(static_cast<std::uint32_t>(in.n));
        }
        for (std::uint32_t r : tape_.outputs_) use(r);
        for (const GiNaC::numeric& c : constants_) {
            tape_.constant_values_.push_back(c.to_double());
            tape_.constant_intervals_.push_back(enclose(c));
        }
        // Pi and other named constants: their enclosure replaces the point one.
        for (const auto& [index, value] : named_) tape_.constant_intervals_[index] = value;
        tape_.reg_.assign(base + tape_.code_.size(), 0.0);
        tape_.ireg_.assign(base + tape_.code_.size(), FastInterval(0.0, 0.0));
        for (std::size_t k = 0; k < tape_.constants_; ++k) {
            tape_.reg_[first_constant + k] = tape_.constant_values_[k];
            const Interval& c = tape_.constant_intervals_[k];
            tape_.ireg_[first_constant + k] = FastInterval(c.lower(), c.upper());
        }
    }

private:
    enum class Kind : std::uint8_t { Input, Constant, Instruction };
    struct Ref {
        Kind kind = Kind::Constant;
        std::uint32_t index = 0;
        auto key() const { return std::make_tuple(static_cast<int>(kind), index); }
        bool operator<(const Ref& o) const { return key() < o.key(); }
        bool operator==(const Ref& o) const { return key() == o.key(); }
    };
    struct Pending {
        Tape::Op op;
        Ref a, b;
        std::int32_t n = 0;
        Ref c{};  // a select's else branch
    };
    std::map<std::tuple<int, std::tuple<int, std::uint32_t>, std::tuple<int, std::uint32_t>, std::tuple<int, std::uint32_t>>,
             Ref>
        consed_selects_;

    // u > 0 (>= 0) ? a : b, both branches on the tape, the choice by u.
    Ref emit_select(Tape::Op op, Ref u, Ref a, Ref b) {
        auto key = std::make_tuple(static_cast<int>(op), u.key(), a.key(), b.key());
        if (auto it = consed_selects_.find(key); it != consed_selects_.end()) return it->second;
        code_.push_back(Pending{op, u, a, 0, b});
        Ref r{Kind::Instruction, static_cast<std::uint32_t>(code_.size() - 1)};
        consed_selects_.emplace(key, r);
        return r;
    }
    struct PendingCall {
        int function;
        int output;
        int partial;
        std::vector<Ref> args;
    };
    std::vector<PendingCall> pending_calls_;
    std::map<std::tuple<int, int, int, std::vector<std::tuple<int, std::uint32_t>>>, Ref> consed_calls_;

    Ref emit_call(int function, int output, int partial, std::vector<Ref> args) {
        std::vector<std::tuple<int, std::uint32_t>> keys;
        for (Ref r : args) keys.push_back(r.key());
        auto key = std::make_tuple(function, output, partial, keys);
        if (auto it = consed_calls_.find(key); it != consed_calls_.end()) return it->second;
        pending_calls_.push_back(PendingCall{function, output, partial, std::move(args)});
        // The call's index rides in operand a (renumbered in compile()).
        code_.push_back(Pending{Tape::Op::Call, Ref{Kind::Constant, static_cast<std::uint32_t>(pending_calls_.size() - 1)},
                                Ref{Kind::Constant, 0}, 0});
        Ref r{Kind::Instruction, static_cast<std::uint32_t>(code_.size() - 1)};
        consed_calls_.emplace(key, r);
        return r;
    }

    Ref constant(const GiNaC::numeric& c) {
        for (std::size_t k = 0; k < constants_.size(); ++k)
            if (constants_[k] == c) return Ref{Kind::Constant, static_cast<std::uint32_t>(k)};
        constants_.push_back(c);
        return Ref{Kind::Constant, static_cast<std::uint32_t>(constants_.size() - 1)};
    }

    Ref emit(Tape::Op op, Ref a) { return emit(op, a, Ref{Kind::Constant, 0}, 0); }
    Ref emit(Tape::Op op, Ref a, Ref b) { return emit(op, a, b, 0); }
    Ref emit(Tape::Op op, Ref a, Ref b, std::int32_t n) {
        if (!binary(op)) b = Ref{Kind::Constant, 0};
        if (commutative(op) && b < a) std::swap(a, b);
        auto key = std::make_tuple(static_cast<int>(op), a.key(), b.key(), n);
        auto it = consed_.find(key);
        if (it != consed_.end()) return it->second;
        code_.push_back(Pending{op, a, b, n});
        Ref r{Kind::Instruction, static_cast<std::uint32_t>(code_.size() - 1)};
        consed_.emplace(key, r);
        return r;
    }

    // Operands of a sum or product are folded in register order (inputs
    // first), not in GiNaC's term order, so that x*y*cos(u) and x*y*z both
    // begin with the one instruction x*y.
    Ref fold(Tape::Op op, std::vector<Ref> xs) {
        std::sort(xs.begin(), xs.end());
        Ref acc = xs.front();
        for (std::size_t k = 1; k < xs.size(); ++k) acc = emit(op, acc, xs[k]);
        return acc;
    }

    // A key of an expression that does not depend on GiNaC's term order
    // (which follows hash values and is not stable from run to run): the
    // operands of sums and products are visited sorted by it, so the
    // instruction list, and with it the floating-point rounding, is the same
    // in every run (style.md, 7).
    const std::string& key(const ex& e) {
        auto it = keys_.find(e);
        if (it != keys_.end()) return it->second;
        std::string k;
        if (GiNaC::is_a<GiNaC::symbol>(e)) {
            k = "s:" + GiNaC::ex_to<GiNaC::symbol>(e).get_name();
        } else if (GiNaC::is_a<GiNaC::add>(e) || GiNaC::is_a<GiNaC::mul>(e)) {
            std::vector<std::string> parts;
            for (std::size_t i = 0; i < e.nops(); ++i) parts.push_back(key(e.op(i)));
            std::sort(parts.begin(), parts.end());
            k = GiNaC::is_a<GiNaC::add>(e) ? "+(" : "*(";
            for (const std::string& p : parts) k += p + ",";
            k += ")";
        } else if (GiNaC::is_a<GiNaC::power>(e)) {
            k = "^(" + key(e.op(0)) + "," + key(e.op(1)) + ")";
        } else if (GiNaC::is_a<GiNaC::function>(e)) {
            k = "f:" + GiNaC::ex_to<GiNaC::function>(e).get_name() + "(";
            for (std::size_t i = 0; i < e.nops(); ++i) k += key(e.op(i)) + ",";
            k += ")";
        } else {
            k = "v:" + to_text(e);
        }
        return keys_.emplace(e, std::move(k)).first->second;
    }

    std::vector<ex> sorted_operands(const ex& e) {
        std::vector<ex> ops;
        for (std::size_t i = 0; i < e.nops(); ++i) ops.push_back(e.op(i));
        std::stable_sort(ops.begin(), ops.end(), [&](const ex& a, const ex& b) { return key(a) < key(b); });
        return ops;
    }

    Ref node(const ex& e) {
        auto it = memo_.find(e);
        if (it != memo_.end()) return it->second;
        Ref r = build(e);
        memo_.emplace(e, r);
        return r;
    }

    static bool negative_term(const ex& t) {
        if (GiNaC::is_a<GiNaC::numeric>(t)) return GiNaC::ex_to<GiNaC::numeric>(t).is_negative();
        if (GiNaC::is_a<GiNaC::mul>(t)) {
            const ex c = t.op(t.nops() - 1);
            return GiNaC::is_a<GiNaC::numeric>(c) && GiNaC::ex_to<GiNaC::numeric>(c).is_negative();
        }
        return false;
    }

    Ref build(const ex& e) {
        if (GiNaC::is_a<GiNaC::numeric>(e)) {
            const GiNaC::numeric& n = GiNaC::ex_to<GiNaC::numeric>(e);
            if (!n.is_real()) throw TapeError("a complex constant (" + to_text(e) + ") cannot be evaluated");
            return constant(n);
        }
        if (GiNaC::is_a<GiNaC::symbol>(e))
            throw TapeError("'" + GiNaC::ex_to<GiNaC::symbol>(e).get_name() +
                            "' has no value here (it is neither a state, a solved variable, time nor a parameter)");
        if (GiNaC::is_a<GiNaC::constant>(e)) {
            Ref r = constant(GiNaC::ex_to<GiNaC::numeric>(GiNaC::evalf(e)));
            if (e.is_equal(GiNaC::Pi)) named_[r.index] = ivl::pi<Interval>();
            return r;
        }
        if (GiNaC::is_a<GiNaC::add>(e)) {
            // (positive terms) - (negative terms), each sum folded in an
            // order that ignores the terms' signs: a sum and its negation
            // (GiNaC writes -c*(a - b) or c*(b - a) from run to run) round
            // to exact negatives of each other.
            std::vector<std::pair<ex, bool>> terms;
            for (std::size_t i = 0; i < e.nops(); ++i) {
                const bool negative = negative_term(e.op(i));
                terms.emplace_back(negative ? ex(-e.op(i)) : e.op(i), negative);
            }
            std::stable_sort(terms.begin(), terms.end(),
                             [&](const auto& a, const auto& b) { return key(a.first) < key(b.first); });
            std::vector<Ref> pos, neg;
            for (const auto& [t, negative] : terms) (negative ? neg : pos).push_back(node(t));
            if (pos.empty()) return emit(Tape::Op::Neg, fold(Tape::Op::Add, neg));
            if (neg.empty()) return fold(Tape::Op::Add, pos);
            return emit(Tape::Op::Sub, fold(Tape::Op::Add, pos), fold(Tape::Op::Add, neg));
        }
        if (GiNaC::is_a<GiNaC::mul>(e)) {
            std::vector<Ref> num, den;
            GiNaC::numeric coeff = 1;
            for (const ex& f : sorted_operands(e)) {
                if (GiNaC::is_a<GiNaC::numeric>(f)) {
                    coeff *= GiNaC::ex_to<GiNaC::numeric>(f);
                } else if (GiNaC::is_a<GiNaC::power>(f) && GiNaC::is_a<GiNaC::numeric>(f.op(1)) &&
                           GiNaC::ex_to<GiNaC::numeric>(f.op(1)).is_negative()) {
                    den.push_back(node(GiNaC::pow(f.op(0), -f.op(1))));
                } else {
                    num.push_back(node(f));
                }
            }
            if (!coeff.is_real()) throw TapeError("a complex coefficient in " + to_text(e) + " cannot be evaluated");
            const bool negate = coeff.is_negative();
            const GiNaC::numeric mag = GiNaC::abs(coeff);
            if (mag != 1) num.insert(num.begin(), constant(mag));
            Ref r;
            if (num.empty()) r = emit(Tape::Op::Recip, fold(Tape::Op::Mul, den));
            else if (den.empty()) r = fold(Tape::Op::Mul, num);
            else r = emit(Tape::Op::Div, fold(Tape::Op::Mul, num), fold(Tape::Op::Mul, den));
            return negate ? emit(Tape::Op::Neg, r) : r;
        }
        if (GiNaC::is_a<GiNaC::power>(e)) {
            const ex b = e.op(0), x = e.op(1);
            if (GiNaC::is_a<GiNaC::numeric>(x)) {
                const GiNaC::numeric n = GiNaC::ex_to<GiNaC::numeric>(x);
                if (n.is_integer() && GiNaC::abs(n) < 1 << 30) {
                    long k = n.to_long();
                    if (k == 0) return constant(1);
                    if (k < 0) return emit(Tape::Op::Recip, node(GiNaC::pow(b, -k)));
                    if (k == 1) return node(b);
                    if (k == 2) return emit(Tape::Op::Square, node(b));
                    return emit(Tape::Op::PowInt, node(b), Ref{Kind::Constant, 0}, static_cast<std::int32_t>(k));
                }
                if (n == GiNaC::numeric(1, 2)) return emit(Tape::Op::Sqrt, node(b));
                if (n == GiNaC::numeric(-1, 2)) return emit(Tape::Op::Recip, emit(Tape::Op::Sqrt, node(b)));
            }
            return emit(Tape::Op::Pow, node(b), node(x));
        }
        if (GiNaC::is_a<GiNaC::function>(e)) {
            const std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
            if (auto call = as_call(e)) {
                std::vector<Ref> args;
                for (const ex& a : call->args) args.push_back(node(a));
                return emit_call(call->function, call->output, call->partial, std::move(args));
            }
            if (auto f = noderiv_function(e))
                throw TapeError("the derivative of function '" + *f +
                                "' is needed but unknown (give it annotation(derivative = ...))");
            static const std::map<std::string, Tape::Op> unary{
                {"sin", Tape::Op::Sin},   {"cos", Tape::Op::Cos},   {"tan", Tape::Op::Tan},   {"exp", Tape::Op::Exp},
                {"log", Tape::Op::Log},   {"asin", Tape::Op::Asin}, {"acos", Tape::Op::Acos}, {"atan", Tape::Op::Atan},
                {"sinh", Tape::Op::Sinh}, {"cosh", Tape::Op::Cosh}, {"tanh", Tape::Op::Tanh}, {"abs", Tape::Op::Abs},
                {"ma_sign", Tape::Op::Sign}, {"ma_abs", Tape::Op::Abs}, {"ma_floor", Tape::Op::Floor},
                {"ma_ceil", Tape::Op::Ceil}};
            static const std::map<std::string, Tape::Op> binary_functions{
                {"atan2", Tape::Op::Atan2}, {"ma_min", Tape::Op::Min}, {"ma_max", Tape::Op::Max},
                {"ma_div", Tape::Op::IntDiv}, {"ma_mod", Tape::Op::Mod}, {"ma_rem", Tape::Op::Rem}};
            if (name == "ma_noevent" && e.nops() == 1) return node(e.op(0));  // a mark, no operation
            if ((name == "ma_select" || name == "ma_select_ge") && e.nops() == 3)
                return emit_select(name == "ma_select" ? Tape::Op::SelectGt : Tape::Op::SelectGe, node(e.op(0)),
                                   node(e.op(1)), node(e.op(2)));
            if (auto u = unary.find(name); u != unary.end() && e.nops() == 1) return emit(u->second, node(e.op(0)));
            if (auto bf = binary_functions.find(name); bf != binary_functions.end() && e.nops() == 2)
                return emit(bf->second, node(e.op(0)), node(e.op(1)));
            if (name == "mode_if")
                throw TapeError("an if-expression whose condition the mode does not decide (" + to_text(e) +
                                ") cannot be evaluated");
            throw TapeError("the function '" + name + "' (in " + to_text(e) + ") cannot be evaluated by the simulation");
        }
        throw TapeError("the expression " + to_text(e) + " cannot be evaluated by the simulation");
    }

    static std::string to_text(const ex& e) {
        std::ostringstream s;
        s << e;
        return s.str();
    }

    Tape& tape_;
    std::map<ex, Ref, GiNaC::ex_is_less> memo_;
    std::map<ex, std::string, GiNaC::ex_is_less> keys_;
    std::map<std::tuple<int, std::tuple<int, std::uint32_t>, std::tuple<int, std::uint32_t>, std::int32_t>, Ref> consed_;
    std::vector<Pending> code_;
    std::vector<GiNaC::numeric> constants_;
    std::map<std::uint32_t, Interval> named_;
};

Tape::Tape(const std::vector<GiNaC::symbol>& inputs, const std::vector<std::vector<GiNaC::ex>>& groups)
    : Tape(inputs, {}, groups) {}

Tape::Tape(const std::vector<GiNaC::symbol>& inputs, const std::vector<GiNaC::symbol>& parameters,
           const std::vector<std::vector<GiNaC::ex>>& groups) {
    TapeCompiler c(*this, inputs, parameters);
    c.compile(groups);
}

void Tape::set_parameters(const double* values) {
    for (std::size_t k = 0; k < params_; ++k) {
        reg_[inputs_ + k] = values[k];
        ireg_[inputs_ + k] = FastInterval(values[k], values[k]);
    }
}

void Tape::evaluate(const double* in, double* out, std::size_t groups) const {
    MODEAUDIT_ASSERT(groups <= group_end_.size(), "tape evaluated with more groups than it has");
    if (groups == 0) return;
    double* r = reg_.data();
    std::copy(in, in + inputs_, r);
    const std::size_t base = inputs_ + params_ + constants_;
    const std::size_t end = prefix_[groups - 1];
    for (std::size_t k = 0; k < end; ++k) {
        const Instruction& i = code_[k];
        const double a = r[i.a];
        double v = 0;
        switch (i.op) {
            case Op::Add: v = a + r[i.b]; break;
            case Op::Sub: v = a - r[i.b]; break;
            case Op::Mul: v = a * r[i.b]; break;
            case Op::Div: v = a / r[i.b]; break;
            case Op::Neg: v = -a; break;
            case Op::Recip: v = 1.0 / a; break;
            case Op::Square: v = a * a; break;
            case Op::PowInt: v = i.n == -1 ? 1.0 / a : std::pow(a, i.n); break;  // 1/a: the same correctly rounded value, cheaper
            case Op::Pow: v = std::pow(a, r[i.b]); break;
            case Op::Sqrt: v = std::sqrt(a); break;
            case Op::Exp: v = std::exp(a); break;
            case Op::Log: v = std::log(a); break;
            case Op::Sin: v = std::sin(a); break;
            case Op::Cos: v = std::cos(a); break;
            case Op::Tan: v = std::tan(a); break;
            case Op::Asin: v = std::asin(a); break;
            case Op::Acos: v = std::acos(a); break;
            case Op::Atan: v = std::atan(a); break;
            case Op::Sinh: v = std::sinh(a); break;
            case Op::Cosh: v = std::cosh(a); break;
            case Op::Tanh: v = std::tanh(a); break;
            case Op::Abs: v = std::fabs(a); break;
            case Op::Atan2: v = std::atan2(a, r[i.b]); break;
            case Op::Min: v = std::min(a, r[i.b]); break;
            case Op::Max: v = std::max(a, r[i.b]); break;
            case Op::Sign: v = a > 0 ? 1.0 : (a < 0 ? -1.0 : 0.0); break;
            case Op::SelectGt: v = a > 0 ? r[i.b] : r[i.n]; break;
            case Op::SelectGe: v = a >= 0 ? r[i.b] : r[i.n]; break;
            case Op::Floor: v = std::floor(a); break;
            case Op::Ceil: v = std::ceil(a); break;
            case Op::IntDiv: v = std::trunc(a / r[i.b]); break;
            case Op::Mod: v = a - std::floor(a / r[i.b]) * r[i.b]; break;
            case Op::Rem: v = a - std::trunc(a / r[i.b]) * r[i.b]; break;
            case Op::Call: v = call(calls_[i.a], r); break;
        }
        r[base + k] = v;
    }
    const std::size_t nout = group_end_[groups - 1];
    for (std::size_t k = 0; k < nout; ++k) out[k] = r[outputs_[k]];
}

double Tape::call(const Call& c, const double* r) const {
    std::vector<double> args;
    args.reserve(c.args.size());
    for (std::uint32_t a : c.args) args.push_back(r[a]);
    return call_value(c.function, c.partial, c.output, args);
}

namespace {

// Inside a RoundingScope (interval.h): FastInterval operations.
using FI = FastInterval;

FI whole() { return FI(-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()); }

bool unknown(const FI& x) { return std::isnan(x.lower()) || std::isnan(x.upper()); }

FI divide(const FI& a, const FI& b) {
    if (unknown(a) || unknown(b) || boost::numeric::in(0.0, b)) return whole();
    return a / b;
}

FI sign_of(const FI& x) {
    auto s = [](double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); };
    return FI(s(x.lower()), s(x.upper()));
}

// A branch where the condition's enclosure decides it, the hull of both
// where it does not (or is unknown).
FI select_of(Tape::Op op, const FI& u, const FI& a, const FI& b) {
    const bool ge = op == Tape::Op::SelectGe;
    if (!unknown(u) && (ge ? u.lower() >= 0 : u.lower() > 0)) return a;
    if (!unknown(u) && (ge ? u.upper() < 0 : u.upper() <= 0)) return b;
    if (unknown(a) || unknown(b)) return whole();
    return boost::numeric::hull(a, b);
}

FI atan2_of(const FI& y, const FI& x) {
    // atan(y/x) where x > 0; elsewhere the whole range of atan2.
    if (x.lower() > 0) return boost::numeric::atan(y / x);
    const FI pi = ivl::pi<FI>();
    return FI(-pi.upper(), pi.upper());
}

// div, mod, rem over intervals: where the quotient's integer part is one
// integer k over the box, a - k*b (mod, rem) or k (div); the whole line
// otherwise.
FI integer_division(Tape::Op op, const FI& a, const FI& b) {
    const FI q = divide(a, b);
    if (unknown(q) || !std::isfinite(q.lower()) || !std::isfinite(q.upper())) return whole();
    const bool floor_part = op == Tape::Op::Mod;
    auto part = [&](double x) { return floor_part ? std::floor(x) : std::trunc(x); };
    const double k = part(q.lower());
    if (part(q.upper()) != k) return whole();
    if (op == Tape::Op::IntDiv) return FI(k, k);
    return a - FI(k, k) * b;
}

}  // namespace

FastInterval Tape::call_enclosure(const Call& c, const FastInterval* r) const {
    std::vector<double> args;
    for (std::uint32_t a : c.args) {
        const FI& x = r[a];
        if (x.lower() != x.upper()) return whole();
        args.push_back(x.lower());
    }
    // The interpreter computes in round-to-nearest, then the rounding mode
    // of the interval scope comes back.
    const int mode = std::fegetround();
    std::fesetround(FE_TONEAREST);
    double v = 0;
    try {
        v = call_value(c.function, c.partial, c.output, args);
    } catch (...) {
        std::fesetround(mode);
        throw;
    }
    std::fesetround(mode);
    if (!std::isfinite(v)) return whole();
    const double slack = 1e-13 * std::fabs(v);
    const double inf = std::numeric_limits<double>::infinity();
    return FI(std::nextafter(std::nextafter(v - slack, -inf), -inf), std::nextafter(std::nextafter(v + slack, inf), inf));
}

void Tape::evaluate(const Interval* in, Interval* out, std::size_t groups) const {
    MODEAUDIT_ASSERT(groups <= group_end_.size(), "tape evaluated with more groups than it has");
    if (groups == 0) return;
    RoundingScope scope;
    std::vector<FI> fin(inputs_), fout(group_end_[groups - 1]);
    for (std::size_t k = 0; k < inputs_; ++k) fin[k] = FI(in[k].lower(), in[k].upper());
    evaluate_in_scope(fin.data(), fout.data(), groups);
    for (std::size_t k = 0; k < fout.size(); ++k) out[k] = Interval(fout[k].lower(), fout[k].upper());
}

void Tape::evaluate_in_scope(const FastInterval* in, FastInterval* out, std::size_t groups) const {
    MODEAUDIT_ASSERT(groups <= group_end_.size(), "tape evaluated with more groups than it has");
    if (groups == 0) return;
    namespace bn = boost::numeric;
    FI* r = ireg_.data();
    std::copy(in, in + inputs_, r);
    const std::size_t base = inputs_ + params_ + constants_;
    const std::size_t end = prefix_[groups - 1];
    for (std::size_t k = 0; k < end; ++k) {
        const Instruction& i = code_[k];
        const FI& a = r[i.a];
        FI v;
        switch (i.op) {
            case Op::Add: v = a + r[i.b]; break;
            case Op::Sub: v = a - r[i.b]; break;
            case Op::Mul: v = a * r[i.b]; break;
            case Op::Div: v = divide(a, r[i.b]); break;
            case Op::Neg: v = -a; break;
            case Op::Recip: v = divide(FI(1.0, 1.0), a); break;
            case Op::Square: v = bn::square(a); break;
            case Op::PowInt: v = bn::pow(a, i.n); break;
            case Op::Pow: v = bn::exp(r[i.b] * bn::log(a)); break;
            case Op::Sqrt: v = bn::sqrt(a); break;
            case Op::Exp: v = bn::exp(a); break;
            case Op::Log: v = bn::log(a); break;
            case Op::Sin: v = bn::sin(a); break;
            case Op::Cos: v = bn::cos(a); break;
            case Op::Tan: v = bn::tan(a); break;
            case Op::Asin: v = bn::asin(a); break;
            case Op::Acos: v = bn::acos(a); break;
            case Op::Atan: v = bn::atan(a); break;
            case Op::Sinh: v = bn::sinh(a); break;
            case Op::Cosh: v = bn::cosh(a); break;
            case Op::Tanh: v = bn::tanh(a); break;
            case Op::Abs: v = bn::abs(a); break;
            case Op::Atan2: v = atan2_of(a, r[i.b]); break;
            case Op::Min: v = bn::min(a, r[i.b]); break;
            case Op::Max: v = bn::max(a, r[i.b]); break;
            case Op::Sign: v = sign_of(a); break;
            case Op::SelectGt: case Op::SelectGe: v = select_of(i.op, a, r[i.b], r[static_cast<std::size_t>(i.n)]); break;
            case Op::Floor: v = FI(std::floor(a.lower()), std::floor(a.upper())); break;
            case Op::Ceil: v = FI(std::ceil(a.lower()), std::ceil(a.upper())); break;
            case Op::IntDiv: case Op::Mod: case Op::Rem: v = integer_division(i.op, a, r[i.b]); break;
            case Op::Call: v = call_enclosure(calls_[i.a], r); break;
        }
        r[base + k] = v;
    }
    const std::size_t nout = group_end_[groups - 1];
    for (std::size_t k = 0; k < nout; ++k) out[k] = r[outputs_[k]];
}

std::string Tape::listing() const {
    std::string s;
    const std::size_t base = inputs_ + params_ + constants_;
    for (std::size_t k = 0; k < constants_; ++k)
        s += fmt::format("r{} = {}\n", inputs_ + params_ + k, constant_values_[k]);
    for (std::size_t k = 0; k < code_.size(); ++k) {
        const Instruction& i = code_[k];
        if (select(i.op))
            s += fmt::format("r{} = r{} {} 0 ? r{} : r{}\n", base + k, i.a, i.op == Op::SelectGt ? ">" : ">=", i.b, i.n);
        else if (binary(i.op)) s += fmt::format("r{} = r{} {} r{}\n", base + k, i.a, op_name(i.op), i.b);
        else if (i.op == Op::PowInt) s += fmt::format("r{} = powi(r{}, {})\n", base + k, i.a, i.n);
        else if (i.op == Op::Call) {
            s += fmt::format("r{} = call f{}[{}](", base + k, calls_[i.a].function, calls_[i.a].output);
            for (std::size_t j = 0; j < calls_[i.a].args.size(); ++j) s += fmt::format("{}r{}", j ? ", " : "", calls_[i.a].args[j]);
            s += ")\n";
        }
        else s += fmt::format("r{} = {}(r{})\n", base + k, op_name(i.op), i.a);
    }
    for (std::size_t k = 0; k < outputs_.size(); ++k) s += fmt::format("out{} = r{}\n", k, outputs_[k]);
    return s;
}

}  // namespace modeaudit::sim
