// The lexer: Modelica source text to tokens.
//
// First step of the parse stage (parser.h is the second). lex() checks that
// the whole buffer is UTF-8 before looking at a single token, because every
// later message quotes the user's text and a column is only meaningful in a
// known encoding; a bad byte is `parse-invalid-encoding` and nothing is
// lexed. It then cuts the text into tokens following the lexical rules of
// Modelica 3.6 (Appendix A.1): identifiers (also 'quoted'), unsigned integer
// and real literals kept as written, strings with their escapes resolved,
// keywords, operators and punctuation; comments and white space are dropped.
//
// Lexical mistakes that are not encoding problems (a stray `$`, an
// unterminated string or comment, a malformed number) do not stop the lexer:
// they become tokens that carry their message (Token::error), and the parser
// reports them as `parse-syntax-error` when it reaches them. That keeps all
// syntax errors in source order and under the parser's error limit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostics.h"
#include "common/source.h"

namespace modeaudit {

enum class TokenKind {
    Eof,
    Error,    // a lexical mistake; Token::error says which
    Ident,    // IDENT or Q-IDENT (text keeps the quotes of a Q-IDENT)
    Integer,  // UNSIGNED-INTEGER, text as written
    Real,     // UNSIGNED-NUMBER with a fraction or an exponent, text as written
    String,   // STRING: text as written (with quotes), value with escapes resolved

    // punctuation and operators
    LParen, RParen, LBracket, RBracket, LBrace, RBrace,
    Comma, Semicolon, Dot, Colon, Equals, Assign,   // , ; . : = :=
    Plus, Minus, Star, Slash, Caret,                // + - * / ^
    DotPlus, DotMinus, DotStar, DotSlash, DotCaret, // .+ .- .* ./ .^
    Less, LessEq, Greater, GreaterEq, EqEq, NotEq,  // < <= > >= == <>

    // keywords (Modelica 3.6, section 2.3.3)
    KwAlgorithm, KwAnd, KwAnnotation, KwBlock, KwBreak, KwClass, KwConnect,
    KwConnector, KwConstant, KwConstrainedby, KwDiscrete, KwEach, KwElse,
    KwElseif, KwElsewhen, KwEncapsulated, KwEnd, KwEnumeration, KwEquation,
    KwExpandable, KwExtends, KwExternal, KwFalse, KwFinal, KwFlow, KwFor,
    KwFunction, KwIf, KwImport, KwImpure, KwIn, KwInitial, KwInner, KwInput,
    KwLoop, KwModel, KwNot, KwOperator, KwOr, KwOuter, KwOutput, KwPackage,
    KwParameter, KwPartial, KwProtected, KwPublic, KwPure, KwRecord,
    KwRedeclare, KwReplaceable, KwReturn, KwStream, KwThen, KwTrue, KwType,
    KwWhen, KwWhile, KwWithin,
};

struct Token {
    TokenKind kind = TokenKind::Eof;
    std::string_view text;  // the exact source text: a view into the SourceManager, valid
                            // while no file is added to it (the parser copies what it keeps)
    std::string value;      // String: the value with escapes resolved
    std::string error;      // non-empty: a lexical mistake to report as a syntax error
    SourceRange range;
};

struct LexResult {
    std::vector<Token> tokens;  // always ends with an Eof token
    bool encoding_ok = true;    // false: parse-invalid-encoding was reported, tokens is just Eof
};

// Lexes one file of `sources`. Reports encoding problems (invalid UTF-8, a
// control character outside strings) into `sink`; everything else is left
// in the tokens for the parser.
LexResult lex(const SourceManager& sources, std::uint32_t file, DiagnosticSink& sink);

// Offset of the first byte that does not begin a well-formed UTF-8 sequence
// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or
// nullopt when the whole text is valid.
std::optional<std::size_t> find_invalid_utf8(std::string_view text);

// How a token kind is written in messages: "';'", "'end'", "an identifier".
std::string_view token_kind_spelling(TokenKind kind);
// How a particular token is quoted in "found ..." messages: "'end'",
// "identifier 'x'", "number '1.5'", "string \"abc\"", "end of file".
std::string describe_token(const Token& token);

}  // namespace modeaudit
