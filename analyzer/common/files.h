// Reading the input and writing output files safely.
//
// Output folders may be shared (a world-writable, sticky folder), so another
// local user may plant symbolic links or devices under the names we write.
// Every output file is therefore made under a fresh, unpredictable name with
// O_CREAT|O_EXCL|O_NOFOLLOW, written completely (a write error such as a full
// disk is reported, never ignored), and renamed into place only when
// complete; the destination must be absent or a regular file (a symbolic
// link, a device, a folder is refused). The previous file stays intact until
// the rename.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace modeaudit {

// Writes `text` to `path` as described above. On failure returns false and
// sets `error` (when given) to a sentence naming the cause.
bool write_file_atomically(const std::filesystem::path& path, std::string_view text, std::string* error = nullptr);

// Empty when `path` may be replaced by a new regular file: absent, or a
// regular file, in a folder reached without a planted link
// (planted_link_problem). Otherwise why not ("is a symbolic link", "is a
// device", ...).
std::string destination_problem(const std::filesystem::path& path);

// Empty unless a folder on the way to `path` (or `path` itself) is a
// symbolic link that another user may have planted: a link in a sticky,
// world-writable folder (like /tmp), owned neither by the user running
// modeaudit nor by that folder's owner (the rule of the kernel's
// fs.protected_symlinks, applied whether or not the machine enables it).
// Then a sentence naming the link and its owner. The links of the path are
// followed as they are met, so a link further on is judged in the folder it
// really sits in.
std::string planted_link_problem(const std::filesystem::path& path);

// Makes a fresh private (0700) folder `parent/PREFIX-PID-XXXXXX` with
// mkdtemp: never an existing path, never through a planted link. Folders of
// the same prefix left by runs that are no longer alive (their PID is gone)
// and owned by this user are removed first. nullopt with `error` on failure.
std::optional<std::filesystem::path> make_staging_folder(const std::filesystem::path& parent,
                                                         const std::string& prefix, std::string& error);

// Removes a staging folder made by make_staging_folder (not following links).
void remove_staging_folder(const std::filesystem::path& folder);

// The default limit on a model file's size (--max-input-size, in MiB).
inline constexpr std::size_t kDefaultMaxInputMiB = 64;

// An exclusive advisory lock (flock) on a folder itself, waited for at most
// `wait_seconds`: serialises the placing of files by concurrent runs without
// creating any file. Released by the destructor.
class FolderLock {
public:
    explicit FolderLock(const std::filesystem::path& folder, double wait_seconds = 60);
    ~FolderLock();
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;
    bool held() const { return fd_ >= 0; }
    const std::string& problem() const { return problem_; }

private:
    int fd_ = -1;
    std::string problem_;
};

// Reads a whole input file ("-": standard input) of at most `max_bytes`.
// Any condition of the file system (missing, a folder, a link loop,
// unreadable, a read error, too large) is a false return with `error` set to
// a sentence, never an exception.
bool read_input_file(const std::string& path, std::size_t max_bytes, std::string& text, std::string& error);

// Flushes standard output; false with `error` set when something written
// there was lost (a full device, a closed descriptor).
bool flush_stdout(std::string& error);

}  // namespace modeaudit
