#include <vrambench/core/run/child_processes.hpp>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <memory>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace vrb {

namespace {

// The parent pid in /proc/PID/stat: the field after the state, after the last ')',
// since the command name in parentheses may hold spaces and parentheses itself.
pid_t parent_of(const char *pid)
{
    std::ifstream in(std::string("/proc/") + pid + "/stat");
    std::string line;
    if (!std::getline(in, line)) return -1;
    const auto close = line.rfind(')');
    if (close == std::string::npos || close + 4 >= line.size()) return -1;
    return static_cast<pid_t>(std::strtol(line.c_str() + close + 4, nullptr, 10));
}

} // namespace

bool adopt_orphans()
{
    return ::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
}

std::set<pid_t> child_processes()
{
    std::set<pid_t> children;
    const std::unique_ptr<DIR, int (*)(DIR *)> proc(::opendir("/proc"), ::closedir);
    if (!proc) return children;
    const pid_t self = ::getpid();
    while (const dirent *entry = ::readdir(proc.get())) {
        if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
        if (parent_of(entry->d_name) == self) children.insert(static_cast<pid_t>(std::atoi(entry->d_name)));
    }
    return children;
}

void end_children_except(const std::set<pid_t> &keep)
{
    // Each round ends the strays seen now; reaping one hands its own children to this
    // process (as their subreaper), so the next round sees them. A killed process forks
    // no more, so the rounds come to an end; the bound only guards against a /proc
    // that keeps listing a child this process cannot reap.
    for (int round = 0; round < 4096; ++round) {
        std::set<pid_t> strays;
        for (const pid_t pid : child_processes())
            if (!keep.count(pid)) strays.insert(pid);
        if (strays.empty()) return;
        for (const pid_t pid : strays)
            ::kill(pid, SIGKILL);
        for (const pid_t pid : strays)
            while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
            }
    }
}

} // namespace vrb
