// Compiled evaluation of GiNaC expressions (simulation stage).
//
// The integrator calls the right-hand side, its Newton iteration and the
// event guards thousands of times per simulated second; walking GiNaC trees
// (virtual dispatch, reference counting, CLN numbers) at each call would
// dominate the run time. A Tape is compiled once per mode: the expression
// DAG becomes a flat list of instructions over a register file of doubles
// (or of intervals, interval.h), in static single assignment form:
//
//   registers [0, inputs)            the input symbols, copied in per call
//   registers [inputs, +parameters)  parameter symbols, set by set_parameters
//                                    and kept between calls (the values of
//                                    discrete variables, which change at
//                                    events only)
//   registers [.., +constants)       numeric constants, loaded once
//   register  base + k               the result of instruction k
//
// Common subexpressions are shared twice over: GiNaC subtrees that are equal
// (ex_is_less) compile to one register, and instructions are hash-consed
// (same opcode and operands, commutative operands ordered), so `x*y` inside
// two different products is computed once.
//
// Outputs come in groups (e.g. residuals, then Jacobian entries). Each group
// is compiled after the previous ones, so the instructions of groups
// [0, g) are a prefix of the list: evaluate(..., g) runs only that prefix
// (residuals alone for a convergence check), and a Jacobian entry reuses the
// residual's subexpressions.
//
// Rational constants enter the interval registers as enclosures (two
// neighbouring doubles unless the rational is a double exactly), pi as
// Boost's enclosure of pi, so interval evaluation is an enclosure of the
// exact expression over the input box.
//
// User functions that could not be inlined (flatten/function_call.h) run
// through the interpreter at each evaluation; its errors (division by zero,
// a loop that does not end) are thrown as fn::FunctionError. With
// intervals, a call whose arguments are all points is evaluated at that
// point and widened by a few units in the last place; any other is the
// whole real line (a valid, if uninformative, enclosure).
//
// Not thread-safe: the register files are part of the tape (one tape per
// thread).
#pragma once

#include <ginac/ginac.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "simulation/interval.h"

namespace modeaudit::sim {

// An expression the tape cannot evaluate (an unknown function, a symbol that
// is not an input, a complex constant): a model problem, reported by the
// caller with this message.
class TapeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Tape {
public:
    enum class Op : std::uint8_t {
        Add, Sub, Mul, Div, Neg, Recip, Square, PowInt, Pow, Sqrt, Exp, Log, Sin, Cos, Tan,
        Asin, Acos, Atan, Sinh, Cosh, Tanh, Abs, Atan2, Min, Max, Sign,
        Floor, Ceil, IntDiv, Mod, Rem,
        SelectGt, SelectGe,  // r[a] > 0 (>= 0) ? r[b] : r[n]: an if-expression inside noEvent
        Call,  // a user function (flatten/function_call.h): a = index into calls(), n unused
    };
    struct Instruction {
        Op op;
        std::uint32_t a = 0, b = 0;  // operand registers
        std::int32_t n = 0;          // PowInt exponent; the else register of a select
    };

    Tape() = default;
    // Throws TapeError when an expression uses a symbol not in `inputs` or a
    // function the tape does not know.
    Tape(const std::vector<GiNaC::symbol>& inputs, const std::vector<std::vector<GiNaC::ex>>& groups);
    // The same with parameter symbols: values the caller sets once with
    // set_parameters (0 until then) instead of passing them at every call.
    Tape(const std::vector<GiNaC::symbol>& inputs, const std::vector<GiNaC::symbol>& parameters,
         const std::vector<std::vector<GiNaC::ex>>& groups);
    std::size_t parameter_count() const { return params_; }
    // `values` has parameter_count() values, in the constructor's order.
    void set_parameters(const double* values);

    std::size_t input_count() const { return inputs_; }
    // Whether any output depends on input k (the searches enclose only the
    // states a guard uses).
    bool uses_input(std::size_t k) const { return k < used_inputs_.size() && used_inputs_[k]; }
    std::size_t output_count() const { return outputs_.size(); }
    std::size_t group_count() const { return group_end_.size(); }
    std::size_t group_begin(std::size_t g) const { return g == 0 ? 0 : group_end_[g - 1]; }
    std::size_t group_end(std::size_t g) const { return group_end_[g]; }
    std::size_t instruction_count() const { return code_.size(); }
    const std::vector<Instruction>& instructions() const { return code_; }

    // Evaluates the outputs of groups [0, groups): out[k] for
    // k < group_end(groups - 1). `in` has input_count() values.
    void evaluate(const double* in, double* out, std::size_t groups) const;
    void evaluate(const double* in, double* out) const { evaluate(in, out, group_count()); }
    void evaluate(const Interval* in, Interval* out, std::size_t groups) const;
    void evaluate(const Interval* in, Interval* out) const { evaluate(in, out, group_count()); }
    // The same inside a RoundingScope the caller keeps open (the event
    // search encloses many sub-intervals under one rounding-mode switch).
    void evaluate_in_scope(const FastInterval* in, FastInterval* out, std::size_t groups) const;

    // A call instruction's function (registry id), output and argument registers.
    struct Call {
        int function = -1;
        int output = 0;
        int partial = 0;
        std::vector<std::uint32_t> args;
    };
    const std::vector<Call>& calls() const { return calls_; }

    // Readable listing ("r5 = r0 * r3"), for tests and debugging.
    std::string listing() const;

private:
    friend class TapeCompiler;
    double call(const Call& c, const double* registers) const;
    FastInterval call_enclosure(const Call& c, const FastInterval* registers) const;
    std::size_t inputs_ = 0, params_ = 0, constants_ = 0;
    std::vector<Instruction> code_;
    std::vector<Call> calls_;
    std::vector<std::size_t> prefix_;     // per group: instructions needed by groups [0, g]
    std::vector<std::uint32_t> outputs_;  // register of each output
    std::vector<std::size_t> group_end_;
    std::vector<bool> used_inputs_;
    std::vector<double> constant_values_;
    std::vector<Interval> constant_intervals_;
    mutable std::vector<double> reg_;
    mutable std::vector<FastInterval> ireg_;  // used inside a RoundingScope only
};

}  // namespace modeaudit::sim
