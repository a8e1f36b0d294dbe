// `run -o PATH` with the paths people type: a link, a FIFO with a reader, a full
// device, a folder that cannot be written. What PATH is stays what it was, and a
// write that fails fails the run while the journal keeps every result.
#include "run_process.hpp"

#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <grp.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

std::filesystem::path fresh_folder(const std::string &name)
{
    const auto dir = std::filesystem::temp_directory_path() / ("vrb-cli-out-" + std::to_string(getpid())) / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

std::vector<std::string> quick_run(const std::filesystem::path &output)
{
    return {VRAMBENCH_EXE, "run",     "--backend",        "host", "--suite",       "quick",    "--size",
            "1M",          "--probe", "bandwidth.stream", "-o",   output.string(), "--format", "json"};
}

std::string read_all(const std::filesystem::path &file)
{
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::size_t journal_lines(const std::filesystem::path &journal)
{
    std::ifstream in(journal);
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);)
        n += nlohmann::json::parse(line, nullptr, false).is_object();
    return n;
}

} // namespace

TEST(CliOutput, ASymbolicLinkIsFollowedAndItsTargetGetsTheResultSet)
{
    const auto dir = fresh_folder("link");
    std::filesystem::create_directories(dir / "kept");
    std::filesystem::create_symlink("kept/r.json", dir / "latest.json");
    const ProcessResult r = run_process(quick_run(dir / "latest.json"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(std::filesystem::is_symlink(dir / "latest.json")) << "the link must stay a link";
    const auto doc = vrb::read_result_file(dir / "kept" / "r.json");
    EXPECT_EQ(doc["results"].size(), 7u);
    EXPECT_FALSE(std::filesystem::exists(dir / "latest.json.journal"));
}

TEST(CliOutput, AFifoIsWrittenInPlaceForItsReader)
{
    const auto dir = fresh_folder("fifo");
    const auto fifo = dir / "results";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string got;
    std::thread reader([&] { got = read_all(fifo); });
    const ProcessResult r = run_process(quick_run(fifo));
    // A run that never opened the FIFO would leave the reader waiting for a writer.
    if (const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK); fd >= 0) ::close(fd);
    reader.join();
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(std::filesystem::is_fifo(fifo)) << "the FIFO must stay a FIFO";
    const auto doc = vrb::parse_result_text(got, "the FIFO's reader");
    EXPECT_EQ(doc["results"].size(), 7u);
    EXPECT_EQ(doc, nlohmann::json::parse(r.out)) << "the reader gets the same result set as stdout";
}

TEST(CliOutput, AFullDeviceFailsTheRunAndTheJournalKeepsEveryResult)
{
    const auto dir = fresh_folder("full");
    const auto full = dir / "full";
    // The kernel's full device (1, 7), made here, never the system's own /dev/full.
    if (::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
        GTEST_SKIP() << "mknod needs CAP_MKNOD (root): " << std::strerror(errno);
    const ProcessResult r = run_process(quick_run(full));
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find(full.string() + ": cannot write: No space left on device"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the 7 results of this run are kept in " + full.string() + ".journal"), std::string::npos)
        << r.err;
    EXPECT_EQ(journal_lines(full.string() + ".journal"), 7u);
    struct stat st {};
    ASSERT_EQ(::stat(full.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device must stay a device";
}

TEST(CliOutput, AFolderThatCannotBeWrittenIsRefusedBeforeAnythingIsMeasured)
{
    // Root writes anywhere whatever the permission bits say: the run is made by a
    // child that drops to an unprivileged user first.
    const auto dir = fresh_folder("read-only");
    std::filesystem::create_directories(dir / "locked");
    std::filesystem::create_directories(dir / "open");
    std::filesystem::permissions(dir / "locked", std::filesystem::perms(0555));
    std::filesystem::permissions(dir / "open", std::filesystem::perms(0777));
    std::filesystem::create_symlink(dir / "locked" / "r.json", dir / "open" / "link.json");
    for (const auto &output : {dir / "locked" / "r.json", dir / "open" / "link.json"}) {
        int err[2];
        ASSERT_EQ(::pipe(err), 0);
        const pid_t pid = ::fork();
        if (pid == 0) {
            if (::geteuid() == 0 && (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0))
                ::_exit(120);
            ::dup2(err[1], STDERR_FILENO);
            const int null = ::open("/dev/null", O_WRONLY);
            ::dup2(null, STDOUT_FILENO);
            const auto args = quick_run(output);
            std::vector<char *> argv;
            for (const auto &a : args)
                argv.push_back(const_cast<char *>(a.c_str()));
            argv.push_back(nullptr);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        ::close(err[1]);
        std::string text;
        char buffer[4096];
        for (ssize_t n; (n = ::read(err[0], buffer, sizeof buffer)) > 0;)
            text.append(buffer, static_cast<std::size_t>(n));
        ::close(err[0]);
        int status = 0;
        ::waitpid(pid, &status, 0);
        ASSERT_TRUE(WIFEXITED(status));
        if (WEXITSTATUS(status) == 120) GTEST_SKIP() << "cannot drop to an unprivileged user here";
        if (WEXITSTATUS(status) == 127) GTEST_SKIP() << "the unprivileged user cannot run " << VRAMBENCH_EXE;
        EXPECT_EQ(WEXITSTATUS(status), 2) << text;
        EXPECT_NE(text.find("folder " + (dir / "locked").string() + " is not writable"), std::string::npos) << text;
        EXPECT_FALSE(std::filesystem::exists(dir / "locked" / "r.json"));
    }
}
