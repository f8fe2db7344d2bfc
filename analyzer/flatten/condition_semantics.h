// The meaning of a relation and of a condition tree: the one evaluator the
// modes, simulation and verification stages share (Modelica 3.6 section
// 3.5: relations on Reals; and/or/not on Booleans).
//
// Each stage has its own way of giving a leaf a value (exact numbers from
// start values in the modes stage, the values left of an event in the
// simulation, enclosures over a step for asserts, a restart's values in
// verification); what a relation and a tree of and/or/not mean from those
// leaves is decided here and only here.
//
// The tolerance rule for equality (one rule, the same as event location's
// boundary tolerance, simulation.h): in floating point, `a == b` holds when
// |a - b| <= relation_tolerance(scale) = 1e-10 * max(1, scale), with scale the
// magnitude of the values the difference was computed from (the caller
// passes it; 1 where only the difference is known). `<`, `<=`, `>`, `>=`
// compare the difference with zero exactly: which side of a surface a value
// is on is event location's decision, not a tolerance's. In exact arithmetic
// (rationals) no tolerance applies.
#pragma once

#include "flatten/flat_model.h"

#include <ginac/ginac.h>

#include <functional>
#include <optional>

namespace modeaudit {

// A three-valued truth (Kleene logic): Unknown where a value is missing or an
// enclosure straddles the surface.
enum class Truth { False, True, Unknown };

inline Truth truth_of(bool b) { return b ? Truth::True : Truth::False; }
Truth truth_not(Truth a);

// The relative factor of the equality tolerance (see above).
inline constexpr double kRelationEqualityTolerance = 1e-10;
// 1e-10 * max(1, |scale|).
double relation_tolerance(double scale);

// `lhs op rhs` in exact arithmetic.
bool relation_holds(Condition::RelOp op, const GiNaC::numeric& lhs, const GiNaC::numeric& rhs);
// `lhs op rhs` in floating point from the difference d = lhs - rhs, equality
// within `equal_tolerance`.
bool relation_holds(Condition::RelOp op, double d, double equal_tolerance);
// The same over an enclosure [lo, hi] of the difference: True or False where
// every point of it decides alike, else Unknown (NaN bounds: Unknown).
Truth relation_truth(Condition::RelOp op, double lo, double hi, double equal_tolerance);
// The signed margin of a relation from the difference d = lhs - rhs:
// positive where it holds strictly, zero on the surface, negative where it
// fails (`==`: -|d|; `!=`: |d|).
double relation_margin(Condition::RelOp op, double d);

// A condition tree in Kleene logic. `leaf` gives the truth of every node
// that is not Constant, Not, And or Or (a Variable, a Relation, sample(),
// initial()). Every operand is visited, in order, whatever the earlier ones
// gave (callers count leaves as they go).
template <class Leaf>
Truth condition_truth(const Condition& c, Leaf&& leaf) {
    switch (c.kind) {
        case Condition::Kind::Constant: return truth_of(c.value);
        case Condition::Kind::Not: return truth_not(condition_truth(*c.operands.at(0), leaf));
        case Condition::Kind::And:
        case Condition::Kind::Or: {
            const Truth absorbing = c.kind == Condition::Kind::And ? Truth::False : Truth::True;
            Truth acc = c.kind == Condition::Kind::And ? Truth::True : Truth::False;
            for (const ConditionPtr& o : c.operands) {
                const Truth v = condition_truth(*o, leaf);
                if (acc == absorbing) continue;
                if (v == absorbing) acc = absorbing;
                else if (v == Truth::Unknown) acc = Truth::Unknown;
            }
            return acc;
        }
        default: return leaf(c);
    }
}

// The signed margin of a condition tree: Not negates, And takes the least
// and Or the greatest of its operands' margins; `leaf` gives the margin of
// every other node (nullopt: unknown, and so is the tree's).
template <class Leaf>
std::optional<double> condition_margin(const Condition& c, Leaf&& leaf) {
    switch (c.kind) {
        case Condition::Kind::Constant: return c.value ? 1.0 : -1.0;
        case Condition::Kind::Not: {
            auto m = condition_margin(*c.operands.at(0), leaf);
            if (!m) return std::nullopt;
            return -*m;
        }
        case Condition::Kind::And:
        case Condition::Kind::Or: {
            std::optional<double> acc;
            for (const ConditionPtr& o : c.operands) {
                auto m = condition_margin(*o, leaf);
                if (!m) return std::nullopt;
                acc = !acc ? *m : (c.kind == Condition::Kind::And ? std::min(*acc, *m) : std::max(*acc, *m));
            }
            return acc;
        }
        default: return leaf(c);
    }
}

// Partial evaluation of a condition tree: `leaf` gives the replacement of
// every node that is not Constant, Not, And or Or (itself when it stays, a
// Constant when decided, or another tree); constants then propagate through
// not/and/or (`false and x` is false, `true and x` is x). Nodes that do not
// change are shared, not copied.
ConditionPtr fold_condition(const ConditionPtr& c, const std::function<ConditionPtr(const ConditionPtr&)>& leaf);
// A Constant node.
ConditionPtr condition_constant(bool value, const SourceRange& range);

}  // namespace modeaudit
