#include "regress/expectations.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>

namespace modeaudit {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

bool parse_uint(std::string_view s, std::uint32_t& out) {
    if (s.empty()) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

// `rule [at L[:C]] ["substring"]`
bool parse_expect(std::string_view body, ExpectedDiagnostic& e, std::string& error) {
    body = trim(body);
    std::size_t quote = body.find('"');
    if (quote != std::string_view::npos) {
        std::size_t close = body.rfind('"');
        if (close == quote) {
            error = "unterminated quoted message";
            return false;
        }
        e.message_contains = std::string(body.substr(quote + 1, close - quote - 1));
        body = trim(body.substr(0, quote));
    }
    std::size_t sp = body.find(' ');
    e.rule = std::string(body.substr(0, sp));
    if (e.rule.empty()) {
        error = "missing rule id";
        return false;
    }
    if (!find_rule(e.rule)) {
        error = fmt::format("unknown rule '{}'", e.rule);
        return false;
    }
    if (sp == std::string_view::npos) return true;
    std::string_view rest = trim(body.substr(sp));
    if (rest.substr(0, 3) != "at ") {
        error = fmt::format("expected 'at LINE:COL' after the rule, found '{}'", rest);
        return false;
    }
    rest = trim(rest.substr(3));
    std::size_t colon = rest.find(':');
    if (!parse_uint(rest.substr(0, colon), e.line) ||
        (colon != std::string_view::npos && !parse_uint(rest.substr(colon + 1), e.column))) {
        error = fmt::format("bad location '{}'", rest);
        return false;
    }
    return true;
}

}  // namespace

CorpusExpectations read_expectations(std::string_view text) {
    CorpusExpectations ex;
    std::uint32_t lineno = 0;
    std::size_t pos = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // a UTF-8 byte order mark
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        std::string_view line = text.substr(pos, nl == std::string_view::npos ? text.size() - pos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        ++lineno;
        line = trim(line);
        if (line.empty()) continue;
        if (line.substr(0, 2) != "//") break;  // the leading comment block ends
        line = trim(line.substr(2));
        std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        std::string_view key = trim(line.substr(0, colon));
        std::string_view value = trim(line.substr(colon + 1));
        if (key == "status") {
            ex.status = std::string(value);
            if (ex.status != "good" && ex.status != "flawed")
                ex.header_errors.push_back(
                    fmt::format("line {}: status must be good or flawed, not '{}'", lineno, value));
        } else if (key == "model") {
            ex.model = std::string(value);
        } else if (key == "stage") {
            ex.stage = std::string(value);
        } else if (key == "library") {
            ex.libraries.emplace_back(value);
        } else if (key == "pending") {
            std::string id(value.substr(0, value.find(' ')));
            if (find_rule(id))
                ex.header_errors.push_back(fmt::format(
                    "line {}: rule '{}' is built now; turn 'pending:' into 'expect:' with its location", lineno, id));
            else
                ex.pending.push_back(id);
        } else if (key == "expect") {
            ExpectedDiagnostic e;
            e.header_line = lineno;
            std::string error;
            if (parse_expect(value, e, error))
                ex.diagnostics.push_back(std::move(e));
            else
                ex.header_errors.push_back(fmt::format("line {}: {}", lineno, error));
        }
    }
    if (ex.status.empty()) ex.header_errors.push_back("no '// status: good|flawed' line");
    bool expects_error = false;
    for (const ExpectedDiagnostic& e : ex.diagnostics)
        if (auto r = find_rule(e.rule); r && r->severity == Severity::error) expects_error = true;
    if (ex.status == "flawed" && !expects_error && ex.pending.empty())
        ex.header_errors.push_back("a flawed model must expect at least one error");
    if (ex.status == "good" && (expects_error || !ex.pending.empty()))
        ex.header_errors.push_back("a good model cannot expect an error");
    return ex;
}

std::vector<std::string> compare_diagnostics(const CorpusExpectations& expected,
                                             const DiagnosticSink& sink, const SourceManager& sm) {
    std::vector<std::string> mismatches = expected.header_errors;
    const auto& got = sink.all();
    std::vector<bool> used(got.size(), false);
    for (const ExpectedDiagnostic& e : expected.diagnostics) {
        bool found = false;
        for (std::size_t i = 0; i < got.size() && !found; ++i) {
            const Diagnostic& d = got[i];
            if (used[i] || d.rule != e.rule) continue;
            if (e.line && d.range.begin.line != e.line) continue;
            if (e.column && d.range.begin.column != e.column) continue;
            if (!e.message_contains.empty() && d.message.find(e.message_contains) == std::string::npos)
                continue;
            used[i] = true;
            found = true;
        }
        if (!found)
            mismatches.push_back(fmt::format(
                "missing: {}{}{} (expected on header line {})", e.rule,
                e.line ? fmt::format(" at {}:{}", e.line, e.column) : "",
                e.message_contains.empty() ? "" : " \"" + e.message_contains + "\"", e.header_line));
    }
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!used[i] && !got[i].suppressed) {  // a suppressed finding need not be expected
            std::string text = format_diagnostic(got[i], sm);
            if (!text.empty() && text.back() == '\n') text.pop_back();
            mismatches.push_back("unexpected: " + text);
        }
    return mismatches;
}

}  // namespace modeaudit
