#include "report/latex_math.h"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <vector>

namespace modeaudit::tex {

namespace {

enum class Tok { Number, Name, Op, Open, Close, Comma, Other, End };

struct Token {
    Tok kind;
    std::string text;
};

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_alnum(char c) { return is_letter(c) || is_digit(c); }

std::vector<Token> tokenize(std::string_view s) {
    std::vector<Token> out;
    std::size_t i = 0;
    while (i < s.size()) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            ++i;
            continue;
        }
        std::size_t start = i;
        if (is_digit(c) || (c == '.' && i + 1 < s.size() && is_digit(s[i + 1]))) {
            while (i < s.size() && (is_digit(s[i]) || s[i] == '.')) ++i;
            if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
                std::size_t j = i + 1;
                if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
                if (j < s.size() && is_digit(s[j])) {
                    i = j;
                    while (i < s.size() && is_digit(s[i])) ++i;
                }
            }
            out.push_back({Tok::Number, std::string(s.substr(start, i - start))});
            continue;
        }
        if (is_letter(c)) {
            // A component path: a.b.c, with array subscripts a[1,2].b.
            while (i < s.size()) {
                if (is_alnum(s[i])) {
                    ++i;
                } else if (s[i] == '.' && i + 1 < s.size() && is_letter(s[i + 1])) {
                    ++i;
                } else if (s[i] == '[') {
                    std::size_t j = i + 1;
                    while (j < s.size() && (is_digit(s[j]) || s[j] == ',')) ++j;
                    if (j < s.size() && s[j] == ']' && j > i + 1) {
                        i = j + 1;
                    } else {
                        break;
                    }
                } else {
                    break;
                }
            }
            out.push_back({Tok::Name, std::string(s.substr(start, i - start))});
            continue;
        }
        if (c == '(') {
            out.push_back({Tok::Open, "("});
            ++i;
            continue;
        }
        if (c == ')') {
            out.push_back({Tok::Close, ")"});
            ++i;
            continue;
        }
        if (c == ',') {
            out.push_back({Tok::Comma, ","});
            ++i;
            continue;
        }
        static constexpr std::array<std::string_view, 6> two = {"<=", ">=", "==", "<>", ":=", "!="};
        bool matched = false;
        for (std::string_view op : two)
            if (s.substr(i, 2) == op) {
                out.push_back({Tok::Op, std::string(op)});
                i += 2;
                matched = true;
                break;
            }
        if (matched) continue;
        if (std::string_view("+-*/^=<>").find(c) != std::string_view::npos) {
            out.push_back({Tok::Op, std::string(1, c)});
            ++i;
            continue;
        }
        // Anything else: one character (a whole UTF-8 sequence).
        auto u = static_cast<unsigned char>(c);
        std::size_t len = u < 0x80 ? 1 : (u & 0xE0) == 0xC0 ? 2 : (u & 0xF0) == 0xE0 ? 3 : (u & 0xF8) == 0xF0 ? 4 : 1;
        if (i + len > s.size()) len = s.size() - i;
        out.push_back({Tok::Other, std::string(s.substr(i, len))});
        i += len;
    }
    out.push_back({Tok::End, ""});
    return out;
}

// One character of untrusted text, as LaTeX that shows it.
std::string literal_char(std::string_view ch) {
    if (ch.empty()) return "";
    auto u = static_cast<unsigned char>(ch[0]);
    if (u >= 0x80) return "\\text{" + std::string(ch) + "}";  // pdf.h declares what pdflatex lacks
    if (std::isalnum(u)) return std::string(ch);
    if (u < 0x20 || u == 0x7F) return "\\ ";
    return fmt::format("\\text{{\\char{}}}", static_cast<int>(u));
}

std::string literal(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        auto u = static_cast<unsigned char>(s[i]);
        std::size_t len = u < 0x80 ? 1 : (u & 0xE0) == 0xC0 ? 2 : (u & 0xF0) == 0xE0 ? 3 : (u & 0xF8) == 0xF0 ? 4 : 1;
        if (i + len > s.size()) len = s.size() - i;
        out += literal_char(s.substr(i, len));
        i += len;
    }
    return out;
}

const char* greek(std::string_view n) {
    static constexpr std::array<std::string_view, 33> names = {
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda",
        "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega",
        "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi"};
    static constexpr std::array<const char*, 33> tex = {
        "\\alpha", "\\beta", "\\gamma", "\\delta", "\\epsilon", "\\zeta", "\\eta", "\\theta", "\\iota",
        "\\kappa", "\\lambda", "\\mu", "\\nu", "\\xi", "\\pi", "\\rho", "\\sigma", "\\tau", "\\upsilon",
        "\\phi", "\\chi", "\\psi", "\\omega", "\\Gamma", "\\Delta", "\\Theta", "\\Lambda", "\\Xi", "\\Pi",
        "\\Sigma", "\\Upsilon", "\\Phi", "\\Psi"};
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == n) return tex[i];
    if (n == "Omega") return "\\Omega";
    return nullptr;
}

// A name made of letters, digits, '_', '.', '[', ']' and ',' (the tokenizer's).
std::string simple_name(std::string_view n) {
    if (const char* g = greek(n)) return g;
    bool plain = true;
    for (char c : n) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) != 0);
    if (plain && n.size() == 1) return std::string(n);
    // base_sub: a letter or Greek base with a short alphanumeric subscript.
    auto us = n.find('_');
    if (us != std::string_view::npos && us > 0 && us + 1 < n.size() && n.find('_', us + 1) == std::string_view::npos) {
        std::string_view base = n.substr(0, us), sub = n.substr(us + 1);
        bool ok = true;
        for (char c : base) ok = ok && std::isalnum(static_cast<unsigned char>(c));
        for (char c : sub) ok = ok && std::isalnum(static_cast<unsigned char>(c));
        if (ok) return simple_name(base) + "_{\\mathrm{" + std::string(sub) + "}}";
    }
    std::string out = "\\mathit{";
    for (char c : n) out += c == '_' ? std::string("\\_") : std::string(1, c);
    return out + "}";
}

const char* known_function(std::string_view f) {
    struct Entry {
        std::string_view name;
        const char* tex;
    };
    static constexpr std::array<Entry, 16> table = {{{"sin", "\\sin"}, {"cos", "\\cos"}, {"tan", "\\tan"},
                                                     {"asin", "\\arcsin"}, {"acos", "\\arccos"},
                                                     {"atan", "\\arctan"}, {"sinh", "\\sinh"},
                                                     {"cosh", "\\cosh"}, {"tanh", "\\tanh"}, {"exp", "\\exp"},
                                                     {"log", "\\ln"}, {"log10", "\\log_{10}"},
                                                     {"min", "\\min"}, {"max", "\\max"},
                                                     {"abs", "\\operatorname{abs}"}, {"sign", "\\operatorname{sign}"}}};
    for (const Entry& e : table)
        if (e.name == f) return e.tex;
    return nullptr;
}

class Converter {
public:
    explicit Converter(std::vector<Token> t) : t_(std::move(t)) {}

    std::string all() {
        std::string out = sequence(false, false);
        // Unbalanced closing parentheses and whatever follows: shown as they are.
        while (peek().kind != Tok::End) {
            const Token& tk = next();
            out += tk.kind == Tok::Close ? std::string(")") : literal(tk.text);
            out += sequence(false, true);
        }
        return out;
    }

private:
    std::vector<Token> t_;
    std::size_t p_ = 0;

    const Token& peek(std::size_t ahead = 0) const {
        std::size_t i = p_ + ahead;
        return i < t_.size() ? t_[i] : t_.back();
    }
    const Token& next() {
        const Token& tk = peek();
        if (p_ < t_.size() - 1) ++p_;
        return tk;
    }

    // Items up to a closing parenthesis (not consumed) or the end; with
    // `in_args`, also up to a comma at this level.
    // `continued`: something precedes (a sign is then a binary operator).
    std::string sequence(bool in_args, bool continued = false) {
        std::string out;
        while (true) {
            const Token& tk = peek();
            if (tk.kind == Tok::End || tk.kind == Tok::Close) break;
            if (tk.kind == Tok::Comma) {
                if (in_args) break;
                next();
                out += ",\\ ";
                continue;
            }
            if (tk.kind == Tok::Op) {
                std::string op = next().text;
                if (op == "^") {
                    out += "^{" + item(true) + "}";
                } else if (op == "*") {
                    out += "\\,";
                } else if (op == "/") {
                    out += "/";
                } else if (op == "+" || op == "-") {
                    out += out.empty() && !continued ? op : " " + op + " ";
                } else if (op == "=" || op == "==") {
                    out += " = ";
                } else if (op == "<=") {
                    out += " \\le ";
                } else if (op == ">=") {
                    out += " \\ge ";
                } else if (op == "<>" || op == "!=") {
                    out += " \\ne ";
                } else if (op == ":=") {
                    out += " \\mathrel{:=} ";
                } else {
                    out += " " + op + " ";  // < or >
                }
                continue;
            }
            std::string it = item(false);
            // The array's instant suffix: x@1 is x at instant 1, written x_{[1]}.
            if (peek().kind == Tok::Other && peek().text == "@" && peek(1).kind == Tok::Number &&
                peek(1).text.find_first_not_of("0123456789") == std::string::npos) {
                next();
                if (it.find("_{") != std::string::npos) it = "{" + it + "}";  // no double subscript
                it += "_{[" + next().text + "]}";
            }
            out += it;
        }
        return out;
    }

    // Arguments of a call after its '(' (consumed up to and with ')').
    std::vector<std::string> arguments() {
        std::vector<std::string> args;
        if (peek().kind == Tok::Close) {
            next();
            return args;
        }
        while (true) {
            args.push_back(sequence(true));
            if (peek().kind == Tok::Comma) {
                next();
                continue;
            }
            if (peek().kind == Tok::Close) next();
            break;
        }
        return args;
    }

    static std::string join(const std::vector<std::string>& v) {
        std::string out;
        for (const std::string& s : v) out += (out.empty() ? "" : ",\\ ") + s;
        return out;
    }

    // One operand. In an exponent a parenthesised group loses its parentheses.
    std::string item(bool exponent) {
        const Token& tk = peek();
        switch (tk.kind) {
            case Tok::Number: {
                std::string n = next().text;
                auto e = n.find_first_of("eE");
                if (e == std::string::npos) return n;
                std::string exp = n.substr(e + 1);
                if (!exp.empty() && exp[0] == '+') exp.erase(0, 1);
                bool neg = !exp.empty() && exp[0] == '-';
                std::string digits = exp.substr(neg ? 1 : 0);
                while (digits.size() > 1 && digits[0] == '0') digits.erase(0, 1);
                return n.substr(0, e) + "\\cdot 10^{" + (neg ? "-" : "") + digits + "}";
            }
            case Tok::Open: {
                next();
                std::string inner = sequence(false);
                if (peek().kind == Tok::Close) next();
                return exponent ? inner : "\\left(" + inner + "\\right)";
            }
            case Tok::Name: {
                std::string n = next().text;
                if (peek().kind == Tok::Open) {
                    next();
                    return call(n, arguments());
                }
                if (n == "if") return "\\text{if }";
                if (n == "then") return "\\text{ then }";
                if (n == "else") return "\\text{ else }";
                if (n == "elseif") return "\\text{ else if }";
                if (n == "and") return "\\wedge ";
                if (n == "or") return "\\vee ";
                if (n == "not") return "\\neg ";
                if (n == "true" || n == "false") return "\\mathrm{" + n + "}";
                if (n == "time") return "t";
                return simple_name(n);
            }
            case Tok::Op: {  // a sign inside an exponent: x^-1 does not occur, but be safe
                std::string op = next().text;
                return op == "-" || op == "+" ? op + item(exponent) : literal(op);
            }
            case Tok::Other:
                return literal(next().text);
            case Tok::Comma:
            case Tok::Close:
            case Tok::End:
                return "";
        }
        return "";
    }

    static bool single_name(const std::string& latex) {
        // What simple_name gives for one letter, a Greek letter or \mathit{...}.
        if (latex.empty()) return false;
        for (std::string_view bad : {" ", "\\,", "\\left", "/", "^", "\\dot", "\\frac"})
            if (latex.find(bad) != std::string::npos) return false;
        return true;
    }

    std::string call(const std::string& f, const std::vector<std::string>& args) {
        if (f == "der" && !args.empty() && args.size() <= 2) {
            int order = 1;
            if (args.size() == 2) {
                order = 0;
                for (char c : args[1]) {
                    if (!is_digit(c)) {
                        order = -1;
                        break;
                    }
                    order = order * 10 + (c - '0');
                    if (order > 99) break;
                }
            }
            const std::string& x = args[0];
            if (single_name(x)) {
                if (order == 1) return "\\dot{" + x + "}";
                if (order == 2) return "\\ddot{" + x + "}";
                if (order == 3) return "\\dddot{" + x + "}";
                if (order > 3) return "{" + x + "}^{(" + std::to_string(order) + ")}";
            }
            if (order >= 1) {
                std::string d = order == 1 ? "" : "^{" + std::to_string(order) + "}";
                return "\\frac{d" + d + "}{dt" + d + "}\\left(" + x + "\\right)";
            }
        }
        if (f == "pre" && args.size() == 1) return "\\operatorname{pre}\\left(" + args[0] + "\\right)";
        if (f == "sqrt" && args.size() == 1) return "\\sqrt{" + args[0] + "}";
        if (const char* k = known_function(f)) return std::string(k) + "\\left(" + join(args) + "\\right)";
        std::string name = "\\operatorname{";
        for (char c : f) name += c == '_' ? std::string("\\_") : std::string(1, c);
        return name + "}\\left(" + join(args) + "\\right)";
    }
};

}  // namespace

std::string math(std::string_view canonical) { return Converter(tokenize(canonical)).all(); }

std::string name(std::string_view identifier) {
    std::vector<Token> t = tokenize(identifier);
    if (t.size() == 2 && t[0].kind == Tok::Name) return simple_name(t[0].text);
    return math(identifier);
}

}  // namespace modeaudit::tex
