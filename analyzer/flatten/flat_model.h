// The flat multimode system: output of the flatten stage.
//
// After flattening there are no classes, components, connectors or
// modifiers: only scalar variables with hierarchical names (`r1.p.v`,
// `x[2]`), equations between GiNaC expressions, the discrete part
// (conditions, when-clauses) and the audit's annotations. Every item keeps
// the source range it came from.
//
// Expressions: each flat variable has one GiNaC symbol, each derivative
// der(x), der(x, 2) ... and each left limit pre(x) its own symbol, held in a
// SymbolTable. `time` is a symbol too. Parameters with a value are
// substituted by exact numbers (CLN rationals when the text is a decimal)
// unless annotated Evaluate = false; constants always are.
//
// Mode selection: a condition that is not a parameter expression (an
// if-equation's or if-expression's condition) is a Condition tree; it gets a
// condition symbol c_k, and the GiNaC function `mode_if(c_k, a, b)` stands
// for `if c_k then a else b` inside expressions. The modes stage substitutes
// 1 or 0 for c_k in each mode, and `mode_if` folds to the selected branch.
#pragma once

#include <ginac/ginac.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/heap_optional.h"
#include "common/source.h"
#include "flatten/symbol_index.h"

namespace modeaudit {

// mode_if(c, a, b): `if c then a else b`; evaluates to a when c is 1, to b
// when c is 0, and stays unevaluated otherwise.
DECLARE_FUNCTION_3P(mode_if)

enum class Variability { Constant, Parameter, Discrete, Continuous };
enum class BaseType { Real, Integer, Boolean, String };

// A declared invariant: annotation(__ModeAudit(rate = ..., atEvents = ...)).
struct InvariantDecl {
    std::optional<GiNaC::ex> rate;
    std::string at_events;            // "", "conserved", "nonincreasing", "nondecreasing"
    std::vector<std::string> modes;   // restricts the checks to these mode ids
    SourceRange range;
};

struct FlatVariable {
    std::string name;
    BaseType type = BaseType::Real;
    Variability variability = Variability::Continuous;
    bool input = false, output = false;
    bool is_protected = false;
    bool declared_discrete = false;   // the `discrete` prefix itself
    bool exogenous = false;           // a top-level input without binding: a given signal, not an unknown

    std::optional<GiNaC::ex> start;
    bool fixed = false;
    // Rare attributes on the heap, a pointer's size each here: a model has
    // millions of variables, copied at each growth of the vector holding
    // them. (The declaration's description and suppressions are not kept:
    // nothing reads them from here; suppressions go to
    // FlatModel::suppressions.)
    HeapOptional<GiNaC::ex> min, max, nominal;
    HeapOptional<std::string> unit;  // as declared (unit = "V")

    // Parameters and constants: the value (numeric once evaluated). A
    // parameter kept symbolic (Evaluate = false, or no value with min/max)
    // appears in equations as its own symbol.
    std::optional<GiNaC::ex> value;
    bool kept_symbolic = false;       // appears as a symbol in the equations
    bool unknown_constant = false;    // no value; only its [min, max] is known

    HeapOptional<InvariantDecl> invariant;  // rare: on the heap, a pointer's size here

    SourceRange range;
};

// A boolean condition over discrete variables, left limits and relations.
struct Condition;
using ConditionPtr = std::shared_ptr<const Condition>;

struct Condition {
    enum class Kind { Constant, Variable, Not, And, Or, Relation, Sample, Initial };
    enum class RelOp { Lt, Le, Gt, Ge, Eq, Ne };

    Kind kind = Kind::Constant;
    bool value = false;                // Constant
    int variable = -1;                 // Variable: a Boolean flat variable's index
    bool pre = false;                  // Variable: pre(v)
    std::vector<ConditionPtr> operands;  // Not (1), And, Or (2+)
    RelOp op = RelOp::Lt;              // Relation: lhs op rhs
    GiNaC::ex lhs, rhs;                // Relation; Sample: lhs = start, rhs = interval
    SourceRange range;
};

// An equation `lhs = rhs` of the flat system; its residual is lhs - rhs.
struct FlatEquation {
    GiNaC::ex lhs, rhs;
    SourceRange range;
    std::string origin;   // "equation", "binding of r1.v", "connect(a.p, b.n)", "flow balance", ...
    // Active only where these condition symbols take these values (the
    // branch path through enclosing if-equations); empty: always active.
    std::vector<std::pair<int, bool>> active_when;
    bool initial = false;  // from an `initial equation` / `initial algorithm`
    // (Its suppressions are FlatModel::suppressions, by source range.)

    GiNaC::ex residual() const { return lhs - rhs; }
};

// What a when-clause does when it fires.
struct WhenAction {
    enum class Kind { AssignDiscrete, Reinit, RestartConstraint, AssignContinuous, Assert, Terminate };
    Kind kind = Kind::AssignDiscrete;
    int variable = -1;           // AssignDiscrete, Reinit, AssignContinuous
    GiNaC::ex value;             // numeric value (Integer/Real discrete, reinit, assign)
    ConditionPtr bool_value;     // AssignDiscrete of a Boolean variable
    GiNaC::ex lhs, rhs;          // RestartConstraint: relates pre(v) to v
    ConditionPtr assertion;      // Assert
    std::string message;         // Assert, Terminate
    std::string level = "error"; // Assert: "error" or "warning" (its AssertionLevel)
    SourceRange range;
};

struct FlatWhen {
    std::vector<ConditionPtr> triggers;  // `when {c1, c2}` has two; fires on any rising edge
    bool initial = false;                // `when initial()`
    bool terminal = false;               // `when terminal()`: fires once, at the end of the simulation
    std::vector<WhenAction> actions;
    int chain = 0;       // when/elsewhen chain id
    int priority = 0;    // 0 for `when`, 1.. for each `elsewhen` of the chain
    bool in_algorithm = false;
    SourceRange range;
};

// A discrete variable defined by a relation in an equation, e.g. the MSL
// diode's `off = s < 0;`: it changes when the relation changes.
struct RelationDefinition {
    int variable = -1;
    ConditionPtr condition;
    SourceRange range;
};

// An Integer discrete variable defined by an equation outside when, e.g. a
// friction element's `mode = if ... then Forward else if ... then Backward
// else Stuck;`: its value is `value`, an expression over constants,
// discrete Integer variables, their pre() and condition symbols (mode_if),
// evaluated at events by the event iteration (modes/discrete_logic.h).
struct IntegerDefinition {
    int variable = -1;
    GiNaC::ex value;
    SourceRange range;
};

struct FlatAssert {
    ConditionPtr condition;
    std::string message;
    std::vector<std::pair<int, bool>> active_when;  // the branch it sits in
    std::string level;   // "error" (default) or "warning"
    SourceRange range;
};

// Symbols of one flat model, by role.
class SymbolTable {
public:
    // The symbols are held on GiNaC's heap (as ex), so that turning one into
    // an expression shares it instead of copying it (GiNaC duplicates a
    // symbol that is not heap-allocated each time it becomes an ex).
    const GiNaC::symbol& variable(int v) const { return GiNaC::ex_to<GiNaC::symbol>(vars_.at(static_cast<std::size_t>(v))); }
    // der^k(v), k >= 1; created on first use.
    // Interned on first use: the table is a cache of symbols, so asking for a
    // new derivative or left limit does not change what the model means.
    const GiNaC::symbol& derivative(int v, int order) const;
    std::optional<GiNaC::symbol> find_derivative(int v, int order) const;
    const GiNaC::symbol& pre(int v) const;
    std::optional<GiNaC::symbol> find_pre(int v) const;
    const GiNaC::symbol& time() const { return GiNaC::ex_to<GiNaC::symbol>(time_); }
    const GiNaC::symbol& condition(int c) const { return GiNaC::ex_to<GiNaC::symbol>(conds_.at(static_cast<std::size_t>(c))); }

    int add_variable(const std::string& name);
    int add_condition(const std::string& name);

    // What a symbol stands for.
    struct Meaning {
        enum class Role { Variable, Derivative, Pre, Time, Condition } role = Role::Variable;
        int index = -1;  // variable or condition index
        int order = 0;   // Derivative
    };
    std::optional<Meaning> meaning(const GiNaC::symbol& s) const;
    int highest_derivative(int v) const;

    // The table of a part of the model (modes/model_partition.h): the
    // variables `variables` (indices here, in their order there) and the
    // conditions `conditions` with the very symbols they have here (their
    // derivatives, left limits and the time symbol too), so that the part's
    // expressions are this model's, unchanged.
    SymbolTable subset(const std::vector<int>& variables, const std::vector<int>& conditions) const;

private:
    std::vector<GiNaC::ex> vars_;
    mutable std::map<std::pair<int, int>, GiNaC::ex> ders_;
    mutable std::vector<int> max_order_;  // per variable (shorter: 0 beyond)
    void raise_order(int v, int order) const;
    mutable std::map<int, GiNaC::ex> pres_;
    std::vector<GiNaC::ex> conds_;
    GiNaC::ex time_{GiNaC::symbol("time")};
    // What each symbol of the table stands for, by the symbol's object and
    // hash (flatten/symbol_index.h): a lookup builds and hashes no string.
    mutable SymbolIndex<Meaning> index_;
    // By name, for a symbol made outside the table with the name of one of
    // its symbols (later stages build some by name): built on the first
    // lookup that needs it, then kept up to date.
    mutable std::optional<std::unordered_map<std::string, Meaning>> by_name_;
    void remember(const GiNaC::ex& symbol, Meaning m) const;
};

struct FlatModel {
    std::string name;        // the model class flattened
    std::string description;
    std::vector<FlatVariable> variables;       // in declaration order (depth first)
    std::vector<FlatEquation> equations;       // in source order after expansion
    std::vector<FlatEquation> initial_equations;
    std::vector<FlatWhen> whens;
    std::vector<RelationDefinition> relation_definitions;
    std::vector<IntegerDefinition> integer_definitions;
    std::vector<FlatAssert> asserts;
    std::vector<ConditionPtr> conditions;      // indexed by condition symbol
    std::vector<std::string> condition_text;   // canonical text of each condition
    SymbolTable symbols;
    std::optional<double> stop_time;           // annotation(experiment(StopTime = ...))
    std::vector<std::string> suppress;         // model-level suppressions
    // annotation(__ModeAudit(suppress = {...})) on an equation or a
    // component: findings located inside `range` of these rules are suppressed.
    struct Suppression {
        SourceRange range;
        std::vector<std::string> rules;
    };
    std::vector<Suppression> suppressions;
    SourceRange range;

    // Material for the rule checks of rules/flatten/ (one source per rule).
    struct IfEquationShape {   // an if-equation whose condition is not a parameter expression
        std::vector<std::size_t> branch_sizes;  // scalar equations per branch (else included)
        std::vector<SourceRange> branch_ranges;
        bool has_else = false;
        SourceRange range;
    };
    std::vector<IfEquationShape> if_equations;
    std::vector<SourceRange> reinit_outside_when;
    // Aliases removed by alias elimination: variable -> (representative, sign).
    struct Alias { int variable; int representative; int sign; };
    std::vector<Alias> aliases;

    int find_variable(const std::string& name) const;  // -1 when absent
};

// An equation whose residual, expanded, is ca*a + cb*b for two variables a
// and b (flat variable indices, possibly equal) and numbers ca, cb: the
// shape of an alias (a = b, a = -b, 1000*a = 1000*b). nullopt otherwise.
struct LinearPair {
    int a = -1, b = -1;
    GiNaC::numeric ca, cb;
};
std::optional<LinearPair> linear_pair(const FlatModel& model, const FlatEquation& e);

// d/dt of an expression: the chain rule over variables (continuous ones
// only: parameters, constants and discrete variables are constant between
// events), derivatives (der(x, k) -> der(x, k+1)) and time.
GiNaC::ex total_derivative(const FlatModel& model, const GiNaC::ex& e);

// The known values of what `exprs` use besides their unknowns: parameters
// (kept symbolic in the equations) by their value, time as 0. Symbols named
// in `skip` are left alone. For static checks that stand at no particular
// instant; anything evaluated at an event (a restart, a check of the
// values it gives) uses the overload below, so that an explicit `time`
// takes the event time.
GiNaC::exmap parameter_values(const FlatModel& model, const std::vector<GiNaC::ex>& exprs,
                              const std::set<std::string>& skip);
// The same at the instant `time`: time takes that value.
GiNaC::exmap parameter_values(const FlatModel& model, const std::vector<GiNaC::ex>& exprs,
                              const std::set<std::string>& skip, double time);

}  // namespace modeaudit
