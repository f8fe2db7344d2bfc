#include "flatten/function_call.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "flatten/function_interpreter.h"

namespace modeaudit {

namespace {

// GiNaC serials of ma_call with 0..kMaxCallInputs inputs.
std::array<unsigned, kMaxCallInputs + 1>& call_serials() {
    static std::array<unsigned, kMaxCallInputs + 1> s{};
    return s;
}

bool is_call_serial(unsigned serial) {
    for (unsigned s : call_serials())
        if (s == serial) return true;
    return false;
}

// key = (id * 64 + partial) * 64 + output; partial 0 is the value, p > 0 the
// partial derivative in input p (evaluated by central differences).
int key_function(const GiNaC::ex& key) { return GiNaC::ex_to<GiNaC::numeric>(key).to_int() / 4096; }
int key_partial(const GiNaC::ex& key) { return GiNaC::ex_to<GiNaC::numeric>(key).to_int() / 64 % 64; }
int key_output(const GiNaC::ex& key) { return GiNaC::ex_to<GiNaC::numeric>(key).to_int() % 64; }
int make_key(int id, int partial, int output) { return (id * 64 + partial) * 64 + output; }

std::optional<std::vector<double>> real_arguments(const GiNaC::exvector& args) {
    std::vector<double> in;
    for (std::size_t k = 1; k < args.size(); ++k) {
        if (!GiNaC::is_a<GiNaC::numeric>(args[k])) return std::nullopt;
        const GiNaC::numeric& n = GiNaC::ex_to<GiNaC::numeric>(args[k]);
        if (!n.is_real()) return std::nullopt;
        in.push_back(n.to_double());
    }
    return in;
}

GiNaC::ex held(const GiNaC::exvector& args);

}  // namespace

double call_value(int id, int partial, int output, const std::vector<double>& inputs) {
    if (partial == 0) return fn::call_function_output(id, output, inputs);
    // partial = p1 + 8 * p2: the derivative in input p1, then (p2 > 0) in
    // input p2; central differences with a step scaled to the input (larger
    // for a second derivative).
    const int p1 = partial % 8, p2 = partial / 8;
    const int outer = p2 > 0 ? p2 : p1, inner = p2 > 0 ? p1 : 0;
    const std::size_t k = static_cast<std::size_t>(outer - 1);
    const double x = inputs.at(k);
    const double h = (p2 > 0 ? 1e-4 : 1e-6) * std::max(1.0, std::fabs(x));
    std::vector<double> up = inputs, down = inputs;
    up[k] = x + h;
    down[k] = x - h;
    return (call_value(id, inner, output, up) - call_value(id, inner, output, down)) / (2 * h);
}

namespace {

GiNaC::ex held(const GiNaC::exvector& args) {
    return GiNaC::function(call_serials()[args.size() - 1], args).hold();
}

GiNaC::ex call_eval(const GiNaC::exvector& args) {
    auto in = real_arguments(args);
    if (!in) return held(args);
    const double v = call_value(key_function(args[0]), key_partial(args[0]), key_output(args[0]), *in);
    if (!std::isfinite(v)) return held(args);
    // Exact numbers in, an exact rational out (the double's value); floating
    // numbers in, a floating number out.
    bool exact = true;
    for (std::size_t k = 1; k < args.size(); ++k) exact = exact && GiNaC::ex_to<GiNaC::numeric>(args[k]).is_rational();
    return exact ? GiNaC::ex(exact_double(v)) : GiNaC::ex(GiNaC::numeric(v));
}

GiNaC::ex call_evalf(const GiNaC::exvector& args) {
    GiNaC::exvector ev{args[0]};
    for (std::size_t k = 1; k < args.size(); ++k) ev.push_back(args[k].evalf());
    auto in = real_arguments(ev);
    if (!in) return held(ev);
    return GiNaC::numeric(call_value(key_function(args[0]), key_partial(args[0]), key_output(args[0]), *in));
}

GiNaC::ex call_derivative(const GiNaC::exvector& args, unsigned param) {
    if (param == 0) return 0;
    const int id = key_function(args[0]), output = key_output(args[0]);
    const int partial = key_partial(args[0]);
    // A second derivative by differences once more; no third, and only in the first 7 inputs.
    if (partial >= 8 || param >= 8)
        return ma_noderiv(args[0], GiNaC::numeric(static_cast<int>(param)));
    if (partial > 0) {
        GiNaC::exvector v{GiNaC::numeric(make_key(id, partial + 8 * static_cast<int>(param), output))};
        v.insert(v.end(), args.begin() + 1, args.end());
        return GiNaC::function(call_serials()[args.size() - 1], v);
    }
    const fn::Function& f = fn::Registry::instance().get(id);
    const std::size_t n = args.size() - 1;
    if (f.derivative >= 0) {
        const fn::Function& d = fn::Registry::instance().get(f.derivative);
        if (d.inputs.size() == 2 * n && static_cast<std::size_t>(output) < d.outputs.size()) {
            std::vector<GiNaC::ex> in(args.begin() + 1, args.end());
            for (std::size_t k = 0; k < n; ++k) in.push_back(k + 1 == param ? 1 : 0);
            return make_call(f.derivative, output, in);
        }
    }
    if (param >= 8) return ma_noderiv(args[0], GiNaC::numeric(static_cast<int>(param)));
    GiNaC::exvector v{GiNaC::numeric(make_key(id, static_cast<int>(param), output))};
    v.insert(v.end(), args.begin() + 1, args.end());
    return GiNaC::function(call_serials()[args.size() - 1], v);
}

void call_print(const GiNaC::exvector& args, const GiNaC::print_context& c) {
    const int id = key_function(args[0]), output = key_output(args[0]);
    const int partial = key_partial(args[0]);
    if (partial > 0) {
        c.s << "pder_" << partial % 8 << "_";
        if (partial >= 8) c.s << partial / 8 << "_";
    }
    c.s << fn::Registry::instance().get(id).name;
    if (output > 0) c.s << "[" << output + 1 << "]";
    c.s << "(";
    for (std::size_t k = 1; k < args.size(); ++k) {
        if (k > 1) c.s << ", ";
        args[k].print(c);
    }
    c.s << ")";
}

void noderiv_print(const GiNaC::ex& key, const GiNaC::ex& param, const GiNaC::print_context& c) {
    c.s << "noderiv(" << fn::Registry::instance().get(key_function(key)).name << ", " << param << ")";
}

const bool registered = [] {
    for (std::size_t n = 0; n <= kMaxCallInputs; ++n)
        call_serials()[n] = GiNaC::function::register_new(GiNaC::function_options("ma_call" + std::to_string(n), static_cast<unsigned>(n + 1))
                                                               .eval_func(call_eval)
                                                               .evalf_func(call_evalf)
                                                               .derivative_func(call_derivative)
                                                               .print_func<GiNaC::print_context>(call_print));
    return true;
}();

}  // namespace

REGISTER_FUNCTION(ma_noderiv, print_func<GiNaC::print_context>(noderiv_print))

GiNaC::ex make_call(int id, int output, const std::vector<GiNaC::ex>& args) {
    (void)registered;
    GiNaC::exvector v{GiNaC::numeric(make_key(id, 0, output))};
    v.insert(v.end(), args.begin(), args.end());
    return GiNaC::function(call_serials().at(args.size()), v);
}

std::optional<CallInfo> as_call(const GiNaC::ex& e) {
    if (!GiNaC::is_a<GiNaC::function>(e)) return std::nullopt;
    const GiNaC::function& f = GiNaC::ex_to<GiNaC::function>(e);
    if (!is_call_serial(f.get_serial())) return std::nullopt;
    CallInfo c;
    c.function = key_function(e.op(0));
    c.output = key_output(e.op(0));
    c.partial = key_partial(e.op(0));
    for (std::size_t k = 1; k < e.nops(); ++k) c.args.push_back(e.op(k));
    return c;
}

std::optional<std::string> noderiv_function(const GiNaC::ex& e) {
    if (!is_ex_the_function(e, ma_noderiv)) return std::nullopt;
    return fn::Registry::instance().get(key_function(e.op(0))).name;
}

GiNaC::numeric exact_double(double v) {
    if (v == 0 || !std::isfinite(v)) return 0;
    int exp = 0;
    const double m = std::frexp(v, &exp);  // v = m * 2^exp, 0.5 <= |m| < 1
    const long long mant = static_cast<long long>(std::ldexp(m, 53));
    GiNaC::numeric r(static_cast<long>(mant));
    const int shift = exp - 53;
    const GiNaC::numeric two(2);
    return shift >= 0 ? r * two.power(shift) : r / two.power(-shift);
}

}  // namespace modeaudit
