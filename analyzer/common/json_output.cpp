#include "common/json_output.h"

#include <fmt/format.h>

#include "common/text_sanitize.h"

namespace modeaudit {

std::string json_document(const Json& j, int indent) {
    return escape_bidi_characters(j.dump(indent, ' ', false, Json::error_handler_t::replace)) + "\n";
}

Json diagnostic_to_json(const Diagnostic& d, const SourceManager& sm) {
    Json j;
    j["rule"] = d.rule;
    j["severity"] = std::string(severity_name(d.severity));
    j["message"] = d.message;
    if (d.range.valid()) {
        j["file"] = sm.path(d.range.begin.file);
        j["line"] = d.range.begin.line;
        j["column"] = d.range.begin.column;
        if (d.range.end.valid()) {
            j["end_line"] = d.range.end.line;
            j["end_column"] = d.range.end.column;
        }
    } else {
        j["file"] = nullptr;
        j["line"] = nullptr;
        j["column"] = nullptr;
    }
    j["notes"] = d.notes;
    if (d.suppressed) j["suppressed"] = true;
    return j;
}

Json diagnostics_to_json(const DiagnosticSink& sink, const SourceManager& sm) {
    Json arr = Json::array();
    for (const Diagnostic& d : sink.all()) arr.push_back(diagnostic_to_json(d, sm));
    return arr;
}

std::string format_double(double v) { return fmt::format("{:.17g}", v); }

}  // namespace modeaudit
