// The one canonical printer of expressions and conditions, and the dump of
// the flat model (`--dump-after=flatten`).
//
// GiNaC's own term order follows symbol creation order, which a reordering
// of the model's text would change; users and goldens need a form that only
// depends on the mathematics. So sums and products are printed with their
// terms sorted by their own canonical text, numbers as exact rationals.
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "flatten/expression_builder.h"
#include "flatten/flattener.h"

namespace modeaudit {

namespace {

enum Prec { kSum = 1, kProduct = 2, kPower = 3, kAtom = 4 };

class Printer {
public:
    explicit Printer(const FlatModel* model) : model_(model) {}

    std::string print(const GiNaC::ex& e) { return go(e).first; }

    std::string condition(const Condition& c) {
        using K = Condition::Kind;
        switch (c.kind) {
            case K::Constant: return c.value ? "true" : "false";
            case K::Variable: {
                std::string n = model_ ? model_->variables[static_cast<std::size_t>(c.variable)].name
                                       : fmt::format("b{}", c.variable);
                return c.pre ? "pre(" + n + ")" : n;
            }
            case K::Not: {
                const Condition& o = *c.operands[0];
                bool atomic = o.kind == K::Variable || o.kind == K::Constant || o.kind == K::Initial ||
                              o.kind == K::Sample;
                return atomic ? "not " + condition(o) : "not (" + condition(o) + ")";
            }
            case K::And:
            case K::Or: {
                std::string s;
                for (const ConditionPtr& o : c.operands) {
                    std::string t = condition(*o);
                    bool paren = (o->kind == K::And || o->kind == K::Or) && o->kind != c.kind;
                    s += (s.empty() ? "" : (c.kind == K::And ? " and " : " or ")) + (paren ? "(" + t + ")" : t);
                }
                return s;
            }
            case K::Relation: {
                static const char* ops[] = {" < ", " <= ", " > ", " >= ", " == ", " <> "};
                return print(c.lhs) + ops[static_cast<int>(c.op)] + print(c.rhs);
            }
            case K::Sample: return "sample(" + print(c.lhs) + ", " + print(c.rhs) + ")";
            case K::Initial: return "initial()";
        }
        return "?";
    }

private:
    const FlatModel* model_;

    static std::string number(const GiNaC::numeric& n) {
        // A rational whose denominator has only the factors 2 and 5 is a
        // finite decimal, as the user wrote it: 9.81 rather than 981/100.
        if (n.is_rational() && !n.is_integer()) {
            GiNaC::numeric d = n.denom();
            int twos = 0, fives = 0;
            while (GiNaC::irem(d, 2).is_zero()) d = d / 2, ++twos;
            while (GiNaC::irem(d, 5).is_zero()) d = d / 5, ++fives;
            int digits = std::max(twos, fives);
            if (d.is_equal(1) && digits <= 16) {
                GiNaC::numeric scaled = GiNaC::abs(n) * GiNaC::numeric(10).power(digits);
                std::ostringstream s;
                s << scaled;
                std::string t = s.str();
                if (t.size() <= static_cast<std::size_t>(digits)) t.insert(0, static_cast<std::size_t>(digits) + 1 - t.size(), '0');
                t.insert(t.size() - static_cast<std::size_t>(digits), ".");
                return (n.is_negative() ? "-" : "") + t;
            }
        }
        if (n.is_rational()) {
            std::ostringstream s;
            s << n;
            return s.str();
        }
        if (n.is_real()) return fmt::format("{:.17g}", n.to_double());
        std::ostringstream s;
        s << n;
        return s.str();
    }

    std::pair<std::string, int> go(const GiNaC::ex& e) {
        if (GiNaC::is_a<GiNaC::numeric>(e)) {
            GiNaC::numeric n = GiNaC::ex_to<GiNaC::numeric>(e);
            std::string s = number(n);
            bool neg = n.is_real() && n.is_negative();
            bool frac = n.is_rational() && !n.is_integer();
            return {s, neg ? kSum : (frac ? kProduct : kAtom)};
        }
        if (GiNaC::is_a<GiNaC::symbol>(e)) return {GiNaC::ex_to<GiNaC::symbol>(e).get_name(), kAtom};
        if (GiNaC::is_a<GiNaC::constant>(e)) {
            std::ostringstream s;
            s << e;
            return {s.str(), kAtom};
        }
        if (GiNaC::is_a<GiNaC::add>(e)) {
            std::vector<std::pair<bool, std::string>> terms;  // (negative, text without sign)
            for (std::size_t i = 0; i < e.nops(); ++i) {
                auto [neg, text] = signed_term(e.op(i));
                terms.push_back({neg, text});
            }
            std::sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) {
                // numbers last, then by text
                bool an = !a.second.empty() && std::isdigit(static_cast<unsigned char>(a.second[0]));
                bool bn = !b.second.empty() && std::isdigit(static_cast<unsigned char>(b.second[0]));
                if (an != bn) return bn;
                return a.second != b.second ? a.second < b.second : a.first < b.first;
            });
            std::string s;
            for (std::size_t i = 0; i < terms.size(); ++i) {
                if (i == 0)
                    s += (terms[i].first ? "-" : "") + terms[i].second;
                else
                    s += (terms[i].first ? " - " : " + ") + terms[i].second;
            }
            return {s, kSum};
        }
        if (GiNaC::is_a<GiNaC::mul>(e)) {
            auto [neg, text] = signed_term(e);
            return {neg ? "-" + text : text, neg ? kSum : kProduct};
        }
        if (GiNaC::is_a<GiNaC::power>(e)) {
            GiNaC::ex b = e.op(0), x = e.op(1);
            if (x.is_equal(GiNaC::numeric(1, 2))) return {"sqrt(" + print(b) + ")", kAtom};
            if (GiNaC::is_a<GiNaC::numeric>(x) && GiNaC::ex_to<GiNaC::numeric>(x).is_negative()) {
                auto [den, p] = go(GiNaC::pow(b, -x));
                return {"1/" + (p < kPower ? "(" + den + ")" : den), kProduct};
            }
            auto [bs, bp] = go(b);
            auto [xs, xp] = go(x);
            // (x - c)^2 = (c - x)^2: which one GiNaC keeps depends on its term
            // order, whose hashes are seeded by type_info addresses and so
            // vary between runs. An even power of a sum prints the sign of
            // its base that does not lead with a minus (else the smaller text).
            if (GiNaC::is_a<GiNaC::add>(b) && GiNaC::is_a<GiNaC::numeric>(x) &&
                GiNaC::ex_to<GiNaC::numeric>(x).is_even()) {
                const std::string flipped = go(-b).first;
                const bool minus = !bs.empty() && bs[0] == '-', flipped_minus = !flipped.empty() && flipped[0] == '-';
                if (minus != flipped_minus ? minus : flipped < bs) bs = flipped;
            }
            return {(bp < kAtom ? "(" + bs + ")" : bs) + "^" + (xp < kAtom ? "(" + xs + ")" : xs), kPower};
        }
        if (GiNaC::is_a<GiNaC::function>(e)) {
            std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
            if (name == "mode_if") {
                std::string c = print(e.op(0));
                if (model_) {
                    auto m = model_->symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(e.op(0)));
                    if (m && m->role == SymbolTable::Meaning::Role::Condition)
                        c = condition(*model_->conditions[static_cast<std::size_t>(m->index)]);
                }
                return {"(if " + c + " then " + print(e.op(1)) + " else " + print(e.op(2)) + ")", kAtom};
            }
            if ((name == "ma_select" || name == "ma_select_ge") && e.nops() == 3)
                return {"(if noEvent(" + print(e.op(0)) + (name == "ma_select" ? " > 0" : " >= 0") + ") then " +
                            print(e.op(1)) + " else " + print(e.op(2)) + ")",
                        kAtom};
            if (name.rfind("ma_", 0) == 0) name = name.substr(3);
            if (name == "in_stream") name = "inStream";
            if (name == "actual_stream") name = "actualStream";
            std::string s = name + "(";
            for (std::size_t i = 0; i < e.nops(); ++i) s += (i ? ", " : "") + print(e.op(i));
            return {s + ")", kAtom};
        }
        std::ostringstream s;
        s << e;
        return {s.str(), kAtom};
    }

    // A product (or any term) as (negative?, text of its absolute value).
    std::pair<bool, std::string> signed_term(const GiNaC::ex& t) {
        if (GiNaC::is_a<GiNaC::numeric>(t)) {
            GiNaC::numeric n = GiNaC::ex_to<GiNaC::numeric>(t);
            if (n.is_real() && n.is_negative()) return {true, number(-n)};
            return {false, number(n)};
        }
        if (!GiNaC::is_a<GiNaC::mul>(t)) {
            auto [s, p] = go(t);
            if (!s.empty() && s[0] == '-' && p == kSum && !GiNaC::is_a<GiNaC::add>(t)) return {true, s.substr(1)};
            return {false, p == kSum ? "(" + s + ")" : s};
        }
        GiNaC::numeric coeff = 1;
        bool flipped = false;  // sums among the factors printed with their sign turned, an odd number of times
        std::vector<std::string> num, den;
        for (std::size_t i = 0; i < t.nops(); ++i) {
            GiNaC::ex f = t.op(i);
            if (GiNaC::is_a<GiNaC::numeric>(f)) {
                coeff *= GiNaC::ex_to<GiNaC::numeric>(f);
                continue;
            }
            // (G - C)*i = -(C - G)*i: which form GiNaC keeps depends on its
            // term order (hashes seeded by type_info addresses, which vary
            // between runs), so a sum factor, or an integer power of one,
            // prints the sign of its base that does not lead with a minus
            // (else the smaller text), the product's sign turned to match.
            const bool sum_power = GiNaC::is_a<GiNaC::power>(f) && GiNaC::is_a<GiNaC::add>(f.op(0)) &&
                                   GiNaC::is_a<GiNaC::numeric>(f.op(1)) && GiNaC::ex_to<GiNaC::numeric>(f.op(1)).is_integer();
            if (GiNaC::is_a<GiNaC::add>(f) || sum_power) {
                const GiNaC::ex b = GiNaC::is_a<GiNaC::add>(f) ? f : f.op(0);
                const GiNaC::numeric n = GiNaC::is_a<GiNaC::add>(f) ? GiNaC::numeric(1) : GiNaC::ex_to<GiNaC::numeric>(f.op(1));
                std::string bs = go(b).first;
                const std::string other = go(-b).first;
                const bool minus = !bs.empty() && bs[0] == '-', other_minus = !other.empty() && other[0] == '-';
                if (minus != other_minus ? minus : other < bs) {
                    bs = other;
                    if (n.is_odd()) flipped = !flipped;
                }
                const GiNaC::numeric m = n.is_negative() ? -n : n;
                std::string text = "(" + bs + ")";
                if (!m.is_equal(1)) text += "^" + number(m);
                (n.is_negative() ? den : num).push_back(text);
                continue;
            }
            if (GiNaC::is_a<GiNaC::power>(f) && GiNaC::is_a<GiNaC::numeric>(f.op(1)) &&
                GiNaC::ex_to<GiNaC::numeric>(f.op(1)).is_negative() && !f.op(1).is_equal(GiNaC::numeric(-1, 2))) {
                auto [s, p] = go(GiNaC::pow(f.op(0), -f.op(1)));
                den.push_back(p < kPower ? "(" + s + ")" : s);
                continue;
            }
            auto [s, p] = go(f);
            num.push_back(p < kProduct ? "(" + s + ")" : s);
        }
        std::sort(num.begin(), num.end());
        std::sort(den.begin(), den.end());
        bool neg = (coeff.is_real() && coeff.is_negative()) != flipped;
        if (coeff.is_real() && coeff.is_negative()) coeff = -coeff;
        GiNaC::numeric cn = coeff.numer(), cd = coeff.denom();
        std::string s;
        if (!coeff.is_rational()) {
            s = number(coeff);
        } else if (!cn.is_equal(1) || num.empty()) {
            s = number(cn);
        }
        for (const std::string& f : num) s += (s.empty() ? "" : "*") + f;
        if (coeff.is_rational() && !cd.is_equal(1)) den.insert(den.begin(), number(cd));
        for (const std::string& d : den) s += "/" + d;
        return {neg, s};
    }
};

const char* variability_name(Variability v) {
    switch (v) {
        case Variability::Constant: return "constant ";
        case Variability::Parameter: return "parameter ";
        case Variability::Discrete: return "discrete ";
        case Variability::Continuous: return "";
    }
    return "";
}

const char* type_name(BaseType t) {
    switch (t) {
        case BaseType::Real: return "Real";
        case BaseType::Integer: return "Integer";
        case BaseType::Boolean: return "Boolean";
        case BaseType::String: return "String";
    }
    return "Real";
}

std::string where(const SourceRange& r) {
    return r.valid() ? fmt::format("  // line {}", r.begin.line) : std::string();
}

}  // namespace

std::string canonical(const GiNaC::ex& e) { return Printer(nullptr).print(e); }

std::string canonical(const FlatModel& flat, const Condition& c) { return Printer(&flat).condition(c); }

std::string canonical_in(const FlatModel& flat, const GiNaC::ex& e) { return Printer(&flat).print(e); }

void dump_flat(const FlatModel& flat, std::ostream& out) {
    Printer p(&flat);
    out << "model " << flat.name << "\n";
    out << "variables:\n";
    for (const FlatVariable& v : flat.variables) {
        std::string line = fmt::format("  {}{}{}{} {}", v.input ? "input " : "", v.output ? "output " : "",
                                       variability_name(v.variability), type_name(v.type), v.name);
        std::vector<std::string> attrs;
        if (v.start) attrs.push_back("start = " + p.print(*v.start));
        if (v.fixed && v.variability != Variability::Parameter && v.variability != Variability::Constant)
            attrs.push_back("fixed = true");
        if (v.min) attrs.push_back("min = " + p.print(*v.min));
        if (v.max) attrs.push_back("max = " + p.print(*v.max));
        if (!attrs.empty()) {
            line += "(";
            for (std::size_t i = 0; i < attrs.size(); ++i) line += (i ? ", " : "") + attrs[i];
            line += ")";
        }
        if (v.value) line += " = " + p.print(*v.value);
        if (v.kept_symbolic) line += v.unknown_constant ? "  [unknown constant]" : "  [kept symbolic]";
        if (v.exogenous) line += "  [given input]";
        if (v.invariant) {
            line += "  [invariant";
            if (v.invariant->rate) line += " rate = " + p.print(*v.invariant->rate);
            if (!v.invariant->at_events.empty()) line += " atEvents = " + v.invariant->at_events;
            line += "]";
        }
        out << line << "\n";
    }
    if (!flat.aliases.empty()) {
        out << "aliases:\n";
        for (const auto& a : flat.aliases)
            out << fmt::format("  {} = {}{}\n", flat.variables[static_cast<std::size_t>(a.variable)].name,
                               a.sign < 0 ? "-" : "", flat.variables[static_cast<std::size_t>(a.representative)].name);
    }
    auto active = [&](const std::vector<std::pair<int, bool>>& when) {
        if (when.empty()) return std::string();
        std::string s = "  [when ";
        for (std::size_t i = 0; i < when.size(); ++i) {
            std::string c = p.condition(*flat.conditions[static_cast<std::size_t>(when[i].first)]);
            s += (i ? " and " : "") + (when[i].second ? c : "not (" + c + ")");
        }
        return s + "]";
    };
    out << "equations:\n";
    for (std::size_t i = 0; i < flat.equations.size(); ++i) {
        const FlatEquation& e = flat.equations[i];
        out << fmt::format("  [{}] {} = {}{}  ({}){}\n", i + 1, p.print(e.lhs), p.print(e.rhs), active(e.active_when),
                           e.origin, where(e.range));
    }
    if (!flat.initial_equations.empty()) {
        out << "initial equations:\n";
        for (const FlatEquation& e : flat.initial_equations)
            out << fmt::format("  {} = {}  ({}){}\n", p.print(e.lhs), p.print(e.rhs), e.origin, where(e.range));
    }
    if (!flat.relation_definitions.empty() || !flat.integer_definitions.empty()) {
        out << "discrete definitions:\n";
        for (const RelationDefinition& r : flat.relation_definitions)
            out << fmt::format("  {} := {}{}\n", flat.variables[static_cast<std::size_t>(r.variable)].name,
                               p.condition(*r.condition), where(r.range));
        for (const IntegerDefinition& d : flat.integer_definitions)
            out << fmt::format("  {} := {}{}\n", flat.variables[static_cast<std::size_t>(d.variable)].name,
                               p.print(d.value), where(d.range));
    }
    if (!flat.whens.empty()) {
        out << "when-clauses:\n";
        for (const FlatWhen& w : flat.whens) {
            std::string trig;
            for (const ConditionPtr& t : w.triggers) trig += (trig.empty() ? "" : ", ") + p.condition(*t);
            if (w.initial) trig += std::string(trig.empty() ? "" : ", ") + "initial()";
            out << fmt::format("  {} {}{}{}\n", w.priority == 0 ? "when" : "elsewhen", trig,
                               w.in_algorithm ? "  (algorithm)" : "", where(w.range));
            for (const WhenAction& a : w.actions) {
                std::string var = a.variable >= 0 ? flat.variables[static_cast<std::size_t>(a.variable)].name : "";
                switch (a.kind) {
                    case WhenAction::Kind::AssignDiscrete:
                        out << "    " << var << " := "
                            << (a.bool_value ? p.condition(*a.bool_value) : p.print(a.value)) << "\n";
                        break;
                    case WhenAction::Kind::Reinit:
                        out << "    reinit(" << var << ", " << p.print(a.value) << ")\n";
                        break;
                    case WhenAction::Kind::RestartConstraint:
                        out << "    restart constraint: " << p.print(a.lhs) << " = " << p.print(a.rhs) << "\n";
                        break;
                    case WhenAction::Kind::AssignContinuous:
                        out << "    " << var << " := " << p.print(a.value) << "  (continuous variable)\n";
                        break;
                    case WhenAction::Kind::Assert:
                        out << "    assert(" << p.condition(*a.assertion) << ", \"" << a.message << "\")\n";
                        break;
                    case WhenAction::Kind::Terminate:
                        out << "    terminate(\"" << a.message << "\")\n";
                        break;
                }
            }
        }
    }
    if (!flat.asserts.empty()) {
        out << "asserts:\n";
        for (const FlatAssert& a : flat.asserts)
            out << fmt::format("  assert({}, \"{}\"){}{}\n", p.condition(*a.condition), a.message, active(a.active_when),
                               where(a.range));
    }
    if (!flat.conditions.empty()) {
        out << "conditions:\n";
        for (std::size_t i = 0; i < flat.conditions.size(); ++i)
            out << fmt::format("  {} := {}\n", flat.symbols.condition(static_cast<int>(i)).get_name(),
                               flat.condition_text[i]);
    }
    if (flat.stop_time) out << fmt::format("experiment: StopTime = {}\n", *flat.stop_time);
}

}  // namespace modeaudit
