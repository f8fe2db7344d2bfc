#include "common/model_selection.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
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

// Reads a list of paths, one a line, bounded: a line is at most
// kMaxListLine bytes (a path on Linux is at most PATH_MAX, 4096, bytes) and
// the whole list at most `max_bytes`, so a list that is no list (/dev/zero,
// a 300 MB line) is refused after reading that much, with the line named
// and never echoed. "" when read; else the reason.
std::string read_list(std::istream& in, std::size_t max_bytes, std::vector<std::string>& out) {
    std::string line;
    std::size_t total = 0, number = 1;
    auto finish = [&]() {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::size_t first = line.find_first_not_of(" \t");
        if (first != std::string::npos && line[first] != '#') {
            std::size_t last = line.find_last_not_of(" \t");
            out.push_back(line.substr(first, last - first + 1));
        }
        line.clear();
        ++number;
    };
    std::streambuf* buf = in.rdbuf();
    if (!buf) return "it cannot be read";
    for (;;) {
        int c;
        try {
            c = buf->sbumpc();
        } catch (const std::ios_base::failure&) {
            return "it cannot be read";
        }
        if (c == std::char_traits<char>::eof()) break;
        if (++total > max_bytes)
            return fmt::format("it is larger than the input size limit of {} bytes (--max-input-size)", max_bytes);
        if (c == '\n') {
            finish();
            continue;
        }
        if (c == '\0') return fmt::format("line {} holds a NUL byte: it is not a list of paths, one a line", number);
        if (line.size() >= kMaxListLine)
            return fmt::format("line {} is longer than {} bytes, the longest path a file system takes: it is not a "
                               "list of paths, one a line",
                               number, kMaxListLine);
        line.push_back(static_cast<char>(c));
    }
    if (!line.empty()) finish();
    return {};
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
            if (std::string why = read_list(in, request.max_list_bytes, listed); !why.empty()) {
                sel.error = fmt::format("cannot read the list of models from standard input: {}", why);
                return sel;
            }
        } else {
            std::error_code dir_ec;
            std::ifstream file;
            std::string why;
            if (fs::is_directory(request.files_from, dir_ec)) {
                why = "it is a folder; --files-from takes a file that lists paths, one a line";
            } else {
                file.open(request.files_from, std::ios::binary);
                why = file ? read_list(file, request.max_list_bytes, listed)
                           : fmt::format("it cannot be opened: {}", std::strerror(errno));
            }
            if (!why.empty()) {
                sel.error = fmt::format("cannot read the list of models '{}': {}", request.files_from, why);
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
        // Entries are asked with error codes, never the throwing queries: a
        // link that loops, dangles or cannot be read is skipped with a
        // warning naming it (one such link must not stop a whole audit).
        for (auto it = fs::recursive_directory_iterator(input, fs::directory_options::skip_permission_denied, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            std::error_code entry_ec;
            const bool directory = it->is_directory(entry_ec);
            if (entry_ec) {
                std::error_code link_ec;
                if (it->is_symlink(link_ec) || it->path().extension() == ".mo")
                    sel.warnings.push_back(fmt::format("skipped '{}': {}", it->path().string(), entry_ec.message()));
                continue;
            }
            // A folder named `libraries` holds classes that models load
            // (--library, the corpus's `// library:` header), not models.
            if (directory && it->path().filename() == "libraries") {
                it.disable_recursion_pending();
                continue;
            }
            if (directory) continue;
            const bool regular = it->is_regular_file(entry_ec);
            if (!entry_ec && regular && it->path().extension() == ".mo") files.push_back(it->path().string());
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
        s.index > s.total || s.total > kMaxShards) {
        error = fmt::format("bad shard '{}': give K/N with 1 <= K <= N <= {} (e.g. 2/4)", text, kMaxShards);
        return std::nullopt;
    }
    return s;
}

std::vector<SelectedModel> shard_of(const std::vector<SelectedModel>& models, const Shard& shard) {
    std::vector<SelectedModel> out;
    // index <= total <= kMaxShards (parse_shard), so i never wraps around.
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
