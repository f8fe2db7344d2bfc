#include "report/document_schema.h"

#include <fmt/format.h>

namespace modeaudit {

namespace {

struct Field {
    const char* name;
    char type;  // s n i b a o
};

bool has_type(const Json& v, char type) {
    switch (type) {
        case 's': return v.is_string();
        case 'n': return v.is_number();
        case 'i': return v.is_number_integer();
        case 'b': return v.is_boolean();
        case 'a': return v.is_array();
        case 'o': return v.is_object();
    }
    return false;
}

const char* type_name(char type) {
    switch (type) {
        case 's': return "a string";
        case 'n': return "a number";
        case 'i': return "an integer";
        case 'b': return "a boolean";
        case 'a': return "an array";
        case 'o': return "an object";
    }
    return "?";
}

void require(const Json& j, const std::string& path, std::initializer_list<Field> fields,
             std::vector<std::string>& out) {
    if (!j.is_object()) {
        out.push_back(path + ": not an object");
        return;
    }
    for (const Field& f : fields) {
        auto it = j.find(f.name);
        if (it == j.end())
            out.push_back(fmt::format("{}.{}: missing", path, f.name));
        else if (!has_type(*it, f.type))
            out.push_back(fmt::format("{}.{}: not {}", path, f.name, type_name(f.type)));
    }
}

template <class Each>
void each_of(const Json& j, const char* key, const std::string& path, Each each) {
    auto it = j.is_object() ? j.find(key) : j.end();
    if (it == j.end() || !it->is_array()) return;  // reported by require
    for (std::size_t k = 0; k < it->size(); ++k) each((*it)[k], fmt::format("{}.{}[{}]", path, key, k));
}

}  // namespace

std::vector<std::string> document_schema_problems(const Json& check, const Json* simulation) {
    std::vector<std::string> out;
    require(check, "check",
            {{"tool", 'o'}, {"model", 's'}, {"modes", 'a'}, {"transitions", 'a'}, {"diagnostics", 'a'},
             {"stages_run", 'a'}},
            out);
    if (check.is_object() && check.contains("tool")) require(check["tool"], "check.tool", {{"name", 's'}, {"version", 's'}}, out);
    each_of(check, "modes", "check", [&](const Json& m, const std::string& p) {
        require(m, p, {{"id", 's'}, {"status", 's'}}, out);
        // A mode the structure stage analysed has its numbers.
        if (m.is_object() && m.contains("index"))
            require(m, p,
                    {{"equations", 'i'}, {"unknowns", 'i'}, {"index", 'i'}, {"dof", 'i'}, {"states", 'a'},
                     {"consistency", 'a'}},
                    out);
    });
    each_of(check, "transitions", "check", [&](const Json& t, const std::string& p) {
        require(t, p,
                {{"from", 's'}, {"to", 's'}, {"trigger", 's'}, {"guard", 's'}, {"verdict", 's'},
                 {"impulse_orders", 'o'}, {"restart", 'a'}, {"undetermined", 'a'}, {"conserved", 'a'}},
                out);
    });
    each_of(check, "diagnostics", "check", [&](const Json& d, const std::string& p) {
        require(d, p, {{"rule", 's'}, {"severity", 's'}, {"message", 's'}, {"notes", 'a'}}, out);
    });
    if (!simulation) return out;
    const Json& s = *simulation;
    require(s, "simulation",
            {{"model", 's'}, {"stop_time", 'n'}, {"end_time", 'n'}, {"stopped_because", 's'}, {"events", 'a'},
             {"final", 'o'}, {"segments", 'a'}, {"diagnostics", 'a'}},
            out);
    each_of(s, "events", "simulation", [&](const Json& e, const std::string& p) {
        require(e, p, {{"time", 'n'}, {"from", 's'}, {"to", 's'}, {"verdict", 's'}, {"before", 'o'}, {"after", 'o'}},
                out);
        if (e.is_object() && e.contains("impulses")) require(e, p, {{"impulses", 'o'}}, out);
    });
    each_of(s, "segments", "simulation", [&](const Json& g, const std::string& p) {
        require(g, p,
                {{"mode", 's'}, {"begin", 'n'}, {"end", 'n'}, {"steps", 'i'}, {"rhs_evaluations", 'i'},
                 {"jacobian_evaluations", 'i'}, {"max_constraint_drift", 'n'}, {"asserts", 'a'}},
                out);
        // A segment of a mode without states (not integrated) says so.
        if (g.is_object() && g.contains("algebraic")) require(g, p, {{"algebraic", 'b'}}, out);
        each_of(g, "asserts", p, [&](const Json& a, const std::string& q) {
            require(a, q, {{"message", 's'}, {"violated", 'b'}, {"min_margin", 'n'}}, out);
        });
    });
    if (s.is_object() && s.contains("sensitivity"))
        require(s["sensitivity"], "simulation.sensitivity",
                {{"rtol", 'n'}, {"same_events", 'b'}, {"max_event_shift", 'n'}, {"max_final_difference", 'n'}}, out);
    return out;
}

}  // namespace modeaudit
