#include "common/text_sanitize.h"

namespace modeaudit {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

struct Decoded {
    char32_t code_point = 0;
    std::size_t length = 1;  // bytes consumed; for an ill-formed sequence, its maximal subpart
    bool well_formed = false;
};

// One code point at `at` (Unicode 15, table 3-7, and the "maximal subpart"
// practice of section 3.9 for what is replaced by one U+FFFD).
Decoded decode(std::string_view s, std::size_t at) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b0 = byte(at);
    if (b0 < 0x80) return {b0, 1, true};
    std::size_t need = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
    char32_t cp = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        need = 1;
        cp = b0 & 0x1F;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        need = 2;
        cp = b0 & 0x0F;
        if (b0 == 0xE0) lo = 0xA0;  // no overlong form
        if (b0 == 0xED) hi = 0x9F;  // no surrogate
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        need = 3;
        cp = b0 & 0x07;
        if (b0 == 0xF0) lo = 0x90;  // no overlong form
        if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
    } else {
        return {0, 1, false};  // a continuation byte alone, C0, C1, F5..FF
    }
    for (std::size_t k = 1; k <= need; ++k) {
        if (at + k >= s.size()) return {0, k, false};
        const unsigned char b = byte(at + k);
        const unsigned char min = k == 1 ? lo : 0x80, max = k == 1 ? hi : 0xBF;
        if (b < min || b > max) return {0, k, false};
        cp = (cp << 6) | (b & 0x3F);
    }
    return {cp, need + 1, true};
}

bool is_control(char32_t cp, bool keep_cr) {
    if (cp == U'\t' || cp == U'\n' || (keep_cr && cp == U'\r')) return false;
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

template <class Keep>
std::string replace_unless(std::string_view text, Keep keep) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t at = 0; at < text.size();) {
        const Decoded d = decode(text, at);
        if (d.well_formed && is_bidi_format_character(d.code_point))
            out += bidi_escape(d.code_point);
        else if (d.well_formed && keep(d.code_point))
            out.append(text.substr(at, d.length));
        else
            out += kReplacement;
        at += d.length;
    }
    return out;
}

}  // namespace

bool is_bidi_format_character(char32_t cp) { return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069); }

std::string bidi_escape(char32_t cp) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out = "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(cp >> shift) & 0xF];
    return out;
}

std::string escape_bidi_characters(std::string json) {
    // U+202A..U+202E are E2 80 AA..AE, U+2066..U+2069 are E2 81 A6..A9.
    if (json.find('\xE2') == std::string::npos) return json;
    std::string out;
    out.reserve(json.size());
    for (std::size_t i = 0; i < json.size(); ++i) {
        if (json[i] == '\xE2' && i + 2 < json.size()) {
            const auto b1 = static_cast<unsigned char>(json[i + 1]), b2 = static_cast<unsigned char>(json[i + 2]);
            const char32_t cp = 0x2000 + ((b1 & 0x3F) << 6) + (b2 & 0x3F);
            if ((b1 == 0x80 || b1 == 0x81) && b2 >= 0x80 && b2 <= 0xBF && is_bidi_format_character(cp)) {
                out += bidi_escape(cp);
                i += 2;
                continue;
            }
        }
        out += json[i];
    }
    return out;
}

std::string sanitize_text(std::string_view text, bool keep_carriage_return) {
    return replace_unless(text, [&](char32_t cp) { return !is_control(cp, keep_carriage_return); });
}

std::string sanitize_xml_text(std::string_view text) {
    return replace_unless(text, [](char32_t cp) { return !is_control(cp, true) && cp != 0xFFFE && cp != 0xFFFF; });
}

std::uint32_t code_points_in_prefix(std::string_view text, std::size_t bytes) {
    if (bytes > text.size()) bytes = text.size();
    std::uint32_t n = 0;
    for (std::size_t at = 0; at < bytes; ++n) at += decode(text, at).length;
    return n;
}

}  // namespace modeaudit
