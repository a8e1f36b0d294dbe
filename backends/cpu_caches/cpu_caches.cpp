#include "cpu_caches.hpp"

#include "cpuid_caches.hpp"
#include "cpuid_tlb.hpp"
#include "measured_cache.hpp"

#include <vrambench/plugin_support.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace vrb::cpu {

namespace {

std::string mib(uint64_t bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
    return text;
}

// sysconf's L3 on AMD and Hygon is the package's total over all its CCXs (see
// measured_cache.hpp): the instance one core reaches is measured in its place, from
// twice its L2 (less is L2) up to that total. Intel's L3 is one per package, as reported.
bool measure_split_l3(vrb_device_info &info)
{
    const std::string vendor = cpuid_vendor();
    if (vendor != "AuthenticAMD" && vendor != "HygonGenuine") return false;
    vrb_cache_info *l3 = nullptr;
    uint64_t l2 = 0;
    for (uint32_t i = 0; i < info.cache_count; ++i) {
        if (info.caches[i].level == 3) l3 = &info.caches[i];
        if (info.caches[i].level == 2) l2 = info.caches[i].bytes;
    }
    if (!l3) return false;
    const uint64_t total = l3->bytes, from = std::max<uint64_t>(2 * l2, 1 << 20);
    if (total <= from) return false; // no room for another instance below the total
    const CacheInstance found = measured_cache_instance(from, total);
    if (found.failed) {
        plugin::add_property(info, "l3_instance", "the package total: no memory for a read to measure it");
        return false;
    }
    if (!found.knee_found) {
        plugin::add_property(info, "l3_instance", "the package total: a read slowed 1.6x at no size below it");
        return false;
    }
    l3->bytes = found.bytes;
    plugin::add_property(info, "l3_instance_measured",
                         "read time per line halfway to memory's at " + mib(found.bytes) + " (package total " +
                             mib(total) + ")");
    return true;
}

// Which of the three sources answered; nothing where none did.
const char *fill_caches(vrb_device_info &info)
{
    for (int index = 0; index < 8 && info.cache_count < VRB_MAX_CACHES; ++index) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
        const std::string level = read_first_line(dir + "level");
        if (level.empty()) break;
        const std::string type = read_first_line(dir + "type");
        vrb_cache_info &c = info.caches[info.cache_count++];
        c.level = static_cast<uint32_t>(std::stoul(level));
        c.bytes = parse_cache_size(read_first_line(dir + "size"));
        c.shared_by = count_cpu_list(read_first_line(dir + "shared_cpu_list"));
        plugin::copy_string(c.kind, type == "Data" ? "data" : type == "Instruction" ? "instruction" : "unified");
    }
    if (info.cache_count > 0) return "sysfs cache topology";
    for (const CpuidCache &cache : cpuid_caches()) {
        if (info.cache_count >= VRB_MAX_CACHES) break;
        vrb_cache_info &c = info.caches[info.cache_count++];
        c.level = cache.level;
        c.bytes = cache.bytes;
        c.shared_by = cache.shared_by;
        plugin::copy_string(c.kind, cache.kind);
    }
    if (info.cache_count) return "cpuid deterministic cache parameters (no sysfs cache topology)";
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
        if (bytes <= 0 || info.cache_count >= VRB_MAX_CACHES) continue;
        vrb_cache_info &c = info.caches[info.cache_count++];
        c.level = l.level;
        c.bytes = static_cast<uint64_t>(bytes);
        c.shared_by = 0; // CPUID through glibc does not say
        plugin::copy_string(c.kind, l.kind);
    }
    if (!info.cache_count) return nullptr;
    if (measure_split_l3(info)) return "sysconf package totals; L3 measured (no sysfs topology)";
    return "sysconf: package totals (no sysfs cache topology)";
}

} // namespace

std::string read_first_line(const std::string &path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

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

void describe_cpu_caches(vrb_device_info &info, const std::string &prefix)
{
    const char *source = fill_caches(info);
    if (source) plugin::add_property(info, "cache_source", prefix + source);
    if (const std::string tlbs = data_tlb_text(cpuid_data_tlbs()); !tlbs.empty())
        plugin::add_property(info, VRB_PROPERTY_DATA_TLB, tlbs);
}

} // namespace vrb::cpu
