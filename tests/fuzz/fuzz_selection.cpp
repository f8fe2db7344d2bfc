// libFuzzer harness: the selection of models (common/model_selection.h) over
// a models folder made from the bytes (fuzz_tree.h: files, folders, links
// that loop or dangle, odd names), and the same bytes as a --files-from
// list. Every outcome is a selection, a warning or an error sentence; an
// exception escaping is a crash (the command line's exit 3).
#include <sstream>

#include "common/model_selection.h"
#include "fuzz_common.h"
#include "fuzz_tree.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    modeaudit::fuzz::run_or_abort([&] {
        modeaudit::fuzz::FuzzTree tree(data, size);
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
        std::istringstream list(std::string(reinterpret_cast<const char*>(data), size));
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
