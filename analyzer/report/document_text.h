// Reading the contract's documents and turning their values into report
// text (report stage; shared by report.cpp and key_physics.cpp).
//
// The report reads the check and simulation documents as JSON
// (output-contract.md). These readers are tolerant: a missing or null
// member is "not given" and the report says so ("n/a"), never a crash.
// Numbers are shown to the report's significant digits, which the
// sensitivity rerun supports (set once per rendered report), never as "-0";
// the JSON file keeps every digit.
#pragma once

#include <string>
#include <vector>

#include "common/json_output.h"

namespace modeaudit::doc {

// The member `key` of an object, nullptr when absent or null.
const Json* member(const Json& j, const char* key);
// A string member ("" when absent or not a string).
std::string string_of(const Json& j, const char* key);
// An array member's elements as text (non-strings as compact JSON).
std::vector<std::string> strings_of(const Json& j, const char* key);
// An array member (an empty array when absent or not an array).
const Json& array_of(const Json& j, const char* key);
// A number member, or `missing`.
double number_of(const Json& j, const char* key, double missing);

// The significant digits of the numbers of the report being rendered
// (reports are rendered one at a time, on one thread); 6 by default.
void set_significant_digits(int digits);
int significant_digits();

// A number for a reader: to the report's significant digits, never "-0".
std::string number_text(double v);
// An error estimate (a drift, a shift, a residual): two significant digits.
std::string estimate_text(double v);
// A JSON value for a reader: numbers by number_text, strings as they are,
// null as "n/a", anything else as compact JSON.
std::string value_text(const Json& v);
std::string member_text(const Json& j, const char* key, const std::string& missing = "n/a");

// "1 event", "3 events".
std::string plural(std::size_t n, const char* one, const char* many);
// The text with a final period (unless it ends with . ! ?).
std::string with_period(std::string s);

}  // namespace modeaudit::doc
