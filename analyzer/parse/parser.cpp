// The parser of the parse stage: tokens (lexer.h) to the AST (ast.h).
//
// A recursive-descent parser over the grammar of Modelica 3.6, Appendix A,
// one function per grammar rule, named after the rule. Three concerns cut
// across the rules:
//
//  * Error recovery. A syntax error is reported where it is noticed and then
//    thrown as Recover, which unwinds to the nearest "item" (an element, an
//    equation, a statement, a modification argument list's owner); there the
//    parser skips to a synchronisation point (synchronise()) and goes on, so
//    one file yields all of its independent errors. Structured constructs
//    (if/for/when/while) recover inside their own headers and bodies, so a bad
//    condition does not lose the whole block and does not cascade into
//    "unexpected 'end if'" noise.
//  * The error limit. After ParseLimits::max_errors syntax errors the next one
//    is replaced by "too many errors; stopping" and the file is abandoned
//    (Abandon), keeping what was built so far.
//  * The depth bound. Every recursive path (expressions, modifications,
//    equations, statements, classes) passes through a Nest guard; beyond
//    ParseLimits::max_depth the parser reports parse-nesting-too-deep once
//    and abandons the file, so that no input can overflow the stack.
//
// Neither Recover nor Abandon leaves parse_file(): model problems are
// diagnostics, never exceptions (internal_error.h).
#include "parse/parser.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <set>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "common/internal_error.h"
#include "parse/ast_print.h"
#include "parse/lexer.h"

namespace modeaudit {

namespace {

using namespace ast;
using TK = TokenKind;

// Thrown after a syntax error has been reported: unwind to the item level and resynchronise.
struct Recover {};
// Thrown to give up on the rest of the file (too many errors, nesting too deep).
struct Abandon {};

std::string_view keyword_text(TK k) {
    // token_kind_spelling quotes keywords; messages here want them bare too.
    std::string_view s = token_kind_spelling(k);
    if (s.size() >= 2 && s.front() == '\'' && s.back() == '\'') s = s.substr(1, s.size() - 2);
    return s;
}


class Parser {
public:
    Parser(DiagnosticSink& sink, const ParseLimits& limits, std::vector<Token> tokens,
           StoredDefinition& tree)
        : sink_(sink), limits_(limits), toks_(std::move(tokens)), tree_(tree) {
        MODEAUDIT_ASSERT(!toks_.empty() && toks_.back().kind == TK::Eof,
                         "token stream must end with Eof");
        prev_end_ = toks_.front().range.begin;
    }

    void run() {
        try {
            check_lexical_error();
            stored_definition();
        } catch (const Abandon&) {
            // The diagnostic saying why has been reported; keep the partial tree.
        } catch (const Recover&) {
            MODEAUDIT_UNREACHABLE("syntax error escaped every recovery point");
        }
    }

private:
    // ------------------------------------------------------------ state

    struct OpenClass {
        std::string name;
        SourceLocation begin;
    };

    DiagnosticSink& sink_;
    ParseLimits limits_;
    std::vector<Token> toks_;
    StoredDefinition& tree_;

    std::size_t pos_ = 0;
    SourceLocation prev_end_;        // end of the last consumed token
    std::size_t errors_ = 0;         // syntax errors reported so far
    std::size_t depth_ = 0;          // current nesting, against limits_.max_depth
    std::vector<std::string_view> nesting_;  // what each level of depth_ is, for the message
    std::size_t subscript_depth_ = 0;  // > 0 inside [...] of a component reference: `end` is allowed
    bool eof_reported_ = false;      // "unexpected end of file" said once, for the innermost class
    std::vector<OpenClass> open_classes_;
    std::vector<TK> blocks_;         // open if/for/when/while constructs, innermost last

    // Counts one level of nesting for as long as it lives.
    class Nest {
    public:
        Nest(Parser& p, std::string_view what) : p_(p) {
            if (p_.depth_ + 1 > p_.limits_.max_depth) p_.too_deep(what);
            ++p_.depth_;
            p_.nesting_.push_back(what);
        }
        ~Nest() {
            --p_.depth_;
            p_.nesting_.pop_back();
        }
        Nest(const Nest&) = delete;
        Nest& operator=(const Nest&) = delete;

    private:
        Parser& p_;
    };

    // Pushes onto a stack for as long as it lives (open classes, open blocks).
    template <typename T>
    class Pushed {
    public:
        Pushed(std::vector<T>& stack, T value) : stack_(stack) { stack_.push_back(std::move(value)); }
        ~Pushed() { stack_.pop_back(); }
        Pushed(const Pushed&) = delete;
        Pushed& operator=(const Pushed&) = delete;

    private:
        std::vector<T>& stack_;
    };

    // ------------------------------------------------------------ tokens

    const Token& cur() const { return toks_[pos_]; }
    const Token& peek(std::size_t n = 1) const {
        return toks_[std::min(pos_ + n, toks_.size() - 1)];
    }
    bool at(TK k) const { return cur().kind == k; }
    bool at_any(std::initializer_list<TK> ks) const {
        for (TK k : ks)
            if (at(k)) return true;
        return false;
    }
    SourceLocation here() const { return cur().range.begin; }
    SourceRange from(SourceLocation begin) const { return SourceRange{begin, prev_end_}; }

    void advance() {
        if (at(TK::Eof)) return;
        prev_end_ = cur().range.end;
        ++pos_;
        check_lexical_error();
    }
    bool accept(TK k) {
        if (!at(k)) return false;
        advance();
        return true;
    }

    // A token carrying a lexical mistake is reported when the parser first
    // reaches it, so that lexical and syntax errors come out in source order.
    void check_lexical_error() {
        if (!cur().error.empty()) error(cur().range, cur().error);
    }

    // ------------------------------------------------------------ errors

    void error(SourceRange range, std::string message) {
        if (errors_ >= limits_.max_errors) {
            sink_.report(rule::parse_syntax_error, range,
                         fmt::format("too many errors; stopping after {} syntax errors in this file",
                                     errors_));
            throw Abandon{};
        }
        ++errors_;
        sink_.report(rule::parse_syntax_error, range, std::move(message));
    }

    // Names what makes up most of the nesting (the last level is often just
    // an expression inside a deep stack of if-equations or classes).
    [[noreturn]] void too_deep(std::string_view what) {
        std::string_view most = what;
        std::size_t best = 0;
        for (std::string_view k : nesting_) {
            std::size_t n = static_cast<std::size_t>(std::count(nesting_.begin(), nesting_.end(), k));
            if (n > best) {
                best = n;
                most = k;
            }
            if (best * 2 > nesting_.size()) break;  // a majority: no need to look further
        }
        sink_.report(rule::parse_nesting_too_deep, cur().range,
                     fmt::format("nesting deeper than {} levels; simplify the {}", limits_.max_depth,
                                 most),
                     {"the nesting-depth limit is set by --max-nesting"});
        throw Abandon{};
    }

    // Whether an error at the current token has already been said: the lexer's
    // message for an invalid token, or the end of file inside a class (the
    // class reports "... is not closed", which says more than "found end of file").
    bool error_already_covered() const {
        return at(TK::Error) || (at(TK::Eof) && !open_classes_.empty());
    }

    [[noreturn]] void fail(std::string message) {
        if (!error_already_covered()) error(cur().range, std::move(message));
        throw Recover{};
    }

    // "expected <what> <context>, found <token>[; <hint>]"
    [[noreturn]] void fail_expected(std::string_view what, std::string_view context = {},
                                    std::string_view hint = {}) {
        std::string m = fmt::format("expected {}", what);
        if (!context.empty()) m += fmt::format(" {}", context);
        m += fmt::format(", found {}", describe_token(cur()));
        if (!hint.empty()) m += fmt::format("; {}", hint);
        fail(std::move(m));
    }

    void expect(TK k, std::string_view context, std::string_view hint = {}) {
        if (!accept(k)) fail_expected(token_kind_spelling(k), context, hint);
    }

    // A closing bracket, naming where its opening bracket is.
    void expect_close(TK k, const SourceLocation& open, std::string_view what) {
        if (accept(k)) return;
        fail_expected(token_kind_spelling(k),
                      fmt::format("to close {} opened at {}:{}", what, open.line, open.column));
    }

    // A token that ends a line's construct: the ';' of an element, equation
    // or statement, the `then` or `loop` of a block header. When the next
    // token is on a later line, it was most likely just forgotten at the end
    // of the line: say so there and go on as if it were present, which keeps
    // the next line instead of skipping it.
    void expect_line_end(TK k, std::string_view after) {
        if (accept(k)) return;
        if (error_already_covered()) throw Recover{};
        const Token& t = cur();
        std::string_view want = token_kind_spelling(k);
        bool next_line = t.range.begin.line > prev_end_.line;
        if (next_line) {
            error(SourceRange{prev_end_, prev_end_},
                  fmt::format("expected {} {}, found {}; add {} at the end of line {}", want, after,
                              describe_token(t), want, prev_end_.line));
            return;
        }
        error(t.range, fmt::format("expected {} {}, found {}", want, after, describe_token(t)));
        throw Recover{};
    }

    void expect_semicolon(std::string_view after) { expect_line_end(TK::Semicolon, after); }

    void unsupported(std::string what, SourceRange range) {
        tree_.unsupported.push_back(UnsupportedUse{std::move(what), range});
    }

    // ------------------------------------------------------------ recovery

    // Whether the `end` here can close something: `end Name`, `end;`,
    // `end if`... A misused `end` (`Real end "position";`) is followed by
    // anything else, and taking it for the end of the class would turn one
    // error into a cascade over the rest of the file.
    bool at_plausible_end() const {
        if (!at(TK::KwEnd)) return false;
        TK next = peek().kind;
        return next == TK::Ident || next == TK::Semicolon || next == TK::Eof || is_block_keyword(next);
    }

    bool at_section_keyword() const {
        switch (cur().kind) {
            case TK::KwEquation:
            case TK::KwAlgorithm:
            case TK::KwPublic:
            case TK::KwProtected:
            case TK::KwExternal: return true;
            case TK::KwEnd: return at_plausible_end();
            case TK::KwInitial:
                return peek().kind == TK::KwEquation || peek().kind == TK::KwAlgorithm;
            default: return false;
        }
    }

    // Whether the current token continues the innermost open block, so that
    // skipping must stop before it: `else` of an if, `elsewhen` of a when.
    bool at_block_continuation() const {
        if (blocks_.empty()) return false;
        if (blocks_.back() == TK::KwIf) return at(TK::KwElse) || at(TK::KwElseif);
        if (blocks_.back() == TK::KwWhen) return at(TK::KwElsewhen);
        return false;
    }

    // Skips to the next ';' outside brackets (consumed), or to just before a
    // section keyword, `end`, or the continuation of the open block. Brackets
    // are tracked so that a ';' separating matrix rows does not stop it.
    void synchronise() {
        std::vector<TK> brackets;
        while (true) {
            switch (cur().kind) {
                case TK::Eof: return;
                case TK::Semicolon:
                    if (brackets.empty() || brackets.back() != TK::LBracket) {
                        advance();
                        return;
                    }
                    break;
                case TK::LParen:
                case TK::LBracket:
                case TK::LBrace: brackets.push_back(cur().kind); break;
                case TK::RParen:
                case TK::RBracket:
                case TK::RBrace:
                    if (!brackets.empty()) brackets.pop_back();
                    break;
                default:
                    if (brackets.empty() && (at_section_keyword() || at_block_continuation())) return;
                    break;
            }
            advance();
        }
    }

    // After a bad header of a block (`if <cond> then`): skip to the `then`
    // (consumed) so that the body is still parsed; stop at a ';' (consumed)
    // or a section keyword when the `then` is missing altogether.
    void recover_to(TK keyword) {
        std::size_t depth = 0;
        while (!at(TK::Eof)) {
            if (depth == 0 && at(keyword)) {
                advance();
                return;
            }
            if (depth == 0 && at(TK::Semicolon)) {
                advance();
                return;
            }
            if (depth == 0 && (at_section_keyword() || at_block_continuation())) return;
            if (at_any({TK::LParen, TK::LBracket, TK::LBrace})) ++depth;
            if (at_any({TK::RParen, TK::RBracket, TK::RBrace}) && depth > 0) --depth;
            advance();
        }
    }

    // Skips one modification argument, up to the ',' or ')' that ends it.
    void skip_argument() {
        std::size_t depth = 0;
        while (!at(TK::Eof)) {
            if (depth == 0 && (at(TK::Comma) || at(TK::RParen))) return;
            if (depth == 0 && at(TK::Semicolon)) return;
            if (at_any({TK::LParen, TK::LBracket, TK::LBrace})) ++depth;
            if (at_any({TK::RParen, TK::RBracket, TK::RBrace}) && depth > 0) --depth;
            advance();
        }
    }

    // Runs one item (element, equation, statement) with recovery, making
    // sure that the loop around it always moves forward.
    template <typename Fn>
    void item(Fn&& fn) {
        std::size_t start = pos_;
        try {
            fn();
        } catch (const Recover&) {
            synchronise();
        }
        if (pos_ == start) advance();
    }

    // ------------------------------------------------------------ stored definition

    void stored_definition() {
        if (at(TK::KwWithin)) {
            item([&] {
                advance();
                // `within;` names the top level: an empty reference.
                tree_.within = at(TK::Semicolon) ? ComponentRef{} : name("after 'within'");
                expect_semicolon("after the 'within' clause");
            });
        }
        while (!at(TK::Eof)) {
            item([&] {
                if (at(TK::KwEnd)) return stray_class_end();
                SourceLocation begin = here();
                bool final = accept(TK::KwFinal);
                if (!starts_class_definition())
                    fail_expected("a class definition (model, block, connector, package, function, ...)");
                tree_.classes.push_back(std::make_unique<ClassDef>());
                // Built in place, so that a file abandoned half-way still
                // holds the class parsed so far.
                ClassDef& c = *tree_.classes.back();
                bool closed = false;
                try {
                    closed = class_definition(c, final, begin);
                } catch (...) {
                    if (c.name.empty()) tree_.classes.pop_back();
                    throw;
                }
                if (closed) expect_semicolon(fmt::format("after 'end {}'", c.name));
            });
        }
    }

    // `end X;` at the top level, when every class is already closed.
    void stray_class_end() {
        SourceLocation begin = here();
        advance();
        std::string what = "'end'";
        if (at(TK::Ident)) {
            what = fmt::format("'end {}'", cur().text);
            advance();
        }
        error(from(begin), fmt::format("{} does not close any class: every class before it is "
                                       "already closed; remove it",
                                       what));
        accept(TK::Semicolon);
    }

    // ------------------------------------------------------------ classes

    bool starts_class_definition() const {
        switch (cur().kind) {
            case TK::KwClass:
            case TK::KwModel:
            case TK::KwBlock:
            case TK::KwConnector:
            case TK::KwExpandable:
            case TK::KwRecord:
            case TK::KwType:
            case TK::KwPackage:
            case TK::KwFunction:
            case TK::KwPure:
            case TK::KwImpure:
            case TK::KwOperator:
            case TK::KwPartial:
            case TK::KwEncapsulated: return true;
            default: return false;
        }
    }

    // class_prefixes, the restricted class keyword(s).
    void class_prefixes(ClassDef& c) {
        while (at(TK::KwEncapsulated) || at(TK::KwPartial)) {
            bool& flag = at(TK::KwEncapsulated) ? c.encapsulated : c.partial;
            if (flag) error(cur().range, fmt::format("duplicate prefix '{}'", cur().text));
            flag = true;
            advance();
        }
        SourceLocation begin = here();
        switch (cur().kind) {
            case TK::KwClass: c.kind = ClassKind::Class; break;
            case TK::KwModel: c.kind = ClassKind::Model; break;
            case TK::KwBlock: c.kind = ClassKind::Block; break;
            case TK::KwConnector: c.kind = ClassKind::Connector; break;
            case TK::KwRecord: c.kind = ClassKind::Record; break;
            case TK::KwType: c.kind = ClassKind::Type; break;
            case TK::KwPackage: c.kind = ClassKind::Package; break;
            case TK::KwFunction: c.kind = ClassKind::Function; break;
            case TK::KwExpandable:
                advance();
                if (!at(TK::KwConnector)) fail_expected("'connector'", "after 'expandable'");
                c.kind = ClassKind::Connector;
                c.expandable = true;
                break;
            case TK::KwOperator:
                // ClassKind has no "operator record/function": the subset has
                // no operator overloading, so the use is recorded instead.
                if (peek().kind == TK::KwRecord || peek().kind == TK::KwFunction) {
                    advance();
                    c.kind = at(TK::KwRecord) ? ClassKind::Record : ClassKind::Function;
                    unsupported(fmt::format("operator {}", cur().text), SourceRange{begin, cur().range.end});
                } else {
                    c.kind = ClassKind::Operator;
                }
                break;
            case TK::KwPure:
            case TK::KwImpure:
                (at(TK::KwPure) ? c.pure : c.impure) = true;
                advance();
                if (at(TK::KwOperator) && peek().kind == TK::KwFunction) {
                    advance();
                    unsupported("operator function", SourceRange{begin, cur().range.end});
                }
                if (!at(TK::KwFunction))
                    fail_expected("'function'", fmt::format("after '{}'", c.pure ? "pure" : "impure"));
                c.kind = ClassKind::Function;
                break;
            default:
                fail_expected("a class kind (class, model, block, connector, record, type, package, "
                              "function)");
        }
        advance();
    }

    // class_definition: returns whether the class was closed by its own
    // `end Name` (false at the end of file, or when an enclosing class's
    // `end` shows that this one was left open).
    bool class_definition(ClassDef& c, bool final, SourceLocation begin) {
        Nest nest(*this, "class nesting");
        c.final = final;
        c.range = SourceRange{begin, begin};
        class_prefixes(c);
        bool class_extends = false;
        if (at(TK::KwExtends)) {
            class_extends = true;
            unsupported("class extends", SourceRange{here(), cur().range.end});
            advance();
        }
        if (!at(TK::Ident))
            fail_expected(fmt::format("the name of the {}", class_kind_word(c.kind)),
                          fmt::format("after '{}'", toks_[pos_ - 1].text));
        c.name = std::string(cur().text);
        c.name_range = cur().range;
        advance();

        if (!class_extends && at(TK::Equals)) {
            short_class_specifier(c);
            c.range = from(begin);
            return true;
        }
        if (class_extends && at(TK::LParen)) class_modification();  // kept out of the tree: unsupported
        c.description = string_comment();

        Pushed<OpenClass> open(open_classes_, OpenClass{c.name, begin});
        bool at_end = composition(c);
        c.range = from(begin);
        if (!at_end) return false;
        return class_end(c, begin);
    }

    // `end Name` of a long class definition (the caller takes the ';').
    bool class_end(ClassDef& c, SourceLocation begin) {
        MODEAUDIT_ASSERT(at(TK::KwEnd), "class_end not at 'end'");
        const Token& name = peek();
        if (name.kind == TK::Ident && name.text == c.name) {
            advance();
            advance();
            c.range = from(begin);
            return true;
        }
        if (name.kind == TK::Ident) {
            // `end A` where A is an enclosing class: this class was left open.
            for (std::size_t i = 0; i + 1 < open_classes_.size(); ++i) {
                if (open_classes_[i].name != name.text) continue;
                error(SourceRange{here(), name.range.end},
                      fmt::format("class '{}' opened at {}:{} is not closed before 'end {}', which "
                                  "closes the enclosing class '{}'; add 'end {};' before it",
                                  c.name, begin.line, begin.column, name.text, name.text, c.name));
                return false;
            }
            SourceRange r = name.range;
            std::string found(name.text);
            advance();
            advance();
            c.range = from(begin);
            error(r, fmt::format("'end {}' does not match the name of class '{}' opened at {}:{}; "
                                 "write 'end {};'",
                                 found, c.name, begin.line, begin.column, c.name));
            return true;
        }
        advance();
        c.range = from(begin);
        if (error_already_covered()) return true;
        error(cur().range, fmt::format("expected the class name '{}' after 'end', found {}; write "
                                       "'end {};'",
                                       c.name, describe_token(cur()), c.name));
        return true;
    }

    // short_class_specifier after the name: `= [prefixes] Base[dims](mods) comment`
    // or `= enumeration(...) comment`.
    void short_class_specifier(ClassDef& c) {
        advance();  // '='
        c.is_short = true;
        if (at(TK::KwEnumeration)) {
            SourceLocation begin = here();
            advance();
            SourceLocation open = here();
            expect(TK::LParen, "after 'enumeration'");
            c.is_enumeration = true;
            if (!accept(TK::Colon) && !at(TK::RParen)) {
                do {
                    if (!at(TK::Ident)) fail_expected("the name of an enumeration literal");
                    c.enumeration_literals.emplace_back(cur().text);
                    advance();
                    std::string descr;
                    ModificationPtr ann;
                    comment(descr, ann);  // per-literal comments are not kept
                } while (accept(TK::Comma));
            }
            expect_close(TK::RParen, open, "the enumeration");
            if (c.enumeration_literals.empty())  // `enumeration(:)`: literals given elsewhere
                unsupported("enumeration(:)", from(begin));
        } else {
            c.short_prefix = type_prefix();
            if (!at(TK::Ident) && !at(TK::Dot))
                fail_expected("the name of the base class", fmt::format("after '{} ='", c.name));
            c.short_base = name("in the short class definition");
            if (at(TK::LBracket)) c.short_dims = array_subscripts();
            if (at(TK::LParen)) c.short_mod = class_modification();
        }
        c.description = string_comment();
        if (at(TK::KwAnnotation)) c.annotations.push_back(annotation());
    }

    // composition: elements, sections, external clause, annotations, up to
    // the class's `end`. Returns true at that `end`, false at the end of file.
    bool composition(ClassDef& c) {
        enum class Mode { Elements, Equations, Algorithms } mode = Mode::Elements;
        bool is_protected = false;
        while (true) {
            if (at(TK::Eof)) {
                report_unclosed_class();
                return false;
            }
            if (at_plausible_end()) {
                if (!is_block_keyword(peek().kind)) return true;
                item([&] { stray_block_end(); });
                continue;
            }
            item([&] {
                switch (cur().kind) {
                    case TK::KwPublic:
                    case TK::KwProtected:
                        is_protected = at(TK::KwProtected);
                        mode = Mode::Elements;
                        advance();
                        return;
                    case TK::KwEquation:
                    case TK::KwAlgorithm:
                        mode = begin_section(c, false) ? Mode::Equations : Mode::Algorithms;
                        return;
                    case TK::KwInitial:
                        if (peek().kind == TK::KwEquation || peek().kind == TK::KwAlgorithm) {
                            mode = begin_section(c, true) ? Mode::Equations : Mode::Algorithms;
                            return;
                        }
                        break;
                    case TK::KwExternal: return external_clause(c);
                    case TK::KwAnnotation:
                        // Modelica 3.6 puts the class annotation last; earlier
                        // versions allowed it between elements and equations,
                        // and real models still do that.
                        c.annotations.push_back(annotation());
                        expect_semicolon("after the annotation");
                        return;
                    default: break;
                }
                switch (mode) {
                    case Mode::Elements: return element(c, is_protected);
                    case Mode::Equations: {
                        EquationSection& s = c.equation_sections.back();
                        equation(s.equations);
                        s.range.end = prev_end_;
                        return;
                    }
                    case Mode::Algorithms: {
                        AlgorithmSection& s = c.algorithm_sections.back();
                        statement(s.statements);
                        s.range.end = prev_end_;
                        return;
                    }
                }
            });
        }
    }

    // Opens `[initial] equation` or `[initial] algorithm`; true for equations.
    bool begin_section(ClassDef& c, bool initial) {
        SourceLocation begin = here();
        if (initial) advance();
        bool equations = at(TK::KwEquation);
        advance();
        if (equations) {
            c.equation_sections.push_back(EquationSection{initial, {}, from(begin)});
        } else {
            c.algorithm_sections.push_back(AlgorithmSection{initial, {}, from(begin)});
        }
        return equations;
    }

    void report_unclosed_class() {
        if (eof_reported_) return;
        eof_reported_ = true;
        const OpenClass& oc = open_classes_.back();
        error(cur().range, fmt::format("unexpected end of file: class '{}' opened at {}:{} is not "
                                       "closed; add 'end {};'",
                                       oc.name, oc.begin.line, oc.begin.column, oc.name));
    }

    static bool is_block_keyword(TK k) {
        return k == TK::KwIf || k == TK::KwFor || k == TK::KwWhen || k == TK::KwWhile;
    }

    // `end if;` (or for/when/while) with no such block open.
    void stray_block_end() {
        SourceLocation begin = here();
        advance();
        std::string_view kw = keyword_text(cur().kind);
        advance();
        error(from(begin), fmt::format("'end {}' without a matching '{}'; remove it, or check the "
                                       "'{}' that should open it",
                                       kw, kw, kw));
        accept(TK::Semicolon);
    }

    // external [language] [[ref =] f(args)] [annotation] ;
    void external_clause(ClassDef& c) {
        SourceLocation begin = here();
        advance();
        if (at(TK::String)) {
            c.external_language = cur().value;
            advance();
        }
        if (at(TK::Ident) || at(TK::Dot)) {
            ComponentRef first = component_reference();
            c.external_name = first.dotted();
            if (accept(TK::Equals)) {
                if (!at(TK::Ident)) fail_expected("the name of the external function", "after '='");
                c.external_name = std::string(cur().text);
                advance();
            }
            if (at(TK::LParen)) {
                SourceLocation open = here();
                advance();
                if (!at(TK::RParen)) {
                    do {
                        expression();
                    } while (accept(TK::Comma));
                }
                expect_close(TK::RParen, open, "the argument list of the external function");
            }
        }
        if (at(TK::KwAnnotation)) annotation();  // library annotations mean nothing here
        c.external_clause = from(begin);
        // Refused by the flattener where the function is called, unless it
        // is one of the C library's mathematical functions (function_compiler.h).
        expect_semicolon("after the external clause");
    }

    // ------------------------------------------------------------ elements

    void element(ClassDef& c, bool is_protected) {
        Element el;
        el.is_protected = is_protected;
        SourceLocation begin = here();
        std::string after;
        bool closed = true;
        if (at(TK::KwImport)) {
            el.kind = Element::Kind::Import;
            el.import = import_clause();
            after = "after the import clause";
        } else if (at(TK::KwExtends)) {
            el.kind = Element::Kind::Extends;
            el.extends = extends_clause();
            after = "after the extends clause";
        } else {
            bool redeclare = false, final = false, inner = false, outer = false, replaceable = false;
            SourceRange inner_outer_range;  // the first of `inner`/`outer`
            while (true) {
                bool* flag = nullptr;
                std::string_view what;
                switch (cur().kind) {
                    case TK::KwRedeclare: flag = &redeclare; break;
                    case TK::KwFinal: flag = &final; break;
                    case TK::KwInner: flag = &inner; what = "inner"; break;
                    case TK::KwOuter: flag = &outer; what = "outer"; break;
                    case TK::KwReplaceable: flag = &replaceable; break;
                    default: break;
                }
                if (!flag) break;
                if (*flag) error(cur().range, fmt::format("duplicate prefix '{}'", cur().text));
                *flag = true;
                if (!what.empty() && !inner_outer_range.valid()) inner_outer_range = cur().range;
                advance();
            }
            if (starts_class_definition()) {
                el.kind = Element::Kind::Class;
                el.class_def = std::make_unique<ClassDef>();
                closed = class_definition(*el.class_def, final, begin);
                after = fmt::format("after 'end {}'", el.class_def->name);
                el.replaceable = replaceable;
                el.redeclare = redeclare;
                // A replaceable class is an ordinary class until redeclared;
                // redeclaring a class is outside the subset.
                if (redeclare) unsupported("redeclaration of a class", from(begin));
                // inner/outer components are in the subset (flatten/inner_outer.h); classes are not.
                if (inner || outer)
                    unsupported(fmt::format("an {} class definition", inner && outer ? "inner outer" : inner ? "inner" : "outer"),
                                inner_outer_range);
            } else {
                el.kind = Element::Kind::Component;
                el.component = component_clause(begin);
                ComponentClause& cc = *el.component;
                cc.final = final;
                cc.inner = inner;
                cc.outer = outer;
                cc.replaceable = replaceable;
                cc.redeclare = redeclare;
                after = fmt::format("after the declaration of '{}'", cc.decls.back().name);
            }
            if (closed && replaceable && at(TK::KwConstrainedby)) {
                auto cc = constraining_clause();
                if (el.kind == Element::Kind::Component)
                    el.component->constraining = std::move(cc);
                else
                    el.constraining = std::move(cc);
            }
        }
        el.range = from(begin);
        c.elements.push_back(std::move(el));
        if (closed) expect_semicolon(after);
    }

    // constrainedby Name[(mods)] comment (the comment belongs to the element).
    std::shared_ptr<ConstrainingClause> constraining_clause() {
        auto c = std::make_shared<ConstrainingClause>();
        SourceLocation begin = here();
        advance();
        c->name = name("after 'constrainedby'");
        if (at(TK::LParen)) c->mod = class_modification();
        c->range = from(begin);
        std::string descr;
        ModificationPtr ann;
        comment(descr, ann);
        return c;
    }

    std::unique_ptr<ImportClause> import_clause() {
        auto imp = std::make_unique<ImportClause>();
        SourceLocation begin = here();
        advance();
        if (at(TK::Ident) && peek().kind == TK::Equals) {
            imp->alias = std::string(cur().text);
            advance();
            advance();
            imp->name = name("after '='");
        } else {
            imp->name = name("after 'import'");
            if (accept(TK::DotStar)) {
                imp->wildcard = true;
            } else if (at(TK::Dot) && peek().kind == TK::Star) {
                advance();
                advance();
                imp->wildcard = true;
            } else if (at(TK::Dot) && peek().kind == TK::LBrace) {
                advance();
                SourceLocation open = here();
                advance();
                do {
                    if (!at(TK::Ident)) fail_expected("a name to import", "in the import list");
                    imp->only.emplace_back(cur().text);
                    advance();
                } while (accept(TK::Comma));
                expect_close(TK::RBrace, open, "the import list");
            }
        }
        std::string descr;
        ModificationPtr ann;
        comment(descr, ann);  // ImportClause keeps neither
        imp->range = from(begin);
        return imp;
    }

    std::unique_ptr<ExtendsClause> extends_clause() {
        auto ext = std::make_unique<ExtendsClause>();
        SourceLocation begin = here();
        advance();
        ext->base = name("after 'extends'");
        if (at(TK::LParen)) ext->mod = class_modification();
        if (at(TK::KwAnnotation)) ext->annotation = annotation();
        ext->range = from(begin);
        return ext;
    }

    // type_prefix: flow/stream, discrete/parameter/constant, input/output.
    // The grammar fixes their order; any order is accepted (tools do), but a
    // repeated or contradictory prefix is an error.
    TypePrefix type_prefix() {
        TypePrefix p;
        while (true) {
            bool* flag = nullptr;
            int group = 0;
            switch (cur().kind) {
                case TK::KwFlow: flag = &p.flow; group = 1; break;
                case TK::KwStream: flag = &p.stream; group = 1; break;
                case TK::KwDiscrete: flag = &p.discrete; group = 2; break;
                case TK::KwParameter: flag = &p.parameter; group = 2; break;
                case TK::KwConstant: flag = &p.constant; group = 2; break;
                case TK::KwInput: flag = &p.input; group = 3; break;
                case TK::KwOutput: flag = &p.output; group = 3; break;
                default: break;
            }
            if (!flag) return p;
            bool taken = (group == 1 && (p.flow || p.stream)) ||
                         (group == 2 && (p.discrete || p.parameter || p.constant)) ||
                         (group == 3 && (p.input || p.output));
            if (*flag)
                error(cur().range, fmt::format("duplicate prefix '{}'", cur().text));
            else if (taken)
                error(cur().range, fmt::format("prefix '{}' contradicts an earlier prefix of the "
                                               "same kind (flow/stream, discrete/parameter/constant, "
                                               "input/output)",
                                               cur().text));
            *flag = true;
            advance();
        }
    }

    std::unique_ptr<ComponentClause> component_clause(SourceLocation begin) {
        auto cc = std::make_unique<ComponentClause>();
        cc->prefix = type_prefix();
        if (!at(TK::Ident) && !at(TK::Dot))
            fail_expected("a declaration (a type name such as 'Real', or a class definition)");
        cc->type_name = name("in the type name");
        if (at(TK::LBracket)) cc->type_dims = array_subscripts();
        do {
            cc->decls.push_back(component_declaration(cc->type_name));
        } while (accept(TK::Comma));
        cc->range = from(begin);
        return cc;
    }

    ComponentDecl component_declaration(const ComponentRef& type) {
        ComponentDecl d;
        SourceLocation begin = here();
        if (!at(TK::Ident))
            fail_expected("the name of the component", fmt::format("after the type '{}'", type.dotted()));
        d.name = std::string(cur().text);
        d.name_range = cur().range;
        advance();
        if (at(TK::LBracket)) d.dims = array_subscripts();
        if (at_any({TK::LParen, TK::Equals, TK::Assign})) d.mod = modification();
        if (accept(TK::KwIf)) d.condition = expression();
        comment(d.description, d.annotation);
        d.range = from(begin);
        return d;
    }

    // comment: string_comment [annotation]
    void comment(std::string& description, ModificationPtr& annotation_out) {
        description = string_comment();
        if (at(TK::KwAnnotation)) annotation_out = annotation();
    }

    // string_comment: [STRING {"+" STRING}]
    std::string string_comment() {
        std::string s;
        if (!at(TK::String)) return s;
        s = cur().value;
        advance();
        while (at(TK::Plus)) {
            advance();
            if (!at(TK::String)) fail_expected("a string", "after '+' in the description");
            s += cur().value;
            advance();
        }
        return s;
    }

    // ------------------------------------------------------------ modifications

    ModificationPtr annotation() {
        SourceLocation begin = here();
        advance();  // 'annotation'
        if (!at(TK::LParen)) fail_expected("'('", "after 'annotation'");
        ModificationPtr m = class_modification();
        m->range = from(begin);  // from the keyword: what a message about it should underline
        return m;
    }

    // modification: class_modification ["=" expr] | "=" expr | ":=" expr
    ModificationPtr modification() {
        Nest nest(*this, "modification");
        auto m = std::make_unique<Modification>();
        SourceLocation begin = here();
        if (at(TK::LParen)) {
            m->arguments = argument_list();
            if (accept(TK::Equals)) m->binding = modification_expression();
        } else if (accept(TK::Equals) || accept(TK::Assign)) {
            m->binding = modification_expression();
        } else {
            fail_expected("a modification ('(...)' or '= value')");
        }
        m->range = from(begin);
        return m;
    }

    ModificationPtr class_modification() {
        Nest nest(*this, "modification");
        auto m = std::make_unique<Modification>();
        SourceLocation begin = here();
        m->arguments = argument_list();
        m->range = from(begin);
        return m;
    }

    ExprPtr modification_expression() {
        if (at(TK::KwBreak)) {
            unsupported("break in a modification", cur().range);
            advance();
            return nullptr;
        }
        return expression();
    }

    // "(" [argument {"," argument}] ")"
    std::vector<ElementModification> argument_list() {
        std::vector<ElementModification> args;
        SourceLocation open = here();
        expect(TK::LParen, "to start the modification");
        if (accept(TK::RParen)) return args;
        do {
            argument(args);
        } while (accept(TK::Comma));
        expect_close(TK::RParen, open, "the modification");
        return args;
    }

    void argument(std::vector<ElementModification>& args) {
        SourceLocation begin = here();
        if (at(TK::KwBreak)) {
            unsupported("break in an extends modification", cur().range);
            skip_argument();
            return;
        }
        ElementModification em;
        em.redeclare = accept(TK::KwRedeclare);
        em.each = accept(TK::KwEach);
        em.final = accept(TK::KwFinal);
        em.replaceable = accept(TK::KwReplaceable);
        if (em.redeclare || em.replaceable) {
            element_redeclaration(em, begin);
            args.push_back(std::move(em));
            return;
        }
        if (!at(TK::Ident)) fail_expected("the name of an element to modify", "in the modification");
        em.name = name("in the modification");
        if (at_any({TK::LParen, TK::Equals, TK::Assign})) em.mod = modification();
        em.description = string_comment();
        em.range = from(begin);
        args.push_back(std::move(em));
    }

    // The rest of `redeclare [each] [final] [replaceable] ...` in a modification:
    // a short class definition or component_clause1 (one declaration), then
    // a constraining clause when replaceable (Modelica 3.6, A.2.5).
    void element_redeclaration(ElementModification& em, SourceLocation begin) {
        em.redeclare = true;
        if (starts_class_definition()) {
            auto c = std::make_shared<ClassDef>();
            SourceLocation cbegin = here();
            class_definition(*c, em.final, cbegin);
            em.name.parts.push_back(NamePart{c->name, {}, c->name_range});
            em.name.range = c->name_range;
            em.class_def = std::move(c);
            unsupported("redeclaration of a class", from(begin));
        } else {
            auto cc = std::make_shared<ComponentClause>();
            SourceLocation cbegin = here();
            cc->prefix = type_prefix();
            if (!at(TK::Ident) && !at(TK::Dot))
                fail_expected("the type of the redeclared component", "after 'redeclare'");
            cc->type_name = name("in the type name");
            if (at(TK::LBracket)) cc->type_dims = array_subscripts();
            cc->decls.push_back(component_declaration(cc->type_name));
            cc->final = em.final;
            cc->replaceable = em.replaceable;
            cc->redeclare = true;
            cc->range = from(cbegin);
            em.name.parts.push_back(NamePart{cc->decls[0].name, {}, cc->decls[0].name_range});
            em.name.range = cc->decls[0].name_range;
            em.description = cc->decls[0].description;
            em.component = std::move(cc);
        }
        if (em.replaceable && at(TK::KwConstrainedby)) em.constraining = constraining_clause();
        em.range = from(begin);
    }

    // `.sin(u)`: a global name that is a built-in function (Modelica 3.6,
    // 3.7: the built-in functions are predefined in the global scope, and
    // the MSL's Math wrappers call them so) is the built-in itself.
    static void global_builtin(ComponentRef& ref) {
        static const std::set<std::string> builtins = {
            "abs", "sign", "sqrt", "div", "mod", "rem", "ceil", "floor", "integer", "Integer", "String",
            "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "log", "log10",
            "min", "max", "sum", "product", "size", "ndims", "zeros", "ones", "fill", "cat", "identity",
            "noEvent", "smooth", "homotopy", "pre", "edge", "change", "der", "delay", "sample", "initial",
            "terminal", "reinit", "assert", "terminate", "semiLinear", "inStream", "actualStream", "cardinality"};
        if (ref.global && ref.parts.size() == 1 && ref.parts[0].subscripts.empty() &&
            builtins.count(ref.parts[0].ident))
            ref.global = false;
    }

    // name: ["."] IDENT {"." IDENT}, as a ComponentRef without subscripts.
    ComponentRef name(std::string_view context) {
        ComponentRef r;
        SourceLocation begin = here();
        r.global = accept(TK::Dot);
        while (true) {
            if (!at(TK::Ident)) fail_expected("an identifier", context);
            NamePart p;
            p.ident = std::string(cur().text);
            p.range = cur().range;
            advance();
            r.parts.push_back(std::move(p));
            if (!(at(TK::Dot) && peek().kind == TK::Ident)) break;
            advance();
        }
        r.range = from(begin);
        return r;
    }

    // ------------------------------------------------------------ equations

    // some_equation with its comment and ';', appended to `out`.
    void equation(std::vector<Equation>& out) {
        Nest nest(*this, "nesting of equations");
        Equation eq;
        SourceLocation begin = here();
        bool closed = true;
        std::string after = "after the equation";
        switch (cur().kind) {
            case TK::KwIf:
                closed = if_equation(eq);
                after = "after 'end if'";
                break;
            case TK::KwFor:
                closed = for_equation(eq);
                after = "after 'end for'";
                break;
            case TK::KwWhen:
                closed = when_equation(eq);
                after = "after 'end when'";
                break;
            case TK::KwConnect: connect_clause(eq); break;
            default: {
                if (!starts_expression())
                    fail_expected("an equation");
                std::size_t first = pos_;
                ExprPtr lhs = simple_expression();
                if (accept(TK::Equals)) {
                    eq.kind = EquationKind::Simple;
                    eq.lhs = std::move(lhs);
                    eq.rhs = expression();
                } else if (lhs->kind == ExprKind::Call) {
                    eq.kind = EquationKind::Call;
                    eq.call = std::move(lhs);
                } else if (at(TK::Assign)) {
                    fail("expected '=' in the equation, found ':='; ':=' is an assignment, which "
                         "belongs in an algorithm section");
                } else if (const Token* eqeq = top_level_eqeq(*lhs, first)) {
                    // `y == 2*x;` read as a comparison: point at the `==`, which
                    // is the mistake, rather than at the ';' after it.
                    error(eqeq->range, "expected '=' in the equation, found '=='; an equation is "
                                       "written with a single '=' ('==' compares two values)");
                    throw Recover{};
                } else {
                    fail_expected("'='", "after the left side of the equation");
                }
                break;
            }
        }
        if (closed) comment(eq.description, eq.annotation);
        eq.range = from(begin);
        out.push_back(std::move(eq));
        if (closed) expect_semicolon(after);
    }

    // The `==` token of a left side that parsed as the comparison `a == b`
    // (tokens from index `first` on), or null.
    const Token* top_level_eqeq(const Expr& lhs, std::size_t first) const {
        if (lhs.kind != ExprKind::Binary || lhs.bop != BinaryOp::Eq) return nullptr;
        std::size_t depth = 0;
        for (std::size_t i = first; i < pos_; ++i) {
            TK k = toks_[i].kind;
            if (k == TK::LParen || k == TK::LBracket || k == TK::LBrace) ++depth;
            if ((k == TK::RParen || k == TK::RBracket || k == TK::RBrace) && depth > 0) --depth;
            if (k == TK::EqEq && depth == 0) return &toks_[i];
        }
        return nullptr;
    }

    bool starts_expression() const {
        switch (cur().kind) {
            case TK::Integer:
            case TK::Real:
            case TK::String:
            case TK::Ident:
            case TK::Dot:
            case TK::LParen:
            case TK::LBracket:
            case TK::LBrace:
            case TK::KwTrue:
            case TK::KwFalse:
            case TK::KwNot:
            case TK::KwInitial:
            case TK::KwPure:
            case TK::KwIf:
            case TK::Plus:
            case TK::Minus:
            case TK::DotPlus:
            case TK::DotMinus: return true;
            default: return false;
        }
    }

    void connect_clause(Equation& eq) {
        eq.kind = EquationKind::Connect;
        advance();
        SourceLocation open = here();
        expect(TK::LParen, "after 'connect'");
        eq.lhs = connector_ref();
        expect(TK::Comma, "between the two connectors of 'connect'");
        eq.rhs = connector_ref();
        expect_close(TK::RParen, open, "'connect('");
    }

    ExprPtr connector_ref() {
        if (!at(TK::Ident) && !at(TK::Dot)) fail_expected("a connector name", "in 'connect'");
        SourceLocation begin = here();
        auto e = make(ExprKind::Ref, begin);
        e->ref = component_reference();
        e->range = from(begin);
        return e;
    }

    // The condition of an if/elseif/when/elsewhen/while and the keyword after
    // it (`then`, `loop`). A bad condition is reported and skipped up to the
    // keyword, so that the body is still parsed; a placeholder `false` stands
    // in for it (the file has an error, so the tree is not trusted anyway).
    ExprPtr block_condition(TK then_kw, std::string_view construct) {
        SourceLocation begin = here();
        try {
            ExprPtr c = expression();
            expect_line_end(then_kw, fmt::format("after the condition of the {}", construct));
            return c;
        } catch (const Recover&) {
            recover_to(then_kw);
            auto placeholder = make(ExprKind::Boolean, begin);
            placeholder->range = SourceRange{begin, begin};
            return placeholder;
        }
    }

    // for_indices: for_index {"," for_index}, for_index: IDENT ["in" expression]
    std::vector<ForIterator> for_indices() {
        std::vector<ForIterator> its;
        do {
            ForIterator it;
            SourceLocation begin = here();
            if (!at(TK::Ident)) fail_expected("the name of the loop index");
            it.name = std::string(cur().text);
            advance();
            if (accept(TK::KwIn)) it.range = expression();
            it.loc = from(begin);
            its.push_back(std::move(it));
        } while (accept(TK::Comma));
        return its;
    }

    std::vector<ForIterator> for_header(std::string_view construct) {
        try {
            std::vector<ForIterator> its = for_indices();
            expect_line_end(TK::KwLoop, fmt::format("after the indices of the {}", construct));
            return its;
        } catch (const Recover&) {
            recover_to(TK::KwLoop);
            return {};
        }
    }

    // The items of a block body, up to one of `stops` (or anything that shows
    // the block is left open: `end`, a section keyword, the end of file).
    // Up to three tokens ending a block body; unused slots hold Eof (which ends it anyway).
    using Stops = std::array<TK, 3>;

    template <typename T, typename ItemFn>
    void block_body(std::vector<T>& out, Stops stops, ItemFn parse_item) {
        auto stop = [&] {
            for (TK k : stops)
                if (at(k)) return true;
            return at(TK::Eof) || at_section_keyword();
        };
        while (!stop()) item([&] { parse_item(out); });
    }

    // `end <kw>` closing a block opened at `open`. Returns false when the
    // block is left open (the enclosing class ends first, or the file does).
    bool block_end(TK kw, SourceLocation open, std::string_view construct) {
        if (at(TK::Eof)) return false;  // the class reports the end of file
        if (at(TK::KwEnd) && peek().kind == kw) {
            advance();
            advance();
            return true;
        }
        if (at(TK::KwEnd) && is_block_keyword(peek().kind)) {
            SourceLocation b = here();
            std::string_view other = keyword_text(peek().kind);
            advance();
            advance();
            error(from(b), fmt::format("expected 'end {}' to close the {} opened at {}:{}, found "
                                       "'end {}'",
                                       keyword_text(kw), construct, open.line, open.column, other));
            return true;  // taken as the end of this block: the likeliest intent
        }
        std::string found = describe_token(cur());
        if (at(TK::KwEnd) && peek().kind == TK::Ident) found = fmt::format("'end {}'", peek().text);
        error(cur().range, fmt::format("the {} opened at {}:{} is not closed before {}; add 'end {};'",
                                       construct, open.line, open.column, found, keyword_text(kw)));
        return false;
    }

    template <typename T, typename ItemFn>
    bool conditional_branches(std::vector<Branch<T>>& branches, TK first, TK next, bool has_else,
                              std::string_view construct, ItemFn parse_item) {
        SourceLocation open = here();
        Pushed<TK> block(blocks_, first);
        Stops stops{next, has_else ? TK::KwElse : TK::Eof, TK::KwEnd};
        do {
            Branch<T> br;
            SourceLocation b = here();
            advance();  // if / elseif / when / elsewhen
            br.condition = block_condition(TK::KwThen, construct);
            block_body(br.body, stops, parse_item);
            br.range = from(b);
            branches.push_back(std::move(br));
        } while (at(next));
        if (has_else && at(TK::KwElse)) {
            Branch<T> br;
            SourceLocation b = here();
            advance();
            block_body(br.body, Stops{TK::KwEnd, TK::Eof, TK::Eof}, parse_item);
            br.range = from(b);
            branches.push_back(std::move(br));
        }
        return block_end(first, open, construct);
    }

    bool if_equation(Equation& eq) {
        eq.kind = EquationKind::If;
        return conditional_branches(eq.branches, TK::KwIf, TK::KwElseif, true, "if-equation",
                                    [&](std::vector<Equation>& out) { equation(out); });
    }

    bool when_equation(Equation& eq) {
        eq.kind = EquationKind::When;
        return conditional_branches(eq.branches, TK::KwWhen, TK::KwElsewhen, false, "when-equation",
                                    [&](std::vector<Equation>& out) { equation(out); });
    }

    bool for_equation(Equation& eq) {
        eq.kind = EquationKind::For;
        SourceLocation open = here();
        Pushed<TK> block(blocks_, TK::KwFor);
        advance();
        eq.indices = for_header("for-equation");
        block_body(eq.body, Stops{TK::KwEnd, TK::Eof, TK::Eof}, [&](std::vector<Equation>& out) { equation(out); });
        return block_end(TK::KwFor, open, "for-equation");
    }

    // ------------------------------------------------------------ statements

    void statement(std::vector<Statement>& out) {
        Nest nest(*this, "nesting of statements");
        Statement st;
        SourceLocation begin = here();
        bool closed = true;
        std::string after = "after the statement";
        switch (cur().kind) {
            case TK::KwIf:
                st.kind = StatementKind::If;
                closed = conditional_branches(st.branches, TK::KwIf, TK::KwElseif, true,
                                              "if-statement",
                                              [&](std::vector<Statement>& o) { statement(o); });
                after = "after 'end if'";
                break;
            case TK::KwWhen:
                st.kind = StatementKind::When;
                closed = conditional_branches(st.branches, TK::KwWhen, TK::KwElsewhen, false,
                                              "when-statement",
                                              [&](std::vector<Statement>& o) { statement(o); });
                after = "after 'end when'";
                break;
            case TK::KwFor: {
                st.kind = StatementKind::For;
                Pushed<TK> block(blocks_, TK::KwFor);
                advance();
                st.indices = for_header("for-statement");
                block_body(st.body, Stops{TK::KwEnd, TK::Eof, TK::Eof}, [&](std::vector<Statement>& o) { statement(o); });
                closed = block_end(TK::KwFor, begin, "for-statement");
                after = "after 'end for'";
                break;
            }
            case TK::KwWhile: {
                st.kind = StatementKind::While;
                Pushed<TK> block(blocks_, TK::KwWhile);
                Branch<Statement> br;
                advance();
                br.condition = block_condition(TK::KwLoop, "while-loop");
                block_body(br.body, Stops{TK::KwEnd, TK::Eof, TK::Eof}, [&](std::vector<Statement>& o) { statement(o); });
                br.range = from(begin);
                st.branches.push_back(std::move(br));
                closed = block_end(TK::KwWhile, begin, "while-loop");
                after = "after 'end while'";
                break;
            }
            case TK::KwBreak:
                st.kind = StatementKind::Break;
                advance();
                break;
            case TK::KwReturn:
                st.kind = StatementKind::Return;
                advance();
                break;
            case TK::LParen: {
                // (a, b) := f(x)
                st.kind = StatementKind::Assign;
                st.lhs = primary();
                if (!at(TK::Assign))
                    fail_expected("':='", "after the list of outputs",
                                  "a multiple assignment is written '(a, b) := f(x)'");
                advance();
                st.rhs = expression();
                break;
            }
            case TK::Ident:
            case TK::Dot: {
                SourceLocation b = here();
                ComponentRef ref = component_reference();
                if (accept(TK::Assign)) {
                    st.kind = StatementKind::Assign;
                    st.lhs = make(ExprKind::Ref, b);
                    st.lhs->ref = std::move(ref);
                    st.lhs->range = from(b);
                    st.rhs = expression();
                } else if (at(TK::LParen)) {
                    st.kind = StatementKind::Call;
                    st.call = make(ExprKind::Call, b);
                    global_builtin(ref);
                    st.call->ref = std::move(ref);
                    function_call_args(*st.call);
                    st.call->range = from(b);
                } else if (at(TK::Equals)) {
                    fail("expected ':=' in the assignment, found '='; in an algorithm section an "
                         "assignment is written with ':='");
                } else {
                    fail_expected("':=' or a function call", fmt::format("after '{}'", to_modelica(ref)));
                }
                break;
            }
            default: fail_expected("a statement");
        }
        if (closed) comment(st.description, st.annotation);
        st.range = from(begin);
        out.push_back(std::move(st));
        if (closed) expect_semicolon(after);
    }

    // ------------------------------------------------------------ expressions

    ExprPtr make(ExprKind k, SourceLocation begin) const {
        auto e = std::make_unique<Expr>();
        e->kind = k;
        e->range = SourceRange{begin, begin};
        return e;
    }

    ExprPtr binary(BinaryOp op, ExprPtr l, ExprPtr r) const {
        auto e = make(ExprKind::Binary, l->range.begin);
        e->bop = op;
        e->range.end = r->range.end;
        e->operands.push_back(std::move(l));
        e->operands.push_back(std::move(r));
        return e;
    }

    // Height of an expression tree, walked with an explicit stack.
    static std::size_t height(const Expr& root) {
        std::size_t best = 0;
        std::vector<std::pair<const Expr*, std::size_t>> todo{{&root, 1}};
        while (!todo.empty()) {
            auto [e, h] = todo.back();
            todo.pop_back();
            best = std::max(best, h);
            for (const ExprPtr& o : e->operands)
                if (o) todo.emplace_back(o.get(), h + 1);
            for (const FunctionArg& a : e->args)
                if (a.value) todo.emplace_back(a.value.get(), h + 1);
            for (const NamePart& p : e->ref.parts)
                for (const ExprPtr& s : p.subscripts)
                    if (s) todo.emplace_back(s.get(), h + 1);
            for (const ForIterator& it : e->iterators)
                if (it.range) todo.emplace_back(it.range.get(), h + 1);
        }
        return best;
    }

    // A chain `a + b + c + ...` is parsed by a loop, not by recursion, but
    // the tree it builds leans left and is as high as the chain is long;
    // every later walk over it (printing, flattening, even its destructor)
    // recurses that deep. So the height of chains is bounded as well, more
    // generously than the nesting (long flat sums are common in generated
    // models, and one level of a tree walk costs far less stack than one of
    // the parser): kChainAllowance times max_depth.
    static constexpr std::size_t kChainAllowance = 25;

    // One link of a left-associative chain; `h` is the chain's height so far
    // (0 before the first link).
    ExprPtr link(BinaryOp op, ExprPtr l, ExprPtr r, std::size_t& h) {
        if (h == 0) h = height(*l);
        h = 1 + std::max(h, height(*r));
        std::size_t bound = limits_.max_depth * kChainAllowance;
        if (depth_ + h > bound) {
            sink_.report(rule::parse_nesting_too_deep, r->range,
                         fmt::format("expression tree deeper than {} levels (each operator of a "
                                     "chain such as 'a + b + c' adds a level); split the expression "
                                     "into several variables",
                                     bound),
                         {fmt::format("the bound is {} times the nesting-depth limit, set by --max-nesting",
                                      kChainAllowance)});
            throw Abandon{};
        }
        return binary(op, std::move(l), std::move(r));
    }

    ExprPtr unary(UnaryOp op, SourceLocation begin, ExprPtr operand) const {
        auto e = make(ExprKind::Unary, begin);
        e->uop = op;
        e->range.end = operand->range.end;
        e->operands.push_back(std::move(operand));
        return e;
    }

    // expression: simple_expression | if ... then ... {elseif ...} else ...
    ExprPtr expression() {
        Nest nest(*this, "expression");
        if (at(TK::KwIf)) return if_expression();
        return simple_expression();
    }

    ExprPtr if_expression() {
        SourceLocation begin = here();
        auto e = make(ExprKind::If, begin);
        advance();  // if
        e->operands.push_back(expression());
        expect(TK::KwThen, "after the condition of the if-expression");
        e->operands.push_back(expression());
        // elseif chains are flattened: cond1, then1, cond2, then2, ..., else
        while (accept(TK::KwElseif)) {
            e->operands.push_back(expression());
            expect(TK::KwThen, "after the condition of 'elseif'");
            e->operands.push_back(expression());
        }
        expect(TK::KwElse, "in the if-expression", "an if-expression must have an 'else' branch");
        e->operands.push_back(expression());
        e->range = from(begin);
        // Flat here, but every later stage nests an elseif chain (each branch
        // holds the rest as its else): bounded like a chain of operators.
        const std::size_t branches = (e->operands.size() - 1) / 2;
        if (branches > 1) {
            const std::size_t h = branches + height(*e), bound = limits_.max_depth * kChainAllowance;
            if (depth_ + h > bound) {
                sink_.report(rule::parse_nesting_too_deep, e->range,
                             fmt::format("if-expression with {} elseif branches, deeper than {} levels once its "
                                         "branches are nested; split it (a table lookup or several variables)",
                                         branches - 1, bound),
                             {fmt::format("the bound is {} times the nesting-depth limit, set by --max-nesting",
                                          kChainAllowance)});
                throw Abandon{};
            }
        }
        return e;
    }

    // simple_expression: logical_expression [":" logical_expression [":" logical_expression]]
    ExprPtr simple_expression() {
        SourceLocation begin = here();
        ExprPtr first = logical_expression();
        if (!at(TK::Colon)) return first;
        auto r = make(ExprKind::Range, begin);
        r->operands.push_back(std::move(first));
        advance();
        r->operands.push_back(logical_expression());
        if (accept(TK::Colon)) {
            r->has_step = true;
            r->operands.push_back(logical_expression());
        }
        r->range = from(begin);
        return r;
    }

    ExprPtr logical_expression() {
        ExprPtr left = logical_term();
        std::size_t h = 0;
        while (accept(TK::KwOr)) left = link(BinaryOp::Or, std::move(left), logical_term(), h);
        return left;
    }

    ExprPtr logical_term() {
        ExprPtr left = logical_factor();
        std::size_t h = 0;
        while (accept(TK::KwAnd)) left = link(BinaryOp::And, std::move(left), logical_factor(), h);
        return left;
    }

    // logical_factor: ["not"] relation. `not not x` is accepted too.
    ExprPtr logical_factor() {
        if (!at(TK::KwNot)) return relation();
        Nest nest(*this, "expression");
        SourceLocation begin = here();
        advance();
        return unary(UnaryOp::Not, begin, logical_factor());
    }

    static std::optional<BinaryOp> relational_operator(TK k) {
        switch (k) {
            case TK::Less: return BinaryOp::Lt;
            case TK::LessEq: return BinaryOp::Le;
            case TK::Greater: return BinaryOp::Gt;
            case TK::GreaterEq: return BinaryOp::Ge;
            case TK::EqEq: return BinaryOp::Eq;
            case TK::NotEq: return BinaryOp::Ne;
            default: return std::nullopt;
        }
    }

    // relation: arithmetic_expression [relational_operator arithmetic_expression]
    ExprPtr relation() {
        ExprPtr left = arithmetic_expression();
        bool first = true;
        std::size_t h = 0;
        while (auto op = relational_operator(cur().kind)) {
            if (!first)
                error(cur().range, fmt::format("comparison operators do not chain: '{}' cannot follow "
                                               "a comparison; combine two comparisons with 'and'",
                                               cur().text));
            first = false;
            advance();
            left = link(*op, std::move(left), arithmetic_expression(), h);
        }
        return left;
    }

    static std::optional<UnaryOp> unary_add_operator(TK k) {
        switch (k) {
            case TK::Plus: return UnaryOp::Plus;
            case TK::Minus: return UnaryOp::Minus;
            case TK::DotPlus: return UnaryOp::ElemPlus;
            case TK::DotMinus: return UnaryOp::ElemMinus;
            default: return std::nullopt;
        }
    }

    // arithmetic_expression: [add_operator] term {add_operator term}
    // The leading sign applies to the first term: `-a^2` is -(a^2), `-a*b` is -(a*b).
    ExprPtr arithmetic_expression() {
        SourceLocation begin = here();
        ExprPtr left;
        if (auto uop = unary_add_operator(cur().kind)) {
            advance();
            left = unary(*uop, begin, term());
        } else {
            left = term();
        }
        std::size_t h = 0;
        while (true) {
            BinaryOp op;
            switch (cur().kind) {
                case TK::Plus: op = BinaryOp::Add; break;
                case TK::Minus: op = BinaryOp::Sub; break;
                case TK::DotPlus: op = BinaryOp::ElemAdd; break;
                case TK::DotMinus: op = BinaryOp::ElemSub; break;
                default: return left;
            }
            advance();
            left = link(op, std::move(left), term(), h);
        }
    }

    ExprPtr term() {
        ExprPtr left = factor();
        std::size_t h = 0;
        while (true) {
            BinaryOp op;
            switch (cur().kind) {
                case TK::Star: op = BinaryOp::Mul; break;
                case TK::Slash: op = BinaryOp::Div; break;
                case TK::DotStar: op = BinaryOp::ElemMul; break;
                case TK::DotSlash: op = BinaryOp::ElemDiv; break;
                default: return left;
            }
            advance();
            left = link(op, std::move(left), factor(), h);
        }
    }

    // factor: primary [("^" | ".^") primary]. `^` does not associate in
    // Modelica: `a^b^c` is reported, then read as (a^b)^c to go on.
    ExprPtr factor() {
        ExprPtr left = primary();
        bool first = true;
        std::size_t h = 0;
        while (at(TK::Caret) || at(TK::DotCaret)) {
            if (!first)
                error(cur().range, "'^' does not associate in Modelica: write (a^b)^c or a^(b^c)");
            first = false;
            BinaryOp op = at(TK::Caret) ? BinaryOp::Pow : BinaryOp::ElemPow;
            advance();
            left = link(op, std::move(left), primary(), h);
        }
        return left;
    }

    ExprPtr primary() {
        SourceLocation begin = here();
        switch (cur().kind) {
            case TK::Integer:
            case TK::Real: {
                auto e = make(at(TK::Integer) ? ExprKind::Integer : ExprKind::Real, begin);
                e->text = std::string(cur().text);
                advance();
                e->range = from(begin);
                return e;
            }
            case TK::String: {
                auto e = make(ExprKind::String, begin);
                e->text = cur().value;
                advance();
                e->range = from(begin);
                return e;
            }
            case TK::KwTrue:
            case TK::KwFalse: {
                auto e = make(ExprKind::Boolean, begin);
                e->boolean = at(TK::KwTrue);
                advance();
                e->range = from(begin);
                return e;
            }
            case TK::LParen: return output_expression_list();
            case TK::LBracket: return matrix();
            case TK::LBrace: return array();
            case TK::KwEnd:
                if (subscript_depth_ == 0) fail_expected("an expression");
                {
                    auto e = make(ExprKind::End, begin);
                    advance();
                    e->range = from(begin);
                    return e;
                }
            case TK::KwInitial:
            case TK::KwPure: {
                // Keywords that are also the names of built-in functions: initial(), pure(f(x)).
                if (peek().kind != TK::LParen) fail_expected("an expression");
                auto e = make(ExprKind::Call, begin);
                NamePart p;
                p.ident = std::string(cur().text);
                p.range = cur().range;
                e->ref.parts.push_back(std::move(p));
                e->ref.range = cur().range;
                advance();
                function_call_args(*e);
                e->range = from(begin);
                return e;
            }
            case TK::Ident:
            case TK::Dot: {
                ComponentRef ref = component_reference();
                auto e = make(at(TK::LParen) ? ExprKind::Call : ExprKind::Ref, begin);
                if (e->kind == ExprKind::Call) global_builtin(ref);
                e->ref = std::move(ref);
                if (e->kind == ExprKind::Call) function_call_args(*e);
                e->range = from(begin);
                return e;
            }
            case TK::Plus:
            case TK::Minus:
            case TK::DotPlus:
            case TK::DotMinus: {
                // Strict Modelica allows a sign only at the start of an
                // arithmetic expression; `2*-3` and `x^-1` are accepted too,
                // as most tools do, with the sign binding to the factor.
                Nest nest(*this, "expression");
                UnaryOp op = *unary_add_operator(cur().kind);
                advance();
                return unary(op, begin, factor());
            }
            default: fail_expected("an expression");
        }
    }

    // component_reference: ["."] IDENT [array_subscripts] {"." IDENT [array_subscripts]}
    ComponentRef component_reference() {
        ComponentRef r;
        SourceLocation begin = here();
        r.global = accept(TK::Dot);
        while (true) {
            if (!at(TK::Ident)) fail_expected("an identifier", r.parts.empty() && !r.global ? "" : "after '.'");
            NamePart p;
            SourceLocation pb = here();
            p.ident = std::string(cur().text);
            advance();
            if (at(TK::LBracket)) p.subscripts = array_subscripts();
            p.range = from(pb);
            r.parts.push_back(std::move(p));
            if (!at(TK::Dot)) break;
            advance();
        }
        r.range = from(begin);
        return r;
    }

    // array_subscripts: "[" subscript {"," subscript} "]", subscript: ":" | expression
    std::vector<ExprPtr> array_subscripts() {
        std::vector<ExprPtr> subs;
        SourceLocation open = here();
        advance();  // '['
        ++subscript_depth_;
        struct Restore {
            std::size_t& d;
            ~Restore() { --d; }
        } restore{subscript_depth_};
        do {
            if (at(TK::Colon) && (peek().kind == TK::Comma || peek().kind == TK::RBracket)) {
                auto e = make(ExprKind::Colon, here());
                advance();
                e->range.end = prev_end_;
                subs.push_back(std::move(e));
            } else {
                subs.push_back(expression());
            }
        } while (accept(TK::Comma));
        expect_close(TK::RBracket, open, "the subscripts");
        return subs;
    }

    // function_call_args: "(" [function_arguments] ")", with named arguments
    // and a comprehension `f(e for i in r)`.
    void function_call_args(Expr& call) {
        SourceLocation open = here();
        advance();  // '('
        std::string what = fmt::format("the argument list of '{}'", call.ref.dotted());
        if (accept(TK::RParen)) return;
        bool named = false;
        do {
            FunctionArg a;
            SourceLocation begin = here();
            if (at(TK::Ident) && peek().kind == TK::Equals) {
                a.name = std::string(cur().text);
                advance();
                advance();
                named = true;
                a.value = expression();
            } else {
                if (named)
                    error(cur().range, "positional argument after a named argument; put positional "
                                       "arguments first");
                a.value = expression();
                if (call.args.empty() && accept(TK::KwFor)) {
                    a.range = from(begin);
                    call.args.push_back(std::move(a));
                    call.iterators = for_indices();
                    expect_close(TK::RParen, open, what);
                    return;
                }
            }
            a.range = from(begin);
            call.args.push_back(std::move(a));
        } while (accept(TK::Comma));
        expect_close(TK::RParen, open, what);
    }

    // "(" output_expression_list ")": a parenthesised expression, or a tuple
    // `(a, , b)` whose empty slots are null.
    ExprPtr output_expression_list() {
        SourceLocation open = here();
        advance();  // '('
        std::vector<ExprPtr> items;
        bool tuple = false;
        if (!at(TK::RParen)) {
            while (true) {
                if (at(TK::Comma) || at(TK::RParen))
                    items.push_back(nullptr);
                else
                    items.push_back(expression());
                if (!accept(TK::Comma)) break;
                tuple = true;
            }
        } else {
            tuple = true;  // `()`: an empty output list
        }
        expect_close(TK::RParen, open, "the parenthesis");
        if (!tuple) {
            ExprPtr inner = std::move(items.front());
            inner->range = from(open);  // the parentheses belong to what the user wrote
            return inner;
        }
        auto t = make(ExprKind::Tuple, open);
        t->operands = std::move(items);
        t->range = from(open);
        return t;
    }

    // "{" array_arguments "}": {a, b, c} or the comprehension {e for i in r}
    // (an Array with iterators, like a Call's comprehension).
    ExprPtr array() {
        SourceLocation open = here();
        advance();  // '{'
        auto e = make(ExprKind::Array, open);
        if (!at(TK::RBrace)) {
            e->operands.push_back(expression());
            if (accept(TK::KwFor)) {
                e->iterators = for_indices();
            } else {
                while (accept(TK::Comma)) e->operands.push_back(expression());
            }
        }
        expect_close(TK::RBrace, open, "the array constructor");
        e->range = from(open);
        return e;
    }

    // "[" expression_list {";" expression_list} "]": rows of a matrix.
    ExprPtr matrix() {
        SourceLocation open = here();
        advance();  // '['
        auto m = make(ExprKind::Matrix, open);
        do {
            SourceLocation rb = here();
            auto row = make(ExprKind::Array, rb);
            do {
                row->operands.push_back(expression());
            } while (accept(TK::Comma));
            row->range = from(rb);
            m->operands.push_back(std::move(row));
        } while (accept(TK::Semicolon));
        expect_close(TK::RBracket, open, "the matrix");
        m->range = from(open);
        return m;
    }
};

}  // namespace

std::unique_ptr<ast::StoredDefinition> parse_file(const SourceManager& sources, std::uint32_t file,
                                                  DiagnosticSink& sink, const ParseLimits& limits) {
    auto tree = std::make_unique<ast::StoredDefinition>();
    tree->file = file;
    LexResult lexed = lex(sources, file, sink);
    if (!lexed.encoding_ok) return tree;
    Parser(sink, limits, std::move(lexed.tokens), *tree).run();
    return tree;
}

}  // namespace modeaudit
