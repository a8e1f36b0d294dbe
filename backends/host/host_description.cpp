#include "host_description.hpp"

#include "cpu_affinity.hpp"
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

void describe_host(vrb_device_info &info, unsigned workers, const std::string &numa)
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
    plugin::add_property(info, "numa_nodes", numa);
}

void describe_node(vrb_device_info &info, const NumaNode &node, int nodes_with_memory)
{
    const auto workers = static_cast<unsigned>(node.cpus.size());
    describe_host(info, workers, std::to_string(nodes_with_memory) + " with memory");
    const std::string which = "NUMA node " + std::to_string(node.id) + " of " + std::to_string(nodes_with_memory);
    plugin::copy_string(info.name, std::string(info.name) + " (" + which + ")");
    // The machine's totals would misstate a node: what is not known of the node stays unknown.
    const NodeMemory memory = node_memory(node.id);
    info.total_memory_bytes = memory.total_bytes;
    info.free_memory_bytes = memory.available_bytes;
    info.known &= ~static_cast<uint64_t>(VRB_KNOWN_TOTAL_MEMORY | VRB_KNOWN_FREE_MEMORY);
    if (memory.total_bytes) info.known |= VRB_KNOWN_TOTAL_MEMORY | VRB_KNOWN_FREE_MEMORY;
    info.heaps[0].bytes = memory.total_bytes;
    info.heaps[0].budget_bytes = memory.available_bytes;
    // describe_host's properties, with the node's in place of the machine's worker line.
    for (uint32_t i = 0; i < info.property_count; ++i)
        if (std::string(info.properties[i].key) == "worker_threads")
            plugin::copy_string(info.properties[i].value,
                                std::to_string(workers) +
                                    " (one pinned per CPU of the node: " + cpu_list_text(node.cpus) + ")");
    plugin::add_property(info, "numa_node", which);
    plugin::add_property(info, "numa_node_cpus", cpu_list_text(node.cpus));
    plugin::add_property(info, "numa_node_memory", "bound to node " + std::to_string(node.id) + " (MPOL_BIND)");
}

} // namespace vrb::host
