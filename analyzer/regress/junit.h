// The regress results as JUnit XML, in the dialect CI servers read
// (README.md, "JUnit output"; checked against tests/support/junit.xsd).
//
// One <testsuite> per corpus folder (its class name, e.g.
// "corpus.flawed.restart"), one <testcase> per model with its name relative
// to the corpus ("flawed/restart/x.mo"), so that results keep their history
// whichever machine or shard ran them; `file` is the model's path as given.
// A mismatch against the model's expectations is a <failure> whose message
// is the first mismatch and whose type says which kind it is
// (missing-finding, unexpected-finding, header); a model that could not be
// compared (timeout, crash, no-result, internal-error, unreadable) is an
// <error> of that type. Suites carry tests, failures, errors, skipped, time
// and timestamp. Every string is XML 1.0-safe: characters XML 1.0 forbids
// and bytes that are not UTF-8 become U+FFFD (no "&#1;"), newlines in
// attributes are kept as "&#10;".
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "regress/runner.h"

namespace modeaudit {

struct JUnitRun {
    std::string name = "modeaudit regress";
    std::chrono::system_clock::time_point timestamp;  // when the run started
    double seconds = 0;                               // its wall time
};

std::string junit_xml(const std::vector<ModelOutcome>& models, const JUnitRun& run);

// The type of a failure from its mismatch text (regress/expectations.cpp).
std::string failure_type(const std::string& mismatch);

}  // namespace modeaudit
