#include "flatten/expression_builder.h"

#include <cctype>
#include <cmath>
#include <set>

#include "flatten/expression_limits.h"

namespace modeaudit {

namespace {

std::optional<GiNaC::numeric> real_num(const GiNaC::ex& e) {
    if (!GiNaC::is_a<GiNaC::numeric>(e)) return std::nullopt;
    GiNaC::numeric n = GiNaC::ex_to<GiNaC::numeric>(e);
    if (!n.is_real()) return std::nullopt;
    return n;
}

GiNaC::ex min_eval(const GiNaC::ex& a, const GiNaC::ex& b) {
    auto x = real_num(a), y = real_num(b);
    if (x && y) return *x < *y ? a : b;
    if (a.is_equal(b)) return a;
    return ma_min(a, b).hold();
}
GiNaC::ex max_eval(const GiNaC::ex& a, const GiNaC::ex& b) {
    auto x = real_num(a), y = real_num(b);
    if (x && y) return *x > *y ? a : b;
    if (a.is_equal(b)) return a;
    return ma_max(a, b).hold();
}
GiNaC::ex abs_eval(const GiNaC::ex& a) {
    if (auto x = real_num(a)) return GiNaC::abs(*x);
    return ma_abs(a).hold();
}
GiNaC::ex abs_evalf(const GiNaC::ex& a) {
    GiNaC::ex x = a.evalf();
    if (auto n = real_num(x)) return GiNaC::abs(*n);
    return ma_abs(x).hold();
}
GiNaC::ex abs_deriv(const GiNaC::ex& a, unsigned) { return ma_sign(a); }
void abs_print(const GiNaC::ex& a, const GiNaC::print_context& c) {
    c.s << "abs(";
    a.print(c);
    c.s << ")";
}
GiNaC::ex sign_eval(const GiNaC::ex& a) {
    if (auto x = real_num(a)) return x->is_zero() ? 0 : (x->is_positive() ? 1 : -1);
    return ma_sign(a).hold();
}
GiNaC::ex floor_eval(const GiNaC::ex& a) {
    if (auto x = real_num(a)) {
        if (x->is_rational()) {
            GiNaC::numeric q = GiNaC::iquo(x->numer(), x->denom());
            if (q * x->denom() > x->numer()) q -= 1;
            return q;
        }
        return GiNaC::numeric(std::floor(x->to_double()));
    }
    return ma_floor(a).hold();
}
GiNaC::ex ceil_eval(const GiNaC::ex& a) {
    if (auto x = real_num(a)) return -floor_eval(-*x);
    return ma_ceil(a).hold();
}
GiNaC::ex div_eval(const GiNaC::ex& a, const GiNaC::ex& b) {
    auto x = real_num(a), y = real_num(b);
    if (x && y && !y->is_zero()) {
        GiNaC::ex q = *x / *y;
        // truncation towards zero
        return q.info(GiNaC::info_flags::negative) ? -floor_eval(-q) : floor_eval(q);
    }
    return ma_div(a, b).hold();
}
GiNaC::ex mod_eval(const GiNaC::ex& a, const GiNaC::ex& b) {
    auto x = real_num(a), y = real_num(b);
    if (x && y && !y->is_zero()) return a - floor_eval(*x / *y) * b;
    return ma_mod(a, b).hold();
}
GiNaC::ex rem_eval(const GiNaC::ex& a, const GiNaC::ex& b) {
    auto x = real_num(a), y = real_num(b);
    if (x && y && !y->is_zero()) return a - div_eval(a, b) * b;
    return ma_rem(a, b).hold();
}
GiNaC::ex noevent_eval(const GiNaC::ex& a) {
    if (GiNaC::is_a<GiNaC::numeric>(a)) return a;
    return ma_noevent(a).hold();
}
GiNaC::ex noevent_expl_deriv(const GiNaC::ex& a, const GiNaC::symbol& s) { return ma_noevent(a.diff(s)); }
void noevent_print(const GiNaC::ex& a, const GiNaC::print_context& c) {
    c.s << "noEvent(";
    a.print(c);
    c.s << ")";
}
template <bool inclusive>
GiNaC::ex select_eval(const GiNaC::ex& u, const GiNaC::ex& a, const GiNaC::ex& b) {
    if (auto x = real_num(u)) return (x->is_positive() || (inclusive && x->is_zero())) ? a : b;
    if (a.is_equal(b)) return a;
    return (inclusive ? ma_select_ge(u, a, b) : ma_select(u, a, b)).hold();
}
template <bool inclusive>
GiNaC::ex select_expl_deriv(const GiNaC::ex& u, const GiNaC::ex& a, const GiNaC::ex& b, const GiNaC::symbol& s) {
    return inclusive ? ma_select_ge(u, a.diff(s), b.diff(s)) : ma_select(u, a.diff(s), b.diff(s));
}
template <bool inclusive>
void select_print(const GiNaC::ex& u, const GiNaC::ex& a, const GiNaC::ex& b, const GiNaC::print_context& c) {
    c.s << "(if noEvent(";
    u.print(c);
    c.s << (inclusive ? " >= 0) then " : " > 0) then ");
    a.print(c);
    c.s << " else ";
    b.print(c);
    c.s << ")";
}
// Piecewise-constant functions have derivative zero almost everywhere.
GiNaC::ex zero_deriv1(const GiNaC::ex&, unsigned) { return 0; }
GiNaC::ex zero_deriv2(const GiNaC::ex&, const GiNaC::ex&, unsigned) { return 0; }

}  // namespace

REGISTER_FUNCTION(ma_abs, eval_func(abs_eval).evalf_func(abs_evalf).derivative_func(abs_deriv).print_func<GiNaC::print_context>(abs_print))
REGISTER_FUNCTION(ma_min, eval_func(min_eval))
REGISTER_FUNCTION(ma_max, eval_func(max_eval))
REGISTER_FUNCTION(ma_sign, eval_func(sign_eval).derivative_func(zero_deriv1))
REGISTER_FUNCTION(ma_floor, eval_func(floor_eval).derivative_func(zero_deriv1))
REGISTER_FUNCTION(ma_ceil, eval_func(ceil_eval).derivative_func(zero_deriv1))
REGISTER_FUNCTION(ma_div, eval_func(div_eval).derivative_func(zero_deriv2))
REGISTER_FUNCTION(ma_mod, eval_func(mod_eval))
REGISTER_FUNCTION(ma_rem, eval_func(rem_eval))
REGISTER_FUNCTION(ma_noevent, eval_func(noevent_eval).expl_derivative_func(noevent_expl_deriv).print_func<GiNaC::print_context>(noevent_print))
REGISTER_FUNCTION(ma_select, eval_func(select_eval<false>).expl_derivative_func(select_expl_deriv<false>).print_func<GiNaC::print_context>(select_print<false>))
REGISTER_FUNCTION(ma_select_ge, eval_func(select_eval<true>).expl_derivative_func(select_expl_deriv<true>).print_func<GiNaC::print_context>(select_print<true>))
REGISTER_FUNCTION(in_stream, dummy())
REGISTER_FUNCTION(actual_stream, dummy())

std::string Value::shape() const {
    if (dims.empty()) return "scalar";
    std::string s = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
    return s + "]";
}

std::optional<Value> Value::element(long k) const {
    if (dims.empty() || k < 1 || static_cast<std::size_t>(k) > dims[0]) return std::nullopt;
    std::size_t stride = elems.size() / dims[0];
    Value part;
    part.dims.assign(dims.begin() + 1, dims.end());
    auto first = elems.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(k - 1) * stride);
    part.elems.assign(first, first + static_cast<std::ptrdiff_t>(stride));
    return part;
}

namespace {
struct NoEventMarker : GiNaC::map_function {
    GiNaC::ex operator()(const GiNaC::ex& e) override {
        if (GiNaC::is_a<GiNaC::function>(e)) {
            const GiNaC::function& f = GiNaC::ex_to<GiNaC::function>(e);
            const std::string name = f.get_name();
            if (name == "ma_noevent") return e;
            static const char* const events[] = {"ma_abs",  "ma_sign", "ma_min", "ma_max", "ma_floor",
                                                 "ma_ceil", "ma_div",  "ma_mod", "ma_rem"};
            for (const char* event : events)
                if (name == event) {
                    GiNaC::exvector args;
                    for (std::size_t k = 0; k < e.nops(); ++k) args.push_back(ma_noevent(e.op(k).map(*this)));
                    return GiNaC::function(f.get_serial(), args);
                }
        }
        return e.map(*this);
    }
};
}  // namespace

GiNaC::ex mark_no_event(const GiNaC::ex& e) {
    NoEventMarker m;
    return m(e);
}

GiNaC::numeric parse_real_literal(const std::string& text) {
    // digits [. digits] [(e|E) [+|-] digits]
    std::string mantissa;
    long exponent = 0;
    std::size_t i = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) mantissa += text[i];
    if (i < text.size() && text[i] == '.') {
        ++i;
        for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
            mantissa += text[i];
            --exponent;
        }
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool neg = false;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) neg = text[i++] == '-';
        long e = 0;
        for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
            e = e * 10 + (text[i] - '0');
            if (e > 100000) break;  // absurd exponents: clamp, the value is then 0 or huge
        }
        exponent += neg ? -e : e;
    }
    if (mantissa.empty()) mantissa.push_back('0');  // (not `= "0"`: GCC 12 warns -Wrestrict there)
    GiNaC::numeric m(mantissa.c_str());
    GiNaC::numeric scale = GiNaC::numeric(10).power(GiNaC::numeric(exponent >= 0 ? exponent : -exponent));
    return exponent >= 0 ? m * scale : m / scale;
}

std::optional<int> polynomial_degree(const GiNaC::ex& e, const GiNaC::ex& z) {
    if (!e.is_polynomial(z)) return std::nullopt;
    return e.degree(z);
}

std::vector<GiNaC::ex> terms_of(const GiNaC::ex& e) {
    std::vector<GiNaC::ex> terms;
    if (GiNaC::is_a<GiNaC::add>(e))
        for (std::size_t i = 0; i < e.nops(); ++i) terms.push_back(e.op(i));
    else
        terms.push_back(e);
    return terms;
}

namespace {
// The symbols of `e`, ordered.
std::vector<GiNaC::ex> symbols_of(const GiNaC::ex& e) {
    std::set<GiNaC::ex, GiNaC::ex_is_less> found;
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it)) found.insert(*it);
    return {found.begin(), found.end()};
}
}  // namespace

bool is_constant_multiple(const GiNaC::ex& a, const GiNaC::ex& b) {
    GiNaC::ex be = checked_expand(b);
    if (be.is_zero()) return false;
    GiNaC::ex ae = checked_expand(a);
    if (ae.is_zero()) return true;
    // k*b expanded (k a nonzero number) is a sum of as many terms as b's,
    // over the same symbols: a cheap test that spares most quotients.
    if (GiNaC::is_a<GiNaC::add>(ae) != GiNaC::is_a<GiNaC::add>(be)) return false;
    if (GiNaC::is_a<GiNaC::add>(ae) && ae.nops() != be.nops()) return false;
    const std::vector<GiNaC::ex> sa = symbols_of(ae), sb = symbols_of(be);
    if (sa.size() != sb.size()) return false;
    for (std::size_t k = 0; k < sa.size(); ++k)
        if (!sa[k].is_equal(sb[k])) return false;
    return GiNaC::is_a<GiNaC::numeric>(GiNaC::normal(ae / be));
}

std::optional<GiNaC::numeric> numeric_value(const GiNaC::ex& e) {
    if (GiNaC::is_a<GiNaC::numeric>(e)) return GiNaC::ex_to<GiNaC::numeric>(e);
    // Only a symbol-free expression (sqrt(2), pi, exp(1)) has a value.
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it)) return std::nullopt;
    GiNaC::ex f = GiNaC::evalf(e);
    if (!GiNaC::is_a<GiNaC::numeric>(f)) return std::nullopt;
    return GiNaC::ex_to<GiNaC::numeric>(f);
}

}  // namespace modeaudit
