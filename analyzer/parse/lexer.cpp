// The lexer of the parse stage: see lexer.h.
#include "parse/lexer.h"

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "common/internal_error.h"
#include "common/text_sanitize.h"

namespace modeaudit {

namespace {

struct Spelling {
    TokenKind kind;
    std::string_view text;
};

// Every keyword with its spelling; the only place the keyword set is listed.
constexpr std::array kKeywords{
    Spelling{TokenKind::KwAlgorithm, "algorithm"},
    Spelling{TokenKind::KwAnd, "and"},
    Spelling{TokenKind::KwAnnotation, "annotation"},
    Spelling{TokenKind::KwBlock, "block"},
    Spelling{TokenKind::KwBreak, "break"},
    Spelling{TokenKind::KwClass, "class"},
    Spelling{TokenKind::KwConnect, "connect"},
    Spelling{TokenKind::KwConnector, "connector"},
    Spelling{TokenKind::KwConstant, "constant"},
    Spelling{TokenKind::KwConstrainedby, "constrainedby"},
    Spelling{TokenKind::KwDiscrete, "discrete"},
    Spelling{TokenKind::KwEach, "each"},
    Spelling{TokenKind::KwElse, "else"},
    Spelling{TokenKind::KwElseif, "elseif"},
    Spelling{TokenKind::KwElsewhen, "elsewhen"},
    Spelling{TokenKind::KwEncapsulated, "encapsulated"},
    Spelling{TokenKind::KwEnd, "end"},
    Spelling{TokenKind::KwEnumeration, "enumeration"},
    Spelling{TokenKind::KwEquation, "equation"},
    Spelling{TokenKind::KwExpandable, "expandable"},
    Spelling{TokenKind::KwExtends, "extends"},
    Spelling{TokenKind::KwExternal, "external"},
    Spelling{TokenKind::KwFalse, "false"},
    Spelling{TokenKind::KwFinal, "final"},
    Spelling{TokenKind::KwFlow, "flow"},
    Spelling{TokenKind::KwFor, "for"},
    Spelling{TokenKind::KwFunction, "function"},
    Spelling{TokenKind::KwIf, "if"},
    Spelling{TokenKind::KwImport, "import"},
    Spelling{TokenKind::KwImpure, "impure"},
    Spelling{TokenKind::KwIn, "in"},
    Spelling{TokenKind::KwInitial, "initial"},
    Spelling{TokenKind::KwInner, "inner"},
    Spelling{TokenKind::KwInput, "input"},
    Spelling{TokenKind::KwLoop, "loop"},
    Spelling{TokenKind::KwModel, "model"},
    Spelling{TokenKind::KwNot, "not"},
    Spelling{TokenKind::KwOperator, "operator"},
    Spelling{TokenKind::KwOr, "or"},
    Spelling{TokenKind::KwOuter, "outer"},
    Spelling{TokenKind::KwOutput, "output"},
    Spelling{TokenKind::KwPackage, "package"},
    Spelling{TokenKind::KwParameter, "parameter"},
    Spelling{TokenKind::KwPartial, "partial"},
    Spelling{TokenKind::KwProtected, "protected"},
    Spelling{TokenKind::KwPublic, "public"},
    Spelling{TokenKind::KwPure, "pure"},
    Spelling{TokenKind::KwRecord, "record"},
    Spelling{TokenKind::KwRedeclare, "redeclare"},
    Spelling{TokenKind::KwReplaceable, "replaceable"},
    Spelling{TokenKind::KwReturn, "return"},
    Spelling{TokenKind::KwStream, "stream"},
    Spelling{TokenKind::KwThen, "then"},
    Spelling{TokenKind::KwTrue, "true"},
    Spelling{TokenKind::KwType, "type"},
    Spelling{TokenKind::KwWhen, "when"},
    Spelling{TokenKind::KwWhile, "while"},
    Spelling{TokenKind::KwWithin, "within"},
};

constexpr std::array kPunctuation{
    Spelling{TokenKind::LParen, "'('"},      Spelling{TokenKind::RParen, "')'"},
    Spelling{TokenKind::LBracket, "'['"},    Spelling{TokenKind::RBracket, "']'"},
    Spelling{TokenKind::LBrace, "'{'"},      Spelling{TokenKind::RBrace, "'}'"},
    Spelling{TokenKind::Comma, "','"},       Spelling{TokenKind::Semicolon, "';'"},
    Spelling{TokenKind::Dot, "'.'"},         Spelling{TokenKind::Colon, "':'"},
    Spelling{TokenKind::Equals, "'='"},      Spelling{TokenKind::Assign, "':='"},
    Spelling{TokenKind::Plus, "'+'"},        Spelling{TokenKind::Minus, "'-'"},
    Spelling{TokenKind::Star, "'*'"},        Spelling{TokenKind::Slash, "'/'"},
    Spelling{TokenKind::Caret, "'^'"},       Spelling{TokenKind::DotPlus, "'.+'"},
    Spelling{TokenKind::DotMinus, "'.-'"},   Spelling{TokenKind::DotStar, "'.*'"},
    Spelling{TokenKind::DotSlash, "'./'"},   Spelling{TokenKind::DotCaret, "'.^'"},
    Spelling{TokenKind::Less, "'<'"},        Spelling{TokenKind::LessEq, "'<='"},
    Spelling{TokenKind::Greater, "'>'"},     Spelling{TokenKind::GreaterEq, "'>='"},
    Spelling{TokenKind::EqEq, "'=='"},       Spelling{TokenKind::NotEq, "'<>'"},
};

std::optional<TokenKind> keyword(std::string_view word) {
    // ~60 entries, looked up once per identifier: a linear scan is simple
    // and fast enough next to everything else the tool does with a file.
    for (const Spelling& k : kKeywords)
        if (k.text == word) return k.kind;
    return std::nullopt;
}

bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_ident_start(unsigned char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_ident_char(unsigned char c) { return is_ident_start(c) || is_digit(c); }
// White space of Modelica: space, tab, newline, carriage return, form feed,
// vertical tab (what an editor may leave in a file without showing it).
bool is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
// Control characters other than white space: a sign of a binary or
// corrupted file, refused outside strings (rules.def, parse-invalid-encoding).
bool is_control(unsigned char c) { return (c < 0x20 && !is_space(c)) || c == 0x7f; }

// Length of the well-formed UTF-8 sequence at s[i], 0 when it is not one.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
    auto byte = [&](std::size_t k) -> unsigned {
        return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0x100u;
    };
    auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) {
        unsigned b = byte(k);
        return b >= lo && b <= hi;
    };
    unsigned b0 = byte(0);
    if (b0 < 0x80) return 1;
    if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
    if (b0 == 0xE0) return cont(1, 0xA0, 0xBF) && cont(2) ? 3 : 0;
    if (b0 == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;  // no surrogates
    if (b0 >= 0xE1 && b0 <= 0xEF) return cont(1) && cont(2) ? 3 : 0;
    if (b0 == 0xF0) return cont(1, 0x90, 0xBF) && cont(2) && cont(3) ? 4 : 0;
    if (b0 >= 0xF1 && b0 <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
    if (b0 == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;  // <= U+10FFFF
    return 0;  // 0x80..0xC1 (continuation or overlong lead), 0xF5..0xFF
}

std::uint32_t decode_utf8(std::string_view s, std::size_t i, std::size_t len) {
    auto b = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i + k])); };
    switch (len) {
        case 1: return b(0);
        case 2: return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
        case 3: return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
        default: return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
    }
}

class Lexer {
public:
    Lexer(const SourceManager& sources, std::uint32_t file, DiagnosticSink& sink)
        : sources_(sources), file_(file), sink_(sink), text_(sources.contents(file)) {}

    LexResult run() {
        LexResult result;
        if (auto bad = find_invalid_utf8(text_)) {
            unsigned byte = static_cast<unsigned char>(text_[*bad]);
            sink_.report(rule::parse_invalid_encoding, range(*bad, *bad + 1),
                         fmt::format("invalid UTF-8: byte 0x{:02X} at byte offset {} does not "
                                     "start a valid UTF-8 sequence; save the file as UTF-8",
                                     byte, *bad));
            return encoding_failure();
        }
        warn_bidi_format_characters();
        // A byte order mark is allowed at the very start and means nothing.
        if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
        while (lex_one()) {
        }
        if (!encoding_ok_) return encoding_failure();
        tokens_.push_back(Token{TokenKind::Eof, text_.substr(text_.size()), {}, {},
                                range(text_.size(), text_.size())});
        result.tokens = std::move(tokens_);
        return result;
    }

private:
    const SourceManager& sources_;
    std::uint32_t file_;
    DiagnosticSink& sink_;
    std::string_view text_;
    std::size_t pos_ = 0;
    std::vector<Token> tokens_;
    bool encoding_ok_ = true;

    LexResult encoding_failure() {
        LexResult r;
        r.encoding_ok = false;
        r.tokens.push_back(Token{TokenKind::Eof, {}, {}, {}, range(text_.size(), text_.size())});
        return r;
    }

    SourceRange range(std::size_t b, std::size_t e) const {
        return SourceRange{sources_.locate(file_, static_cast<std::uint32_t>(b)),
                           sources_.locate(file_, static_cast<std::uint32_t>(e))};
    }

    unsigned char at(std::size_t i) const {
        return i < text_.size() ? static_cast<unsigned char>(text_[i]) : 0;
    }
    bool more(std::size_t i) const { return i < text_.size(); }

    Token& push(TokenKind kind, std::size_t b, std::size_t e) {
        tokens_.push_back(Token{kind, text_.substr(b, e - b), {}, {}, range(b, e)});
        pos_ = e;
        return tokens_.back();
    }
    void push_error(std::size_t b, std::size_t e, std::string message) {
        push(TokenKind::Error, b, e).error = std::move(message);
    }

    // Bidirectional format characters (common/text_sanitize.h), anywhere in
    // the file: valid UTF-8 and allowed in strings, comments and quoted
    // names, but they make the text display in another order than it is
    // read, so a reviewer may not see what is analysed ("Trojan Source").
    // One warning each, at most kMaxBidiWarnings a file, then a count.
    void warn_bidi_format_characters() {
        static constexpr std::size_t kMaxBidiWarnings = 10;
        std::size_t found = 0;
        std::size_t last = 0;
        for (std::size_t i = text_.find('\xE2'); i != std::string_view::npos; i = text_.find('\xE2', i + 1)) {
            if (i + 2 >= text_.size()) break;
            const std::uint32_t cp = decode_utf8(text_, i, 3);
            if (!is_bidi_format_character(cp)) continue;
            last = i;
            if (++found > kMaxBidiWarnings) continue;
            sink_.report(rule::parse_bidi_format_character, range(i, i + 3),
                         fmt::format("bidirectional format character U+{:04X} ({}): it makes the text around it "
                                     "display in another order than the order modeaudit reads it, so a reviewer may "
                                     "not see what is analysed; remove it (in a name or a string, write the text "
                                     "without it)",
                                     cp, bidi_character_name(cp)));
        }
        if (found > kMaxBidiWarnings)
            sink_.report(rule::parse_bidi_format_character, range(last, last + 3),
                         fmt::format("{} more bidirectional format characters in this file (the last one here)",
                                     found - kMaxBidiWarnings));
    }

    static const char* bidi_character_name(std::uint32_t cp) {
        switch (cp) {
            case 0x202A: return "LEFT-TO-RIGHT EMBEDDING";
            case 0x202B: return "RIGHT-TO-LEFT EMBEDDING";
            case 0x202C: return "POP DIRECTIONAL FORMATTING";
            case 0x202D: return "LEFT-TO-RIGHT OVERRIDE";
            case 0x202E: return "RIGHT-TO-LEFT OVERRIDE";
            case 0x2066: return "LEFT-TO-RIGHT ISOLATE";
            case 0x2067: return "RIGHT-TO-LEFT ISOLATE";
            case 0x2068: return "FIRST STRONG ISOLATE";
            default: return "POP DIRECTIONAL ISOLATE";
        }
    }

    // A control character outside a string: the file is not Modelica text.
    void control_character(std::size_t i) {
        sink_.report(rule::parse_invalid_encoding, range(i, i + 1),
                     fmt::format("control character 0x{:02X} at byte offset {} outside a "
                                 "string; the file may be binary or corrupted",
                                 static_cast<unsigned>(at(i)), i));
        encoding_ok_ = false;
    }

    // Returns false when lexing is over (end of text or an encoding error).
    bool lex_one() {
        while (more(pos_) && is_space(at(pos_))) ++pos_;
        if (!more(pos_)) return false;
        std::size_t b = pos_;
        unsigned char c = at(b);
        if (is_control(c)) {
            control_character(b);
            return false;
        }
        if (c == '/' && at(b + 1) == '/') return line_comment();
        if (c == '/' && at(b + 1) == '*') return block_comment();
        if (c == '"') return string_literal();
        if (c == '\'') return quoted_identifier();
        if (is_digit(c)) {
            number();
            return true;
        }
        if (is_ident_start(c)) {
            std::size_t e = b + 1;
            while (more(e) && is_ident_char(at(e))) ++e;
            if (at(e) >= 0x80 && is_letter(e)) {
                non_ascii(b);
                return true;
            }
            std::string_view word = text_.substr(b, e - b);
            push(keyword(word).value_or(TokenKind::Ident), b, e);
            return true;
        }
        if (c >= 0x80) {
            non_ascii(b);
            return true;
        }
        punctuation(b, c);
        return true;
    }

    // Whether the (valid) UTF-8 character at i is a letter of a script that
    // people write identifiers in (Latin, Greek, Cyrillic): such a letter
    // and the identifier characters around it make one bad word, reported
    // once, rather than one error per accented letter.
    bool is_letter(std::size_t i) const {
        std::size_t len = utf8_sequence_length(text_, i);
        if (len < 2) return false;
        std::uint32_t cp = decode_utf8(text_, i, len);
        return (cp >= 0xC0 && cp <= 0x24F && cp != 0xD7 && cp != 0xF7) || (cp >= 0x370 && cp <= 0x4FF);
    }

    // A non-ASCII character outside strings, comments and quoted identifiers.
    void non_ascii(std::size_t b) {
        // The word around it: identifier characters and letters.
        std::size_t first = b;
        while (at(first) < 0x80) ++first;  // b starts an identifier: find the culprit
        std::size_t len = utf8_sequence_length(text_, first);
        MODEAUDIT_ASSERT(len > 1, "non-ASCII byte survived UTF-8 validation");
        std::size_t e = first + len;
        if (is_letter(first)) {
            while (more(e)) {
                if (is_ident_char(at(e))) ++e;
                else if (at(e) >= 0x80 && is_letter(e)) e += utf8_sequence_length(text_, e);
                else break;
            }
        }
        std::uint32_t cp = decode_utf8(text_, first, len);
        std::string_view ch = text_.substr(first, len);
        std::string_view word = text_.substr(b, e - b);
        std::string m = fmt::format("unexpected character '{}' (U+{:04X})", ch, cp);
        if (word.size() > ch.size()) m += fmt::format(" in '{}'", word);
        m += "; non-ASCII characters are allowed only in strings, comments and quoted identifiers";
        switch (cp) {
            case 0x00A0: m += " (this is a non-breaking space: use a plain space)"; break;
            case 0x2212: m += " (this is a Unicode minus sign: use '-')"; break;
            case 0x00D7: m += " (use '*' to multiply)"; break;
            case 0x2018:
            case 0x2019: m += " (this is a curly quote: quoted identifiers use \"'\")"; break;
            case 0x201C:
            case 0x201D: m += " (this is a curly quote: strings use '\"')"; break;
            default:
                if (word.size() > ch.size()) m += fmt::format(" (write '{}' as a quoted identifier)", word);
                break;
        }
        push_error(b, e, std::move(m));
    }

    bool line_comment() {
        std::size_t i = pos_ + 2;
        while (more(i) && at(i) != '\n') {
            if (is_control(at(i))) {
                control_character(i);
                return false;
            }
            ++i;
        }
        pos_ = i;
        return true;
    }

    bool block_comment() {
        std::size_t b = pos_;
        std::size_t i = b + 2;
        while (more(i) && !(at(i) == '*' && at(i + 1) == '/')) {
            if (is_control(at(i))) {
                control_character(i);
                return false;
            }
            ++i;
        }
        if (!more(i)) {
            // The rest of the file is the comment: point at its start, where
            // the user has to look, not at the end of the file.
            push_error(b, b + 2, "unterminated comment: this '/*' has no matching '*/'");
            pos_ = text_.size();
            return false;
        }
        pos_ = i + 2;
        return true;
    }

    bool string_literal() {
        std::size_t b = pos_;
        std::size_t i = b + 1;
        std::string value;
        std::string error;
        while (more(i) && at(i) != '"') {
            if (at(i) == '\\' && more(i + 1)) {
                char esc = static_cast<char>(at(i + 1));
                char resolved = 0;
                switch (esc) {
                    case '\'': resolved = '\''; break;
                    case '"': resolved = '"'; break;
                    case '?': resolved = '?'; break;
                    case '\\': resolved = '\\'; break;
                    case 'a': resolved = '\a'; break;
                    case 'b': resolved = '\b'; break;
                    case 'f': resolved = '\f'; break;
                    case 'n': resolved = '\n'; break;
                    case 'r': resolved = '\r'; break;
                    case 't': resolved = '\t'; break;
                    case 'v': resolved = '\v'; break;
                    default: break;
                }
                if (resolved != 0) {
                    value += resolved;
                } else {
                    // Keep the text as written so that the value is still usable.
                    if (error.empty())
                        error = fmt::format("unknown escape sequence '\\{}' in string; use '\\\\' "
                                            "for a backslash",
                                            text_.substr(i + 1, utf8_sequence_length(text_, i + 1)));
                    value += '\\';
                    value += esc;
                }
                i += 2;
                continue;
            }
            value += static_cast<char>(at(i));
            ++i;
        }
        if (!more(i)) {
            push_error(b, b + 1, "unterminated string: this '\"' has no matching '\"'");
            pos_ = text_.size();
            return false;
        }
        Token& t = push(TokenKind::String, b, i + 1);
        t.value = std::move(value);
        t.error = std::move(error);
        return true;
    }

    bool quoted_identifier() {
        std::size_t b = pos_;
        std::size_t i = b + 1;
        while (more(i) && at(i) != '\'' && at(i) != '\n') {
            if (is_control(at(i))) {
                control_character(i);
                return false;
            }
            i += (at(i) == '\\' && more(i + 1) && at(i + 1) != '\n') ? 2 : 1;
        }
        if (!more(i) || at(i) != '\'') {
            push_error(b, b + 1,
                       "unterminated quoted identifier: this \"'\" has no matching \"'\" on its line");
            return true;  // go on after the quote: the rest of the line is probably fine
        }
        push(TokenKind::Ident, b, i + 1);
        return true;
    }

    // UNSIGNED-NUMBER: digits ["." [digits]] [(e|E) [+|-] digits], greedy.
    void number() {
        std::size_t b = pos_;
        std::size_t i = b;
        while (is_digit(at(i))) ++i;
        bool real = false;
        if (at(i) == '.') {
            real = true;
            ++i;
            while (is_digit(at(i))) ++i;
        }
        if (at(i) == 'e' || at(i) == 'E') {
            real = true;
            std::size_t j = i + 1;
            if (at(j) == '+' || at(j) == '-') ++j;
            if (!is_digit(at(j))) {
                push_error(b, j,
                           fmt::format("malformed number '{}': the exponent has no digits",
                                       text_.substr(b, j - b)));
                return;
            }
            while (is_digit(at(j))) ++j;
            i = j;
        }
        if (real) {
            if (std::string why = real_out_of_range(text_.substr(b, i - b)); !why.empty()) {
                push_error(b, i, std::move(why));
                return;
            }
        }
        push(real ? TokenKind::Real : TokenKind::Integer, b, i);
    }

    // modeaudit computes with IEEE doubles, the range Modelica 3.6 section
    // 2.4.1 recommends for Real literals (largest 1.7976931348623157E+308):
    // a literal beyond it, or a non-zero literal that rounds to zero, would
    // be another number (infinity, zero) in every stage that computes with
    // doubles. "" when the literal is in range.
    static std::string real_out_of_range(std::string_view literal) {
        const std::string text(literal);
        errno = 0;
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        const bool overflow = errno == ERANGE && std::isinf(v);
        bool zero_digits = true;
        for (char c : text) {
            if (c == 'e' || c == 'E') break;
            if (c >= '1' && c <= '9') zero_digits = false;
        }
        const bool underflow = v == 0 && !zero_digits;
        if (overflow)
            return fmt::format("the Real literal '{}' is larger than the largest IEEE double, 1.7976931348623157e308 "
                               "(the range of Real literals, Modelica 3.6 section 2.4.1); write a value in that range, "
                               "or use another unit",
                               text);
        if (underflow)
            return fmt::format("the Real literal '{}' is smaller than the smallest non-zero IEEE double, about "
                               "4.9e-324 (the range of Real literals, Modelica 3.6 section 2.4.1), so it would be "
                               "zero; write 0 or a value in range, or use another unit",
                               text);
        return {};
    }

    void punctuation(std::size_t b, unsigned char c) {
        unsigned char n = at(b + 1);
        auto one = [&](TokenKind k) { push(k, b, b + 1); };
        auto two = [&](TokenKind k) { push(k, b, b + 2); };
        switch (c) {
            case '(': return one(TokenKind::LParen);
            case ')': return one(TokenKind::RParen);
            case '[': return one(TokenKind::LBracket);
            case ']': return one(TokenKind::RBracket);
            case '{': return one(TokenKind::LBrace);
            case '}': return one(TokenKind::RBrace);
            case ',': return one(TokenKind::Comma);
            case ';': return one(TokenKind::Semicolon);
            case '+': return one(TokenKind::Plus);
            case '-': return one(TokenKind::Minus);
            case '*': return one(TokenKind::Star);
            case '/': return one(TokenKind::Slash);
            case '^': return one(TokenKind::Caret);
            case '.':
                switch (n) {
                    case '+': return two(TokenKind::DotPlus);
                    case '-': return two(TokenKind::DotMinus);
                    case '*': return two(TokenKind::DotStar);
                    case '/': return two(TokenKind::DotSlash);
                    case '^': return two(TokenKind::DotCaret);
                    default: return one(TokenKind::Dot);
                }
            case ':': return n == '=' ? two(TokenKind::Assign) : one(TokenKind::Colon);
            case '=': return n == '=' ? two(TokenKind::EqEq) : one(TokenKind::Equals);
            case '<':
                if (n == '=') return two(TokenKind::LessEq);
                if (n == '>') return two(TokenKind::NotEq);
                return one(TokenKind::Less);
            case '>': return n == '=' ? two(TokenKind::GreaterEq) : one(TokenKind::Greater);
            default: break;
        }
        std::string hint;
        if (c == '!' && n == '=') hint = "; Modelica writes 'not equal' as '<>'";
        else if (c == '&' || c == '|') hint = "; Modelica writes the logical operators as 'and', 'or', 'not'";
        else if (c == '!') hint = "; Modelica writes negation as 'not'";
        push_error(b, b + 1, fmt::format("unexpected character '{}'{}", static_cast<char>(c), hint));
    }
};

}  // namespace

std::optional<std::size_t> find_invalid_utf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        // Fast path for ASCII, which is nearly all of a model file.
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        std::size_t len = utf8_sequence_length(text, i);
        if (len == 0) return i;
        i += len;
    }
    return std::nullopt;
}

LexResult lex(const SourceManager& sources, std::uint32_t file, DiagnosticSink& sink) {
    return Lexer(sources, file, sink).run();
}

std::string_view token_kind_spelling(TokenKind kind) {
    switch (kind) {
        case TokenKind::Eof: return "end of file";
        case TokenKind::Error: return "an invalid token";
        case TokenKind::Ident: return "an identifier";
        case TokenKind::Integer: return "an integer";
        case TokenKind::Real: return "a number";
        case TokenKind::String: return "a string";
        default: break;
    }
    for (const Spelling& p : kPunctuation)
        if (p.kind == kind) return p.text;
    // Keywords are quoted in messages; keep the quoted forms in static storage.
    static const auto quoted = [] {
        std::array<std::string, kKeywords.size()> q;
        for (std::size_t i = 0; i < kKeywords.size(); ++i) q[i] = fmt::format("'{}'", kKeywords[i].text);
        return q;
    }();
    for (std::size_t i = 0; i < kKeywords.size(); ++i)
        if (kKeywords[i].kind == kind) return quoted[i];
    MODEAUDIT_UNREACHABLE("token kind without a spelling");
}

std::string describe_token(const Token& token) {
    // Long tokens (a string of a whole paragraph) are cut so that a message
    // stays on one line.
    auto cut = [](std::string_view s) {
        if (s.size() <= 40) return std::string(s);
        std::size_t n = 37;
        while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // not inside a character
        return std::string(s.substr(0, n)) + "...";
    };
    switch (token.kind) {
        case TokenKind::Eof: return "end of file";
        case TokenKind::Ident: return fmt::format("identifier '{}'", cut(token.text));
        case TokenKind::Integer:
        case TokenKind::Real: return fmt::format("number '{}'", cut(token.text));
        case TokenKind::String: return fmt::format("string {}", cut(token.text));
        default: return fmt::format("'{}'", cut(token.text));
    }
}

}  // namespace modeaudit
