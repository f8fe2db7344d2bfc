#include "library/library_path.h"

#include <algorithm>
#include <cctype>
#include <system_error>

namespace modeaudit::library {

namespace fs = std::filesystem;

namespace {

bool is_package_dir(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec) && fs::is_regular_file(p / "package.mo", ec);
}

bool is_mo_file(const fs::path& p) {
    std::error_code ec;
    return p.extension() == ".mo" && fs::is_regular_file(p, ec);
}

}  // namespace

std::string class_name_of(const fs::path& entry) {
    std::string name = entry.filename().string();
    if (name.empty()) name = entry.parent_path().filename().string();  // "Lib/"
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".mo") == 0) name.resize(name.size() - 3);
    std::size_t space = name.find(' ');
    if (space != std::string::npos) name.resize(space);
    return name;
}

bool looks_like_class_name(const std::string& text) {
    if (text.empty()) return false;
    bool start = true;
    for (char c : text) {
        unsigned char u = static_cast<unsigned char>(c);
        if (c == '.') {
            if (start) return false;
            start = true;
            continue;
        }
        if (start ? !(std::isalpha(u) || c == '_') : !(std::isalnum(u) || c == '_')) return false;
        start = false;
    }
    return !start;
}

LibraryPath make_library_path(const std::vector<std::string>& library_args, const char* modelicapath,
                              std::vector<std::string>& problems) {
    LibraryPath out;
    std::error_code ec;
    for (const std::string& arg : library_args) {
        fs::path p(arg);
        if (is_package_dir(p) || is_mo_file(p)) {
            std::string name = class_name_of(p.lexically_normal());
            if (!out.named.count(name)) out.named[name] = p;
        } else if (fs::is_directory(p, ec)) {
            out.roots.push_back(p);
        } else {
            problems.push_back("--library " + arg +
                               ": not a directory, a package directory (with package.mo) or a .mo file");
        }
    }
    if (modelicapath && *modelicapath) {
        std::string s(modelicapath);
        std::size_t pos = 0;
        while (pos <= s.size()) {
            std::size_t end = s.find_first_of(":;", pos);
            std::string entry = s.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
            // Entries that are no directory are skipped, as tools do.
            if (!entry.empty() && fs::is_directory(entry, ec)) out.roots.emplace_back(entry);
            if (end == std::string::npos) break;
            pos = end + 1;
        }
    }
    return out;
}

std::optional<fs::path> find_top_level(const LibraryPath& path, const std::string& name) {
    if (auto it = path.named.find(name); it != path.named.end()) return it->second;
    for (const fs::path& root : path.roots) {
        if (is_package_dir(root / name)) return root / name;
        if (is_mo_file(root / (name + ".mo"))) return root / (name + ".mo");
        // Versioned entries, "Name 1.2.3" or "Name 1.2.3.mo": the last in
        // lexical order (the newest in the usual numbering) wins.
        std::error_code ec;
        std::vector<fs::path> versioned;
        for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
            std::string fn = it->path().filename().string();
            if (fn.size() > name.size() && fn.compare(0, name.size() + 1, name + " ") == 0 &&
                (is_package_dir(it->path()) || is_mo_file(it->path())))
                versioned.push_back(it->path());
        }
        if (!versioned.empty()) return *std::max_element(versioned.begin(), versioned.end());
    }
    return std::nullopt;
}

}  // namespace modeaudit::library
