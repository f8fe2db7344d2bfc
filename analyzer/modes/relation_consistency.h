// Which truth values of the atomic relations can hold together (modes stage).
//
// The modes stage explores the discrete state as one truth value per atomic
// relation over continuous quantities. Relations that compare one quantity
// with different thresholds are not independent: `x < 0.5` true and
// `x < 1.5` false hold at no x. Exploring such a combination invents
// crossings that cannot happen (a latch `y = pre(y) and x < 1.5 or x < 0.5`
// would leave y = true through x = 0.5, the wrong threshold). This class
// groups the relations whose sides differ only by a constant (up to sign):
// each relation of a group is then a bound on one quantity u,
// lhs - rhs = sign*u + offset, and a valuation of the group is possible
// exactly when the bounds leave a non-empty interval for u. Relations in no
// common group (or = and <>) constrain nothing here.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "flatten/flat_model.h"

namespace modeaudit {

class RelationConsistency {
public:
    // `same` rewrites each relation's sides before grouping: variables that
    // every mode makes equal to a multiple of another (or to zero), so that
    // `x < 1.5` and `a < 0.5` with `a + b = x; b = 0` bound one quantity.
    explicit RelationConsistency(const std::vector<ConditionPtr>& relations, const GiNaC::exmap& same = {});

    // The variables the model's unconditional equations make equal to a
    // constant multiple of another continuous variable (u = k*w) or to zero
    // (b = 0), resolved transitively: an undifferentiated variable goes.
    static GiNaC::exmap equal_quantities(const FlatModel& flat);

    // `e` with those equalities substituted, or nullopt when the
    // substitution divides by zero: an equation or a relation that divides
    // by a quantity every mode makes zero (as in the MSL's FluxTubes
    // examples) proves nothing once rewritten, so callers keep it as it is
    // written (which only forgoes a simplification) instead of failing.
    static std::optional<GiNaC::ex> rewritten(const GiNaC::ex& e, const GiNaC::exmap& same);

    // Whether the relations can take the values `truth` (0/1 per relation,
    // in the constructor's order) at one point.
    bool possible(const std::vector<std::int64_t>& truth) const;

    // The relations (indices) of each group: possible() reads each group on
    // its own, so valuations of different groups combine freely.
    std::vector<std::vector<std::size_t>> linked() const;

private:
    struct Bound {
        std::size_t relation = 0;
        int sign = 1;                  // lhs - rhs = sign*u + offset
        GiNaC::numeric offset;
        Condition::RelOp op = Condition::RelOp::Lt;
    };
    // Groups of at least two relations over the same quantity.
    std::vector<std::vector<Bound>> groups_;
};

}  // namespace modeaudit
