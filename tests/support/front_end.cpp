#include "support/front_end.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace modeaudit::testing {

std::unique_ptr<FrontEnd> FrontEnd::from_file(const std::string& path, std::string_view until) {
    return std::make_unique<FrontEnd>(read_text(path), until);
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> corpus_models() {
    const std::filesystem::path root = std::filesystem::path(MODEAUDIT_SOURCE_DIR) / "corpus";
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root))
        if (e.path().extension() == ".mo" && e.path().string().find("/libraries/") == std::string::npos)
            files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

RunOptions with_corpus_libraries(RunOptions options) {
    std::vector<std::string> problems;
    options.libraries = library::make_library_path(
        {(std::filesystem::path(MODEAUDIT_SOURCE_DIR) / "corpus" / "libraries").string()}, nullptr, problems);
    return options;
}

GiNaC::ex FrontEnd::var(const std::string& name) const {
    int v = flat().find_variable(name);
    if (v < 0) throw std::runtime_error("no variable " + name);
    return flat().symbols.variable(v);
}

GiNaC::ex FrontEnd::der(const std::string& name, int order) const {
    int v = flat().find_variable(name);
    if (v < 0) throw std::runtime_error("no variable " + name);
    auto d = flat().symbols.find_derivative(v, order);
    if (!d) throw std::runtime_error("no derivative of " + name);
    return *d;
}

GiNaC::ex FrontEnd::pre(const std::string& name) const {
    int v = flat().find_variable(name);
    if (v < 0) throw std::runtime_error("no variable " + name);
    return flat().symbols.pre(v);
}

GiNaC::ex FrontEnd::value(const std::string& name) const {
    int v = flat().find_variable(name);
    if (v < 0) throw std::runtime_error("no variable " + name);
    for (const auto& a : flat().aliases)
        if (a.variable == v) return a.sign * GiNaC::ex(flat().symbols.variable(a.representative));
    return flat().symbols.variable(v);
}

const Mode& FrontEnd::mode(const std::string& id) const {
    for (const Mode& m : modes().modes)
        if (m.id == id) return m;
    throw std::runtime_error("no mode " + id);
}

bool proportional(const GiNaC::ex& a, const GiNaC::ex& b) {
    GiNaC::ex ea = a.expand(), eb = b.expand();
    if (ea.is_zero() || eb.is_zero()) return ea.is_zero() && eb.is_zero();
    GiNaC::ex q = GiNaC::normal(ea / eb);
    return GiNaC::is_a<GiNaC::numeric>(q) && !q.is_zero();
}

}  // namespace modeaudit::testing
