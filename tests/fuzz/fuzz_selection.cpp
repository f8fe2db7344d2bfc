// libFuzzer harness: the selection of models (common/model_selection.h) over
// a models folder made from the bytes (fuzz_tree.h: files, folders, links
// that loop or dangle, odd names), and the same bytes as a --files-from
// list (only lists whose lines stay inside the tree, which is the current
// folder meanwhile). Every outcome is a selection, a warning or an error
// sentence; an exception escaping is a crash (the command line's exit 3).
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>

#include "common/model_selection.h"
#include "fuzz_common.h"
#include "fuzz_tree.h"

namespace {

// Whether no line of a list names a folder outside the current one: a list
// line "/" or "../.." would make the selection walk the whole file system,
// which is what the user asked for but no finding of the harness. (Lines
// such as "// a comment" that name nothing are kept: they exercise the
// reading of the list.)
bool stays_inside(std::string_view text) {
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(at, end - at);
        const std::size_t first = line.find_first_not_of(" \t");
        const std::size_t last = line.find_last_not_of(" \t\r");
        if (first != std::string_view::npos && line.size() <= 4096 &&
            (line[first] == '/' || line.find("..") != std::string_view::npos)) {
            std::error_code ec;
            const std::string path(line.substr(first, last - first + 1));
            if (path.find('\0') == std::string::npos && std::filesystem::is_directory(path, ec)) return false;
        }
        at = end + 1;
    }
    return true;
}

// The current folder set to `dir` while in scope (relative list lines are
// relative to it, as for the tool).
struct InFolder {
    std::filesystem::path previous;
    explicit InFolder(const std::filesystem::path& dir) : previous(std::filesystem::current_path()) {
        std::filesystem::current_path(dir);
    }
    ~InFolder() {
        std::error_code ec;
        std::filesystem::current_path(previous, ec);
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    modeaudit::fuzz::run_or_abort([&] {
        modeaudit::fuzz::FuzzTree tree(data, size);
        InFolder inside(tree.root());
        std::istringstream none;
        modeaudit::ModelSelectionRequest folder;
        folder.inputs = {tree.root().string()};
        modeaudit::ModelSelection s = modeaudit::select_models(folder, none);
        if (s.error.empty() && s.models.empty()) std::abort();  // an empty selection must say so
        for (const modeaudit::SelectedModel& m : s.models) {
            (void)modeaudit::relative_name(m);
            (void)modeaudit::class_name(m);
        }
        // The bytes as a list on standard input, under a small size limit.
        const std::string text(reinterpret_cast<const char*>(data), size);
        if (!stays_inside(text)) return;
        std::istringstream list(text);
        modeaudit::ModelSelectionRequest listed;
        listed.files_from = "-";
        listed.max_list_bytes = 4096;
        modeaudit::ModelSelection l = modeaudit::select_models(listed, list);
        if (l.error.empty() && l.models.empty()) std::abort();
        if (l.error.size() > 1000) std::abort();  // a refusal never echoes the input
        // Each entry of the tree named as a model, or as the list.
        for (const auto& e : tree.entries()) {
            modeaudit::ModelSelectionRequest one;
            one.inputs = {e.string()};
            (void)modeaudit::select_models(one, none);
            std::error_code ec;
            if (std::filesystem::is_regular_file(e, ec)) {
                std::ifstream in(e, std::ios::binary);
                std::string lines((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
                if (!stays_inside(lines)) continue;
            }
            modeaudit::ModelSelectionRequest from;
            from.files_from = e.string();
            from.max_list_bytes = 4096;
            (void)modeaudit::select_models(from, none);
        }
        std::string error;
        if (size > 0) (void)modeaudit::parse_shard(std::string(reinterpret_cast<const char*>(data), size % 24), error);
    });
    return 0;
}
