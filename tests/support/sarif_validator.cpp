#include "support/sarif_validator.h"

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

struct Checker {
    std::vector<std::string> problems;

    void fail(const std::string& path, const std::string& what) { problems.push_back(path + ": " + what); }

    bool object(const Json& j, const std::string& path, const std::set<std::string>& allowed) {
        if (!j.is_object()) {
            fail(path, "must be an object");
            return false;
        }
        for (auto it = j.begin(); it != j.end(); ++it)
            if (!allowed.count(it.key())) fail(path + "." + it.key(), "is not a property of this SARIF object");
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
    void message(const Json& j, const std::string& path, const std::set<std::string>& allowed) {
        if (!object(j, path, allowed)) return;
        if (!j.contains("text") && !j.contains("id")) fail(path, "needs text (or id)");
        string(j, "text", path, false);
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
            if (r.contains("shortDescription")) message(r["shortDescription"], p + ".shortDescription", kMultiformatMessage);
            else fail(p + ".shortDescription", "is required by the output contract");
            if (r.contains("defaultConfiguration") &&
                object(r["defaultConfiguration"], p + ".defaultConfiguration", kReportingConfiguration))
                level(r["defaultConfiguration"], p + ".defaultConfiguration");
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
        if (!pl.contains("artifactLocation")) fail(pp + ".artifactLocation", "is required by the output contract");
        else if (object(pl["artifactLocation"], pp + ".artifactLocation", kArtifactLocation))
            string(pl["artifactLocation"], "uri", pp + ".artifactLocation", true);
        if (!pl.contains("region")) {
            fail(pp + ".region", "is required by the output contract");
            return;
        }
        const Json& r = pl["region"];
        if (!object(r, pp + ".region", kRegion)) return;
        if (!r.contains("startLine")) fail(pp + ".region.startLine", "is required by the output contract");
        if (!r.contains("startColumn")) fail(pp + ".region.startColumn", "is required by the output contract");
        for (const char* k : {"startLine", "startColumn", "endLine", "endColumn"}) positive(r, k, pp + ".region");
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
                        if (!object(s, sp, kSuppression)) continue;
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
        if (s.rfind("https://", 0) != 0 && s.rfind("http://", 0) != 0) c.fail("$.$schema", "must be a URI");
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
        c.string(driver, "informationUri", dp, false);
        std::set<std::string> ids;
        if (driver.contains("rules")) c.rules(driver["rules"], dp + ".rules", ids);
        else c.fail(dp + ".rules", "must list every rule (output contract)");
        if (run.contains("results")) c.results(run["results"], p + ".results", ids);
    }
    return c.problems;
}

}  // namespace modeaudit::testing
