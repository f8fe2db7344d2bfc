#include "report/pdf.h"

#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <set>

#include "report/subprocess.h"

namespace modeaudit {

namespace {

// Code points of valid UTF-8 text (the Markdown is built from JSON strings,
// which nlohmann validated); a stray byte is skipped.
std::set<char32_t> code_points_above_ascii(const std::string& s) {
    std::set<char32_t> out;
    for (std::size_t i = 0; i < s.size();) {
        auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        int len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (len == 0 || i + static_cast<std::size_t>(len) > s.size()) {
            ++i;
            continue;
        }
        char32_t cp = len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
        for (int k = 1; k < len; ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3Fu);
        out.insert(cp);
        i += static_cast<std::size_t>(len);
    }
    return out;
}

// What pdflatex's inputenc (utf8, T1, textcomp) already typesets: Latin-1,
// Latin Extended-A and the common punctuation.
// (TeX Live 2022 has no T1 glyph for U+0126, 0127, 0138, 013F, 0140, 0149,
// 0166, 0167 and 017F: Ħ ħ ĸ Ŀ ŀ ŉ Ŧ ŧ ſ; measured letter by letter.)
bool pdflatex_knows(char32_t cp) {
    switch (cp) {
        case 0x126: case 0x127: case 0x138: case 0x13F: case 0x140: case 0x149: case 0x166:
        case 0x167: case 0x17F:
            return false;
        default:
            break;
    }
    if (cp >= 0xA0 && cp <= 0x17F) return true;
    switch (cp) {
        case 0x2013: case 0x2014: case 0x2018: case 0x2019: case 0x201A: case 0x201C:
        case 0x201D: case 0x201E: case 0x2020: case 0x2021: case 0x2022: case 0x2026:
        case 0x2030: case 0x20AC:
            return true;
        default:
            return false;
    }
}

// Mathematical characters a model or a canonical printer may use.
const std::map<char32_t, std::string_view>& math_symbols() {
    static const std::map<char32_t, std::string_view> table = {
        {0x0391, "A"}, {0x0392, "B"}, {0x0393, "\\Gamma"}, {0x0394, "\\Delta"}, {0x0395, "E"},
        {0x0396, "Z"}, {0x0397, "H"}, {0x0398, "\\Theta"}, {0x0399, "I"}, {0x039A, "K"},
        {0x039B, "\\Lambda"}, {0x039C, "M"}, {0x039D, "N"}, {0x039E, "\\Xi"}, {0x039F, "O"},
        {0x03A0, "\\Pi"}, {0x03A1, "P"}, {0x03A3, "\\Sigma"}, {0x03A4, "T"}, {0x03A5, "\\Upsilon"},
        {0x03A6, "\\Phi"}, {0x03A7, "X"}, {0x03A8, "\\Psi"}, {0x03A9, "\\Omega"},
        {0x03B1, "\\alpha"}, {0x03B2, "\\beta"}, {0x03B3, "\\gamma"}, {0x03B4, "\\delta"},
        {0x03B5, "\\epsilon"}, {0x03B6, "\\zeta"}, {0x03B7, "\\eta"}, {0x03B8, "\\theta"},
        {0x03B9, "\\iota"}, {0x03BA, "\\kappa"}, {0x03BB, "\\lambda"}, {0x03BC, "\\mu"},
        {0x03BD, "\\nu"}, {0x03BE, "\\xi"}, {0x03BF, "o"}, {0x03C0, "\\pi"}, {0x03C1, "\\rho"},
        {0x03C2, "\\varsigma"}, {0x03C3, "\\sigma"}, {0x03C4, "\\tau"}, {0x03C5, "\\upsilon"},
        {0x03C6, "\\phi"}, {0x03C7, "\\chi"}, {0x03C8, "\\psi"}, {0x03C9, "\\omega"},
        {0x03D1, "\\vartheta"}, {0x03D5, "\\varphi"}, {0x03F5, "\\varepsilon"},
        {0x2190, "\\leftarrow"}, {0x2192, "\\rightarrow"}, {0x2194, "\\leftrightarrow"},
        {0x21D0, "\\Leftarrow"}, {0x21D2, "\\Rightarrow"}, {0x21D4, "\\Leftrightarrow"},
        {0x2202, "\\partial"}, {0x2207, "\\nabla"}, {0x2208, "\\in"}, {0x2211, "\\sum"},
        {0x2212, "-"}, {0x221A, "\\surd"}, {0x221E, "\\infty"}, {0x222B, "\\int"},
        {0x2248, "\\approx"}, {0x2260, "\\neq"}, {0x2261, "\\equiv"}, {0x2264, "\\leq"},
        {0x2265, "\\geq"}, {0x22C5, "\\cdot"}, {0x2227, "\\wedge"}, {0x2228, "\\vee"},
        {0x00D7, "\\times"}, {0x0127, "\\hbar"},
    };
    return table;
}

}  // namespace

std::string latex_header(const std::string& markdown, const PdfOptions& options) {
    std::string h;
    if (options.reproducible) h += "\\ifdefined\\pdftrailerid\\pdftrailerid{}\\fi\n";
    // Pictures at most 0.45 of the text height (the template's \maxheight
    // is the whole page): a tall mode graph then leaves room for its
    // caption and the text around it. Set here rather than as a Pandoc
    // attribute on the image, which a code forge would show as text.
    h += "\\makeatletter\\def\\maxheight{\\ifdim\\Gin@nat@height>0.45\\textheight 0.45\\textheight\\else"
         "\\Gin@nat@height\\fi}\\makeatother\n";
    // Figures stay where the text puts them (float.sty, Debian's
    // texlive-latex-recommended), so none drifts past the provenance at
    // the end.
    h += "\\usepackage{float}\\floatplacement{figure}{H}\n";
    if (options.pdf_engine != "pdflatex") return h;
    for (char32_t cp : code_points_above_ascii(markdown)) {
        if (pdflatex_knows(cp)) continue;
        auto it = math_symbols().find(cp);
        if (it != math_symbols().end())
            h += fmt::format("\\DeclareUnicodeCharacter{{{:04X}}}{{\\ensuremath{{{}}}}}\n",
                             static_cast<std::uint32_t>(cp), it->second);
        else
            h += fmt::format("\\DeclareUnicodeCharacter{{{:04X}}}{{[U+{:04X}]}}\n",
                             static_cast<std::uint32_t>(cp), static_cast<std::uint32_t>(cp));
    }
    return h;
}

std::vector<std::string> pandoc_arguments(const std::string& markdown_file,
                                          const std::string& pdf_file, const std::string& header,
                                          const PdfOptions& options) {
    std::vector<std::string> args = {
        options.pandoc,
        "--from=markdown-raw_tex-raw_html-raw_attribute-tex_math_single_backslash"
        "-citations-smart-yaml_metadata_block",
        "--standalone",
        "--pdf-engine=" + options.pdf_engine,
        "--variable=geometry:margin=2cm",
        "--variable=papersize:a4",
        "--variable=colorlinks:true",
        "--resource-path=.",
    };
    if (!header.empty()) args.push_back("--variable=header-includes:" + header);
    args.push_back("--output=" + pdf_file);
    args.push_back("--");
    args.push_back(markdown_file);
    return args;
}

namespace {
// The last `count` non-empty lines of a program's output, indented.
std::string last_lines(const std::string& text, std::size_t count) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        auto nl = text.find('\n', start);
        std::string l = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
        if (l.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(l);
        if (nl == std::string::npos) break;
        start = nl + 1;
    }
    std::string out;
    for (std::size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i)
        out += "  " + lines[i] + "\n";
    return out;
}
}  // namespace

bool build_pdf(const std::filesystem::path& dir, const std::string& markdown_file,
               const std::string& markdown, const std::string& pdf_file,
               const PdfOptions& options, std::ostream& err) {
    ProcessOptions po;
    po.working_dir = dir;
    po.timeout_seconds = options.timeout_seconds;
    if (options.reproducible) {
        const char* epoch = std::getenv("SOURCE_DATE_EPOCH");
        po.env.emplace_back("SOURCE_DATE_EPOCH", epoch && *epoch ? epoch : "0");
        po.env.emplace_back("FORCE_SOURCE_DATE", "1");
    }
    std::error_code ec;
    std::filesystem::remove(dir / pdf_file, ec);  // never leave an old PDF that looks current
    ProcessResult r = run_process(
        pandoc_arguments(markdown_file, pdf_file, latex_header(markdown, options), options), po);
    const std::string hint = fmt::format(
        "install pandoc and a LaTeX engine (Debian: pandoc texlive-latex-recommended "
        "texlive-fonts-recommended lmodern), or pass --no-pdf to write Markdown and JSON only");
    if (!r.started) {
        err << fmt::format("modeaudit: error: cannot make the PDF: pandoc ('{}') {}; {}\n",
                           options.pandoc, r.describe(), hint);
        return false;
    }
    if (r.timed_out) {
        err << fmt::format(
            "modeaudit: error: cannot make the PDF: pandoc did not finish within {} s and was "
            "stopped\n{}",
            options.timeout_seconds, last_lines(r.output, 8));
        return false;
    }
    if (r.exit_code != 0 || r.signal != 0) {
        bool engine_missing = r.output.find("not found") != std::string::npos;
        err << fmt::format("modeaudit: error: cannot make the PDF: pandoc {} (PDF engine {}){}\n{}",
                           r.describe(), options.pdf_engine,
                           engine_missing ? "; " + hint : std::string(), last_lines(r.output, 8));
        return false;
    }
    if (!std::filesystem::exists(dir / pdf_file)) {
        err << fmt::format("modeaudit: error: cannot make the PDF: pandoc succeeded but wrote no {}\n",
                           pdf_file);
        return false;
    }
    return true;
}

}  // namespace modeaudit
