#include "report/document_text.h"

#include <fmt/format.h>

#include <cmath>

namespace modeaudit::doc {

namespace {
int g_significant_digits = 6;

std::string without_negative_zero(std::string s) {
    if (s.starts_with("-") && std::stod(s) == 0) s.erase(0, 1);  // -0, -0.000
    return s;
}
}  // namespace

const Json* member(const Json& j, const char* key) {
    if (!j.is_object()) return nullptr;
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return nullptr;
    return &*it;
}

std::string string_of(const Json& j, const char* key) {
    const Json* m = member(j, key);
    return m && m->is_string() ? m->get<std::string>() : std::string();
}

std::vector<std::string> strings_of(const Json& j, const char* key) {
    std::vector<std::string> out;
    const Json* m = member(j, key);
    if (!m || !m->is_array()) return out;
    for (const Json& e : *m) out.push_back(e.is_string() ? e.get<std::string>() : e.dump());
    return out;
}

const Json& array_of(const Json& j, const char* key) {
    static const Json empty = Json::array();
    const Json* m = member(j, key);
    return m && m->is_array() ? *m : empty;
}

double number_of(const Json& j, const char* key, double missing) {
    const Json* m = member(j, key);
    return m && m->is_number() ? m->get<double>() : missing;
}

void set_significant_digits(int digits) { g_significant_digits = digits; }
int significant_digits() { return g_significant_digits; }

std::string number_text(double v) {
    if (!std::isfinite(v)) return std::isnan(v) ? "NaN" : v > 0 ? "inf" : "-inf";
    return without_negative_zero(fmt::format("{:.{}g}", v, g_significant_digits));
}

std::string estimate_text(double v) {
    if (!std::isfinite(v)) return std::isnan(v) ? "NaN" : v > 0 ? "inf" : "-inf";
    return without_negative_zero(fmt::format("{:.2g}", v));
}

std::string value_text(const Json& v) {
    if (v.is_number_integer()) return v.dump();
    if (v.is_number_float()) return number_text(v.get<double>());
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_null()) return "n/a";
    return v.dump();
}

std::string member_text(const Json& j, const char* key, const std::string& missing) {
    const Json* m = member(j, key);
    return m ? value_text(*m) : missing;
}

std::string plural(std::size_t n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string with_period(std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.pop_back();
    if (s.empty() || (s.back() != '.' && s.back() != '!' && s.back() != '?')) s += '.';
    return s;
}

}  // namespace modeaudit::doc
