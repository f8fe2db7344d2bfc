// Test support: a structural check of a SARIF 2.1.0 log.
//
// NOT the full SARIF 2.1.0 JSON schema. Debian 12 ships neither the schema
// (sarif-schema-2.1.0.json) nor a SARIF validator (checked: its only SARIF
// packages, python3-sarif-python-om and golang-github-haya14busa-go-sarif-dev,
// hold object models without the schema file), and the build has no
// network; a JSON Schema validator (python3-jsonschema) would need the
// schema text, which we do not copy into the repository. So this checks by
// hand every constraint of the schema that applies to the objects modeaudit
// emits, and what the output contract adds:
//   - sarifLog: `version` = "2.1.0", `$schema` an absolute URI, `runs` an
//     array (the contract: exactly one run);
//   - run: `tool.driver` (a toolComponent: `name` required, a string;
//     `version`, `semanticVersion` strings; `informationUri`, `downloadUri`
//     absolute URIs); `columnKind` in its enum;
//   - driver.rules[]: reportingDescriptor with `id` (required, string, unique),
//     `shortDescription`/`fullDescription` multiformatMessageStrings (`text`
//     required), `helpUri` an absolute URI, `defaultConfiguration` with
//     `level` in {none, note, warning, error}, `rank` in [-1, 100],
//     `enabled` a boolean (the contract: `shortDescription` required);
//   - result: `message` required (`text` or `id`; `text`, `markdown`, `id`
//     strings, `arguments` strings); `ruleId` a string naming a rule of
//     driver.rules; `ruleIndex` >= -1; `level` and `kind` in their enums;
//     `rank` in [-1, 100]; `occurrenceCount` >= 1; `baselineState` in its
//     enum; `suppressions[]` unique, `kind` in {inSource, external}
//     (required), `status` in its enum, `justification` a string (the
//     contract: `level` and a physicalLocation required);
//   - location: `id` >= -1; physicalLocation.artifactLocation: `uri` a URI
//     reference (RFC 3986 characters, valid percent-escapes, a relative
//     reference's first segment without ':'), `uriBaseId` a string, `index`
//     >= -1; region: `startLine`, `startColumn`, `endLine`, `endColumn`
//     integers >= 1, `charOffset`/`byteOffset` >= -1, `charLength`/
//     `byteLength` >= 0, and (the specification's text, 3.30) not ending
//     before it starts (the contract: startLine and startColumn required);
//   - every property bag (`properties`) an object with unique string `tags`;
//   - every object we emit holds only properties the schema defines for it
//     (a misspelt "startline" fails).
// Objects modeaudit never emits (code flows, graphs, fixes, ...) are not
// checked: a log holding one fails as "not a property" of its parent.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace modeaudit::testing {

// The problems found, each as "path: what is wrong"; empty when it passes.
std::vector<std::string> sarif_problems(const nlohmann::ordered_json& log);

}  // namespace modeaudit::testing
