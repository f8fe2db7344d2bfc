#include "regress/junit.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <map>

#include "common/text_sanitize.h"

namespace modeaudit {

namespace {

// Escaped for element content or a double-quoted attribute; in attributes
// newline, carriage return and tab are character references (XML 1.0
// section 3.3.3 normalises them to spaces otherwise).
std::string xml_escape(std::string_view raw, bool attribute) {
    const std::string s = sanitize_xml_text(raw);
    std::string out;
    out.reserve(s.size());
    for (char ch : s) {
        switch (ch) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += attribute ? "&quot;" : "\""; break;
            case '\n': out += attribute ? "&#10;" : "\n"; break;
            case '\r': out += "&#13;"; break;
            case '\t': out += attribute ? "&#9;" : "\t"; break;
            default: out += ch;
        }
    }
    return out;
}

std::string seconds_text(double s) { return fmt::format("{:.3f}", s < 0 ? 0.0 : s); }

struct Suite {
    std::vector<const ModelOutcome*> cases;
    int failures = 0, errors = 0;
    double seconds = 0;
};

}  // namespace

std::string failure_type(const std::string& mismatch) {
    if (mismatch.starts_with("missing:")) return "missing-finding";
    if (mismatch.starts_with("unexpected:")) return "unexpected-finding";
    return "header";
}

std::string junit_xml(const std::vector<ModelOutcome>& models, const JUnitRun& run) {
    std::map<std::string, Suite> suites;  // by class name: sorted, deterministic
    int failures = 0, errors = 0;
    for (const ModelOutcome& m : models) {
        Suite& s = suites[m.class_name];
        s.cases.push_back(&m);
        s.seconds += m.seconds;
        if (!m.error_type.empty()) {
            ++s.errors;
            ++errors;
        } else if (!m.passed) {
            ++s.failures;
            ++failures;
        }
    }
    const std::string timestamp =
        fmt::format("{:%Y-%m-%dT%H:%M:%S}", std::chrono::floor<std::chrono::seconds>(run.timestamp));
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    xml += fmt::format("<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{}\">\n",
                       xml_escape(run.name, true), models.size(), failures, errors, seconds_text(run.seconds));
    for (const auto& [class_name, s] : suites) {
        xml += fmt::format(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{}\" "
            "timestamp=\"{}\">\n",
            xml_escape(class_name, true), s.cases.size(), s.failures, s.errors, seconds_text(s.seconds), timestamp);
        for (const ModelOutcome* m : s.cases) {
            xml += fmt::format("    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" time=\"{}\"",
                               xml_escape(m->name.empty() ? m->path : m->name, true), xml_escape(class_name, true),
                               xml_escape(m->path, true), seconds_text(m->seconds));
            if (m->passed && m->error_type.empty()) {
                xml += "/>\n";
                continue;
            }
            std::string details;
            for (const std::string& t : m->mismatches) details += t + "\n";
            const std::string first = m->mismatches.empty() ? std::string("failed") : m->mismatches.front();
            const bool error = !m->error_type.empty();
            xml += fmt::format(">\n      <{} type=\"{}\" message=\"{}\">{}</{}>\n    </testcase>\n",
                               error ? "error" : "failure", xml_escape(error ? m->error_type : failure_type(first), true),
                               xml_escape(first, true), xml_escape(details, false), error ? "error" : "failure");
        }
        xml += "  </testsuite>\n";
    }
    xml += "</testsuites>\n";
    return xml;
}

}  // namespace modeaudit
