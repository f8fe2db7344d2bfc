// Test support: a structural check of a SARIF 2.1.0 log.
//
// NOT the full SARIF 2.1.0 JSON schema. Debian 12 ships neither the schema
// (sarif-schema-2.1.0.json) nor a C++ JSON Schema validator, and the build
// has no network, so this checks by hand what the output contract requires
// and what the schema says about the objects modeaudit emits:
//   - sarifLog: `version` = "2.1.0", `$schema` a URI string, `runs` an array;
//   - run: `tool.driver` (a toolComponent: `name` required, string);
//     `driver.rules[]`: reportingDescriptor with `id` (required, string),
//     `shortDescription.text` (string), `defaultConfiguration.level` in
//     {none, note, warning, error} when present; ids unique;
//     (the contract, stricter than the schema: `level` and one
//     `locations[].physicalLocation` with artifact uri and region on each
//     result, and `shortDescription` on each rule, are required);
//   - result: `message` required with `text` (string); `ruleId` string;
//     `level` in {none, note, warning, error}; `kind` in the schema's enum
//     when present; `locations[].physicalLocation.artifactLocation.uri` a
//     string, `region.startLine`/`startColumn`/`endLine`/`endColumn`
//     integers >= 1; `suppressions[].kind` in {inSource, external};
//   - every object we emit holds only properties the schema defines for it
//     (a misspelt "startline" fails), and, beyond the schema, every result's
//     ruleId names a rule of driver.rules.
// Anything else the schema constrains (e.g. URI formats in detail, objects
// we never emit) is not checked.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace modeaudit::testing {

// The problems found, each as "path: what is wrong"; empty when it passes.
std::vector<std::string> sarif_problems(const nlohmann::ordered_json& log);

}  // namespace modeaudit::testing
