#include "simulation/event_operators.h"

#include <cmath>
#include <sstream>

#include "flatten/expression_builder.h"

namespace modeaudit::sim {

namespace {

using GiNaC::ex;

std::string text_of(const ex& e) {
    std::ostringstream s;
    s << e;
    std::string t = s.str();
    // The built-ins print with their GiNaC names (ma_floor): as written.
    for (std::size_t at = t.find("ma_"); at != std::string::npos; at = t.find("ma_", at)) t.erase(at, 3);
    return t;
}

bool marked(const ex& e) {
    for (std::size_t k = 0; k < e.nops(); ++k)
        if (GiNaC::is_a<GiNaC::function>(e.op(k)) && GiNaC::ex_to<GiNaC::function>(e.op(k)).get_name() == "ma_noevent")
            return true;
    return false;
}

struct Freezer : GiNaC::map_function {
    EventOperators& ops;
    bool jumps_only;
    Freezer(EventOperators& o, bool j) : ops(o), jumps_only(j) {}
    ex operator()(const ex& e) override { return ops.freeze(e, jumps_only); }
};

double truncate(double q) { return q < 0 ? -std::floor(-q) : std::floor(q); }

// The region [lo, hi) (for Trunc with k != 0 and k < 0: (lo, hi]) where k holds.
void region(Branch::Kind kind, double k, double& lo, double& hi) {
    if (kind == Branch::Kind::Floor || k > 0) {
        lo = k;
        hi = k + 1;
    } else if (k < 0) {
        lo = k - 1;
        hi = k;
    } else {
        lo = -1;
        hi = 1;
    }
}

}  // namespace

std::size_t EventOperators::branch(Branch::Kind kind, const ex& argument, const ex& plain, const std::string& text) {
    const ex key = GiNaC::lst{static_cast<int>(kind), argument};
    if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
    Branch b;
    b.kind = kind;
    b.argument = argument;
    b.plain = plain;
    b.text = text;
    b.first = parameters_.size();
    const std::size_t index = branches_.size();
    static const char* const names[] = {"s", "k", "lo", "hi"};
    for (std::size_t p = 0; p < parameter_count(kind); ++p)
        parameters_.push_back(GiNaC::symbol("event_" + std::string(names[kind == Branch::Kind::Side ? 0 : p + 1]) +
                                            std::to_string(index)));
    branches_.push_back(b);
    by_key_.emplace(key, index);
    return index;
}

ex EventOperators::freeze(const ex& e, bool jumps_only) {
    if (GiNaC::is_a<GiNaC::function>(e)) {
        const std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
        if (name == "ma_noevent") return e;
        const bool one = e.nops() == 1, two = e.nops() == 2;
        const bool continuous = (one && name == "ma_abs") || (two && (name == "ma_min" || name == "ma_max"));
        const bool event = (one && (name == "ma_abs" || name == "ma_sign" || name == "ma_floor" || name == "ma_ceil")) ||
                           (two && (name == "ma_min" || name == "ma_max" || name == "ma_div" || name == "ma_mod" ||
                                    name == "ma_rem"));
        if (event && continuous && jumps_only) {
            if (marked(e)) return e;
            std::vector<ex> a;
            for (std::size_t k = 0; k < e.nops(); ++k) a.push_back(freeze(e.op(k), true));
            return one ? GiNaC::function(GiNaC::ex_to<GiNaC::function>(e).get_serial(), a[0])
                       : GiNaC::function(GiNaC::ex_to<GiNaC::function>(e).get_serial(), a[0], a[1]);
        }
        if (event && !marked(e)) {
            std::vector<ex> a;
            for (std::size_t k = 0; k < e.nops(); ++k) a.push_back(freeze(e.op(k), jumps_only));
            const std::string text = text_of(e);
            auto param = [&](std::size_t b, std::size_t k = 0) { return ex(parameters_[branches_[b].first + k]); };
            if (name == "ma_abs" || name == "ma_sign") {
                const std::size_t b = branch(Branch::Kind::Side, a[0], e.op(0), text);
                return name == "ma_abs" ? param(b) * a[0] : param(b);
            }
            if (name == "ma_min" || name == "ma_max") {
                const std::size_t b = branch(Branch::Kind::Side, a[0] - a[1], e.op(0) - e.op(1), text);
                const ex s = param(b);
                // s = +1: a > b. Exact: one weight is 1, the other 0.
                const ex larger = a[0] * (1 + s) / 2 + a[1] * (1 - s) / 2;
                const ex smaller = a[1] * (1 + s) / 2 + a[0] * (1 - s) / 2;
                return name == "ma_min" ? smaller : larger;
            }
            if (name == "ma_floor") return param(branch(Branch::Kind::Floor, a[0], e.op(0), text));
            if (name == "ma_ceil") return -param(branch(Branch::Kind::Floor, -a[0], -e.op(0), text));
            const ex q = a[0] / a[1], plain_q = e.op(0) / e.op(1);
            if (name == "ma_div") return param(branch(Branch::Kind::Trunc, q, plain_q, text));
            if (name == "ma_rem") return a[0] - param(branch(Branch::Kind::Trunc, q, plain_q, text)) * a[1];
            return a[0] - param(branch(Branch::Kind::Floor, q, plain_q, text)) * a[1];  // ma_mod
        }
        if (event) return e;  // noEvent: evaluated as it is
    }
    if (e.nops() == 0) return e;
    Freezer f(*this, jumps_only);
    return e.map(f);
}

std::vector<BranchGuard> EventOperators::exit_guards() const {
    std::vector<BranchGuard> out;
    for (std::size_t b = 0; b < branches_.size(); ++b) {
        const Branch& br = branches_[b];
        if (br.kind == Branch::Kind::Side) {
            out.push_back({b, false, -ex(parameters_[br.first]) * br.argument,
                           br.text + " (" + text_of(br.plain) + " changes sign)"});
            continue;
        }
        out.push_back({b, false, ex(parameters_[br.first + 1]) - br.argument, br.text + " jumps"});
        out.push_back({b, true, br.argument - ex(parameters_[br.first + 2]), br.text + " jumps"});
    }
    return out;
}

void EventOperators::choose(Branch::Kind kind, double value, double* p) {
    if (kind == Branch::Kind::Side) {
        p[0] = value >= 0 ? 1 : -1;
        return;
    }
    p[0] = kind == Branch::Kind::Floor ? std::floor(value) : truncate(value);
    region(kind, p[0], p[1], p[2]);
}

void EventOperators::cross(Branch::Kind kind, bool upper, double* p) {
    if (kind == Branch::Kind::Side) {
        p[0] = -p[0];
        return;
    }
    // The integer just beyond the bound crossed.
    const double next = upper ? p[2] + 0.5 : p[1] - 0.5;
    p[0] = kind == Branch::Kind::Floor ? std::floor(next) : truncate(next);
    region(kind, p[0], p[1], p[2]);
}

}  // namespace modeaudit::sim
