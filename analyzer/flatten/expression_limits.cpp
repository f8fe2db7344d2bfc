#include "flatten/expression_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>

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

namespace {

struct ExHash {
    std::size_t operator()(const GiNaC::ex& e) const { return e.gethash(); }
};
using Memo = std::unordered_map<GiNaC::ex, double, ExHash, GiNaC::ex_is_equal>;
double terms_bound_of(const GiNaC::ex& e, double cap, Memo& memo);

double terms_bound(const GiNaC::ex& e, double cap, Memo& memo) {
    // Memoised on the node: a model's values share subexpressions (a chain
    // p[k+1] = sin(p[k]) + cos(p[k]) doubles the written-out size at each
    // level), and a plain recursion would take time exponential in the chain.
    if (e.nops() > 0)
        if (auto it = memo.find(e); it != memo.end()) return it->second;
    const double r = terms_bound_of(e, cap, memo);
    if (e.nops() > 0) memo.emplace(e, r);
    return r;
}

double terms_bound_of(const GiNaC::ex& e, double cap, Memo& memo) {
    if (GiNaC::is_a<GiNaC::add>(e)) {
        double s = 0;
        for (std::size_t i = 0; i < e.nops(); ++i) {
            s += terms_bound(e.op(i), cap, memo);
            if (s >= cap) return cap;
        }
        return s;
    }
    if (GiNaC::is_a<GiNaC::mul>(e)) {
        double p = 1;
        for (std::size_t i = 0; i < e.nops(); ++i) {
            p *= terms_bound(e.op(i), cap, memo);
            if (p >= cap) return cap;
        }
        return p;
    }
    if (GiNaC::is_a<GiNaC::power>(e)) {
        const double base = terms_bound(e.op(0), cap, memo);
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
        return std::max({1.0, base, terms_bound(x, cap, memo)}) >= cap ? cap : 1;
    }
    // A function: one term, with its arguments expanded in place.
    for (std::size_t i = 0; i < e.nops(); ++i)
        if (terms_bound(e.op(i), cap, memo) >= cap) return cap;
    return 1;
}

}  // namespace

double expanded_terms_bound(const GiNaC::ex& e, double cap) {
    Memo memo;
    return terms_bound(e, cap, memo);
}

double written_out_size(const GiNaC::ex& e, double cap) {
    Memo memo;
    std::function<double(const GiNaC::ex&)> size = [&](const GiNaC::ex& x) -> double {
        if (x.nops() == 0) return 1;
        if (auto it = memo.find(x); it != memo.end()) return it->second;
        double n = 1;
        for (std::size_t i = 0; i < x.nops() && n < cap; ++i) n += size(x.op(i));
        n = std::min(n, cap);
        memo.emplace(x, n);
        return n;
    };
    return size(e);
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
