// Which model files a command runs on: `check` and `regress` take several
// files, folders, and lists of paths (README.md, "Many models per call").
//
// Sits before the pipeline: it only names files (the pipeline reads them).
// A folder stands for every `.mo` file under it, recursively, in sorted
// order, and is the "corpus root" of those files (their JUnit names are
// relative to it). A list (`--files-from FILE`, `-` for standard input)
// holds one path per line; blank lines and lines starting with '#' are
// skipped, a trailing carriage return is dropped, and relative paths are
// relative to the current directory (as for xargs). The same file named
// twice is run once (its first place counts). The selection is in argument
// order, so the output is deterministic for a given command line.
#pragma once

#include <cstddef>
#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace modeaudit {

struct SelectedModel {
    std::string path;  // as given, or under a folder as iterated ("corpus/good/a.mo"); "-": stdin
    std::string root;  // the folder argument it came from; empty for a file named directly
};

struct ModelSelectionRequest {
    std::vector<std::string> inputs;   // files, folders, "-" (stdin, when allowed)
    std::string files_from;            // a list file; "-": standard input; empty: none
    bool allow_stdin_model = true;     // "-" as a model (check: yes; regress: no)
    std::size_t max_list_bytes = std::size_t{64} << 20;  // the list's size at most (--max-input-size)
};

// The longest line of a list: PATH_MAX on Linux.
inline constexpr std::size_t kMaxListLine = 4096;

struct ModelSelection {
    std::vector<SelectedModel> models;
    std::string error;  // non-empty: the selection is invalid (exit 2), with the reason
    // Folder entries skipped (a link that loops or dangles, an entry that
    // cannot be read), each a sentence naming it; the caller warns.
    std::vector<std::string> warnings;
};

// `in` is what "-" reads (std::cin in the tool).
ModelSelection select_models(const ModelSelectionRequest& request, std::istream& in);

// A shard K/N of a selection (1 <= K <= N): the models at positions
// K-1, K-1+N, K-1+2N, ... (round robin, so that the shards have nearly equal
// counts and each of a folder's models lands on a different shard). Every
// model is in exactly one shard of 1..N.
struct Shard {
    std::size_t index = 1;  // K, 1-based as CI_NODE_INDEX
    std::size_t total = 1;  // N
};
// The most shards: 2^32 (a CI never runs more jobs; a larger N, such as
// 2^64 - 1 wrapping around, is refused).
inline constexpr std::size_t kMaxShards = std::size_t{1} << 32;
std::optional<Shard> parse_shard(const std::string& text, std::string& error);
std::vector<SelectedModel> shard_of(const std::vector<SelectedModel>& models, const Shard& shard);

// A model's name relative to its corpus root (the path as given when it has
// none) and its JUnit class name: the corpus folder's name followed by the
// model's folders below it, joined with '.' ("corpus.flawed.restart").
std::string relative_name(const SelectedModel& m);
std::string class_name(const SelectedModel& m);

}  // namespace modeaudit
