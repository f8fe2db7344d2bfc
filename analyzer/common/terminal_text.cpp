#include "common/terminal_text.h"

#include <fmt/format.h>

#include "common/text_sanitize.h"

namespace modeaudit {

namespace {

// The length of the valid UTF-8 sequence starting at `i` (0: invalid);
// overlong forms, surrogates and code points above U+10FFFF are invalid.
std::size_t utf8_length(std::string_view s, std::size_t i, unsigned& code_point) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned c = b(i);
    std::size_t n = 0;
    unsigned min = 0;
    if (c < 0x80) {
        code_point = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        code_point = c & 0x1F;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        code_point = c & 0x0F;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        code_point = c & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) return 0;
        code_point = (code_point << 6) | (b(i + k) & 0x3F);
    }
    if (code_point < min || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF)) return 0;
    return n;
}

}  // namespace

std::string terminal_safe(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        unsigned cp = 0;
        const std::size_t n = utf8_length(text, i, cp);
        const bool control = n > 0 && ((cp < 0x20 && cp != '\n' && cp != '\t') || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F));
        if (n > 0 && is_bidi_format_character(cp)) {
            out += bidi_escape(cp);  // printed raw, it would reorder the line around it
            i += n;
            continue;
        }
        if (n == 0 || control) {
            const std::size_t bytes = n == 0 ? 1 : n;
            for (std::size_t k = 0; k < bytes; ++k)
                out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i + k]));
            i += bytes;
            continue;
        }
        out.append(text.substr(i, n));
        i += n;
    }
    return out;
}

TerminalSafeStream::TerminalSafeStream(std::ostream& target) : std::ostream(nullptr), buffer_(target) {
    rdbuf(&buffer_);
}

TerminalSafeStream::~TerminalSafeStream() { buffer_.flush_line(); }

void TerminalSafeStream::LineBuffer::flush_line() {
    if (line_.empty()) return;
    target_ << terminal_safe(line_);
    target_.flush();
    line_.clear();
}

TerminalSafeStream::LineBuffer::int_type TerminalSafeStream::LineBuffer::overflow(int_type c) {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    line_.push_back(traits_type::to_char_type(c));
    if (c == '\n') flush_line();
    return c;
}

int TerminalSafeStream::LineBuffer::sync() {
    flush_line();
    return 0;
}

}  // namespace modeaudit
