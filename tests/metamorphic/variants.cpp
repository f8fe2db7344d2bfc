#include "metamorphic/variants.h"

#include <algorithm>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>

#include "common/diagnostics.h"
#include "common/source.h"
#include "parse/ast.h"
#include "parse/parser.h"

namespace modeaudit::metamorphic {

namespace {

using ast::Expr;
using ast::ExprKind;

// ---- parsing -----------------------------------------------------------

struct Parsed {
    SourceManager sources;
    DiagnosticSink sink;
    std::unique_ptr<ast::StoredDefinition> tree;
    const ast::ClassDef* cls = nullptr;  // the class the flattener audits
};

std::unique_ptr<Parsed> parse(const std::string& text) {
    auto p = std::make_unique<Parsed>();
    std::uint32_t file = p->sources.add("variant.mo", text);
    p->tree = parse_file(p->sources, file, p->sink);
    if (p->sink.has_input_errors()) return nullptr;
    for (const auto& c : p->tree->classes)
        if (c->kind == ast::ClassKind::Model || c->kind == ast::ClassKind::Block || c->kind == ast::ClassKind::Class)
            p->cls = c.get();
    if (!p->cls) return nullptr;
    return p;
}

// ---- where each name is used -------------------------------------------

struct Context {
    bool equation = false;    // in an equation of a non-initial equation section
    bool condition = false;   // in a when-condition or an if-condition
    bool when_body = false;
    bool der = false;         // the argument of der()
    bool pre = false;         // under pre(), edge(), change(), reinit's target, initial()...
    bool other = false;       // bindings, modifications, annotations, algorithms, initial equations,
                              // for-loops, connect: never rewritten
};

struct Use {
    const Expr* ref = nullptr;
    const Expr* der_call = nullptr;  // the der(x) call around it, when ctx.der
    Context ctx;
};

class UseCollector {
public:
    std::map<std::string, std::vector<Use>> uses;
    std::set<std::string> when_assigned;  // alone on the left of an equation in a when-clause

    void expr(const Expr* e, Context ctx, const Expr* der_call = nullptr) {
        if (!e) return;
        switch (e->kind) {
            case ExprKind::Ref:
                if (e->ref.simple()) uses[e->ref.parts[0].ident].push_back(Use{e, der_call, ctx});
                else mark_other(e->ref, ctx);
                return;
            case ExprKind::Call: {
                const std::string f = e->ref.dotted();
                Context inner = ctx;
                bool is_der = f == "der" && e->args.size() == 1;
                if (f == "pre" || f == "edge" || f == "change" || f == "initial" || f == "sample" || f == "delay")
                    inner.pre = true;
                if (!is_der && f != "pre" && f != "noEvent" && f != "abs" && f != "sin" && f != "cos" &&
                    f != "sqrt" && f != "exp" && f != "log" && f != "sign" && f != "tan" && f != "atan" &&
                    f != "atan2" && f != "smooth" && f != "homotopy" && f != "max" && f != "min")
                    inner.other = true;  // an unknown function: leave its arguments alone
                for (std::size_t k = 0; k < e->args.size(); ++k) {
                    Context c = inner;
                    if (is_der) c.der = true;
                    if (f == "reinit" && k == 0) c.pre = true;
                    expr(e->args[k].value.get(), c, is_der ? e : nullptr);
                }
                for (const auto& it : e->iterators) expr(it.range.get(), with_other(ctx));
                for (const auto& o : e->operands) expr(o.get(), inner);
                return;
            }
            case ExprKind::If:
                for (std::size_t k = 0; k < e->operands.size(); ++k) {
                    Context c = ctx;
                    if (k % 2 == 0 && k + 1 < e->operands.size()) c.condition = true;
                    expr(e->operands[k].get(), c);
                }
                return;
            default:
                for (const auto& o : e->operands) expr(o.get(), ctx);
                for (const auto& a : e->args) expr(a.value.get(), ctx);
                return;
        }
    }

    void modification(const ast::Modification* m, Context ctx) {
        if (!m) return;
        for (const auto& a : m->arguments) {
            modification(a.mod.get(), ctx);
            mark_other(a.name, ctx);
        }
        expr(m->binding.get(), ctx);
    }

    void equation(const ast::Equation& eq, Context ctx) {
        switch (eq.kind) {
            case ast::EquationKind::Simple:
                expr(eq.lhs.get(), ctx);
                expr(eq.rhs.get(), ctx);
                break;
            case ast::EquationKind::Connect:
                expr(eq.lhs.get(), with_other(ctx));
                expr(eq.rhs.get(), with_other(ctx));
                break;
            case ast::EquationKind::If:
                for (const auto& b : eq.branches) {
                    Context c = ctx;
                    c.condition = true;
                    expr(b.condition.get(), c);
                    for (const auto& e : b.body) equation(e, ctx);
                }
                break;
            case ast::EquationKind::For:
                for (const auto& it : eq.indices) expr(it.range.get(), with_other(ctx));
                for (const auto& e : eq.body) equation(e, with_other(ctx));
                break;
            case ast::EquationKind::When:
                for (const auto& b : eq.branches) {
                    Context c = ctx;
                    c.condition = true;
                    expr(b.condition.get(), c);
                    Context body = ctx;
                    body.when_body = true;
                    for (const auto& e : b.body) {
                        // `v = e` alone on the left: v may be a discrete Real.
                        if (e.kind == ast::EquationKind::Simple && e.lhs && e.lhs->kind == ast::ExprKind::Ref &&
                            e.lhs->ref.simple())
                            when_assigned.insert(e.lhs->ref.parts[0].ident);
                        equation(e, body);
                    }
                }
                break;
            case ast::EquationKind::Call: {
                expr(eq.call.get(), ctx);
                break;
            }
        }
        if (eq.annotation) modification(eq.annotation.get(), with_other(ctx));
    }

    void statement(const ast::Statement& s, Context ctx) {
        expr(s.lhs.get(), ctx);
        expr(s.rhs.get(), ctx);
        expr(s.call.get(), ctx);
        for (const auto& b : s.branches) {
            expr(b.condition.get(), ctx);
            for (const auto& x : b.body) statement(x, ctx);
        }
        for (const auto& it : s.indices) expr(it.range.get(), ctx);
        for (const auto& x : s.body) statement(x, ctx);
    }

    void cls(const ast::ClassDef& c) {
        Context other;
        other.other = true;
        for (const auto& el : c.elements) {
            if (el.kind == ast::Element::Kind::Component) {
                for (const auto& d : el.component->decls) {
                    modification(d.mod.get(), other);
                    modification(d.annotation.get(), other);
                    expr(d.condition.get(), other);
                    for (const auto& x : d.dims) expr(x.get(), other);
                }
                for (const auto& x : el.component->type_dims) expr(x.get(), other);
            } else if (el.kind == ast::Element::Kind::Extends) {
                modification(el.extends->mod.get(), other);
            }
        }
        for (const auto& sec : c.equation_sections) {
            Context ctx;
            if (sec.initial) ctx.other = true;
            else ctx.equation = true;
            for (const auto& eq : sec.equations) equation(eq, ctx);
        }
        for (const auto& sec : c.algorithm_sections)
            for (const auto& s : sec.statements) statement(s, other);
        for (const auto& a : c.annotations) modification(a.get(), other);
    }

private:
    static Context with_other(Context c) {
        c.other = true;
        return c;
    }
    void mark_other(const ast::ComponentRef& r, Context ctx) {
        if (r.parts.empty()) return;
        ctx.other = true;
        uses[r.parts[0].ident].push_back(Use{nullptr, nullptr, ctx});
        for (const auto& p : r.parts)
            for (const auto& s : p.subscripts) expr(s.get(), ctx);
    }
};

// A plain continuous Real declared in the audited class: `Real x;`.
struct Declared {
    const ast::ComponentClause* clause = nullptr;
    const ast::ComponentDecl* decl = nullptr;
};

std::map<std::string, Declared> plain_reals(const ast::ClassDef& c) {
    std::map<std::string, Declared> out;
    for (const auto& el : c.elements) {
        if (el.kind != ast::Element::Kind::Component) continue;
        const ast::ComponentClause& cc = *el.component;
        const ast::TypePrefix& p = cc.prefix;
        if (cc.type_name.dotted() != "Real" || p.flow || p.stream || p.discrete || p.parameter || p.constant ||
            p.input || p.output || cc.inner || cc.outer || cc.replaceable || cc.redeclare || !cc.type_dims.empty())
            continue;
        for (const auto& d : cc.decls)
            if (d.dims.empty() && !d.condition) out[d.name] = Declared{&cc, &d};
    }
    return out;
}

std::set<std::string> non_real_names(const ast::ClassDef& c) {
    std::set<std::string> out;
    for (const auto& el : c.elements) {
        if (el.kind != ast::Element::Kind::Component) continue;
        const std::string t = el.component->type_name.dotted();
        if (t == "Boolean" || t == "Integer" || t == "String")
            for (const auto& d : el.component->decls) out.insert(d.name);
    }
    return out;
}

// ---- text edits ----------------------------------------------------------

struct Edit {
    std::size_t offset = 0, length = 0;
    std::string text;
};

std::string apply_edits(std::string text, std::vector<Edit> edits) {
    std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
        if (a.offset != b.offset) return a.offset > b.offset;
        return a.length > b.length;  // a replacement at p before an insertion at p
    });
    std::size_t limit = std::string::npos;
    for (const Edit& e : edits) {
        if (limit != std::string::npos && e.offset + e.length > limit)
            throw std::logic_error("metamorphic: overlapping text edits");
        text.replace(e.offset, e.length, e.text);
        limit = e.offset;
    }
    return text;
}

std::string slice(const std::string& text, const SourceRange& r) {
    return text.substr(r.begin.offset, r.end.offset - r.begin.offset);
}

Edit replace(const SourceRange& r, std::string with) {
    return Edit{r.begin.offset, r.end.offset - r.begin.offset, std::move(with)};
}

// A deterministic generator (the standard distributions are not portable).
class Rng {
public:
    explicit Rng(std::uint64_t seed) : g_(seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL) {}
    std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(g_() % n); }
    bool coin() { return below(2) == 1; }
    template <class T>
    const T& pick(const std::vector<T>& v) { return v.at(below(v.size())); }
    // A non-empty subset of 0..n-1 (n >= 1).
    std::vector<std::size_t> subset(std::size_t n) {
        std::vector<std::size_t> out;
        for (std::size_t k = 0; k < n; ++k)
            if (coin()) out.push_back(k);
        if (out.empty()) out.push_back(below(n));
        return out;
    }
    template <class T>
    void shuffle(std::vector<T>& v) {
        for (std::size_t k = v.size(); k > 1; --k) std::swap(v[k - 1], v[below(k)]);
    }

private:
    std::mt19937_64 g_;
};

std::string fresh(const std::string& text, const std::string& stem) {
    for (int k = 1;; ++k) {
        std::string n = stem + std::to_string(k);
        if (text.find(n) == std::string::npos) return n;
    }
}

std::size_t line_start(const std::string& text, std::size_t offset) {
    std::size_t p = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    return p == std::string::npos ? 0 : p + 1;
}

// Where new declarations go: before the class's first equation or
// algorithm section.
std::optional<Edit> declare(const Parsed& p, const std::string& text, const std::string& decl) {
    std::optional<std::size_t> first;
    auto earliest = [&](std::size_t o) { first = std::min(first.value_or(o), o); };
    for (const auto& s : p.cls->equation_sections) earliest(s.range.begin.offset);
    for (const auto& s : p.cls->algorithm_sections) earliest(s.range.begin.offset);
    if (!first) return std::nullopt;
    return Edit{line_start(text, *first), 0, "  " + decl + "\n"};
}

const ast::EquationSection* main_section(const Parsed& p) {
    for (const auto& s : p.cls->equation_sections)
        if (!s.initial && !s.equations.empty()) return &s;
    return nullptr;
}

// A new equation at a position drawn among the main section's equations.
Edit add_equation(const ast::EquationSection& s, const std::string& text, const std::string& eq, Rng& rng) {
    std::size_t k = rng.below(s.equations.size() + 1);
    if (k < s.equations.size()) return Edit{s.equations[k].range.begin.offset, 0, eq + ";\n  "};
    std::size_t end = text.find(';', s.equations.back().range.end.offset);
    return Edit{end + 1, 0, "\n  " + eq + ";"};
}

bool rewritable(const Context& c) { return (c.equation || c.condition) && !c.other && !c.pre && !c.when_body; }

Image image_of(const Variant& v, const std::string& name) {
    auto it = v.images.find(name);
    return it == v.images.end() ? Image{name, 1} : it->second;
}

std::string number(double c) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", c);
    std::string s = buf;
    return c < 0 ? "(" + s + ")" : s;
}

// ---- the transformations -------------------------------------------------

struct Target {
    std::string name;
    std::vector<const Use*> rewritable;
};

// Declared plain Reals with at least one use that may be rewritten.
std::vector<Target> targets(const Parsed& p, const UseCollector& uc, bool allow_der) {
    std::vector<Target> out;
    for (const auto& [name, d] : plain_reals(*p.cls)) {
        auto it = uc.uses.find(name);
        if (it == uc.uses.end()) continue;
        // Alone on the left of a when-equation and never differentiated: a
        // discrete Real, not a continuous variable to rewrite.
        if (uc.when_assigned.count(name) &&
            std::none_of(it->second.begin(), it->second.end(), [](const Use& u) { return u.ctx.der; }))
            continue;
        Target t{name, {}};
        for (const Use& u : it->second)
            if (u.ref && rewritable(u.ctx) && (allow_der || !u.ctx.der)) t.rewritable.push_back(&u);
        if (!t.rewritable.empty()) out.push_back(std::move(t));
    }
    return out;
}

std::optional<Variant> alias(const Variant& v, const Parsed& p, Rng& rng) {
    UseCollector uc;
    uc.cls(*p.cls);
    auto ts = targets(p, uc, true);
    const ast::EquationSection* sec = main_section(p);
    if (ts.empty() || !sec) return std::nullopt;
    const Target& t = rng.pick(ts);
    const int sign = rng.below(3) == 0 ? -1 : 1;
    const std::string a = fresh(v.text, "mm_a");
    std::vector<Edit> edits;
    edits.push_back(*declare(p, v.text, "Real " + a + ";"));
    edits.push_back(add_equation(*sec, v.text, a + " = " + (sign < 0 ? "-" : "") + t.name, rng));
    for (std::size_t k : rng.subset(t.rewritable.size())) {
        const Use& u = *t.rewritable[k];
        if (u.ctx.der) edits.push_back(replace(u.der_call->range, sign < 0 ? "(-der(" + a + "))" : "der(" + a + ")"));
        else edits.push_back(replace(u.ref->range, sign < 0 ? "(-" + a + ")" : a));
    }
    Variant out = v;
    out.text = apply_edits(v.text, edits);
    Image im = image_of(v, t.name);
    out.images[a] = Image{im.original, sign * im.factor};
    out.steps.push_back("alias: " + a + " = " + (sign < 0 ? "-" : "") + t.name);
    return out;
}

std::optional<Variant> node(const Variant& v, const Parsed& p, Rng& rng) {
    UseCollector uc;
    uc.cls(*p.cls);
    auto ts = targets(p, uc, false);
    const ast::EquationSection* sec = main_section(p);
    if (ts.empty() || !sec) return std::nullopt;
    const Target& t = rng.pick(ts);
    const std::string stem = fresh(v.text, "mm_n");
    const std::string a = stem + "a", b = stem + "b";
    std::vector<Edit> edits;
    edits.push_back(*declare(p, v.text, "Real " + a + ", " + b + ";"));
    edits.push_back(add_equation(*sec, v.text, a + " + " + b + " = " + t.name, rng));
    edits.push_back(add_equation(*sec, v.text, b + " = 0", rng));
    for (std::size_t k : rng.subset(t.rewritable.size())) edits.push_back(replace(t.rewritable[k]->ref->range, a));
    Variant out = v;
    out.text = apply_edits(v.text, edits);
    out.images[a] = image_of(v, t.name);
    out.images[b] = Image{"", 0};
    out.steps.push_back("node: " + a + " + " + b + " = " + t.name + ", " + b + " = 0");
    return out;
}

// The expression is a real number (no relation, logic, string or array);
// if-expressions are looked at in their values only.
bool real_valued(const Expr* e, const std::set<std::string>& non_real) {
    if (!e) return false;
    switch (e->kind) {
        case ExprKind::Boolean:
        case ExprKind::String:
        case ExprKind::Array:
        case ExprKind::Matrix:
        case ExprKind::Range:
        case ExprKind::Colon:
        case ExprKind::End:
        case ExprKind::Tuple: return false;
        case ExprKind::Ref: return !e->ref.simple() || !non_real.count(e->ref.parts[0].ident);
        case ExprKind::Unary: return e->uop != ast::UnaryOp::Not && real_valued(e->operands[0].get(), non_real);
        case ExprKind::Binary:
            switch (e->bop) {
                case ast::BinaryOp::Lt:
                case ast::BinaryOp::Le:
                case ast::BinaryOp::Gt:
                case ast::BinaryOp::Ge:
                case ast::BinaryOp::Eq:
                case ast::BinaryOp::Ne:
                case ast::BinaryOp::And:
                case ast::BinaryOp::Or: return false;
                default: return real_valued(e->operands[0].get(), non_real) && real_valued(e->operands[1].get(), non_real);
            }
        case ExprKind::If:
            for (std::size_t k = 1; k < e->operands.size(); k += 2)
                if (!real_valued(e->operands[k].get(), non_real)) return false;
            return real_valued(e->operands.back().get(), non_real);
        case ExprKind::Call: {
            const std::string f = e->ref.dotted();
            return f != "pre" && f != "edge" && f != "change" && f != "initial" && f != "sample" && f != "reinit" &&
                   f != "assert" && f != "terminate" && f != "integer";
        }
        default: return true;
    }
}

// Scalar real equations of the non-initial sections, at top level or in if-branches.
void real_equations(const ast::Equation& eq, const std::set<std::string>& non_real, std::vector<const ast::Equation*>& out) {
    if (eq.kind == ast::EquationKind::Simple) {
        if (real_valued(eq.lhs.get(), non_real) && real_valued(eq.rhs.get(), non_real)) out.push_back(&eq);
    } else if (eq.kind == ast::EquationKind::If) {
        for (const auto& b : eq.branches)
            for (const auto& e : b.body) real_equations(e, non_real, out);
    }
}

std::optional<Variant> scale_equation(const Variant& v, const Parsed& p, Rng& rng) {
    const std::set<std::string> non_real = non_real_names(*p.cls);
    std::vector<const ast::Equation*> eqs;
    for (const auto& s : p.cls->equation_sections)
        if (!s.initial)
            for (const auto& e : s.equations) real_equations(e, non_real, eqs);
    if (eqs.empty()) return std::nullopt;
    static const std::vector<double> factors = {3, -0.5, 1e3, -2, 0.25, 7, -1e-3};
    rng.shuffle(eqs);
    const std::size_t n = std::min<std::size_t>(eqs.size(), 1 + rng.below(2));
    std::vector<Edit> edits;
    Variant out = v;
    for (std::size_t k = 0; k < n; ++k) {
        const ast::Equation& eq = *eqs[k];
        const std::string c = number(rng.pick(factors));
        const std::string l = slice(v.text, eq.lhs->range), r = slice(v.text, eq.rhs->range);
        const std::size_t form = rng.below(3);
        std::string lhs, rhs;
        if (form == 0) lhs = c + "*(" + l + ")", rhs = c + "*(" + r + ")";
        else if (form == 1) lhs = c + "*(" + l + " - (" + r + "))", rhs = "0";
        else lhs = c + "*(" + r + ")", rhs = c + "*(" + l + ")";
        edits.push_back(Edit{eq.lhs->range.begin.offset, eq.rhs->range.end.offset - eq.lhs->range.begin.offset,
                             lhs + " = " + rhs});
        out.steps.push_back("scale-eq: " + l + " = " + r + "  ->  " + lhs + " = " + rhs);
    }
    out.text = apply_edits(v.text, edits);
    return out;
}

std::optional<Variant> scale_variable(const Variant& v, const Parsed& p, Rng& rng) {
    UseCollector uc;
    uc.cls(*p.cls);
    std::vector<std::pair<std::string, Declared>> cands;
    for (const auto& [name, d] : plain_reals(*p.cls)) {
        auto it = uc.uses.find(name);
        if (it == uc.uses.end()) continue;
        // Alone on the left of a when-equation and never differentiated: a
        // discrete Real, not a continuous variable to rewrite.
        if (uc.when_assigned.count(name) &&
            std::none_of(it->second.begin(), it->second.end(), [](const Use& u) { return u.ctx.der; }))
            continue;
        bool ok = !d.decl->annotation;
        for (const Use& u : it->second) ok = ok && u.ref && rewritable(u.ctx) && !u.ctx.der;
        // Only `start = ...` (and `fixed`) in its own declaration.
        if (const ast::Modification* m = d.decl->mod.get()) {
            ok = ok && !m->binding;
            for (const auto& a : m->arguments) {
                const std::string n = a.name.dotted();
                ok = ok && (n == "start" || n == "fixed") && a.mod && a.mod->arguments.empty() && a.mod->binding;
            }
        }
        if (ok) cands.emplace_back(name, d);
    }
    if (cands.empty()) return std::nullopt;
    static const std::vector<double> factors = {2, -3, 0.5, 1e3, -0.25};
    const auto& [name, d] = rng.pick(cands);
    const double c = rng.pick(factors);
    const std::string s = fresh(v.text, "mm_s");
    std::vector<Edit> edits;
    edits.push_back(replace(d.decl->name_range, s));
    if (const ast::Modification* m = d.decl->mod.get())
        for (const auto& a : m->arguments)
            if (a.name.dotted() == "start")
                edits.push_back(replace(a.mod->binding->range,
                                        number(c) + "*(" + slice(v.text, a.mod->binding->range) + ")"));
    for (const Use& u : uc.uses.at(name)) edits.push_back(replace(u.ref->range, "(" + s + "/" + number(c) + ")"));
    Variant out = v;
    out.text = apply_edits(v.text, edits);
    Image im = image_of(v, name);
    out.images.erase(name);
    out.images[s] = Image{im.original, c * im.factor};
    out.steps.push_back("scale-var: " + name + " -> " + s + "/" + number(c));
    return out;
}

std::optional<Variant> parameterised_switch(const Variant& v, const Parsed& p, Rng& rng) {
    const std::set<std::string> non_real = non_real_names(*p.cls);
    std::vector<const ast::Equation*> cands;
    for (const auto& s : p.cls->equation_sections) {
        if (s.initial) continue;
        for (const auto& eq : s.equations) {
            if (eq.kind != ast::EquationKind::If || eq.branches.size() != 2 || !eq.branches[0].condition ||
                eq.branches[1].condition || eq.annotation || !eq.description.empty())
                continue;
            bool ok = true;
            for (const auto& b : eq.branches)
                ok = ok && b.body.size() == 1 && b.body[0].kind == ast::EquationKind::Simple &&
                     real_valued(b.body[0].lhs.get(), non_real) && real_valued(b.body[0].rhs.get(), non_real);
            if (ok) cands.push_back(&eq);
        }
    }
    const ast::EquationSection* sec = main_section(p);
    if (cands.empty() || !sec) return std::nullopt;
    const ast::Equation& eq = *rng.pick(cands);
    const std::string s = fresh(v.text, "mm_p");
    const std::string cond = slice(v.text, eq.branches[0].condition->range);
    auto side = [&](const ast::Equation& e) {
        const std::string r = slice(v.text, e.rhs->range);
        const std::string l = slice(v.text, e.lhs->range);
        return r == "0" ? l : "(" + l + ") - (" + r + ")";
    };
    const std::string a = side(eq.branches[0].body[0]), b = side(eq.branches[1].body[0]);
    std::vector<Edit> edits;
    edits.push_back(*declare(p, v.text, "Real " + s + ";"));
    edits.push_back(replace(eq.range, a + " = " + s + "*(if " + cond + " then 0 else 1);\n  " + b + " = " + s +
                                          "*(if " + cond + " then 1 else 0)"));
    Variant out = v;
    out.text = apply_edits(v.text, edits);
    out.steps.push_back("switch: if " + cond + " then " + a + " = 0 else " + b + " = 0 -> curve parameter " + s);
    return out;
}

std::optional<Variant> reorder(const Variant& v, const Parsed& p, Rng& rng) {
    std::vector<Edit> edits;
    std::size_t moved = 0;
    auto permute = [&](const std::vector<SourceRange>& ranges) {
        if (ranges.size() < 2) return;
        std::vector<std::size_t> order(ranges.size());
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
        for (int tries = 0; tries < 4; ++tries) {
            rng.shuffle(order);
            if (!std::is_sorted(order.begin(), order.end())) break;
        }
        for (std::size_t k = 0; k < ranges.size(); ++k) {
            if (order[k] != k) ++moved;
            edits.push_back(replace(ranges[k], slice(v.text, ranges[order[k]])));
        }
    };
    for (const auto& s : p.cls->equation_sections) {
        if (s.initial) continue;
        std::vector<SourceRange> rs;
        for (const auto& e : s.equations) rs.push_back(e.range);
        permute(rs);
    }
    // Runs of component declarations (same visibility, no keyword inside).
    std::vector<SourceRange> run;
    bool prot = false;
    for (const auto& el : p.cls->elements) {
        const bool comp = el.kind == ast::Element::Kind::Component;
        const std::string t = comp ? slice(v.text, el.range) : "";
        const bool plain = comp && t.rfind("protected", 0) != 0 && t.rfind("public", 0) != 0;
        if (!plain || el.is_protected != prot) {
            permute(run);
            run.clear();
        }
        prot = el.is_protected;
        if (plain) run.push_back(el.range);
    }
    permute(run);
    if (moved == 0) return std::nullopt;
    Variant out = v;
    out.text = apply_edits(v.text, edits);
    out.steps.push_back("reorder: " + std::to_string(moved) + " equations and declarations moved");
    return out;
}

}  // namespace

const char* transformation_name(Transformation t) {
    switch (t) {
        case Transformation::Alias: return "alias";
        case Transformation::ScaleEquation: return "scale-eq";
        case Transformation::ScaleVariable: return "scale-var";
        case Transformation::Node: return "node";
        case Transformation::Switch: return "switch";
        case Transformation::Reorder: return "reorder";
    }
    return "?";
}

std::vector<Transformation> all_transformations() {
    return {Transformation::Alias, Transformation::ScaleEquation, Transformation::ScaleVariable,
            Transformation::Node,  Transformation::Switch,        Transformation::Reorder};
}

std::optional<Variant> apply(const Variant& v, Transformation t, std::uint64_t seed) {
    auto p = parse(v.text);
    if (!p) return std::nullopt;
    Rng rng(seed);
    std::optional<Variant> out;
    switch (t) {
        case Transformation::Alias: out = alias(v, *p, rng); break;
        case Transformation::ScaleEquation: out = scale_equation(v, *p, rng); break;
        case Transformation::ScaleVariable: out = scale_variable(v, *p, rng); break;
        case Transformation::Node: out = node(v, *p, rng); break;
        case Transformation::Switch: out = parameterised_switch(v, *p, rng); break;
        case Transformation::Reorder: out = reorder(v, *p, rng); break;
    }
    if (out) out->name = v.name.empty() ? transformation_name(t) : v.name + "+" + transformation_name(t);
    return out;
}

std::vector<Variant> generate_variants(const std::string& text, std::uint64_t seed, int combinations) {
    Variant original;
    original.text = text;
    std::vector<Variant> out;
    const std::vector<Transformation> all = all_transformations();
    for (std::size_t k = 0; k < all.size(); ++k)
        if (auto v = apply(original, all[k], seed * 31 + k)) out.push_back(std::move(*v));
    Rng rng(seed ^ 0xC0FFEEULL);
    for (int c = 0; c < combinations; ++c) {
        std::vector<Transformation> seq = all;
        rng.shuffle(seq);
        seq.resize(2 + rng.below(2));
        Variant v = original;
        std::size_t applied = 0;
        for (std::size_t k = 0; k < seq.size(); ++k)
            if (auto next = apply(v, seq[k], seed * 131 + static_cast<std::uint64_t>(c) * 7 + k)) {
                v = std::move(*next);
                ++applied;
            }
        if (applied >= 2) out.push_back(std::move(v));
    }
    return out;
}

}  // namespace modeaudit::metamorphic
