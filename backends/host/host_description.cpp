#include "host_description.hpp"

#include "cpuid_caches.hpp"

#include <vrambench/plugin_support.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <sys/utsname.h>
#include <unistd.h>

namespace vrb::host {

namespace {

std::string read_line(const std::string &path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

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

// "48K", "1024K", "32M" as sysfs writes cache sizes.
uint64_t parse_cache_size(const std::string &text)
{
    if (text.empty()) return 0;
    uint64_t value = std::stoull(text);
    switch (text.back()) {
    case 'K': return value << 10;
    case 'M': return value << 20;
    case 'G': return value << 30;
    default: return value;
    }
}

unsigned count_cpu_list(const std::string &list)
{
    // "0-3,8-11": ranges and single CPUs.
    unsigned n = 0;
    std::stringstream in(list);
    std::string part;
    while (std::getline(in, part, ',')) {
        const auto dash = part.find('-');
        if (dash == std::string::npos) {
            if (!part.empty()) ++n;
        } else {
            n += static_cast<unsigned>(std::stoul(part.substr(dash + 1)) - std::stoul(part.substr(0, dash)) + 1);
        }
    }
    return n;
}

// Sysfs first (exact, with sharing); where a VM hides it, CPUID's deterministic cache
// parameters (per instance, with sharing); glibc's figures (package totals) last.
void describe_caches(vrb_device_info &info)
{
    for (int index = 0; index < 8 && info.cache_count < VRB_MAX_CACHES; ++index) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
        const std::string level = read_line(dir + "level");
        if (level.empty()) break;
        const std::string type = read_line(dir + "type");
        vrb_cache_info &c = info.caches[info.cache_count++];
        c.level = static_cast<uint32_t>(std::stoul(level));
        c.bytes = parse_cache_size(read_line(dir + "size"));
        c.shared_by = count_cpu_list(read_line(dir + "shared_cpu_list"));
        plugin::copy_string(c.kind, type == "Data" ? "data" : type == "Instruction" ? "instruction" : "unified");
    }
    if (info.cache_count > 0) return;
    for (const CpuidCache &cache : cpuid_caches()) {
        if (info.cache_count >= VRB_MAX_CACHES) break;
        vrb_cache_info &c = info.caches[info.cache_count++];
        c.level = cache.level;
        c.bytes = cache.bytes;
        c.shared_by = cache.shared_by;
        plugin::copy_string(c.kind, cache.kind);
    }
    if (info.cache_count) {
        plugin::add_property(info, "cache_source",
                             "cpuid deterministic cache parameters (sysfs cache topology not present)");
        return;
    }
    const struct {
        int name;
        uint32_t level;
        const char *kind;
    } levels[] = {{_SC_LEVEL1_DCACHE_SIZE, 1, "data"},
                  {_SC_LEVEL2_CACHE_SIZE, 2, "unified"},
                  {_SC_LEVEL3_CACHE_SIZE, 3, "unified"},
                  {_SC_LEVEL4_CACHE_SIZE, 4, "unified"}};
    for (const auto &l : levels) {
        const long bytes = sysconf(l.name);
        if (bytes <= 0) continue;
        vrb_cache_info &c = info.caches[info.cache_count++];
        c.level = l.level;
        c.bytes = static_cast<uint64_t>(bytes);
        c.shared_by = 0; // CPUID through glibc does not say
        plugin::copy_string(c.kind, l.kind);
    }
    if (info.cache_count)
        plugin::add_property(info, "cache_source",
                             "cpuid through sysconf: package totals (sysfs cache topology not present)");
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
    describe_caches(info);
    info.heap_count = 1;
    info.heaps[0].bytes = info.total_memory_bytes;
    info.heaps[0].budget_bytes = info.free_memory_bytes;
    info.heaps[0].flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_HOST_MEMORY;
    plugin::add_property(info, "worker_threads", std::to_string(workers) + " (one pinned per allowed CPU)");
    const std::string thp = read_line("/sys/kernel/mm/transparent_hugepage/enabled");
    if (!thp.empty()) plugin::add_property(info, "transparent_hugepages", thp);
}

} // namespace vrb::host
