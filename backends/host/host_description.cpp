#include "host_description.hpp"

#include "cpu_caches.hpp"

#include <vrambench/plugin_support.hpp>

#include <fstream>
#include <string>
#include <sys/utsname.h>

namespace vrb::host {

namespace {

std::string cpuinfo_field(const char *field)
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
        }
    return {};
}

uint64_t meminfo_kib(const char *key)
{
    std::ifstream in("/proc/meminfo");
    std::string name;
    uint64_t kib = 0;
    std::string unit;
    while (in >> name >> kib) {
        std::getline(in, unit);
        if (name == key) return kib;
    }
    return 0;
}

} // namespace

uint64_t available_memory_bytes()
{
    return meminfo_kib("MemAvailable:") << 10;
}

void describe_host(vrb_device_info &info, unsigned workers)
{
    info.type = VRB_DEVICE_CPU;
    std::string model = cpuinfo_field("model name");
    plugin::copy_string(info.name, model.empty() ? "host CPU" : model);
    plugin::copy_string(info.vendor, cpuinfo_field("vendor_id"));
    plugin::copy_string(info.api, "host");
    utsname u{};
    if (uname(&u) == 0) {
        plugin::copy_string(info.api_version, std::string(u.sysname) + " " + u.release);
        info.known |= VRB_KNOWN_API_VERSION;
    }
    info.total_memory_bytes = meminfo_kib("MemTotal:") << 10;
    info.free_memory_bytes = available_memory_bytes();
    if (info.total_memory_bytes) info.known |= VRB_KNOWN_TOTAL_MEMORY;
    if (info.free_memory_bytes) info.known |= VRB_KNOWN_FREE_MEMORY;
    info.compute_units = workers;
    info.known |= VRB_KNOWN_COMPUTE_UNITS;
    const std::string mhz = cpuinfo_field("cpu MHz");
    if (!mhz.empty()) {
        info.core_clock_khz = static_cast<uint32_t>(std::stod(mhz) * 1000);
        info.known |= VRB_KNOWN_CORE_CLOCK;
    }
    cpu::describe_cpu_caches(info);
    info.heap_count = 1;
    info.heaps[0].bytes = info.total_memory_bytes;
    info.heaps[0].budget_bytes = info.free_memory_bytes;
    info.heaps[0].flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_HOST_MEMORY;
    plugin::add_property(info, "worker_threads", std::to_string(workers) + " (one pinned per allowed CPU)");
    const std::string thp = cpu::read_first_line("/sys/kernel/mm/transparent_hugepage/enabled");
    if (!thp.empty()) plugin::add_property(info, "transparent_hugepages", thp);
}

} // namespace vrb::host
