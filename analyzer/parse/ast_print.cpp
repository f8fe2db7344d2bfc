// Printing the AST back as text: see ast_print.h.
//
// to_modelica() is the one canonical printer of expressions: messages of
// every later stage quote the user's expressions through it, so it must give
// text that parses back to the same tree. It puts parentheses exactly where
// the precedence of Modelica (Appendix A, `expression` down to `primary`)
// needs them, and prints literals as written.
#include "parse/ast_print.h"

#include <fmt/format.h>

namespace modeaudit::ast {

std::string ComponentRef::dotted() const {
    std::string s = global ? "." : "";
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) s += '.';
        s += parts[i].ident;
    }
    return s;
}

namespace {

// Binding strength of the grammar's levels, loosest first.
enum Level : int {
    kIf = 0,        // if ... then ... else ...
    kRange = 1,     // a:b:c
    kOr = 2,
    kAnd = 3,
    kNot = 4,
    kRelation = 5,  // < <= > >= == <>, non-associative
    kAdd = 6,       // + - and the leading sign of an arithmetic expression
    kMul = 7,       // * / .* ./
    kPow = 8,       // ^ .^, non-associative
    kPrimary = 9,
};

Level binary_level(BinaryOp op) {
    switch (op) {
        case BinaryOp::Or: return kOr;
        case BinaryOp::And: return kAnd;
        case BinaryOp::Lt:
        case BinaryOp::Le:
        case BinaryOp::Gt:
        case BinaryOp::Ge:
        case BinaryOp::Eq:
        case BinaryOp::Ne: return kRelation;
        case BinaryOp::Add:
        case BinaryOp::Sub:
        case BinaryOp::ElemAdd:
        case BinaryOp::ElemSub: return kAdd;
        case BinaryOp::Mul:
        case BinaryOp::Div:
        case BinaryOp::ElemMul:
        case BinaryOp::ElemDiv: return kMul;
        case BinaryOp::Pow:
        case BinaryOp::ElemPow: return kPow;
    }
    return kPrimary;
}

Level level(const Expr& e) {
    switch (e.kind) {
        case ExprKind::If: return kIf;
        case ExprKind::Range: return kRange;
        case ExprKind::Binary: return binary_level(e.bop);
        case ExprKind::Unary: return e.uop == UnaryOp::Not ? kNot : kAdd;
        default: return kPrimary;
    }
}

std::string_view binary_symbol(BinaryOp op) {
    switch (op) {
        case BinaryOp::Add: return "+";
        case BinaryOp::Sub: return "-";
        case BinaryOp::Mul: return "*";
        case BinaryOp::Div: return "/";
        case BinaryOp::Pow: return "^";
        case BinaryOp::ElemAdd: return ".+";
        case BinaryOp::ElemSub: return ".-";
        case BinaryOp::ElemMul: return ".*";
        case BinaryOp::ElemDiv: return "./";
        case BinaryOp::ElemPow: return ".^";
        case BinaryOp::Lt: return "<";
        case BinaryOp::Le: return "<=";
        case BinaryOp::Gt: return ">";
        case BinaryOp::Ge: return ">=";
        case BinaryOp::Eq: return "==";
        case BinaryOp::Ne: return "<>";
        case BinaryOp::And: return "and";
        case BinaryOp::Or: return "or";
    }
    return "?";
}

std::string_view unary_symbol(UnaryOp op) {
    switch (op) {
        case UnaryOp::Minus: return "-";
        case UnaryOp::Plus: return "+";
        case UnaryOp::Not: return "not ";
        case UnaryOp::ElemMinus: return ".-";
        case UnaryOp::ElemPlus: return ".+";
    }
    return "?";
}

std::string quote_string(std::string_view value) {
    std::string s = "\"";
    for (char c : value) {
        switch (c) {
            case '"': s += "\\\""; break;
            case '\\': s += "\\\\"; break;
            case '\n': s += "\\n"; break;
            case '\t': s += "\\t"; break;
            case '\r': s += "\\r"; break;
            default: s += c;
        }
    }
    s += '"';
    return s;
}

class Printer {
public:
    explicit Printer(std::string& out) : out_(out) {}

    void expr(const Expr* e) {
        if (!e) {
            out_ += "<missing>";
            return;
        }
        expr(*e);
    }

    // `e`, in parentheses when it binds less tightly than `min` requires.
    void operand(const Expr* e, int min) {
        bool parens = e && level(*e) < min;
        if (parens) out_ += '(';
        expr(e);
        if (parens) out_ += ')';
    }

    void expr(const Expr& e) {
        switch (e.kind) {
            case ExprKind::Integer:
            case ExprKind::Real: out_ += e.text; return;
            case ExprKind::String: out_ += quote_string(e.text); return;
            case ExprKind::Boolean: out_ += e.boolean ? "true" : "false"; return;
            case ExprKind::Ref: ref(e.ref); return;
            case ExprKind::Colon: out_ += ':'; return;
            case ExprKind::End: out_ += "end"; return;
            case ExprKind::Call:
                ref(e.ref);
                out_ += '(';
                for (std::size_t i = 0; i < e.args.size(); ++i) {
                    if (i > 0) out_ += ", ";
                    if (!e.args[i].name.empty()) out_ += e.args[i].name + " = ";
                    expr(e.args[i].value.get());
                }
                iterators(e.iterators);
                out_ += ')';
                return;
            case ExprKind::Unary: {
                out_ += unary_symbol(e.uop);
                // A sign applies to a term (kMul and up); `not` to a relation.
                operand(first(e), e.uop == UnaryOp::Not ? kRelation : kMul);
                return;
            }
            case ExprKind::Binary: {
                int l = binary_level(e.bop);
                const Expr* lhs = e.operands.size() > 0 ? e.operands[0].get() : nullptr;
                const Expr* rhs = e.operands.size() > 1 ? e.operands[1].get() : nullptr;
                // Left-associative levels take an equal level on the left
                // only; relations and powers do not associate at all.
                bool assoc = l != kRelation && l != kPow;
                operand(lhs, assoc ? l : l + 1);
                if (l == kPow) {
                    out_ += binary_symbol(e.bop);
                } else {
                    out_ += ' ';
                    out_ += binary_symbol(e.bop);
                    out_ += ' ';
                }
                operand(rhs, l + 1);
                return;
            }
            case ExprKind::If: {
                std::size_t n = e.operands.size();
                for (std::size_t i = 0; i + 1 < n; i += 2) {
                    out_ += i == 0 ? "if " : " elseif ";
                    expr(e.operands[i].get());
                    out_ += " then ";
                    expr(e.operands[i + 1].get());
                }
                if (n % 2 == 1) {
                    out_ += " else ";
                    expr(e.operands[n - 1].get());
                }
                return;
            }
            case ExprKind::Range:
                for (std::size_t i = 0; i < e.operands.size(); ++i) {
                    if (i > 0) out_ += ':';
                    operand(e.operands[i].get(), kOr);
                }
                return;
            case ExprKind::Array:
                out_ += '{';
                list(e.operands);
                iterators(e.iterators);
                out_ += '}';
                return;
            case ExprKind::Matrix:
                out_ += '[';
                for (std::size_t i = 0; i < e.operands.size(); ++i) {
                    if (i > 0) out_ += "; ";
                    if (e.operands[i]) list(e.operands[i]->operands);
                }
                out_ += ']';
                return;
            case ExprKind::Tuple:
                out_ += '(';
                for (std::size_t i = 0; i < e.operands.size(); ++i) {
                    if (i > 0) out_ += ", ";
                    if (e.operands[i]) expr(*e.operands[i]);
                }
                out_ += ')';
                return;
        }
    }

    void ref(const ComponentRef& r) {
        if (r.global) out_ += '.';
        for (std::size_t i = 0; i < r.parts.size(); ++i) {
            if (i > 0) out_ += '.';
            out_ += r.parts[i].ident;
            if (!r.parts[i].subscripts.empty()) {
                out_ += '[';
                list(r.parts[i].subscripts);
                out_ += ']';
            }
        }
    }

    void modification(const Modification& m) {
        if (!m.arguments.empty() || !m.binding) {
            out_ += '(';
            for (std::size_t i = 0; i < m.arguments.size(); ++i) {
                if (i > 0) out_ += ", ";
                element_modification(m.arguments[i]);
            }
            out_ += ')';
        }
        if (m.binding) {
            out_ += " = ";
            expr(*m.binding);
        }
    }

    void element_modification(const ElementModification& em) {
        if (em.redeclare && !(em.replaceable && !em.component && !em.class_def)) out_ += "redeclare ";
        if (em.each) out_ += "each ";
        if (em.final) out_ += "final ";
        if (em.replaceable) out_ += "replaceable ";
        if (em.component) {
            const ComponentClause& cc = *em.component;
            out_ += to_modelica(cc.type_name);
            out_ += ' ';
            const ComponentDecl& d = cc.decls.front();
            out_ += d.name;
            if (!d.dims.empty()) {
                out_ += '[';
                list(d.dims);
                out_ += ']';
            }
            if (d.mod) modification(*d.mod);
        } else if (em.class_def) {
            out_ += std::string(class_kind_word(em.class_def->kind)) + " " + em.class_def->name + " = " +
                    to_modelica(em.class_def->short_base);
            if (em.class_def->short_mod) modification(*em.class_def->short_mod);
        } else {
            ref(em.name);
        }
        if (em.constraining) {
            out_ += " constrainedby " + to_modelica(em.constraining->name);
            if (em.constraining->mod) modification(*em.constraining->mod);
        }
        if (em.mod) modification(*em.mod);
        if (!em.description.empty()) out_ += " " + quote_string(em.description);
    }

private:
    std::string& out_;

    static const Expr* first(const Expr& e) { return e.operands.empty() ? nullptr : e.operands[0].get(); }

    void list(const std::vector<ExprPtr>& items) {
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (i > 0) out_ += ", ";
            expr(items[i].get());
        }
    }

    void iterators(const std::vector<ForIterator>& its) {
        for (std::size_t i = 0; i < its.size(); ++i) {
            out_ += i == 0 ? " for " : ", ";
            out_ += its[i].name;
            if (its[i].range) {
                out_ += " in ";
                expr(*its[i].range);
            }
        }
    }
};

std::string modification_text(const Modification& m) {
    std::string s;
    Printer(s).modification(m);
    return s;
}

// ---------------------------------------------------------------- dump

class Dumper {
public:
    explicit Dumper(std::ostream& out) : out_(out) {}

    void stored_definition(const StoredDefinition& t) {
        line(0, "stored-definition");
        if (t.within) line(1, fmt::format("within {}", to_modelica(*t.within)));
        for (const auto& c : t.classes)
            if (c) class_def(1, *c);
        for (const UnsupportedUse& u : t.unsupported)
            line(1, fmt::format("unsupported {}{}", quote_string(u.what), at(u.range)));
    }

private:
    std::ostream& out_;

    void line(int indent, std::string_view text) {
        for (int i = 0; i < indent; ++i) out_ << "  ";
        out_ << text << '\n';
    }

    static std::string at(const SourceRange& r) {
        if (!r.valid()) return "";
        return fmt::format(" @{}:{}", r.begin.line, r.begin.column);
    }

    static std::string descr(const std::string& d) { return d.empty() ? "" : " " + quote_string(d); }

    static std::string annotation(const ModificationPtr& a) {
        return a ? " annotation" + modification_text(*a) : "";
    }

    static std::string dims(const std::vector<ExprPtr>& d) {
        if (d.empty()) return "";
        std::string s = "[";
        for (std::size_t i = 0; i < d.size(); ++i) {
            if (i > 0) s += ", ";
            s += d[i] ? to_modelica(*d[i]) : "<missing>";
        }
        return s + "]";
    }

    static std::string prefix(const TypePrefix& p) {
        std::string s;
        if (p.flow) s += "flow ";
        if (p.stream) s += "stream ";
        if (p.discrete) s += "discrete ";
        if (p.parameter) s += "parameter ";
        if (p.constant) s += "constant ";
        if (p.input) s += "input ";
        if (p.output) s += "output ";
        return s;
    }

    static std::string expr(const ExprPtr& e) { return e ? to_modelica(*e) : "<missing>"; }

    static std::string iterators(const std::vector<ForIterator>& its) {
        std::string s;
        for (std::size_t i = 0; i < its.size(); ++i) {
            if (i > 0) s += ", ";
            s += its[i].name;
            if (its[i].range) s += " in " + to_modelica(*its[i].range);
        }
        return s;
    }

    void class_def(int ind, const ClassDef& c, std::string_view vis = {}) {
        std::string head;
        if (c.final) head += "final ";
        if (c.encapsulated) head += "encapsulated ";
        if (c.partial) head += "partial ";
        if (c.expandable) head += "expandable ";
        if (c.pure) head += "pure ";
        if (c.impure) head += "impure ";
        head += fmt::format("{} {}", class_kind_word(c.kind), c.name);
        if (c.is_enumeration) {
            head += " = enumeration(";
            for (std::size_t i = 0; i < c.enumeration_literals.size(); ++i)
                head += (i > 0 ? ", " : "") + c.enumeration_literals[i];
            head += ")";
        } else if (c.is_short) {
            head += " = " + prefix(c.short_prefix) + to_modelica(c.short_base) + dims(c.short_dims);
            if (c.short_mod) head += modification_text(*c.short_mod);
        }
        line(ind, std::string(vis) + "class " + head + descr(c.description) + at(c.range));
        for (const Element& el : c.elements) element(ind + 1, el);
        for (const EquationSection& s : c.equation_sections) {
            line(ind + 1, std::string(s.initial ? "initial equation" : "equation") + at(s.range));
            for (const Equation& e : s.equations) equation(ind + 2, e);
        }
        for (const AlgorithmSection& s : c.algorithm_sections) {
            line(ind + 1, std::string(s.initial ? "initial algorithm" : "algorithm") + at(s.range));
            for (const Statement& st : s.statements) statement(ind + 2, st);
        }
        if (c.external_clause) line(ind + 1, "external" + at(*c.external_clause));
        for (const ModificationPtr& a : c.annotations)
            if (a) line(ind + 1, "annotation" + modification_text(*a) + at(a->range));
    }

    void element(int ind, const Element& el) {
        std::string vis = el.is_protected ? "protected " : "";
        switch (el.kind) {
            case Element::Kind::Import: {
                if (!el.import) break;
                const ImportClause& i = *el.import;
                std::string s = vis + "import ";
                if (!i.alias.empty()) s += i.alias + " = ";
                s += to_modelica(i.name);
                if (i.wildcard) s += ".*";
                if (!i.only.empty()) {
                    s += ".{";
                    for (std::size_t k = 0; k < i.only.size(); ++k) s += (k > 0 ? ", " : "") + i.only[k];
                    s += "}";
                }
                line(ind, s + at(el.range));
                break;
            }
            case Element::Kind::Extends: {
                if (!el.extends) break;
                const ExtendsClause& x = *el.extends;
                std::string s = vis + "extends " + to_modelica(x.base);
                if (x.mod) s += modification_text(*x.mod);
                line(ind, s + annotation(x.annotation) + at(el.range));
                break;
            }
            case Element::Kind::Class:
                if (el.class_def) {
                    std::string v2 = std::string(vis) + (el.redeclare ? "redeclare " : "") +
                                     (el.replaceable ? "replaceable " : "");
                    class_def(ind, *el.class_def, v2);
                }
                break;
            case Element::Kind::Component: {
                if (!el.component) break;
                const ComponentClause& cc = *el.component;
                std::string s;
                if (cc.redeclare) s += "redeclare ";
                if (cc.final) s += "final ";
                if (cc.inner) s += "inner ";
                if (cc.outer) s += "outer ";
                if (cc.replaceable) s += "replaceable ";
                s += prefix(cc.prefix) + to_modelica(cc.type_name) + dims(cc.type_dims);
                if (cc.constraining) {
                    s += " constrainedby " + to_modelica(cc.constraining->name);
                    if (cc.constraining->mod) s += modification_text(*cc.constraining->mod);
                }
                line(ind, vis + "component " + s + at(el.range));
                for (const ComponentDecl& d : cc.decls) {
                    std::string t = d.name + dims(d.dims);
                    if (d.mod) t += modification_text(*d.mod);
                    if (d.condition) t += " if " + to_modelica(*d.condition);
                    line(ind + 1, "decl " + t + descr(d.description) + annotation(d.annotation) +
                                      at(d.range));
                }
                break;
            }
        }
    }

    void equation(int ind, const Equation& e) {
        std::string tail = descr(e.description) + annotation(e.annotation) + at(e.range);
        switch (e.kind) {
            case EquationKind::Simple:
                line(ind, "eq " + expr(e.lhs) + " = " + expr(e.rhs) + tail);
                return;
            case EquationKind::Connect:
                line(ind, "connect(" + expr(e.lhs) + ", " + expr(e.rhs) + ")" + tail);
                return;
            case EquationKind::Call: line(ind, "call " + expr(e.call) + tail); return;
            case EquationKind::For:
                line(ind, "for " + iterators(e.indices) + tail);
                for (const Equation& b : e.body) equation(ind + 1, b);
                return;
            case EquationKind::If:
            case EquationKind::When:
                line(ind, std::string(e.kind == EquationKind::If ? "if" : "when") + tail);
                for (const Branch<Equation>& br : e.branches) {
                    line(ind + 1, (br.condition ? "branch " + to_modelica(*br.condition) : "else") +
                                      at(br.range));
                    for (const Equation& b : br.body) equation(ind + 2, b);
                }
                return;
        }
    }

    void statement(int ind, const Statement& s) {
        std::string tail = descr(s.description) + annotation(s.annotation) + at(s.range);
        switch (s.kind) {
            case StatementKind::Assign:
                line(ind, "assign " + expr(s.lhs) + " := " + expr(s.rhs) + tail);
                return;
            case StatementKind::Call: line(ind, "call " + expr(s.call) + tail); return;
            case StatementKind::Break: line(ind, "break" + tail); return;
            case StatementKind::Return: line(ind, "return" + tail); return;
            case StatementKind::For:
                line(ind, "for " + iterators(s.indices) + tail);
                for (const Statement& b : s.body) statement(ind + 1, b);
                return;
            case StatementKind::If:
            case StatementKind::When:
            case StatementKind::While: {
                std::string_view kw = s.kind == StatementKind::If     ? "if"
                                      : s.kind == StatementKind::When ? "when"
                                                                      : "while";
                line(ind, std::string(kw) + tail);
                for (const Branch<Statement>& br : s.branches) {
                    line(ind + 1, (br.condition ? "branch " + to_modelica(*br.condition) : "else") +
                                      at(br.range));
                    for (const Statement& b : br.body) statement(ind + 2, b);
                }
                return;
            }
        }
    }
};

}  // namespace

std::string to_modelica(const Expr& e) {
    std::string s;
    Printer(s).expr(e);
    return s;
}

std::string to_modelica(const ComponentRef& r) {
    std::string s;
    Printer(s).ref(r);
    return s;
}

std::string_view class_kind_word(ClassKind k) {
    switch (k) {
        case ClassKind::Class: return "class";
        case ClassKind::Model: return "model";
        case ClassKind::Block: return "block";
        case ClassKind::Connector: return "connector";
        case ClassKind::Record: return "record";
        case ClassKind::Type: return "type";
        case ClassKind::Package: return "package";
        case ClassKind::Function: return "function";
        case ClassKind::Operator: return "operator";
    }
    return "class";
}

void dump(const StoredDefinition& tree, std::ostream& out) { Dumper(out).stored_definition(tree); }

}  // namespace modeaudit::ast
