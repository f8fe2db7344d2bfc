// The meaning of relations; see condition_semantics.h.
#include "flatten/condition_semantics.h"

#include <algorithm>
#include <cmath>

namespace modeaudit {

Truth truth_not(Truth a) { return a == Truth::True ? Truth::False : (a == Truth::False ? Truth::True : Truth::Unknown); }

double relation_tolerance(double scale) {
    return kRelationEqualityTolerance * std::max(1.0, std::isfinite(scale) ? std::fabs(scale) : 1.0);
}

bool relation_holds(Condition::RelOp op, const GiNaC::numeric& lhs, const GiNaC::numeric& rhs) {
    switch (op) {
        case Condition::RelOp::Lt: return lhs < rhs;
        case Condition::RelOp::Le: return lhs <= rhs;
        case Condition::RelOp::Gt: return lhs > rhs;
        case Condition::RelOp::Ge: return lhs >= rhs;
        case Condition::RelOp::Eq: return lhs == rhs;
        case Condition::RelOp::Ne: return lhs != rhs;
    }
    return false;
}

bool relation_holds(Condition::RelOp op, double d, double equal_tolerance) {
    switch (op) {
        case Condition::RelOp::Lt: return d < 0;
        case Condition::RelOp::Le: return d <= 0;
        case Condition::RelOp::Gt: return d > 0;
        case Condition::RelOp::Ge: return d >= 0;
        case Condition::RelOp::Eq: return std::fabs(d) <= equal_tolerance;
        case Condition::RelOp::Ne: return std::fabs(d) > equal_tolerance;
    }
    return false;
}

Truth relation_truth(Condition::RelOp op, double lo, double hi, double equal_tolerance) {
    if (std::isnan(lo) || std::isnan(hi)) return Truth::Unknown;
    auto decide = [](bool yes, bool no) { return yes ? Truth::True : (no ? Truth::False : Truth::Unknown); };
    const double e = equal_tolerance;
    switch (op) {
        case Condition::RelOp::Lt: return decide(hi < 0, lo >= 0);
        case Condition::RelOp::Le: return decide(hi <= 0, lo > 0);
        case Condition::RelOp::Gt: return decide(lo > 0, hi <= 0);
        case Condition::RelOp::Ge: return decide(lo >= 0, hi < 0);
        case Condition::RelOp::Eq: return decide(lo >= -e && hi <= e, lo > e || hi < -e);
        case Condition::RelOp::Ne: return decide(lo > e || hi < -e, lo >= -e && hi <= e);
    }
    return Truth::Unknown;
}

double relation_margin(Condition::RelOp op, double d) {
    switch (op) {
        case Condition::RelOp::Ge:
        case Condition::RelOp::Gt: return d;
        case Condition::RelOp::Le:
        case Condition::RelOp::Lt: return -d;
        case Condition::RelOp::Eq: return -std::fabs(d);
        case Condition::RelOp::Ne: return std::fabs(d);
    }
    return 0;
}

ConditionPtr condition_constant(bool value, const SourceRange& range) {
    auto r = std::make_shared<Condition>();
    r->kind = Condition::Kind::Constant;
    r->value = value;
    r->range = range;
    return r;
}

ConditionPtr fold_condition(const ConditionPtr& c, const std::function<ConditionPtr(const ConditionPtr&)>& leaf) {
    using K = Condition::Kind;
    switch (c->kind) {
        case K::Constant: return c;
        case K::Not: {
            ConditionPtr x = fold_condition(c->operands.at(0), leaf);
            if (x->kind == K::Constant) return condition_constant(!x->value, c->range);
            if (x == c->operands[0]) return c;
            auto r = std::make_shared<Condition>(*c);
            r->operands = {x};
            return r;
        }
        case K::And:
        case K::Or: {
            const bool conj = c->kind == K::And;
            std::vector<ConditionPtr> ops;
            bool same = true;
            for (const ConditionPtr& o : c->operands) {
                ConditionPtr x = fold_condition(o, leaf);
                same = same && x == o;
                if (x->kind == K::Constant) {
                    if (x->value != conj) return condition_constant(x->value, c->range);
                    continue;
                }
                ops.push_back(x);
            }
            if (ops.empty()) return condition_constant(conj, c->range);
            if (ops.size() == 1) return ops[0];
            if (same) return c;
            auto r = std::make_shared<Condition>(*c);
            r->operands = ops;
            return r;
        }
        default: return leaf(c);
    }
}

}  // namespace modeaudit
