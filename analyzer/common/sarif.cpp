#include "common/sarif.h"

#include <cctype>
#include <map>

#include <fmt/format.h>

#include "common/sha256.h"
#include "common/text_sanitize.h"

namespace modeaudit {

namespace {

constexpr std::string_view kSourceRootBase = "%SRCROOT%";

// A path as a URI reference (RFC 3986): every byte but the unreserved
// characters and '/' percent-encoded, so that "my model.mo" or "c:x.mo"
// stay valid and a byte that is not UTF-8 survives as its escape.
std::string percent_encode(std::string_view path) {
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

// Markdown emphasis and code marks dropped, for the plain `text` forms.
std::string plain(std::string_view markdown) {
    std::string out;
    for (std::size_t i = 0; i < markdown.size(); ++i) {
        if (markdown[i] == '`') continue;
        if (markdown[i] == '*' && i + 1 < markdown.size() && markdown[i + 1] == '*') {
            ++i;
            continue;
        }
        out += markdown[i];
    }
    return out;
}

// The first paragraph of the page's "## What it means" section, joined into
// one line; empty when the page has no such section.
std::string what_it_means(std::string_view page) {
    const std::string_view heading = "## What it means";
    std::size_t at = page.find(heading);
    if (at == std::string_view::npos) return {};
    at = page.find('\n', at);
    if (at == std::string_view::npos) return {};
    std::string para;
    while (at < page.size()) {
        std::size_t end = page.find('\n', at + 1);
        if (end == std::string_view::npos) end = page.size();
        std::string_view line = page.substr(at + 1, end - at - 1);
        at = end;
        if (line.empty() || line.starts_with("#")) {
            if (para.empty() && line.empty()) continue;
            break;
        }
        if (!para.empty()) para += ' ';
        para.append(line);
    }
    return para;
}

// Whitespace runs collapsed to one space, ends trimmed.
std::string collapse_space(std::string_view s) {
    std::string out;
    bool space = false;
    for (char c : s) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

// "line 23" and "lines 4" lose their number: a message that cites a line of
// the model keeps its fingerprint when lines move.
std::string without_line_numbers(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        out += s[i];
        bool word = (i + 4 <= s.size()) && s.substr(i, 4) == "line" &&
                    (i == 0 || !std::isalnum(static_cast<unsigned char>(s[i - 1])));
        ++i;
        if (!word) continue;
        out += s.substr(i, 3);  // "ine"
        i += 3;
        if (i < s.size() && s[i] == 's') out += s[i++];
        if (i < s.size() && s[i] == ' ' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
            out += " #";
            ++i;
            while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        }
    }
    return out;
}

// A byte column of the pipeline as the code-point column SARIF counts.
std::uint32_t code_point_column(const SourceManager& sm, const SourceLocation& loc) {
    if (loc.column == 0) return 1;
    std::string_view line = sm.line_text(loc.file, loc.line);
    return code_points_in_prefix(line, loc.column - 1) + 1;
}

Json region_of(const Diagnostic& d, const SourceManager& sm) {
    Json region;
    const SourceLocation& b = d.range.begin;
    region["startLine"] = b.line;
    region["startColumn"] = code_point_column(sm, b);
    const SourceLocation& e = d.range.end;
    if (e.valid() && e.file == b.file && e.line >= b.line) {
        std::uint32_t end_column = code_point_column(sm, e);
        if (e.line > b.line || end_column >= region["startColumn"].get<std::uint32_t>()) {
            region["endLine"] = e.line;
            region["endColumn"] = end_column;
        }
    }
    return region;
}

}  // namespace

Json sarif_rule(const Rule& r) {
    Json jr;
    jr["id"] = std::string(r.id);
    // The rule id is kebab-case; `name` is its PascalCase form, as the
    // specification recommends for a rule's readable identifier.
    std::string name;
    bool upper = true;
    for (char c : r.id) {
        if (c == '-') {
            upper = true;
            continue;
        }
        name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    jr["name"] = name;
    const std::string summary = sanitize_text(r.summary);
    jr["shortDescription"] = {{"text", summary}};
    const std::string page = sanitize_text(rule_doc(r.id));
    const std::string full = what_it_means(page);
    if (full.empty())
        jr["fullDescription"] = {{"text", summary}};
    else
        jr["fullDescription"] = {{"text", plain(full)}, {"markdown", full}};
    jr["defaultConfiguration"] = {{"level", sarif_level(r.severity)}};
    if (!page.empty())
        jr["help"] = {{"text", plain(page)}, {"markdown", page}};
    else
        jr["help"] = {{"text", summary}};
    jr["properties"] = {{"tags", Json::array({std::string(r.family()),
                                              r.kind == RuleKind::input ? "input" : "finding"})}};
    return jr;
}

Json sarif_artifact_location(const std::string& path, const std::filesystem::path& root) {
    namespace fs = std::filesystem;
    if (path == "-" || path == "<stdin>") return Json{{"uri", "stdin"}};
    std::error_code ec;
    fs::path base = root.empty() ? fs::current_path(ec) : fs::absolute(root, ec);
    fs::path file = fs::absolute(fs::path(path), ec);
    if (ec) return Json{{"uri", percent_encode(sanitize_text(path))}};
    base = base.lexically_normal();
    file = file.lexically_normal();
    fs::path rel = file.lexically_relative(base);
    const std::string r = rel.generic_string();
    if (!rel.empty() && r != "." && !r.starts_with("../") && r != "..")
        return Json{{"uri", percent_encode(r)}, {"uriBaseId", std::string(kSourceRootBase)}};
    // Outside the source root: an absolute file: URI (RFC 8089).
    return Json{{"uri", "file://" + percent_encode(file.generic_string())}};
}

std::string sarif_fingerprint(const Diagnostic& d, const SourceManager& sm, const std::string& uri) {
    std::string key = d.rule + '\0' + uri + '\0';
    if (d.range.valid()) key += collapse_space(sm.line_text(d.range.begin.file, d.range.begin.line));
    key += '\0' + without_line_numbers(d.message);
    return sha256_hex(key);
}

Json sarif_log(std::span<const SarifModel> models, const SarifOptions& options, const SarifInvocation& invocation) {
    Json rules = Json::array();
    std::map<std::string, std::size_t> rule_index;
    for (const Rule& r : all_rules()) {
        rule_index[std::string(r.id)] = rules.size();
        rules.push_back(sarif_rule(r));
    }

    Json artifacts = Json::array();
    std::map<std::string, std::size_t> artifact_index;  // by uri (with its base)
    auto artifact = [&](const std::string& path) {
        Json loc = sarif_artifact_location(path, options.source_root);
        const std::string key = loc.value("uriBaseId", std::string()) + "|" + loc["uri"].get<std::string>();
        auto [it, added] = artifact_index.emplace(key, artifacts.size());
        if (added) artifacts.push_back({{"location", loc}, {"roles", Json::array({"analysisTarget"})}});
        loc["index"] = it->second;
        return loc;
    };

    Json results = Json::array();
    Json notifications = Json::array();
    std::map<std::string, int> seen_fingerprints;
    for (const SarifModel& m : models) {
        Json model_location = artifact(m.path);
        if (!m.failure.empty()) {
            notifications.push_back(
                {{"level", "error"},
                 {"message", {{"text", sanitize_text(m.failure)}}},
                 {"locations", Json::array({Json{{"physicalLocation", {{"artifactLocation", model_location}}}}})}});
        }
        if (!m.sink || !m.sources) continue;
        for (const Diagnostic& d : m.sink->all()) {
            Json res;
            res["ruleId"] = d.rule;
            if (auto it = rule_index.find(d.rule); it != rule_index.end()) res["ruleIndex"] = it->second;
            res["level"] = sarif_level(d.severity);
            std::string text = d.message;
            for (const std::string& n : d.notes) text += "\nnote: " + n;
            res["message"] = {{"text", sanitize_text(text)}};
            Json where;
            if (d.range.valid()) {
                where = artifact(m.sources->path(d.range.begin.file));
                res["locations"] = Json::array(
                    {Json{{"physicalLocation", {{"artifactLocation", where}, {"region", region_of(d, *m.sources)}}}}});
            } else {
                // A finding about the model as a whole is placed on its file's
                // first line: code scanning shows only results with a region.
                where = model_location;
                res["locations"] = Json::array(
                    {Json{{"physicalLocation", {{"artifactLocation", where}, {"region", {{"startLine", 1}, {"startColumn", 1}}}}}}});
            }
            const std::string uri = where.value("uriBaseId", std::string()) + where["uri"].get<std::string>();
            std::string fp = sarif_fingerprint(d, *m.sources, uri);
            if (int n = ++seen_fingerprints[fp]; n > 1) fp.append(fmt::format(":{}", n));
            res["partialFingerprints"] = {{"modeauditFinding/v1", fp}};
            if (d.suppressed) res["suppressions"] = Json::array({Json{{"kind", "inSource"}}});
            results.push_back(res);
        }
    }

    Json driver;
    driver["name"] = "modeaudit";
    driver["version"] = options.tool_version;
    // semanticVersion: the version is MAJOR.MINOR.PATCH (common/version.h)
    driver["semanticVersion"] = options.tool_version;
    if (!options.information_uri.empty()) driver["informationUri"] = options.information_uri;
    driver["rules"] = rules;
    Json inv;
    inv["executionSuccessful"] = invocation.execution_successful;
    inv["exitCode"] = invocation.exit_code;
    if (!notifications.empty()) inv["toolExecutionNotifications"] = notifications;
    Json run;
    run["tool"] = {{"driver", driver}};
    run["invocations"] = Json::array({inv});
    run["automationDetails"] = {{"id", sanitize_text(options.category) + "/"}};
    run["columnKind"] = "unicodeCodePoints";
    run["artifacts"] = artifacts;
    run["results"] = results;
    Json log;
    log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
    log["version"] = "2.1.0";
    log["runs"] = Json::array({run});
    return log;
}

Json diagnostics_to_sarif(const DiagnosticSink& sink, const SourceManager& sm, const std::string& version) {
    SarifModel m;
    m.path = sink.all().empty() || !sink.all().front().range.valid() ? std::string("model.mo")
                                                                      : sm.path(sink.all().front().range.begin.file);
    m.sources = &sm;
    m.sink = &sink;
    SarifOptions o;
    o.tool_version = version;
    SarifInvocation inv;
    inv.exit_code = sink.has_input_errors() ? 2 : sink.has_errors() ? 1 : 0;
    return sarif_log(std::span<const SarifModel>(&m, 1), o, inv);
}

}  // namespace modeaudit
