// Unit tests of the lexer (analyzer/parse/lexer.h): token kinds, texts and
// values, source locations, comments, and the encoding checks that come
// before any token.
#include "parse/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace modeaudit {
namespace {

using TK = TokenKind;

class LexerTest : public ::testing::Test {
protected:
    SourceManager sm;
    DiagnosticSink sink;
    std::uint32_t file = 0;

    LexResult lex_text(std::string text) {
        file = sm.add("lex.mo", std::move(text));
        return lex(sm, file, sink);
    }

    std::vector<TK> kinds(const LexResult& r) {
        std::vector<TK> k;
        for (const Token& t : r.tokens) k.push_back(t.kind);
        return k;
    }
};

TEST_F(LexerTest, EmptyInputIsJustEof) {
    LexResult r = lex_text("");
    ASSERT_TRUE(r.encoding_ok);
    ASSERT_EQ(r.tokens.size(), 1u);
    EXPECT_EQ(r.tokens[0].kind, TK::Eof);
    EXPECT_EQ(r.tokens[0].range.begin.line, 1u);
    EXPECT_EQ(r.tokens[0].range.begin.column, 1u);
}

TEST_F(LexerTest, DeclarationTokensKindsAndTexts) {
    LexResult r = lex_text("parameter Real c = 0.9; // Elasticity\n");
    std::vector<TK> expected{TK::KwParameter, TK::Ident, TK::Ident, TK::Equals,
                             TK::Real,        TK::Semicolon, TK::Eof};
    EXPECT_EQ(kinds(r), expected);
    EXPECT_EQ(r.tokens[1].text, "Real");
    EXPECT_EQ(r.tokens[2].text, "c");
    EXPECT_EQ(r.tokens[4].text, "0.9");
    EXPECT_TRUE(sink.all().empty());
}

TEST_F(LexerTest, LocationsMatchSourceManagerLocate) {
    std::string text = "model M\n  Real x;\n\tequation\n  x = 1; /* two\nlines */ end M;";
    LexResult r = lex_text(text);
    ASSERT_TRUE(r.encoding_ok);
    for (const Token& t : r.tokens) {
        EXPECT_EQ(t.range.begin, sm.locate(file, t.range.begin.offset)) << t.text;
        EXPECT_EQ(t.range.end, sm.locate(file, t.range.end.offset)) << t.text;
        EXPECT_EQ(text.substr(t.range.begin.offset, t.range.end.offset - t.range.begin.offset),
                  t.text);
    }
    // `Real` on line 2, column 3; `equation` after a tab on line 3, column 2;
    // `end` after the two-line comment, on line 5.
    EXPECT_EQ(r.tokens[2].text, "Real");
    EXPECT_EQ(r.tokens[2].range.begin.line, 2u);
    EXPECT_EQ(r.tokens[2].range.begin.column, 3u);
    EXPECT_EQ(r.tokens[5].kind, TK::KwEquation);
    EXPECT_EQ(r.tokens[5].range.begin.line, 3u);
    EXPECT_EQ(r.tokens[5].range.begin.column, 2u);
    EXPECT_EQ(r.tokens[10].kind, TK::KwEnd);
    EXPECT_EQ(r.tokens[10].range.begin.line, 5u);
    EXPECT_EQ(r.tokens[10].range.begin.column, 10u);
    EXPECT_EQ(r.tokens[10].range.end.column, 13u);
}

TEST_F(LexerTest, AllOperatorsAndPunctuation) {
    LexResult r = lex_text("( ) [ ] { } , ; . : = := + - * / ^ .+ .- .* ./ .^ < <= > >= == <>");
    std::vector<TK> expected{
        TK::LParen,  TK::RParen,   TK::LBracket, TK::RBracket, TK::LBrace,   TK::RBrace,
        TK::Comma,   TK::Semicolon, TK::Dot,     TK::Colon,    TK::Equals,   TK::Assign,
        TK::Plus,    TK::Minus,    TK::Star,     TK::Slash,    TK::Caret,    TK::DotPlus,
        TK::DotMinus, TK::DotStar, TK::DotSlash, TK::DotCaret, TK::Less,     TK::LessEq,
        TK::Greater, TK::GreaterEq, TK::EqEq,    TK::NotEq,    TK::Eof};
    EXPECT_EQ(kinds(r), expected);
}

TEST_F(LexerTest, OperatorsWithoutSpaces) {
    LexResult r = lex_text("a.*b:=c<=d<>e.^2");
    std::vector<TK> expected{TK::Ident, TK::DotStar, TK::Ident, TK::Assign, TK::Ident,
                             TK::LessEq, TK::Ident, TK::NotEq, TK::Ident, TK::DotCaret,
                             TK::Integer, TK::Eof};
    EXPECT_EQ(kinds(r), expected);
}

TEST_F(LexerTest, KeywordsAndBuiltinNames) {
    LexResult r = lex_text("der initial connect end within stream Real time pre constrainedby");
    std::vector<TK> expected{TK::Ident, TK::KwInitial, TK::KwConnect, TK::KwEnd, TK::KwWithin,
                             TK::KwStream, TK::Ident, TK::Ident, TK::Ident, TK::KwConstrainedby,
                             TK::Eof};
    EXPECT_EQ(kinds(r), expected);
}

TEST_F(LexerTest, EveryKeywordIsRecognised) {
    const char* words[] = {
        "algorithm", "and", "annotation", "block", "break", "class", "connect", "connector",
        "constant", "constrainedby", "discrete", "each", "else", "elseif", "elsewhen",
        "encapsulated", "end", "enumeration", "equation", "expandable", "extends", "external",
        "false", "final", "flow", "for", "function", "if", "import", "impure", "in", "initial",
        "inner", "input", "loop", "model", "not", "operator", "or", "outer", "output", "package",
        "parameter", "partial", "protected", "public", "pure", "record", "redeclare",
        "replaceable", "return", "stream", "then", "true", "type", "when", "while", "within"};
    std::string text;
    for (const char* w : words) text += std::string(w) + " ";
    LexResult r = lex_text(text);
    ASSERT_EQ(r.tokens.size(), std::size(words) + 1);
    for (std::size_t i = 0; i < std::size(words); ++i) {
        EXPECT_NE(r.tokens[i].kind, TK::Ident) << words[i];
        EXPECT_EQ(token_kind_spelling(r.tokens[i].kind), "'" + std::string(words[i]) + "'");
    }
}

TEST_F(LexerTest, NumbersKeepTheirText) {
    LexResult r = lex_text("0 12 1. 1.5 1e3 2.5E+10 3e-2 1.e5 007");
    std::vector<TK> expected{TK::Integer, TK::Integer, TK::Real, TK::Real, TK::Real,
                             TK::Real,    TK::Real,    TK::Real, TK::Integer, TK::Eof};
    ASSERT_EQ(kinds(r), expected);
    const char* texts[] = {"0", "12", "1.", "1.5", "1e3", "2.5E+10", "3e-2", "1.e5", "007"};
    for (std::size_t i = 0; i < std::size(texts); ++i) EXPECT_EQ(r.tokens[i].text, texts[i]);
}

TEST_F(LexerTest, MalformedExponentIsAnErrorToken) {
    LexResult r = lex_text("x = 2e+;");
    ASSERT_EQ(r.tokens[2].kind, TK::Error);
    EXPECT_EQ(r.tokens[2].text, "2e+");
    EXPECT_NE(r.tokens[2].error.find("exponent"), std::string::npos);
    EXPECT_EQ(r.tokens[3].kind, TK::Semicolon);
    EXPECT_TRUE(sink.all().empty()) << "lexical errors are reported by the parser";
}

TEST_F(LexerTest, StringEscapesAreResolved) {
    LexResult r = lex_text(R"("a\"b\\c\nd\te\'\?" "")");
    ASSERT_EQ(r.tokens[0].kind, TK::String);
    EXPECT_EQ(r.tokens[0].value, "a\"b\\c\nd\te'?");
    EXPECT_EQ(r.tokens[0].text, R"("a\"b\\c\nd\te\'\?")");
    EXPECT_TRUE(r.tokens[0].error.empty());
    ASSERT_EQ(r.tokens[1].kind, TK::String);
    EXPECT_EQ(r.tokens[1].value, "");
}

TEST_F(LexerTest, StringsMaySpanLinesAndHoldUnicode) {
    LexResult r = lex_text("\"caf\xC3\xA9\nline 2\" x");
    ASSERT_EQ(r.tokens[0].kind, TK::String);
    EXPECT_EQ(r.tokens[0].value, "caf\xC3\xA9\nline 2");
    EXPECT_EQ(r.tokens[1].range.begin.line, 2u);
    EXPECT_EQ(r.tokens[1].range.begin.column, 9u);
}

TEST_F(LexerTest, UnknownEscapeKeepsTheStringButCarriesAnError) {
    LexResult r = lex_text(R"("C:\q")");
    ASSERT_EQ(r.tokens[0].kind, TK::String);
    EXPECT_EQ(r.tokens[0].value, "C:\\q");
    EXPECT_NE(r.tokens[0].error.find("unknown escape sequence '\\q'"), std::string::npos);
}

TEST_F(LexerTest, CommentsAreSkipped) {
    LexResult r = lex_text("a // line comment ; b\nb /* block ; \n comment */ c /**/ d");
    std::vector<TK> expected{TK::Ident, TK::Ident, TK::Ident, TK::Ident, TK::Eof};
    ASSERT_EQ(kinds(r), expected);
    EXPECT_EQ(r.tokens[1].text, "b");
    EXPECT_EQ(r.tokens[2].text, "c");
    EXPECT_EQ(r.tokens[2].range.begin.line, 3u);
    EXPECT_EQ(r.tokens[2].range.begin.column, 13u);
}

TEST_F(LexerTest, UnterminatedBlockCommentIsAnErrorAtItsStart) {
    LexResult r = lex_text("x = 1;\n  /* never closed\nend M;\n");
    ASSERT_EQ(r.tokens.size(), 6u);
    const Token& e = r.tokens[4];
    EXPECT_EQ(e.kind, TK::Error);
    EXPECT_EQ(e.range.begin.line, 2u);
    EXPECT_EQ(e.range.begin.column, 3u);
    EXPECT_NE(e.error.find("unterminated comment"), std::string::npos);
    EXPECT_EQ(r.tokens[5].kind, TK::Eof);
}

TEST_F(LexerTest, UnterminatedStringIsAnErrorAtItsStart) {
    LexResult r = lex_text("s = \"abc;\nend M;\n");
    ASSERT_EQ(r.tokens.size(), 4u);
    EXPECT_EQ(r.tokens[2].kind, TK::Error);
    EXPECT_EQ(r.tokens[2].range.begin.column, 5u);
    EXPECT_NE(r.tokens[2].error.find("unterminated string"), std::string::npos);
}

TEST_F(LexerTest, QuotedIdentifiersKeepTheirQuotes) {
    LexResult r = lex_text("'my var' '\xCE\xB1-1' 'a\\'b'");
    ASSERT_EQ(r.tokens.size(), 4u);
    EXPECT_EQ(r.tokens[0].kind, TK::Ident);
    EXPECT_EQ(r.tokens[0].text, "'my var'");
    EXPECT_EQ(r.tokens[1].kind, TK::Ident);
    EXPECT_EQ(r.tokens[1].text, "'\xCE\xB1-1'");
    EXPECT_EQ(r.tokens[2].text, "'a\\'b'");
}

TEST_F(LexerTest, UnterminatedQuotedIdentifierStopsAtTheLineEnd) {
    LexResult r = lex_text("'abc\nx");
    ASSERT_GE(r.tokens.size(), 2u);
    EXPECT_EQ(r.tokens[0].kind, TK::Error);
    EXPECT_NE(r.tokens[0].error.find("unterminated quoted identifier"), std::string::npos);
    EXPECT_EQ(r.tokens.back().kind, TK::Eof);
}

TEST_F(LexerTest, NonAsciiOutsideStringsIsAnUnexpectedCharacter) {
    // An accented identifier is one error (not one per letter); a Unicode
    // minus between tokens is one error with a hint.
    LexResult r = lex_text("Real h\xC3\xB6he;\nx = a \xE2\x88\x92 b; // \xC3\xB6k in a comment");
    ASSERT_TRUE(r.encoding_ok);
    std::vector<TK> expected{TK::Ident, TK::Error, TK::Semicolon, TK::Ident, TK::Equals,
                             TK::Ident, TK::Error, TK::Ident,     TK::Semicolon, TK::Eof};
    ASSERT_EQ(kinds(r), expected);
    EXPECT_EQ(r.tokens[1].text, "h\xC3\xB6he");
    EXPECT_NE(r.tokens[1].error.find("unexpected character '\xC3\xB6' (U+00F6)"), std::string::npos);
    EXPECT_NE(r.tokens[1].error.find("quoted identifier"), std::string::npos);
    EXPECT_EQ(r.tokens[6].range.begin.line, 2u);
    EXPECT_EQ(r.tokens[6].range.begin.column, 7u);
    EXPECT_NE(r.tokens[6].error.find("U+2212"), std::string::npos);
    EXPECT_NE(r.tokens[6].error.find("use '-'"), std::string::npos);
}

TEST_F(LexerTest, StrayAsciiCharacterIsAnErrorToken) {
    LexResult r = lex_text("a $ b != c");
    ASSERT_EQ(r.tokens[1].kind, TK::Error);
    EXPECT_EQ(r.tokens[1].error, "unexpected character '$'");
    ASSERT_EQ(r.tokens[3].kind, TK::Error);
    EXPECT_NE(r.tokens[3].error.find("'<>'"), std::string::npos);
}

TEST_F(LexerTest, ByteOrderMarkIsIgnored) {
    LexResult r = lex_text("\xEF\xBB\xBFmodel");
    ASSERT_EQ(r.tokens.size(), 2u);
    EXPECT_EQ(r.tokens[0].kind, TK::KwModel);
    EXPECT_EQ(r.tokens[0].range.begin.column, 4u);  // columns count bytes
}

TEST_F(LexerTest, InvalidUtf8IsReportedAtItsByteAndStopsLexing) {
    // Latin-1 'é' (0xE9) inside a comment on line 2.
    LexResult r = lex_text("model M\n  Real x; // caf\xE9\nend M;\n");
    EXPECT_FALSE(r.encoding_ok);
    ASSERT_EQ(r.tokens.size(), 1u);
    EXPECT_EQ(r.tokens[0].kind, TK::Eof);
    ASSERT_EQ(sink.all().size(), 1u);
    const Diagnostic& d = sink.all()[0];
    EXPECT_EQ(d.rule, "parse-invalid-encoding");
    EXPECT_EQ(d.range.begin.line, 2u);
    EXPECT_EQ(d.range.begin.column, 17u);
    EXPECT_EQ(d.range.begin.offset, 24u);
    EXPECT_NE(d.message.find("byte offset 24"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("0xE9"), std::string::npos) << d.message;
}

TEST_F(LexerTest, ControlCharacterOutsideStringsIsAnEncodingError) {
    LexResult r = lex_text("x = 1;\n\x01");
    EXPECT_FALSE(r.encoding_ok);
    ASSERT_EQ(sink.all().size(), 1u);
    EXPECT_EQ(sink.all()[0].rule, "parse-invalid-encoding");
    EXPECT_EQ(sink.all()[0].range.begin.line, 2u);
    EXPECT_EQ(sink.all()[0].range.begin.column, 1u);
}

TEST_F(LexerTest, ControlCharacterInsideAStringIsAllowed) {
    LexResult r = lex_text("\"a\x01z\"");
    EXPECT_TRUE(r.encoding_ok);
    EXPECT_EQ(r.tokens[0].kind, TK::String);
    EXPECT_TRUE(sink.all().empty());
}

TEST(FindInvalidUtf8, AcceptsWellFormedText) {
    EXPECT_EQ(find_invalid_utf8(""), std::nullopt);
    EXPECT_EQ(find_invalid_utf8("plain ascii"), std::nullopt);
    EXPECT_EQ(find_invalid_utf8("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF"), std::nullopt);
}

TEST(FindInvalidUtf8, FindsTheStartOfEachKindOfBadSequence) {
    EXPECT_EQ(find_invalid_utf8("ab\x80"), 2u);              // lone continuation byte
    EXPECT_EQ(find_invalid_utf8("a\xC0\xAF"), 1u);           // overlong '/'
    EXPECT_EQ(find_invalid_utf8("a\xE0\x80\xAF"), 1u);       // overlong 3-byte
    EXPECT_EQ(find_invalid_utf8("\xED\xA0\x80"), 0u);        // UTF-16 surrogate
    EXPECT_EQ(find_invalid_utf8("xy\xE2\x82"), 2u);          // truncated at the end
    EXPECT_EQ(find_invalid_utf8("\xC3\xA9\xC3("), 2u);       // bad continuation
    EXPECT_EQ(find_invalid_utf8("\xF4\x90\x80\x80"), 0u);    // above U+10FFFF
    EXPECT_EQ(find_invalid_utf8("\xF5\x80\x80\x80"), 0u);    // never valid
    EXPECT_EQ(find_invalid_utf8("\xFF"), 0u);
}

TEST_F(LexerTest, DescribeTokenForMessages) {
    LexResult r = lex_text("end x 1.5 \"s\" ;");
    EXPECT_EQ(describe_token(r.tokens[0]), "'end'");
    EXPECT_EQ(describe_token(r.tokens[1]), "identifier 'x'");
    EXPECT_EQ(describe_token(r.tokens[2]), "number '1.5'");
    EXPECT_EQ(describe_token(r.tokens[3]), "string \"s\"");
    EXPECT_EQ(describe_token(r.tokens[4]), "';'");
    EXPECT_EQ(describe_token(r.tokens[5]), "end of file");
    EXPECT_EQ(token_kind_spelling(TK::Semicolon), "';'");
    EXPECT_EQ(token_kind_spelling(TK::Ident), "an identifier");
}

TEST_F(LexerTest, LongTokensAreCutInMessagesAtACharacterBoundary) {
    std::string s = "\"" + std::string(36, 'a') + "\xC3\xA9\xC3\xA9\xC3\xA9 tail\"";
    LexResult r = lex_text(s);
    std::string d = describe_token(r.tokens[0]);
    EXPECT_NE(d.find("..."), std::string::npos);
    EXPECT_EQ(find_invalid_utf8(d), std::nullopt) << d;
}

}  // namespace
}  // namespace modeaudit
