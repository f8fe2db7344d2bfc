// A small file tree made from fuzzer bytes, for the harnesses over folders
// (fuzz_selection.cpp, fuzz_library.cpp): what a pull request can put in a
// models folder or a library folder.
//
// The bytes are read as records, each `kind name-length name body-length
// body`: kind 0 a file (body: its text), 1 a folder, 2 a symbolic link
// (body: its target: itself, a sibling, ".", a chain of links),
// 3 a file named package.order in the last folder. Link targets are kept
// inside the tree (see below). Names are taken as
// given, odd bytes included, except '/' and NUL (they would leave the
// tree) and "." / ".." (which are not new entries); a record that fails is
// skipped. Every entry lies under a fresh temporary folder, removed with the
// tree (links are removed, never followed).
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace modeaudit::fuzz {

class FuzzTree {
public:
    FuzzTree(const std::uint8_t* data, std::size_t size) {
        std::string tmpl = (std::filesystem::temp_directory_path() / "modeaudit-fuzz-tree-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) std::abort();
        root_ = tmpl;
        std::filesystem::path folder = root_;
        std::size_t at = 0;
        auto take = [&](std::size_t n) {
            std::string s(reinterpret_cast<const char*>(data + at), std::min(n, size - at));
            at += s.size();
            return s;
        };
        while (at < size && entries_.size() < 64) {
            const unsigned kind = data[at++] % 4;
            const std::size_t name_length = at < size ? data[at++] % 32 : 0;
            std::string name = take(name_length);
            const std::size_t body_length = at < size ? data[at++] * 4u : 0;
            std::string body = take(body_length);
            if (kind == 3) name = "package.order";
            for (char& c : name)
                if (c == '/' || c == '\0') c = '_';
            if (name.empty() || name == "." || name == "..") {
                name.assign(1, 'e');  // (not "e" + ...: GCC 12 warns -Wrestrict there)
                name.append(std::to_string(entries_.size()));
            }
            const std::filesystem::path p = folder / name;
            std::error_code ec;
            if (kind == 0 || kind == 3) {
                std::ofstream(p, std::ios::binary) << body;
            } else if (kind == 1) {
                std::filesystem::create_directory(p, ec);
                if (!ec) folder = p;  // later records go inside it
            } else {
                // The target stays inside the tree (no leading '/', no
                // ".."), so that a folder named as input is never the whole
                // file system: links to themselves, to siblings, to "." and
                // chains that loop are what the harnesses are after.
                for (char& c : body)
                    if (c == '\0') c = '_';
                for (std::size_t k = body.find(".."); k != std::string::npos; k = body.find("..", k)) body[k] = '_';
                while (!body.empty() && body.front() == '/') body.front() = '_';
                std::filesystem::create_symlink(body.empty() ? name : body, p, ec);
            }
            if (!ec) entries_.push_back(p);
        }
    }
    ~FuzzTree() {
        std::error_code ec;
        std::filesystem::remove_all(root_, ec);
    }
    FuzzTree(const FuzzTree&) = delete;
    FuzzTree& operator=(const FuzzTree&) = delete;

    const std::filesystem::path& root() const { return root_; }
    const std::vector<std::filesystem::path>& entries() const { return entries_; }

private:
    std::filesystem::path root_;
    std::vector<std::filesystem::path> entries_;
};

}  // namespace modeaudit::fuzz
