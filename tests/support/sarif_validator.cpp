#include "support/sarif_validator.h"

#include <cctype>
#include <set>

namespace modeaudit::testing {

namespace {

using Json = nlohmann::ordered_json;

// Property names the SARIF 2.1.0 schema defines for each object we emit.
const std::set<std::string> kSarifLog = {"$schema", "version", "runs", "inlineExternalProperties",
                                         "properties"};
const std::set<std::string> kRun = {
    "tool", "invocations", "conversion", "language", "versionControlProvenance",
    "originalUriBaseIds", "artifacts", "logicalLocations", "graphs", "results",
    "automationDetails", "runAggregates", "baselineGuid", "redactionTokens", "defaultEncoding",
    "defaultSourceLanguage", "newlineSequences", "columnKind", "externalPropertyFileReferences",
    "threadFlowLocations", "taxonomies", "addresses", "translations", "policies", "webRequests",
    "webResponses", "specialLocations", "properties"};
const std::set<std::string> kTool = {"driver", "extensions", "properties"};
const std::set<std::string> kToolComponent = {
    "guid", "name", "organization", "product", "productSuite", "shortDescription",
    "fullDescription", "fullName", "version", "semanticVersion", "dottedQuadFileVersion",
    "releaseDateUtc", "downloadUri", "informationUri", "globalMessageStrings", "notifications",
    "rules", "taxa", "locations", "language", "contents", "isComprehensive",
    "localizedDataSemanticVersion", "minimumRequiredLocalizedDataSemanticVersion",
    "associatedComponent", "translationMetadata", "supportedTaxonomies", "properties"};
const std::set<std::string> kReportingDescriptor = {
    "id", "deprecatedIds", "guid", "deprecatedGuids", "name", "deprecatedNames",
    "shortDescription", "fullDescription", "messageStrings", "defaultConfiguration", "helpUri",
    "help", "relationships", "properties"};
const std::set<std::string> kMultiformatMessage = {"text", "markdown", "properties"};
const std::set<std::string> kReportingConfiguration = {"enabled", "level", "rank", "parameters",
                                                       "properties"};
const std::set<std::string> kResult = {
    "ruleId", "ruleIndex", "rule", "kind", "level", "message", "analysisTarget", "locations",
    "guid", "correlationGuid", "occurrenceCount", "partialFingerprints", "fingerprints", "stacks",
    "codeFlows", "graphs", "graphTraversals", "relatedLocations", "suppressions", "baselineState",
    "rank", "attachments", "hostedViewerUri", "workItemUris", "provenance", "fixes", "taxa",
    "webRequest", "webResponse", "properties"};
const std::set<std::string> kMessage = {"text", "markdown", "id", "arguments", "properties"};
const std::set<std::string> kLocation = {"id", "physicalLocation", "logicalLocations", "message",
                                         "annotations", "relationships", "properties"};
const std::set<std::string> kPhysicalLocation = {"address", "artifactLocation", "region",
                                                 "contextRegion", "properties"};
const std::set<std::string> kArtifactLocation = {"uri", "uriBaseId", "index", "description",
                                                 "properties"};
const std::set<std::string> kRegion = {"startLine", "startColumn", "endLine", "endColumn",
                                       "charOffset", "charLength", "byteOffset", "byteLength",
                                       "snippet", "message", "sourceLanguage", "properties"};
const std::set<std::string> kSuppression = {"guid", "kind", "status", "justification", "location",
                                            "properties"};
const std::set<std::string> kLevels = {"none", "note", "warning", "error"};
const std::set<std::string> kKinds = {"notApplicable", "pass", "fail", "review", "open",
                                      "informational"};

bool hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// RFC 3986 syntax: only unreserved, reserved and percent-encoded octets.
bool uri_characters(const std::string& s) {
    static const std::string allowed =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=";
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%') {
            if (i + 2 >= s.size() || !hex(s[i + 1]) || !hex(s[i + 2])) return false;
            i += 2;
            continue;
        }
        if (allowed.find(s[i]) == std::string::npos) return false;
    }
    return true;
}

// The scheme of an absolute URI ("https" of "https://..."), or "" when the
// text has none (a relative reference).
std::string scheme_of(const std::string& s) {
    auto colon = s.find(':');
    if (colon == std::string::npos || colon == 0) return "";
    auto slash = s.find_first_of("/?#");
    if (slash != std::string::npos && slash < colon) return "";
    if (!std::isalpha(static_cast<unsigned char>(s[0]))) return "";
    for (std::size_t i = 1; i < colon; ++i)
        if (!std::isalnum(static_cast<unsigned char>(s[i])) && s[i] != '+' && s[i] != '-' && s[i] != '.') return "";
    return s.substr(0, colon);
}

// format "uri" (absolute) or "uri-reference" (absolute or relative).
bool valid_uri(const std::string& s, bool absolute) {
    if (!uri_characters(s)) return false;
    if (s.find('[') != std::string::npos || s.find(']') != std::string::npos) return false;  // IP literals only
    std::string scheme = scheme_of(s);
    if (absolute) return !scheme.empty() && s.size() > scheme.size() + 1;
    // A relative reference whose first segment holds ':' would read as a scheme.
    if (scheme.empty()) {
        auto colon = s.find(':');
        auto slash = s.find_first_of("/?#");
        if (colon != std::string::npos && (slash == std::string::npos || colon < slash)) return false;
    }
    return true;
}

const std::set<std::string> kBaselineStates = {"new", "unchanged", "updated", "absent"};
const std::set<std::string> kSuppressionStatus = {"accepted", "underReview", "rejected"};
const std::set<std::string> kColumnKinds = {"utf16CodeUnits", "unicodeCodePoints"};

struct Checker {
    std::vector<std::string> problems;

    void uri(const Json& j, const char* key, const std::string& path, bool absolute) {
        if (!j.contains(key)) return;
        if (!j[key].is_string()) {
            fail(path + "." + key, "must be a string");
            return;
        }
        if (!valid_uri(j[key].get<std::string>(), absolute))
            fail(path + "." + key, absolute ? "must be an absolute URI (RFC 3986)" : "must be a URI reference (RFC 3986)");
    }
    void integer_at_least(const Json& j, const char* key, const std::string& path, long long least) {
        if (!j.contains(key)) return;
        if (!j[key].is_number_integer() || j[key].get<long long>() < least)
            fail(path + "." + key, "must be an integer >= " + std::to_string(least));
    }
    void rank(const Json& j, const std::string& path) {
        if (!j.contains("rank")) return;
        if (!j["rank"].is_number() || j["rank"].get<double>() < -1 || j["rank"].get<double>() > 100)
            fail(path + ".rank", "must be a number from -1 to 100");
    }
    void one_of(const Json& j, const char* key, const std::string& path, const std::set<std::string>& values) {
        if (!j.contains(key)) return;
        if (!j[key].is_string() || !values.count(j[key].get<std::string>())) fail(path + "." + key, "is not one of the schema's values");
    }
    void boolean(const Json& j, const char* key, const std::string& path) {
        if (j.contains(key) && !j[key].is_boolean()) fail(path + "." + key, "must be a boolean");
    }
    // A property bag: an object; its `tags`, if any, unique strings.
    void properties(const Json& j, const std::string& path) {
        if (!j.contains("properties")) return;
        const Json& p = j["properties"];
        if (!p.is_object()) {
            fail(path + ".properties", "must be an object (a property bag)");
            return;
        }
        if (p.contains("tags")) {
            std::set<std::string> seen;
            if (!p["tags"].is_array()) fail(path + ".properties.tags", "must be an array");
            else
                for (const Json& t : p["tags"])
                    if (!t.is_string() || !seen.insert(t.get<std::string>()).second)
                        fail(path + ".properties.tags", "must hold unique strings");
        }
    }

    void fail(const std::string& path, const std::string& what) { problems.push_back(path + ": " + what); }

    bool object(const Json& j, const std::string& path, const std::set<std::string>& allowed) {
        if (!j.is_object()) {
            fail(path, "must be an object");
            return false;
        }
        for (auto it = j.begin(); it != j.end(); ++it)
            if (!allowed.count(it.key())) fail(path + "." + it.key(), "is not a property of this SARIF object");
        properties(j, path);
        return true;
    }
    bool string(const Json& j, const char* key, const std::string& path, bool required) {
        if (!j.contains(key)) {
            if (required) fail(path + "." + key, "is required");
            return false;
        }
        if (!j[key].is_string()) {
            fail(path + "." + key, "must be a string");
            return false;
        }
        return true;
    }
    void positive(const Json& j, const char* key, const std::string& path) {
        if (!j.contains(key)) return;
        if (!j[key].is_number_integer() || j[key].get<long long>() < 1)
            fail(path + "." + key, "must be an integer >= 1");
    }
    void level(const Json& j, const std::string& path) {
        if (!j.contains("level")) return;
        if (!j["level"].is_string() || !kLevels.count(j["level"].get<std::string>()))
            fail(path + ".level", "must be one of none, note, warning, error");
    }
    // A message (text or id required) or, with `multiformat`, a
    // multiformatMessageString (text required).
    void message(const Json& j, const std::string& path, const std::set<std::string>& allowed,
                 bool multiformat = false) {
        if (!object(j, path, allowed)) return;
        if (multiformat) {
            string(j, "text", path, true);
        } else {
            if (!j.contains("text") && !j.contains("id")) fail(path, "needs text (or id)");
            string(j, "text", path, false);
            string(j, "id", path, false);
            if (j.contains("arguments")) {
                if (!j["arguments"].is_array()) fail(path + ".arguments", "must be an array");
                else
                    for (const Json& a : j["arguments"])
                        if (!a.is_string()) fail(path + ".arguments", "must hold strings");
            }
        }
        string(j, "markdown", path, false);
    }

    void rules(const Json& rs, const std::string& path, std::set<std::string>& ids) {
        if (!rs.is_array()) {
            fail(path, "must be an array");
            return;
        }
        for (std::size_t i = 0; i < rs.size(); ++i) {
            std::string p = path + "[" + std::to_string(i) + "]";
            const Json& r = rs[i];
            if (!object(r, p, kReportingDescriptor)) continue;
            if (string(r, "id", p, true) && !ids.insert(r["id"].get<std::string>()).second)
                fail(p + ".id", "repeats " + r["id"].get<std::string>());
            if (r.contains("shortDescription")) message(r["shortDescription"], p + ".shortDescription", kMultiformatMessage, true);
            else fail(p + ".shortDescription", "is required by the output contract");
            if (r.contains("fullDescription")) message(r["fullDescription"], p + ".fullDescription", kMultiformatMessage, true);
            string(r, "name", p, false);
            uri(r, "helpUri", p, true);
            if (r.contains("defaultConfiguration") &&
                object(r["defaultConfiguration"], p + ".defaultConfiguration", kReportingConfiguration)) {
                level(r["defaultConfiguration"], p + ".defaultConfiguration");
                rank(r["defaultConfiguration"], p + ".defaultConfiguration");
                boolean(r["defaultConfiguration"], "enabled", p + ".defaultConfiguration");
            }
        }
    }

    void location(const Json& l, const std::string& p) {
        if (!object(l, p, kLocation)) return;
        if (!l.contains("physicalLocation")) {
            fail(p + ".physicalLocation", "is required by the output contract");
            return;
        }
        const Json& pl = l["physicalLocation"];
        std::string pp = p + ".physicalLocation";
        if (!object(pl, pp, kPhysicalLocation)) return;
        integer_at_least(l, "id", p, -1);
        if (!pl.contains("artifactLocation")) fail(pp + ".artifactLocation", "is required by the output contract");
        else if (object(pl["artifactLocation"], pp + ".artifactLocation", kArtifactLocation)) {
            const Json& al = pl["artifactLocation"];
            std::string ap = pp + ".artifactLocation";
            if (string(al, "uri", ap, true)) uri(al, "uri", ap, false);
            string(al, "uriBaseId", ap, false);
            integer_at_least(al, "index", ap, -1);
        }
        if (!pl.contains("region")) {
            fail(pp + ".region", "is required by the output contract");
            return;
        }
        const Json& r = pl["region"];
        if (!object(r, pp + ".region", kRegion)) return;
        if (!r.contains("startLine")) fail(pp + ".region.startLine", "is required by the output contract");
        if (!r.contains("startColumn")) fail(pp + ".region.startColumn", "is required by the output contract");
        for (const char* k : {"startLine", "startColumn", "endLine", "endColumn"}) positive(r, k, pp + ".region");
        integer_at_least(r, "charOffset", pp + ".region", -1);
        integer_at_least(r, "byteOffset", pp + ".region", -1);
        integer_at_least(r, "charLength", pp + ".region", 0);
        integer_at_least(r, "byteLength", pp + ".region", 0);
        string(r, "sourceLanguage", pp + ".region", false);
        // The specification (3.30.5-3.30.8): a region does not end before it starts.
        auto get = [&](const char* k) -> long long {
            return r.contains(k) && r[k].is_number_integer() ? r[k].get<long long>() : -1;
        };
        long long sl = get("startLine"), sc = get("startColumn"), el = get("endLine"), ec = get("endColumn");
        if (sl >= 1 && el >= 1 && el < sl) fail(pp + ".region.endLine", "must not be before startLine");
        if (sl >= 1 && (el < 1 || el == sl) && sc >= 1 && ec >= 1 && ec < sc)
            fail(pp + ".region.endColumn", "must not be before startColumn on the same line");
    }

    void results(const Json& rs, const std::string& path, const std::set<std::string>& ids) {
        if (!rs.is_array()) {
            fail(path, "must be an array");
            return;
        }
        for (std::size_t i = 0; i < rs.size(); ++i) {
            std::string p = path + "[" + std::to_string(i) + "]";
            const Json& r = rs[i];
            if (!object(r, p, kResult)) continue;
            if (string(r, "ruleId", p, true) && !ids.count(r["ruleId"].get<std::string>()))
                fail(p + ".ruleId", "names no rule of tool.driver.rules");
            if (!r.contains("level")) fail(p + ".level", "is required by the output contract");
            level(r, p);
            if (r.contains("kind") && (!r["kind"].is_string() || !kKinds.count(r["kind"].get<std::string>())))
                fail(p + ".kind", "is not a SARIF result kind");
            integer_at_least(r, "ruleIndex", p, -1);
            integer_at_least(r, "occurrenceCount", p, 1);
            rank(r, p);
            one_of(r, "baselineState", p, kBaselineStates);
            uri(r, "hostedViewerUri", p, true);
            if (!r.contains("message")) fail(p + ".message", "is required");
            else message(r["message"], p + ".message", kMessage);
            if (!r.contains("locations")) {
                fail(p + ".locations", "is required by the output contract (a physicalLocation per finding)");
            } else {
                if (!r["locations"].is_array() || r["locations"].empty()) fail(p + ".locations", "must be a non-empty array");
                else
                    for (std::size_t k = 0; k < r["locations"].size(); ++k)
                        location(r["locations"][k], p + ".locations[" + std::to_string(k) + "]");
            }
            if (r.contains("suppressions")) {
                if (!r["suppressions"].is_array()) fail(p + ".suppressions", "must be an array");
                else
                    for (std::size_t k = 0; k < r["suppressions"].size(); ++k) {
                        const Json& s = r["suppressions"][k];
                        std::string sp = p + ".suppressions[" + std::to_string(k) + "]";
                        for (std::size_t q = 0; q < k; ++q)
                            if (r["suppressions"][q] == s) fail(sp, "repeats an earlier suppression (uniqueItems)");
                        if (!object(s, sp, kSuppression)) continue;
                        one_of(s, "status", sp, kSuppressionStatus);
                        string(s, "justification", sp, false);
                        if (!s.contains("kind") || !s["kind"].is_string() ||
                            (s["kind"] != "inSource" && s["kind"] != "external"))
                            fail(sp + ".kind", "must be inSource or external");
                    }
            }
        }
    }
};

}  // namespace

std::vector<std::string> sarif_problems(const Json& log) {
    Checker c;
    if (!c.object(log, "$", kSarifLog)) return c.problems;
    if (!log.contains("version") || log["version"] != "2.1.0") c.fail("$.version", "must be \"2.1.0\"");
    if (c.string(log, "$schema", "$", true)) {
        std::string s = log["$schema"].get<std::string>();
        if (!valid_uri(s, true)) c.fail("$.$schema", "must be an absolute URI (RFC 3986)");
    }
    if (!log.contains("runs") || !log["runs"].is_array()) {
        c.fail("$.runs", "must be an array");
        return c.problems;
    }
    if (log["runs"].size() != 1) c.fail("$.runs", "the output contract asks for exactly one run");
    for (std::size_t i = 0; i < log["runs"].size(); ++i) {
        std::string p = "$.runs[" + std::to_string(i) + "]";
        const Json& run = log["runs"][i];
        if (!c.object(run, p, kRun)) continue;
        if (!run.contains("tool")) {
            c.fail(p + ".tool", "is required");
            continue;
        }
        if (!c.object(run["tool"], p + ".tool", kTool)) continue;
        if (!run["tool"].contains("driver")) {
            c.fail(p + ".tool.driver", "is required");
            continue;
        }
        const Json& driver = run["tool"]["driver"];
        std::string dp = p + ".tool.driver";
        if (!c.object(driver, dp, kToolComponent)) continue;
        if (c.string(driver, "name", dp, true) && driver["name"] != "modeaudit")
            c.fail(dp + ".name", "must be \"modeaudit\" (output contract)");
        c.string(driver, "version", dp, false);
        c.string(driver, "semanticVersion", dp, false);
        if (c.string(driver, "informationUri", dp, false)) c.uri(driver, "informationUri", dp, true);
        c.uri(driver, "downloadUri", dp, true);
        c.one_of(run, "columnKind", p, kColumnKinds);
        std::set<std::string> ids;
        if (driver.contains("rules")) c.rules(driver["rules"], dp + ".rules", ids);
        else c.fail(dp + ".rules", "must list every rule (output contract)");
        if (run.contains("results")) c.results(run["results"], p + ".results", ids);
    }
    return c.problems;
}

}  // namespace modeaudit::testing
