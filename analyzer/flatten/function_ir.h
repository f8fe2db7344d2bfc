// User functions compiled for numeric evaluation (flatten stage, used by
// every later stage that evaluates expressions).
//
// A Modelica function whose body the flattener cannot inline symbolically
// (a while loop, or an if-statement or for range that depends on the
// model's variables: function_inlining.cpp, inline_function) is compiled into this
// small intermediate form: its inputs, outputs and protected variables
// become numbered slots of doubles (Integer and Boolean values are doubles
// holding whole numbers and 0/1), names of constants become numbers, and
// the functions it calls become other entries of the registry. The call
// itself then stays in the model's expressions as the GiNaC function
// `ma_call` (function_call.h), which the simulation's tape and every
// evaluation with numbers run through the interpreter
// (function_interpreter.h).
//
// The registry is process-wide, like GiNaC's function table: a compiled
// function is identified by its index. Entries are only added, never
// changed after they are complete, so indices held by expressions stay valid.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/source.h"

namespace modeaudit::fn {

// Built-in functions a compiled body may call (Modelica 3.6, 3.7).
enum class Builtin {
    Abs, Sign, Sqrt, Exp, Log, Log10, Sin, Cos, Tan, Asin, Acos, Atan, Atan2, Sinh, Cosh, Tanh,
    Min, Max, Div, Mod, Rem, Floor, Ceil, Integer,
};

struct Expr {
    enum class Kind {
        Const, Slot, Missing,      // Missing: an input left to its default (a call argument only)
        Neg, Not,
        Add, Sub, Mul, Div, Pow,
        Lt, Le, Gt, Ge, Eq, Ne, And, Or,
        If,                        // operands: c1, t1, c2, t2, ..., else
        Builtin,                   // builtin applied to operands
        Call,                      // function `function`, output `output`, operands: every input in order
    };
    Kind kind = Kind::Const;
    double value = 0;
    int slot = -1;
    Builtin builtin = Builtin::Abs;
    int function = -1;
    int output = 0;
    std::vector<Expr> operands;
    SourceRange range;
    std::string text;  // the source text, for messages (division by zero in '...')
};

struct Stmt {
    enum class Kind {
        Assign,  // targets[0] := value, or (targets...) := value (a Call; -1 skips an output)
        If,      // conditions[k] selects bodies[k]; a last body without condition is `else`
        For,     // slot iterates over start:step:stop (evaluated once), body
        While,   // conditions[0], body
        Break,
        Return,
        Assert,  // conditions[0] must hold, else `message`
    };
    Kind kind = Kind::Assign;
    std::vector<int> targets;
    Expr value;
    std::vector<Expr> conditions;
    std::vector<std::vector<Stmt>> bodies;
    int slot = -1;
    Expr start, step, stop;
    std::vector<Stmt> body;
    std::string message;
    SourceRange range;
};

struct Function {
    std::string name;  // as written in the model (for messages)
    SourceRange range;
    std::vector<std::string> slot_names;
    std::vector<int> inputs, outputs;        // slots, in declaration order
    std::vector<std::optional<Expr>> input_defaults;  // per input
    // Outputs and protected variables with a binding, set on entry in
    // declaration order.
    std::vector<std::pair<int, Expr>> initial;
    std::vector<Stmt> body;
    bool complete = false;   // body compiled (a recursive call may see it unfinished)
    // annotation(derivative = g): g's index, else -1. g takes the inputs,
    // then one derivative per input (Modelica 3.6, 12.7.1).
    int derivative = -1;
};

// The process-wide table of compiled functions.
class Registry {
public:
    static Registry& instance();
    // Adds an empty entry; the caller fills it (recursion needs the index first).
    int add(std::string name, SourceRange range);
    Function& at(int id);
    const Function& get(int id) const;
    std::size_t size() const;

private:
    std::deque<Function> functions_;
};

}  // namespace modeaudit::fn
