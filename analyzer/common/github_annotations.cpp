#include "common/github_annotations.h"

#include <fmt/format.h>

#include "common/rules.h"
#include "common/text_sanitize.h"

namespace modeaudit {

namespace {

std::uint32_t code_point_column(const SourceManager& sm, const SourceLocation& loc) {
    if (loc.column == 0) return 1;
    return code_points_in_prefix(sm.line_text(loc.file, loc.line), loc.column - 1) + 1;
}

const char* command_of(Severity s) {
    switch (s) {
        case Severity::error: return "error";
        case Severity::warning: return "warning";
        default: return "notice";
    }
}

}  // namespace

std::string github_escape_data(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '%') out += "%25";
        else if (c == '\r') out += "%0D";
        else if (c == '\n') out += "%0A";
        else out += c;
    }
    return out;
}

std::string github_escape_property(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : github_escape_data(text)) {
        if (c == ':') out += "%3A";
        else if (c == ',') out += "%2C";
        else out += c;
    }
    return out;
}

std::string github_annotations(const std::string& model_path, const SourceManager& sources,
                               const DiagnosticSink& sink) {
    std::string out;
    for (const Diagnostic& d : sink.all()) {
        if (d.suppressed) continue;
        std::string message = sanitize_text(d.message);
        for (const std::string& note : d.notes) message += "\nnote: " + sanitize_text(note);
        std::vector<std::string> props;
        if (d.range.valid()) {
            const SourceLocation& b = d.range.begin;
            props.push_back("file=" + github_escape_property(sanitize_text(sources.path(b.file))));
            props.push_back(fmt::format("line={}", b.line));
            props.push_back(fmt::format("col={}", code_point_column(sources, b)));
            const SourceLocation& e = d.range.end;
            if (e.valid() && e.file == b.file && e.line >= b.line) {
                props.push_back(fmt::format("endLine={}", e.line));
                if (e.line == b.line && e.column > b.column)
                    props.push_back(fmt::format("endColumn={}", code_point_column(sources, e)));
            }
        } else {
            message = sanitize_text(model_path) + ": " + message;
        }
        props.push_back("title=" + github_escape_property(d.rule));
        std::string joined;
        for (const std::string& p : props) joined += (joined.empty() ? "" : ",") + p;
        out += fmt::format("::{} {}::{}\n", command_of(d.severity), joined, github_escape_data(message));
    }
    if (sink.dropped())
        out += fmt::format("::warning title=modeaudit::{}\n",
                           github_escape_data(fmt::format("{}: {} more diagnostics not annotated",
                                                          sanitize_text(model_path), sink.dropped())));
    return out;
}

}  // namespace modeaudit
