// The size of a symbolic expression after expansion (a resource limit,
// common/limits.h).
//
// GiNaC's expand() multiplies out products and integer powers of sums: a
// one-line residual such as (x + y + z)^300 expands to 45,451 terms, and
// (a + b + c + d)^400 to some 11 million, which takes minutes and gigabytes.
// Every stage that expands a model's expressions calls checked_expand, which
// bounds the number of terms from above before expanding (the multinomial
// count of each power of a sum, the product of the operands' counts for a
// product) and refuses with LimitExceeded when the bound or the actual
// result is over the limit (a sum that is already that long and does not
// grow is let through). The bound ignores cancellation, so an expression
// that would cancel down to a few terms can be refused; the diagnostic says
// how to raise the limit.
#pragma once

#include <cstddef>

#include <ginac/ginac.h>

namespace modeaudit {

inline constexpr std::size_t kDefaultMaxExpressionTerms = 1000;

// The limit in force on this thread (default kDefaultMaxExpressionTerms).
std::size_t max_expression_terms();

// Sets the limit for this thread while in scope (run_pipeline opens one).
class ExpressionLimitScope {
public:
    explicit ExpressionLimitScope(std::size_t max_terms);
    ~ExpressionLimitScope();
    ExpressionLimitScope(const ExpressionLimitScope&) = delete;
    ExpressionLimitScope& operator=(const ExpressionLimitScope&) = delete;

private:
    std::size_t previous_;
};

// An upper bound on the number of terms of e.expand() (saturates at `cap`).
double expanded_terms_bound(const GiNaC::ex& e, double cap);

// The number of nodes of `e` written out as a tree, a shared subexpression
// counted each time it occurs (saturates at `cap`); time linear in the
// shared graph, memoised.
double written_out_size(const GiNaC::ex& e, double cap);

// The written-out size a parameter's value may have: 1000 nodes per term of
// --max-expression-terms (a million by default). Beyond it every later walk
// over the value (printing, substituting, evaluating) would take time
// exponential in a chain such as p[k+1] = sin(p[k]) + cos(p[k]).
inline constexpr double kWrittenOutNodesPerTerm = 1000;

// e.expand(), or LimitExceeded (limit "expression size", option
// --max-expression-terms) when it would have more terms than the limit.
GiNaC::ex checked_expand(const GiNaC::ex& e);

}  // namespace modeaudit
