#include "flatten/function_interpreter.h"

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <limits>

namespace modeaudit::fn {

namespace {
std::atomic<std::size_t> g_default_max_iterations{10'000'000};
}  // namespace

std::size_t default_max_iterations() { return g_default_max_iterations.load(std::memory_order_relaxed); }
void set_default_max_iterations(std::size_t n) { g_default_max_iterations.store(n, std::memory_order_relaxed); }

Registry& Registry::instance() {
    static Registry r;
    return r;
}

int Registry::add(std::string name, SourceRange range) {
    Function f;
    f.name = std::move(name);
    f.range = range;
    functions_.push_back(std::move(f));
    return static_cast<int>(functions_.size() - 1);
}

Function& Registry::at(int id) { return functions_.at(static_cast<std::size_t>(id)); }
const Function& Registry::get(int id) const { return functions_.at(static_cast<std::size_t>(id)); }
std::size_t Registry::size() const { return functions_.size(); }

namespace {

std::string number(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{}", static_cast<long long>(v));
    return fmt::format("{}", v);
}

// Control flow out of a statement list.
enum class Flow { Next, Break, Return };

class Interpreter {
public:
    explicit Interpreter(const InterpreterLimits& limits) : limits_(limits) {}

    std::vector<double> call(int id, std::vector<double> inputs) {
        const Function& f = Registry::instance().get(id);
        if (!f.complete)
            throw FunctionError(FunctionError::Kind::Incomplete,
                                fmt::format("function '{}' is called before its body is known", f.name), f.range);
        if (depth_ >= limits_.max_depth)
            throw FunctionError(FunctionError::Kind::RecursionDepth,
                                fmt::format("function '{}': calls nested deeper than {} (unbounded recursion?)", f.name,
                                            limits_.max_depth),
                                f.range);
        ++depth_;
        std::vector<double> frame(f.slot_names.size(), 0.0);
        for (std::size_t k = 0; k < f.inputs.size() && k < inputs.size(); ++k)
            frame[static_cast<std::size_t>(f.inputs[k])] = inputs[k];
        // Inputs left to their defaults (NaN placeholders from a Call with a
        // Missing argument), in declaration order: a default may read earlier inputs.
        for (std::size_t k = 0; k < f.inputs.size(); ++k)
            if (k >= inputs.size() || missing_[k + missing_base_]) {
                if (!f.input_defaults[k])
                    throw FunctionError(FunctionError::Kind::Domain,
                                        fmt::format("function '{}' needs its input '{}'", f.name,
                                                    f.slot_names[static_cast<std::size_t>(f.inputs[k])]),
                                        f.range);
                frame[static_cast<std::size_t>(f.inputs[k])] = eval(*f.input_defaults[k], frame);
            }
        for (const auto& [slot, e] : f.initial) frame[static_cast<std::size_t>(slot)] = eval(e, frame);
        run(f.body, frame);
        std::vector<double> out;
        for (int s : f.outputs) out.push_back(frame[static_cast<std::size_t>(s)]);
        --depth_;
        return out;
    }

    // Missing-argument flags of the call being entered (see Expr::Missing).
    std::vector<bool> missing_;
    std::size_t missing_base_ = 0;

private:
    const InterpreterLimits& limits_;
    std::size_t depth_ = 0;
    std::size_t iterations_ = 0;

    void count(const Stmt& s) {
        if (++iterations_ > limits_.max_iterations)
            throw FunctionError(FunctionError::Kind::IterationLimit,
                                fmt::format("a loop ran more than {} iterations without finishing (does it terminate?)",
                                            limits_.max_iterations),
                                s.range);
    }

    Flow run(const std::vector<Stmt>& body, std::vector<double>& frame) {
        for (const Stmt& s : body) {
            switch (s.kind) {
                case Stmt::Kind::Assign:
                    if (s.targets.size() == 1 && s.value.kind != Expr::Kind::Call) {
                        frame[static_cast<std::size_t>(s.targets[0])] = eval(s.value, frame);
                    } else {
                        std::vector<double> outs = call_expr(s.value, frame);
                        for (std::size_t k = 0; k < s.targets.size(); ++k)
                            if (s.targets[k] >= 0) {
                                std::size_t o = k + static_cast<std::size_t>(s.value.output);
                                if (o >= outs.size())
                                    throw FunctionError(FunctionError::Kind::Domain,
                                                        "more targets than the called function has outputs", s.range);
                                frame[static_cast<std::size_t>(s.targets[k])] = outs[o];
                            }
                    }
                    break;
                case Stmt::Kind::If:
                    for (std::size_t k = 0; k < s.bodies.size(); ++k) {
                        if (k < s.conditions.size() && eval(s.conditions[k], frame) == 0) continue;
                        Flow fl = run(s.bodies[k], frame);
                        if (fl != Flow::Next) return fl;
                        break;
                    }
                    break;
                case Stmt::Kind::For: {
                    const double a = eval(s.start, frame), step = s.step.kind == Expr::Kind::Const && s.step.value == 1
                                                                      ? 1.0
                                                                      : eval(s.step, frame);
                    const double b = eval(s.stop, frame);
                    if (step == 0) throw FunctionError(FunctionError::Kind::Domain, "a for range with step 0", s.range);
                    for (double i = a; step > 0 ? i <= b : i >= b; i += step) {
                        count(s);
                        frame[static_cast<std::size_t>(s.slot)] = i;
                        Flow fl = run(s.body, frame);
                        if (fl == Flow::Break) break;
                        if (fl == Flow::Return) return fl;
                    }
                    break;
                }
                case Stmt::Kind::While:
                    while (eval(s.conditions[0], frame) != 0) {
                        count(s);
                        Flow fl = run(s.body, frame);
                        if (fl == Flow::Break) break;
                        if (fl == Flow::Return) return fl;
                    }
                    break;
                case Stmt::Kind::Break: return Flow::Break;
                case Stmt::Kind::Return: return Flow::Return;
                case Stmt::Kind::Assert:
                    if (eval(s.conditions[0], frame) == 0)
                        throw FunctionError(FunctionError::Kind::Assert, fmt::format("assert failed: {}", s.message),
                                            s.range);
                    break;
            }
        }
        return Flow::Next;
    }

    std::vector<double> call_expr(const Expr& e, std::vector<double>& frame) {
        std::vector<double> args;
        std::vector<bool> missing;
        for (const Expr& a : e.operands) {
            missing.push_back(a.kind == Expr::Kind::Missing);
            args.push_back(a.kind == Expr::Kind::Missing ? 0.0 : eval(a, frame));
        }
        std::vector<bool> saved = std::move(missing_);
        std::size_t saved_base = missing_base_;
        missing_ = std::move(missing);
        missing_base_ = 0;
        std::vector<double> out = call(e.function, std::move(args));
        missing_ = std::move(saved);
        missing_base_ = saved_base;
        return out;
    }

    [[noreturn]] void domain(const Expr& e, const std::string& what) const {
        throw FunctionError(FunctionError::Kind::Domain, fmt::format("'{}': {}", e.text, what), e.range);
    }

    double eval(const Expr& e, std::vector<double>& frame) {
        using K = Expr::Kind;
        auto op = [&](std::size_t k) { return eval(e.operands[k], frame); };
        switch (e.kind) {
            case K::Const: return e.value;
            case K::Slot: return frame[static_cast<std::size_t>(e.slot)];
            case K::Missing: return 0;
            case K::Neg: return -op(0);
            case K::Not: return op(0) == 0 ? 1 : 0;
            case K::Add: return op(0) + op(1);
            case K::Sub: return op(0) - op(1);
            case K::Mul: return op(0) * op(1);
            case K::Div: {
                const double a = op(0), b = op(1);
                if (b == 0)
                    throw FunctionError(FunctionError::Kind::DivisionByZero,
                                        fmt::format("division by zero in '{}' ({} / 0)", e.text, number(a)), e.range);
                return a / b;
            }
            case K::Pow: {
                const double a = op(0), b = op(1);
                if (a == 0 && b < 0)
                    throw FunctionError(FunctionError::Kind::DivisionByZero,
                                        fmt::format("0 raised to the negative power {} in '{}'", number(b), e.text), e.range);
                if (a < 0 && b != std::floor(b))
                    domain(e, fmt::format("the negative number {} raised to the non-integer power {}", number(a), number(b)));
                return std::pow(a, b);
            }
            case K::Lt: return op(0) < op(1) ? 1 : 0;
            case K::Le: return op(0) <= op(1) ? 1 : 0;
            case K::Gt: return op(0) > op(1) ? 1 : 0;
            case K::Ge: return op(0) >= op(1) ? 1 : 0;
            case K::Eq: return op(0) == op(1) ? 1 : 0;
            case K::Ne: return op(0) != op(1) ? 1 : 0;
            case K::And: return op(0) != 0 && op(1) != 0 ? 1 : 0;
            case K::Or: return op(0) != 0 || op(1) != 0 ? 1 : 0;
            case K::If: {
                const std::size_t n = e.operands.size();
                for (std::size_t k = 0; k + 1 < n; k += 2)
                    if (op(k) != 0) return op(k + 1);
                return op(n - 1);
            }
            case K::Builtin: return builtin(e, frame);
            case K::Call: {
                std::vector<double> out = call_expr(e, frame);
                return out.at(static_cast<std::size_t>(e.output));
            }
        }
        return 0;
    }

    double builtin(const Expr& e, std::vector<double>& frame) {
        const double a = eval(e.operands[0], frame);
        const double b = e.operands.size() > 1 ? eval(e.operands[1], frame) : 0.0;
        switch (e.builtin) {
            case Builtin::Abs: return std::fabs(a);
            case Builtin::Sign: return a > 0 ? 1 : (a < 0 ? -1 : 0);
            case Builtin::Sqrt:
                if (a < 0) domain(e, fmt::format("the square root of the negative number {}", number(a)));
                return std::sqrt(a);
            case Builtin::Exp: return std::exp(a);
            case Builtin::Log:
            case Builtin::Log10:
                if (a <= 0) domain(e, fmt::format("the logarithm of the non-positive number {}", number(a)));
                return e.builtin == Builtin::Log ? std::log(a) : std::log10(a);
            case Builtin::Sin: return std::sin(a);
            case Builtin::Cos: return std::cos(a);
            case Builtin::Tan: return std::tan(a);
            case Builtin::Asin:
            case Builtin::Acos:
                if (a < -1 || a > 1) domain(e, fmt::format("the argument {} is outside [-1, 1]", number(a)));
                return e.builtin == Builtin::Asin ? std::asin(a) : std::acos(a);
            case Builtin::Atan: return std::atan(a);
            case Builtin::Atan2: return std::atan2(a, b);
            case Builtin::Sinh: return std::sinh(a);
            case Builtin::Cosh: return std::cosh(a);
            case Builtin::Tanh: return std::tanh(a);
            case Builtin::Min: return std::min(a, b);
            case Builtin::Max: return std::max(a, b);
            case Builtin::Div:
            case Builtin::Mod:
            case Builtin::Rem: {
                if (b == 0)
                    throw FunctionError(FunctionError::Kind::DivisionByZero,
                                        fmt::format("division by zero in '{}' ({}, 0)", e.text, number(a)), e.range);
                if (e.builtin == Builtin::Div) return std::trunc(a / b);
                if (e.builtin == Builtin::Mod) return a - std::floor(a / b) * b;
                return a - std::trunc(a / b) * b;
            }
            case Builtin::Floor:
            case Builtin::Integer: return std::floor(a);
            case Builtin::Ceil: return std::ceil(a);
        }
        return 0;
    }
};

}  // namespace

std::string describe_call(int id, const std::vector<double>& inputs) {
    const Function& f = Registry::instance().get(id);
    std::string s = f.name + "(";
    for (std::size_t k = 0; k < inputs.size(); ++k) s += (k ? ", " : "") + number(inputs[k]);
    return s + ")";
}

std::vector<double> call_function(int id, const std::vector<double>& inputs, const InterpreterLimits& limits) {
    Interpreter in(limits);
    in.missing_.assign(inputs.size(), false);
    try {
        return in.call(id, inputs);
    } catch (const FunctionError& err) {
        throw FunctionError(err.kind, fmt::format("{}: {}", describe_call(id, inputs), err.what()), err.range);
    }
}

double call_function_output(int id, int output, const std::vector<double>& inputs, const InterpreterLimits& limits) {
    std::vector<double> out = call_function(id, inputs, limits);
    return out.at(static_cast<std::size_t>(output));
}

}  // namespace modeaudit::fn
