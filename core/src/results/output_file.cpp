#include <vrambench/core/error.hpp>
#include <vrambench/core/results/output_file.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace vrb {

namespace {

// Writes everything or answers the errno of the write that failed (0 on success).
// SIGPIPE is held back on this thread: a FIFO whose reader left is an error to report
// (EPIPE), not a reason for the whole run to die.
int write_all(int fd, const std::string &text)
{
    sigset_t pipe_only, old;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
    const char *p = text.data();
    std::size_t left = text.size();
    int failed = 0;
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            failed = errno;
            break;
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    if (failed == EPIPE) {
        const timespec now{};
        while (sigtimedwait(&pipe_only, nullptr, &now) == SIGPIPE) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    return failed;
}

[[noreturn]] void cannot_write(const std::filesystem::path &file, int why)
{
    throw RunError(fmt::format("{}: cannot write: {}{}", file.string(), std::strerror(why),
                               why == EPIPE ? " (its reader went away before the end)" : ""));
}

void write_in_place(const std::filesystem::path &file, const std::string &text)
{
    // No O_CREAT, no O_TRUNC: the file exists and is not a regular file.
    const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) cannot_write(file, errno);
    const int failed = write_all(fd, text);
    const int closed = ::close(fd) == 0 ? 0 : errno;
    if (failed || closed) cannot_write(file, failed ? failed : closed);
}

void replace_through_rename(const std::filesystem::path &file, const std::string &text)
{
    const auto folder = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec))
        throw UsageError(fmt::format("{}: cannot write: folder {} does not exist", file.string(), folder.string()));
    std::string tmp = (folder / fmt::format(".{}.XXXXXX", file.filename().string())).string();
    const int fd = mkstemp(tmp.data());
    if (fd < 0) throw UsageError(fmt::format("{}: cannot write: {}", file.string(), std::strerror(errno)));
    int failed = write_all(fd, text);
    // mkstemp creates 0600; a result file is as readable as any file the user writes.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    if (!failed && ::fsync(fd) != 0) failed = errno;
    if (::close(fd) != 0 && !failed) failed = errno;
    if (!failed && std::rename(tmp.c_str(), file.c_str()) != 0) failed = errno;
    if (failed) {
        ::unlink(tmp.c_str());
        cannot_write(file, failed);
    }
}

} // namespace

std::filesystem::path output_destination(const std::filesystem::path &file)
{
    struct stat st {};
    // Through every link: what is there in the end decides how it is written.
    if (::stat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return file;
    std::filesystem::path path = file;
    for (int hops = 0; hops < 40; ++hops) {
        if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
        std::error_code ec;
        const auto target = std::filesystem::read_symlink(path, ec);
        if (ec)
            throw UsageError(
                fmt::format("{}: cannot follow the link {}: {}", file.string(), path.string(), ec.message()));
        path = target.is_absolute() ? target : path.parent_path() / target;
    }
    throw UsageError(fmt::format("{}: cannot write: too many levels of symbolic links", file.string()));
}

void write_file_atomically(const std::filesystem::path &file, const std::string &text)
{
    const std::filesystem::path destination = output_destination(file);
    struct stat st {};
    if (::stat(destination.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        write_in_place(destination, text);
    else
        replace_through_rename(destination, text);
}

} // namespace vrb
