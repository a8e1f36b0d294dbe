// The machine a run happened on, for the result set's "host".
#include <vrambench/core/run/runner.hpp>

#include <chrono>
#include <fstream>
#include <string>
#include <sys/utsname.h>
#include <unistd.h>

#include <fmt/chrono.h>
#include <fmt/format.h>

namespace vrb {

namespace {

std::string cpu_model()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    }
    return "unknown";
}

} // namespace

nlohmann::json host_json()
{
    utsname u{};
    uname(&u);
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return {{"hostname", u.nodename},
            {"os", fmt::format("{} {} {}", u.sysname, u.release, u.machine)},
            {"cpu", cpu_model()},
            {"logical_cpus", std::max(1L, sysconf(_SC_NPROCESSORS_ONLN))},
            {"memory_bytes", pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0}};
}

std::string utc_now()
{
    const auto now = std::chrono::system_clock::now();
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03d}Z", fmt::gmtime(std::chrono::system_clock::to_time_t(now)), ms);
}

} // namespace vrb
