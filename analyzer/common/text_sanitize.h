// Text made safe for machine-read outputs (SARIF, JUnit XML).
//
// Messages and paths reach the outputs from the user's input (file names
// given on the command line, names and strings of the model), so they may
// hold bytes that are not UTF-8 or control characters that a format forbids:
// JSON refuses invalid UTF-8 (nlohmann::json throws on dump), and XML 1.0
// admits no character reference to U+0001..U+0008 at all (`&#1;` makes the
// document ill-formed). Each function here replaces what the format cannot
// carry by U+FFFD, the Unicode replacement character, so that the output
// stays valid and the reader sees where something was dropped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace modeaudit {

// Every byte sequence that is not well-formed UTF-8 (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF) replaced by U+FFFD, one per
// maximal ill-formed subpart; and every C0/C1 control character except tab
// and newline (carriage return too when keep_carriage_return) replaced by
// U+FFFD. Well-formed text without control characters is returned as is.
std::string sanitize_text(std::string_view text, bool keep_carriage_return = false);

// sanitize_text, then also every code point XML 1.0 forbids (U+FFFE,
// U+FFFF; the C0 controls are already gone) replaced: the result is a
// sequence of XML 1.0 Chars (W3C XML 1.0, 2.2), ready for escaping.
std::string sanitize_xml_text(std::string_view text);

// The number of Unicode code points in the first `bytes` bytes of `text`
// (an ill-formed byte counts as one, as sanitize_text replaces it by one):
// a byte column turned into the code-point column SARIF's
// "unicodeCodePoints" column kind counts.
std::uint32_t code_points_in_prefix(std::string_view text, std::size_t bytes);

}  // namespace modeaudit
