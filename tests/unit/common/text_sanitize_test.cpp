// Text for SARIF and JUnit: invalid UTF-8 and forbidden characters become
// U+FFFD, well-formed text is untouched, byte columns become code points.
#include <gtest/gtest.h>

#include "common/json_output.h"
#include "common/terminal_text.h"
#include "common/text_sanitize.h"

namespace modeaudit {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

TEST(TextSanitize, WellFormedTextIsUnchanged) {
    const std::string text = "x\tv = 1\nnote: \xC3\xA9t\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80";
    EXPECT_EQ(sanitize_text(text), text);
    EXPECT_EQ(sanitize_xml_text(text), text);
}

TEST(TextSanitize, InvalidUtf8BecomesOneReplacementPerMaximalSubpart) {
    EXPECT_EQ(sanitize_text("a\xFF" "b"), "a" + kFffd + "b");
    EXPECT_EQ(sanitize_text("a\xC3"), "a" + kFffd);                     // cut short at the end
    EXPECT_EQ(sanitize_text("\xE2\x86" "b"), kFffd + "b");              // one subpart, one U+FFFD
    EXPECT_EQ(sanitize_text("\xC0\xAF"), kFffd + kFffd);                // overlong '/': two bytes, two
    EXPECT_EQ(sanitize_text("\xED\xA0\x80"), kFffd + kFffd + kFffd);    // a surrogate
    EXPECT_EQ(sanitize_text("\xF4\x90\x80\x80"), kFffd + kFffd + kFffd + kFffd);  // above U+10FFFF
    EXPECT_EQ(sanitize_text("\x80"), kFffd);                            // a continuation byte alone
}

TEST(TextSanitize, ControlCharactersAreReplacedButTabAndNewlineKept) {
    EXPECT_EQ(sanitize_text("a\x01" "b\x1B[31m\x7F\n\t"), "a" + kFffd + "b" + kFffd + "[31m" + kFffd + "\n\t");
    EXPECT_EQ(sanitize_text(std::string("a\0b", 3)), "a" + kFffd + "b");
    EXPECT_EQ(sanitize_text("\xC2\x85"), kFffd);  // C1 control NEL
    EXPECT_EQ(sanitize_text("a\rb"), "a" + kFffd + "b");
    EXPECT_EQ(sanitize_text("a\rb", true), "a\rb");
}

TEST(TextSanitize, XmlTextHasOnlyXmlChars) {
    EXPECT_EQ(sanitize_xml_text("a\x01\x08" "b"), "a" + kFffd + kFffd + "b");
    EXPECT_EQ(sanitize_xml_text("\xEF\xBF\xBE\xEF\xBF\xBF"), kFffd + kFffd);  // U+FFFE, U+FFFF
    EXPECT_EQ(sanitize_xml_text("a\r\n"), "a\r\n");
}

// The nine bidirectional format characters (hardening round 3, item 8) are
// written as visible \uXXXX escapes in every output: in text (SARIF
// messages, JUnit), on a terminal, and in a serialised JSON document, where
// the escape is the character's own so that a reader gets it back.
TEST(TextSanitize, BidiFormatCharactersAreEscaped) {
    const std::string rlo = "\xE2\x80\xAE", lri = "\xE2\x81\xA6", pdi = "\xE2\x81\xA9";
    EXPECT_EQ(sanitize_text("a" + rlo + "b"), "a\\u202Eb");
    EXPECT_EQ(sanitize_xml_text(lri + "x" + pdi), "\\u2066x\\u2069");
    EXPECT_EQ(terminal_safe("x" + rlo), "x\\u202E");
    for (char32_t cp : {0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069})
        EXPECT_TRUE(is_bidi_format_character(cp)) << static_cast<unsigned>(cp);
    // Their neighbours, the marks and right-to-left letters are text.
    for (char32_t cp : {0x2029, 0x202F, 0x2065, 0x206A, 0x200E, 0x200F, 0x05D0, 0x0627})
        EXPECT_FALSE(is_bidi_format_character(cp)) << static_cast<unsigned>(cp);
    const std::string hebrew = "\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D", em_dash = "\xE2\x80\x94", lrm = "\xE2\x80\x8E";
    EXPECT_EQ(sanitize_text(hebrew + em_dash + lrm), hebrew + em_dash + lrm);
    EXPECT_EQ(terminal_safe(hebrew), hebrew);

    Json doc = {{"name", "k" + rlo + "=0"}, {"list", {lri, "plain " + em_dash}}};
    const std::string text = json_document(doc);
    EXPECT_EQ(text.find("\xE2\x80\xAE"), std::string::npos);
    EXPECT_EQ(text.find("\xE2\x81\xA6"), std::string::npos);
    EXPECT_NE(text.find("k\\u202E=0"), std::string::npos) << text;
    EXPECT_NE(text.find(em_dash), std::string::npos);  // other characters stay raw
    EXPECT_EQ(Json::parse(text), doc);                 // the same document to a JSON reader
    EXPECT_EQ(escape_bidi_characters("no bidi " + em_dash), "no bidi " + em_dash);
    EXPECT_EQ(escape_bidi_characters("cut \xE2\x80"), "cut \xE2\x80");  // a sequence cut short is left
}

TEST(TextSanitize, CodePointColumns) {
    const std::string line = "  // \xC3\xA9t\xC3\xA9: x = 1;";  // "été" is 3 code points in 5 bytes
    EXPECT_EQ(code_points_in_prefix(line, 0), 0u);
    EXPECT_EQ(code_points_in_prefix(line, 5), 5u);
    EXPECT_EQ(code_points_in_prefix(line, 10), 8u);  // through "été", 2 bytes fewer
    EXPECT_EQ(code_points_in_prefix(line, 1000), code_points_in_prefix(line, line.size()));
    EXPECT_EQ(code_points_in_prefix("\xF0\x9F\x98\x80x", 4), 1u);
    EXPECT_EQ(code_points_in_prefix("\xFF\xFFx", 2), 2u);  // each bad byte counts as its U+FFFD
}

}  // namespace
}  // namespace modeaudit
