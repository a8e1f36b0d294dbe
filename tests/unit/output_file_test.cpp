// `-o PATH` keeps what PATH is: a link is followed and its target replaced atomically,
// a FIFO or a device is written in place, and a write that fails says why.
#include <vrambench/core/error.hpp>
#include <vrambench/core/results/output_file.hpp>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

// A disk that cannot make the new file durable (EIO from fsync, as a failing disk or a
// full quota on a network file system answers): set to an errno, every fsync in this
// program fails with it; 0 leaves fsync to the kernel. The core is linked statically,
// so its fsync is this one.
static int failing_fsync_errno = 0;

extern "C" int fsync(int fd)
{
    if (failing_fsync_errno) {
        errno = failing_fsync_errno;
        return -1;
    }
    return static_cast<int>(::syscall(SYS_fsync, fd));
}

namespace {

std::filesystem::path fresh_folder(const std::string &name)
{
    const auto dir = std::filesystem::temp_directory_path() / ("vrb-out-" + std::to_string(getpid())) / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

std::string read_all(const std::filesystem::path &file)
{
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string error_of(const std::filesystem::path &file, const std::string &text)
{
    try {
        vrb::write_file_atomically(file, text);
    } catch (const vrb::Error &e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(OutputFile, FollowsASymbolicLinkAndReplacesItsTargetKeepingTheLink)
{
    const auto dir = fresh_folder("link");
    std::filesystem::create_directories(dir / "real");
    std::ofstream(dir / "real" / "r.json") << "old\n";
    std::filesystem::create_symlink("real/r.json", dir / "r.json");
    vrb::write_file_atomically(dir / "r.json", "new\n");
    EXPECT_TRUE(std::filesystem::is_symlink(dir / "r.json"));
    EXPECT_EQ(read_all(dir / "real" / "r.json"), "new\n");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir / "real"), {}), 1) << "no temporary left";
}

TEST(OutputFile, CreatesTheFileADanglingLinkNamesThroughAChainOfLinks)
{
    const auto dir = fresh_folder("dangling");
    std::filesystem::create_symlink(dir / "second", dir / "first");
    std::filesystem::create_symlink("target.json", dir / "second");
    EXPECT_EQ(vrb::output_destination(dir / "first"), dir / "target.json");
    vrb::write_file_atomically(dir / "first", "{}\n");
    EXPECT_TRUE(std::filesystem::is_symlink(dir / "first"));
    EXPECT_TRUE(std::filesystem::is_symlink(dir / "second"));
    EXPECT_EQ(read_all(dir / "target.json"), "{}\n");
}

TEST(OutputFile, RefusesALoopOfLinks)
{
    const auto dir = fresh_folder("loop");
    std::filesystem::create_symlink("b", dir / "a");
    std::filesystem::create_symlink("a", dir / "b");
    EXPECT_NE(error_of(dir / "a", "{}").find("too many levels of symbolic links"), std::string::npos);
    EXPECT_TRUE(std::filesystem::is_symlink(dir / "a"));
}

TEST(OutputFile, WritesAFifoInPlaceForItsReader)
{
    const auto dir = fresh_folder("fifo");
    const auto fifo = dir / "out";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string got;
    std::thread reader([&] { got = read_all(fifo); });
    const std::string error = error_of(fifo, "through the fifo\n");
    // A write that never opened the FIFO would leave the reader waiting for a writer.
    if (const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK); fd >= 0) ::close(fd);
    reader.join();
    EXPECT_EQ(error, "");
    EXPECT_EQ(got, "through the fifo\n");
    EXPECT_TRUE(std::filesystem::is_fifo(fifo)) << "the FIFO must stay a FIFO";
}

TEST(OutputFile, AReaderThatLeavesEarlyIsABrokenPipeReportedNotASignalThatKills)
{
    const auto dir = fresh_folder("epipe");
    const auto fifo = dir / "out";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread reader([&] {
        const int fd = ::open(fifo.c_str(), O_RDONLY);
        char c;
        (void)!::read(fd, &c, 1);
        ::close(fd);
    });
    // Far more than a pipe holds, so the writer is still writing when the reader leaves.
    const std::string error = error_of(fifo, std::string(8u << 20, 'x'));
    reader.join();
    EXPECT_NE(error.find("Broken pipe"), std::string::npos) << error;
    EXPECT_NE(error.find(fifo.string()), std::string::npos) << error;
}

TEST(OutputFile, AFullCharacterDeviceFailsTheWriteAndStaysADevice)
{
    const auto dir = fresh_folder("full");
    const auto full = dir / "full";
    // The kernel's full device (1, 7), made here, never the system's own /dev/full.
    if (::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
        GTEST_SKIP() << "mknod needs CAP_MKNOD (root): " << std::strerror(errno);
    const std::string error = error_of(full, "{}\n");
    EXPECT_NE(error.find("No space left on device"), std::string::npos) << error;
    struct stat st {};
    ASSERT_EQ(::stat(full.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device must stay a device";
}

TEST(OutputFile, ANewFileTheDiskCannotSyncLeavesTheOldOneAndSaysWhy)
{
    const auto dir = fresh_folder("fsync");
    const auto file = dir / "result.json";
    std::ofstream(file) << "old";
    failing_fsync_errno = EIO;
    const std::string error = error_of(file, "new");
    failing_fsync_errno = 0;
    EXPECT_EQ(error, file.string() + ": cannot write: " + std::strerror(EIO));
    EXPECT_EQ(read_all(file), "old");
    // The temporary file is gone with the failure.
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 1);
}

TEST(OutputFile, RefusesAFolderThatDoesNotExist)
{
    EXPECT_THROW(vrb::write_file_atomically("/nonexistent-folder/x.json", "{}"), vrb::UsageError);
}
