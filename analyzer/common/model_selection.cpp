#include "common/model_selection.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>

namespace modeaudit {

namespace fs = std::filesystem;

namespace {

// The identity of a file for "named twice": its absolute, lexically normal path.
std::string identity(const std::string& path) {
    if (path == "-") return "-";
    std::error_code ec;
    fs::path p = fs::absolute(fs::path(path), ec);
    return (ec ? fs::path(path) : p).lexically_normal().generic_string();
}

bool read_list(std::istream& in, std::vector<std::string>& out) {
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        std::size_t last = line.find_last_not_of(" \t");
        out.push_back(line.substr(first, last - first + 1));
    }
    return !in.bad();
}

}  // namespace

ModelSelection select_models(const ModelSelectionRequest& request, std::istream& in) {
    ModelSelection sel;
    std::vector<std::string> inputs = request.inputs;
    bool stdin_used = false;
    if (!request.files_from.empty()) {
        std::vector<std::string> listed;
        if (request.files_from == "-") {
            stdin_used = true;
            if (!read_list(in, listed)) {
                sel.error = "cannot read the list of models from standard input";
                return sel;
            }
        } else {
            std::ifstream file(request.files_from);
            if (!file || !read_list(file, listed)) {
                sel.error = fmt::format("cannot read the list of models '{}'", request.files_from);
                return sel;
            }
        }
        inputs.insert(inputs.end(), listed.begin(), listed.end());
    }

    std::set<std::string> seen;
    auto add = [&](const std::string& path, const std::string& root) {
        if (seen.insert(identity(path)).second) sel.models.push_back({path, root});
    };
    for (const std::string& input : inputs) {
        if (input == "-") {
            if (!request.allow_stdin_model) {
                sel.error = "'-' (standard input) is not a model here; give files or folders";
                return sel;
            }
            if (stdin_used) {
                sel.error = "standard input cannot hold both the list of models and a model";
                return sel;
            }
            stdin_used = true;
            add(input, "");
            continue;
        }
        std::error_code ec;
        if (!fs::is_directory(input, ec)) {
            add(input, "");  // a file; whoever reads it reports what is wrong with it
            continue;
        }
        std::vector<std::string> files;
        for (auto it = fs::recursive_directory_iterator(input, ec); !ec && it != fs::recursive_directory_iterator();
             it.increment(ec)) {
            // A folder named `libraries` holds classes that models load
            // (--library, the corpus's `// library:` header), not models.
            if (it->is_directory() && it->path().filename() == "libraries") {
                it.disable_recursion_pending();
                continue;
            }
            if (it->is_regular_file() && it->path().extension() == ".mo") files.push_back(it->path().string());
        }
        if (ec) {
            sel.error = fmt::format("cannot list the folder '{}': {}", input, ec.message());
            return sel;
        }
        std::sort(files.begin(), files.end());
        for (const std::string& f : files) add(f, input);
    }
    if (sel.models.empty()) {
        sel.error = inputs.empty() && request.files_from.empty() ? "no model given: name model files or folders, or --files-from FILE"
                                   : "no model selected: the folders and lists given hold no .mo file";
    }
    return sel;
}

std::optional<Shard> parse_shard(const std::string& text, std::string& error) {
    auto slash = text.find('/');
    Shard s;
    auto number = [](std::string_view t, std::size_t& v) {
        auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        return ec == std::errc() && end == t.data() + t.size() && !t.empty();
    };
    if (slash == std::string::npos || !number(std::string_view(text).substr(0, slash), s.index) ||
        !number(std::string_view(text).substr(slash + 1), s.total) || s.total == 0 || s.index == 0 ||
        s.index > s.total) {
        error = fmt::format("bad shard '{}': give K/N with 1 <= K <= N (e.g. 2/4)", text);
        return std::nullopt;
    }
    return s;
}

std::vector<SelectedModel> shard_of(const std::vector<SelectedModel>& models, const Shard& shard) {
    std::vector<SelectedModel> out;
    for (std::size_t i = shard.index - 1; i < models.size(); i += shard.total) out.push_back(models[i]);
    return out;
}

std::string relative_name(const SelectedModel& m) {
    if (m.root.empty()) return fs::path(m.path).lexically_normal().generic_string();
    return fs::path(m.path).lexically_relative(fs::path(m.root)).lexically_normal().generic_string();
}

std::string class_name(const SelectedModel& m) {
    std::vector<std::string> parts;
    if (!m.root.empty()) {
        std::error_code ec;
        fs::path root = fs::absolute(fs::path(m.root), ec).lexically_normal();
        std::string name = (root.has_filename() ? root : root.parent_path()).filename().string();
        parts.push_back(name.empty() ? "corpus" : name);
    }
    fs::path folder = fs::path(relative_name(m)).parent_path();
    for (const fs::path& p : folder)
        if (p != "." && p != ".." && p.has_filename()) parts.push_back(p.string());
    if (parts.empty()) return "models";
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : ".") + p;
    return out;
}

}  // namespace modeaudit
