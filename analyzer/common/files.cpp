#include "common/files.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

namespace modeaudit {

namespace fs = std::filesystem;

namespace {

std::string errno_text(int e) { return std::strerror(e); }

bool fail(std::string* error, std::string message) {
    if (error) *error = std::move(message);
    return false;
}

// What an existing non-regular file is, for the refusal.
std::string kind_of(mode_t mode) {
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISFIFO(mode)) return "a named pipe";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// destination_problem relative to an open folder.
std::string destination_problem_at(int dir_fd, const std::string& name, const fs::path& shown) {
    struct stat st {};
    if (fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) return {};
        return fmt::format("'{}': {}", shown.string(), errno_text(errno));
    }
    if (S_ISREG(st.st_mode)) return {};
    return fmt::format("'{}' exists and is {}; only a regular file is replaced", shown.string(), kind_of(st.st_mode));
}

std::string random_suffix() {
    static std::random_device device;
    static std::mt19937_64 generator(
        (static_cast<std::uint64_t>(device()) << 32) ^ device() ^ static_cast<std::uint64_t>(getpid()));
    return fmt::format("{:012x}", generator() & 0xffffffffffffULL);
}

bool write_all(int fd, std::string_view text, int& err) {
    std::size_t off = 0;
    while (off < text.size()) {
        ssize_t w = ::write(fd, text.data() + off, text.size() - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            err = errno;
            return false;
        }
        off += static_cast<std::size_t>(w);
    }
    return true;
}

}  // namespace

std::string destination_problem(const fs::path& path) {
    if (std::string why = planted_link_problem(path.parent_path().empty() ? fs::path(".") : path.parent_path());
        !why.empty())
        return why;
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return {};
        return fmt::format("'{}': {}", path.string(), errno_text(errno));
    }
    if (S_ISREG(st.st_mode)) return {};
    return fmt::format("'{}' exists and is {}; only a regular file is replaced", path.string(), kind_of(st.st_mode));
}

std::string planted_link_problem(const fs::path& path) {
    std::error_code ec;
    fs::path abs = fs::absolute(path, ec);
    if (ec) return {};
    fs::path at = abs.root_path();
    int hops = 0;
    const fs::path relative = abs.relative_path();
    std::vector<fs::path> rest(relative.begin(), relative.end());
    for (std::size_t i = 0; i < rest.size(); ++i) {
        if (rest[i].empty() || rest[i] == ".") continue;
        if (rest[i] == "..") {
            at = at.parent_path();
            continue;
        }
        const fs::path next = at / rest[i];
        struct stat st {};
        if (lstat(next.c_str(), &st) != 0) return {};  // absent from here on: nothing to follow
        if (!S_ISLNK(st.st_mode)) {
            at = next;
            continue;
        }
        struct stat parent {};
        if (stat(at.c_str(), &parent) != 0) return {};
        const bool shared = (parent.st_mode & S_ISVTX) && (parent.st_mode & S_IWOTH);
        if (shared && st.st_uid != geteuid() && st.st_uid != parent.st_uid)
            return fmt::format("'{}' is a symbolic link owned by another user (uid {}) in the shared folder '{}' "
                               "(sticky, writable by anyone); modeaudit does not write through it: give a path "
                               "without it",
                               next.string(), st.st_uid, at.string());
        if (++hops > 40) return fmt::format("'{}': too many levels of symbolic links", path.string());
        // Follow it: the rest of the path continues from its target.
        fs::path target = fs::read_symlink(next, ec);
        if (ec) return {};
        const fs::path target_relative = target.relative_path();
        std::vector<fs::path> more(target_relative.begin(), target_relative.end());
        more.insert(more.end(), rest.begin() + static_cast<std::ptrdiff_t>(i) + 1, rest.end());
        if (target.is_absolute()) at = target.root_path();
        rest = std::move(more);
        i = static_cast<std::size_t>(-1);
    }
    return {};
}

bool write_file_atomically(const fs::path& path, std::string_view text, std::string* error) {
    if (std::string why = planted_link_problem(path.parent_path().empty() ? fs::path(".") : path.parent_path());
        !why.empty())
        return fail(error, why);
    fs::path dir = path.parent_path();
    if (dir.empty()) dir = ".";
    const std::string name = path.filename().string();
    if (name.empty() || name == "." || name == "..")
        return fail(error, fmt::format("'{}' is not a file name", path.string()));
    int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) return fail(error, fmt::format("'{}': the folder '{}': {}", path.string(), dir.string(), errno_text(errno)));
    auto done = [&](bool ok, std::string message = {}) {
        ::close(dir_fd);
        return ok ? true : fail(error, std::move(message));
    };
    if (std::string why = destination_problem_at(dir_fd, name, path); !why.empty()) return done(false, why);

    // A fresh hidden name beside the destination, created exclusively: a
    // planted file or link under that name makes the open fail, not follow.
    std::string tmp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        tmp = fmt::format(".{}.{}.tmp", std::string_view(name).substr(0, 200), random_suffix());
        fd = ::openat(dir_fd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) return done(false, fmt::format("'{}': cannot create a temporary file: {}", path.string(), errno_text(errno)));
    int err = 0;
    bool ok = write_all(fd, text, err);
    if (ok && ::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
        err = errno;
        ok = false;
    }
    if (::close(fd) != 0 && ok) {
        err = errno;
        ok = false;
    }
    if (ok) {
        // Checked again just before the rename: rename replaces a link
        // itself, never its target, but a device or folder is refused.
        if (std::string why = destination_problem_at(dir_fd, name, path); !why.empty()) {
            ::unlinkat(dir_fd, tmp.c_str(), 0);
            return done(false, why);
        }
        if (::renameat(dir_fd, tmp.c_str(), dir_fd, name.c_str()) == 0) return done(true);
        err = errno;
    }
    ::unlinkat(dir_fd, tmp.c_str(), 0);
    return done(false, fmt::format("'{}': {}", path.string(), errno_text(err)));
}

namespace {

// Removes a folder tree without following links: entries are opened
// relative to their folder with O_NOFOLLOW.
void remove_tree_at(int parent_fd, const char* name) {
    int fd = ::openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        ::unlinkat(parent_fd, name, 0);  // a file or a link: the entry itself
        return;
    }
    DIR* d = ::fdopendir(fd);
    if (!d) {
        ::close(fd);
        return;
    }
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d))
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) names.emplace_back(e->d_name);
    for (const std::string& n : names) {
        struct stat st {};
        if (::fstatat(fd, n.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
            remove_tree_at(fd, n.c_str());
        else
            ::unlinkat(fd, n.c_str(), 0);
    }
    ::closedir(d);  // closes fd
    ::unlinkat(parent_fd, name, AT_REMOVEDIR);
}

void remove_tree(const fs::path& folder) {
    fs::path parent = folder.parent_path();
    if (parent.empty()) parent = ".";
    int pfd = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (pfd < 0) return;
    remove_tree_at(pfd, folder.filename().c_str());
    ::close(pfd);
}

}  // namespace

void remove_staging_folder(const fs::path& folder) { remove_tree(folder); }

std::optional<fs::path> make_staging_folder(const fs::path& parent, const std::string& prefix, std::string& error) {
    // Leftovers of killed runs: ours (same owner), a real folder (not a
    // link), and the run that made it is gone.
    std::error_code ec;
    const std::string start = prefix + "-";
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string n = it->path().filename().string();
        if (n.rfind(start, 0) != 0) continue;
        struct stat st {};
        if (::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) continue;
        const std::string rest = n.substr(start.size());
        const std::size_t dash = rest.find('-');
        long pid = 0;
        try {
            pid = std::stol(rest.substr(0, dash));
        } catch (const std::exception&) {
            continue;
        }
        if (pid > 0 && pid != ::getpid() && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
            remove_tree(it->path());
    }
    std::string templ = (parent / fmt::format("{}-{}-XXXXXX", prefix, ::getpid())).string();
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data())) {
        error = fmt::format("cannot create a staging folder in '{}': {}", parent.string(), errno_text(errno));
        return std::nullopt;
    }
    return fs::path(buf.data());
}

FolderLock::FolderLock(const fs::path& folder, double wait_seconds) {
    int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        problem_ = fmt::format("'{}': {}", folder.string(), errno_text(errno));
        return;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_seconds);
    for (;;) {
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
            fd_ = fd;
            return;
        }
        if (errno != EWOULDBLOCK && errno != EINTR) break;
        if (std::chrono::steady_clock::now() > deadline) {
            problem_ = fmt::format("another run held the lock on '{}' for more than {} s", folder.string(), wait_seconds);
            ::close(fd);
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    problem_ = fmt::format("cannot lock '{}': {}", folder.string(), errno_text(errno));
    ::close(fd);
}

FolderLock::~FolderLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
}

bool read_input_file(const std::string& path, std::size_t max_bytes, std::string& text, std::string& error) {
    const bool standard_input = path == "-";
    int fd = standard_input ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        error = errno_text(errno);
        return false;
    }
    auto finish = [&](bool ok) {
        if (!standard_input) ::close(fd);
        return ok;
    };
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        error = errno_text(errno);
        return finish(false);
    }
    if (S_ISDIR(st.st_mode)) {
        error = "it is a directory";
        return finish(false);
    }
    text.clear();
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            error = errno_text(errno);
            return finish(false);
        }
        if (n == 0) break;
        if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
            error = fmt::format("it is larger than the input size limit of {} bytes (--max-input-size)", max_bytes);
            text.clear();
            return finish(false);
        }
        text.append(buf, static_cast<std::size_t>(n));
    }
    return finish(true);
}

bool flush_stdout(std::string& error) {
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        error = errno != 0 ? errno_text(errno) : "write error";
        return false;
    }
    return true;
}

}  // namespace modeaudit
