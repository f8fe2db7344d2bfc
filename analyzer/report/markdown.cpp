#include "report/markdown.h"

#include <algorithm>

namespace modeaudit::md {

namespace {

// The ASCII characters escaped in text: Markdown syntax (emphasis, code,
// links, tables, headings, lists), Pandoc's extensions (math `$`,
// citations `@`, sub/superscript `~ ^`, raw TeX `\`, raw HTML `< > &`,
// attributes `{ }`). A backslash before any ASCII punctuation is a literal
// in Pandoc and in CommonMark. `-`, `+` and digits followed by `.` matter
// only at the start of a line, where the report never puts model text
// (it always follows a label, a list marker or a table pipe), so numbers
// and expressions stay readable (-0.8, x + y).
constexpr std::string_view kEscaped = "\\`*_{}[]<>#|$~^@&";

std::size_t longest_run(std::string_view s, char c) {
    std::size_t best = 0, run = 0;
    for (char ch : s) {
        run = ch == c ? run + 1 : 0;
        best = std::max(best, run);
    }
    return best;
}

std::string one_line(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) out += static_cast<unsigned char>(c) < 0x20 || c == 0x7F ? ' ' : c;
    return out;
}

}  // namespace

std::string text(std::string_view s) {
    std::string out;
    out.reserve(s.size() + s.size() / 4);
    for (char c : one_line(s)) {
        if (kEscaped.find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

std::string code(std::string_view s) {
    std::string body = one_line(s);
    if (body.empty()) return "` `";
    std::string fence(longest_run(body, '`') + 1, '`');
    bool pad = body.front() == '`' || body.back() == '`' || body.front() == ' ';
    return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string cell_code(std::string_view s) {
    if (s.find('|') != std::string_view::npos) return text(s);
    return code(s);
}

std::string code_block(const std::vector<std::string>& lines) {
    std::size_t run = 2;
    for (const std::string& l : lines) run = std::max(run, longest_run(l, '~'));
    std::string fence(run + 1, '~');
    std::string out = fence + "\n";
    for (const std::string& l : lines) {
        for (char c : l) out += (static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7F ? ' ' : c;
        out += "\n";
    }
    out += fence + "\n";
    return out;
}

std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows,
                  const std::vector<int>& widths) {
    auto line = [&](const std::vector<std::string>& cells) {
        std::string l = "|";
        for (std::size_t i = 0; i < header.size(); ++i)
            l += " " + (i < cells.size() && !cells[i].empty() ? cells[i] : std::string(" ")) + " |";
        return l + "\n";
    };
    std::string out = line(header);
    out += "|";
    for (std::size_t i = 0; i < header.size(); ++i)
        out += std::string(i < widths.size() && widths[i] > 3 ? static_cast<std::size_t>(widths[i]) : 3, '-') + "|";
    out += "\n";
    for (const auto& r : rows) out += line(r);
    return out;
}

std::string join(const std::vector<std::string>& items, std::string_view none) {
    if (items.empty()) return std::string(none);
    std::string out;
    for (const std::string& i : items) out += (out.empty() ? "" : ", ") + i;
    return out;
}

}  // namespace modeaudit::md
