#include "flatten/builtin_calls.h"

#include <map>

#include "flatten/expression_builder.h"

namespace modeaudit {

namespace {

using GiNaC::ex;

bool non_negative(const GiNaC::numeric& n) { return !n.is_negative(); }
bool positive(const GiNaC::numeric& n) { return n.is_positive(); }
bool unit_interval(const GiNaC::numeric& n) { return GiNaC::abs(n) <= 1; }

constexpr const char* kSqrt = "the argument of sqrt must not be negative; it";
constexpr const char* kLog = "the argument of log must be positive; it";
constexpr const char* kUnit = "the argument must lie in [-1, 1]; it";

std::vector<ElementwiseBuiltin> make_table() {
    using B = ElementwiseBuiltin;
    return {
        B{"sin", 1, [](const ex& x) -> ex { return GiNaC::sin(x); }},
        B{"cos", 1, [](const ex& x) -> ex { return GiNaC::cos(x); }},
        B{"tan", 1, [](const ex& x) -> ex { return GiNaC::tan(x); }},
        B{"asin", 1, [](const ex& x) -> ex { return GiNaC::asin(x); }, nullptr, unit_interval, kUnit},
        B{"acos", 1, [](const ex& x) -> ex { return GiNaC::acos(x); }, nullptr, unit_interval, kUnit},
        B{"atan", 1, [](const ex& x) -> ex { return GiNaC::atan(x); }},
        B{"sinh", 1, [](const ex& x) -> ex { return GiNaC::sinh(x); }},
        B{"cosh", 1, [](const ex& x) -> ex { return GiNaC::cosh(x); }},
        B{"tanh", 1, [](const ex& x) -> ex { return GiNaC::tanh(x); }},
        B{"exp", 1, [](const ex& x) -> ex { return GiNaC::exp(x); }},
        B{"log", 1, [](const ex& x) -> ex { return GiNaC::log(x); }, nullptr, positive, kLog},
        B{"log10", 1, [](const ex& x) -> ex { return GiNaC::log(x) / GiNaC::log(ex(10)); }, nullptr, positive, kLog},
        B{"sqrt", 1, [](const ex& x) -> ex { return GiNaC::sqrt(x); }, nullptr, non_negative, kSqrt},
        B{"abs", 1, [](const ex& x) -> ex { return ma_abs(x); }},
        B{"sign", 1, [](const ex& x) -> ex { return ma_sign(x); }},
        B{"floor", 1, [](const ex& x) -> ex { return ma_floor(x); }},
        B{"ceil", 1, [](const ex& x) -> ex { return ma_ceil(x); }},
        B{"integer", 1, [](const ex& x) -> ex { return ma_floor(x); }},
        B{"atan2", 2, nullptr, [](const ex& y, const ex& x) -> ex { return GiNaC::atan2(y, x); }},
        B{"div", 2, nullptr, [](const ex& a, const ex& b) -> ex { return ma_div(a, b); }},
        B{"mod", 2, nullptr, [](const ex& a, const ex& b) -> ex { return ma_mod(a, b); }},
        B{"rem", 2, nullptr, [](const ex& a, const ex& b) -> ex { return ma_rem(a, b); }},
    };
}

}  // namespace

const std::vector<ElementwiseBuiltin>& elementwise_builtins() {
    static const std::vector<ElementwiseBuiltin> table = make_table();
    return table;
}

const ElementwiseBuiltin* elementwise_builtin(std::string_view name) {
    static const std::map<std::string_view, const ElementwiseBuiltin*> by_name = [] {
        std::map<std::string_view, const ElementwiseBuiltin*> m;
        for (const ElementwiseBuiltin& b : elementwise_builtins()) m.emplace(b.name, &b);
        return m;
    }();
    auto it = by_name.find(name);
    return it == by_name.end() ? nullptr : it->second;
}

}  // namespace modeaudit
