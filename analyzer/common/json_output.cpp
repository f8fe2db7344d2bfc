#include "common/json_output.h"

#include <cctype>

#include <fmt/format.h>

namespace modeaudit {

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

namespace {
// A file path as a SARIF artifact URI (a relative or absolute URI
// reference, RFC 3986): every byte but the unreserved characters and '/'
// percent-encoded, so that "my model.mo", "<stdin>" or "c:x.mo" stay valid.
std::string uri_reference(const std::string& path) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (char c : path) {
        auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
            out += c;
        } else {
            out += '%';
            out += kHex[u >> 4];
            out += kHex[u & 0xF];
        }
    }
    return out;
}

std::string sarif_level(Severity s) {
    switch (s) {
        case Severity::error: return "error";
        case Severity::warning: return "warning";
        case Severity::note: return "note";
    }
    return "error";
}
}  // namespace

Json diagnostics_to_sarif(const DiagnosticSink& sink, const SourceManager& sm,
                          const std::string& version) {
    Json rules = Json::array();
    for (const Rule& r : all_rules()) {
        Json jr;
        jr["id"] = std::string(r.id);
        jr["shortDescription"] = {{"text", std::string(r.summary)}};
        jr["defaultConfiguration"] = {{"level", sarif_level(r.severity)}};
        rules.push_back(jr);
    }
    Json results = Json::array();
    for (const Diagnostic& d : sink.all()) {
        Json res;
        res["ruleId"] = d.rule;
        res["level"] = sarif_level(d.severity);
        std::string text = d.message;
        for (const std::string& n : d.notes) text += "\nnote: " + n;
        res["message"] = {{"text", text}};
        if (d.range.valid()) {
            Json region;
            region["startLine"] = d.range.begin.line;
            region["startColumn"] = d.range.begin.column;
            if (d.range.end.valid() && d.range.end.file == d.range.begin.file) {
                region["endLine"] = d.range.end.line;
                region["endColumn"] = d.range.end.column;
            }
            res["locations"] = Json::array({Json{
                {"physicalLocation",
                 {{"artifactLocation", {{"uri", uri_reference(sm.path(d.range.begin.file))}}},
                  {"region", region}}}}});
        }
        if (d.suppressed)
            res["suppressions"] = Json::array({Json{{"kind", "inSource"}}});
        results.push_back(res);
    }
    Json driver;
    driver["name"] = "modeaudit";
    driver["version"] = version;
    driver["informationUri"] = "https://example.invalid/modeaudit";
    driver["rules"] = rules;
    Json run;
    run["tool"] = {{"driver", driver}};
    run["results"] = results;
    Json log;
    log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
    log["version"] = "2.1.0";
    log["runs"] = Json::array({run});
    return log;
}

std::string format_double(double v) { return fmt::format("{:.17g}", v); }

}  // namespace modeaudit
