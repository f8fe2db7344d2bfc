#include "flatten/expression_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/limits.h"

namespace modeaudit {

namespace {

thread_local std::size_t t_max_terms = kDefaultMaxExpressionTerms;

// C(n + k - 1, k - 1): the number of monomials of degree n in k terms,
// saturating at cap.
double multinomial_terms(double n, double k, double cap) {
    if (k <= 1) return 1;
    double r = 1;
    const double m = std::min(n, k - 1);  // C(n + k - 1, m)
    for (double i = 1; i <= m; ++i) {
        r = r * (n + k - 1 - m + i) / i;
        if (r > cap) return cap;
    }
    return std::min(r, cap);
}

}  // namespace

std::size_t max_expression_terms() { return t_max_terms; }

ExpressionLimitScope::ExpressionLimitScope(std::size_t max_terms) : previous_(t_max_terms) { t_max_terms = max_terms; }
ExpressionLimitScope::~ExpressionLimitScope() { t_max_terms = previous_; }

double expanded_terms_bound(const GiNaC::ex& e, double cap) {
    if (GiNaC::is_a<GiNaC::add>(e)) {
        double s = 0;
        for (std::size_t i = 0; i < e.nops(); ++i) {
            s += expanded_terms_bound(e.op(i), cap);
            if (s >= cap) return cap;
        }
        return s;
    }
    if (GiNaC::is_a<GiNaC::mul>(e)) {
        double p = 1;
        for (std::size_t i = 0; i < e.nops(); ++i) {
            p *= expanded_terms_bound(e.op(i), cap);
            if (p >= cap) return cap;
        }
        return p;
    }
    if (GiNaC::is_a<GiNaC::power>(e)) {
        const double base = expanded_terms_bound(e.op(0), cap);
        const GiNaC::ex& x = e.op(1);
        if (GiNaC::is_a<GiNaC::numeric>(x)) {
            const GiNaC::numeric n = GiNaC::ex_to<GiNaC::numeric>(x);
            if (n.is_pos_integer()) {
                if (base >= cap) return cap;
                // A huge exponent of a sum: saturate before converting.
                if (n > GiNaC::numeric(1000000000)) return base <= 1 ? 1 : cap;
                return multinomial_terms(n.to_double(), base, cap);
            }
        }
        // A negative or symbolic exponent keeps the power as one term, but
        // its base (and exponent) are expanded in place.
        return std::max({1.0, base, expanded_terms_bound(x, cap)}) >= cap ? cap : 1;
    }
    // A function: one term, with its arguments expanded in place.
    for (std::size_t i = 0; i < e.nops(); ++i)
        if (expanded_terms_bound(e.op(i), cap) >= cap) return cap;
    return 1;
}

GiNaC::ex checked_expand(const GiNaC::ex& e) {
    const std::size_t limit = t_max_terms;
    const double cap = static_cast<double>(limit) + 1;
    auto refuse = [&](const std::string& how) {
        throw LimitExceeded(
            fmt::format("an expression of the model {} more than {} terms when multiplied out, the limit "
                        "on the expression size",
                        how, limit),
            "expression size", "--max-expression-terms");
    };
    // A sum that is already this long (a connection set, a long array sum)
    // does not grow by expanding: only growth counts against the limit.
    const double now = GiNaC::is_a<GiNaC::add>(e) ? static_cast<double>(e.nops()) : 1;
    const double bound = expanded_terms_bound(e, std::max(cap, now + 1));
    if (bound >= cap && bound > now) refuse("could have");
    GiNaC::ex r = e.expand();
    if (GiNaC::is_a<GiNaC::add>(r) && r.nops() > limit && static_cast<double>(r.nops()) > now) refuse("has");
    return r;
}

}  // namespace modeaudit
