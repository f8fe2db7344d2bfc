// Text for SARIF and JUnit: invalid UTF-8 and forbidden characters become
// U+FFFD, well-formed text is untouched, byte columns become code points.
#include <gtest/gtest.h>

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
