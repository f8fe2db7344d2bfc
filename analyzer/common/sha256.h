// SHA-256 (FIPS 180-4) of a byte string: the report's provenance line (the
// model file's hash names exactly which input a report was made from) and
// the stable fingerprints of SARIF results (common/sarif.h).
// Written here because the build has no crypto library among its
// dependencies; tested against the standard's examples.
#pragma once

#include <string>
#include <string_view>

namespace modeaudit {

// The digest as 64 lower-case hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace modeaudit
