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

// The bidirectional format characters, U+202A..U+202E (embeddings and
// overrides) and U+2066..U+2069 (isolates): printed raw, they reorder what
// a reader sees around them (the "Trojan Source" attack, CVE-2021-42574;
// GCC's -Wbidi-chars), so that a name or a string can look like other text.
bool is_bidi_format_character(char32_t cp);

// The visible escape that every output prints instead of one: "\u202E".
// In a JSON string it is also the character's own JSON escape.
std::string bidi_escape(char32_t cp);

// `text` with each bidirectional format character written as bidi_escape
// gives, everything else as it is: for a serialised JSON document (the
// same document to a JSON reader, since "\u202E" is also the character's
// JSON escape, and they can only occur inside strings) and for the
// report's Markdown (a literal backslash-u there: raw TeX is off).
std::string escape_bidi_characters(std::string json);

// Every byte sequence that is not well-formed UTF-8 (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF) replaced by U+FFFD, one per
// maximal ill-formed subpart; and every C0/C1 control character except tab
// and newline (carriage return too when keep_carriage_return) replaced by
// U+FFFD; every bidirectional format character written as bidi_escape
// gives. Well-formed text without control characters is returned as is.
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
