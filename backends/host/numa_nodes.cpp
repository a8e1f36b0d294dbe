#include "numa_nodes.hpp"

#include "cpu_affinity.hpp"
#include "host_description.hpp"

#include <vrambench/plugin_support.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#ifdef VRAMBENCH_HAVE_LIBNUMA
#include <numa.h>
#include <numaif.h>
#endif

using vrb::plugin::fail;

namespace vrb::host {

namespace {

constexpr const char *nodes_variable = "VRAMBENCH_HOST_NUMA_NODES";

// The variable's value, or nothing when it is unset or empty.
std::optional<std::string> chosen_nodes_text()
{
    const char *text = std::getenv(nodes_variable);
    if (!text || !*text) return std::nullopt;
    return std::string(text);
}

std::string setting(const std::string &text)
{
    return std::string(nodes_variable) + "=" + text;
}

#ifdef VRAMBENCH_HAVE_LIBNUMA

// "0,1" -> {0, 1}; anything but non-negative numbers between commas is refused, so a
// typo cannot quietly turn into the default layout.
std::vector<int> parse_nodes(const std::string &text)
{
    std::vector<int> nodes;
    std::size_t at = 0;
    for (;;) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        int node = -1;
        const char *first = text.data() + at, *last = text.data() + comma;
        const auto [end, error] = std::from_chars(first, last, node);
        if (first == last || error != std::errc() || end != last || node < 0)
            fail(VRB_ERROR_INVALID_ARGUMENT, setting(text) + " is not a comma-separated list of NUMA node numbers");
        nodes.push_back(node);
        if (comma == text.size()) return nodes;
        at = comma + 1;
    }
}

std::string join(const std::vector<int> &values)
{
    std::string text;
    for (int v : values) {
        if (!text.empty()) text += ',';
        text += std::to_string(v);
    }
    return text;
}

std::string device_span(std::size_t count)
{
    return count == 1 ? "host:1 is node " : "host:1..host:" + std::to_string(count) + " are nodes ";
}

using Mask = std::unique_ptr<bitmask, void (*)(bitmask *)>;

bool node_has_memory(int node)
{
    return node >= 0 && node <= numa_max_node() && numa_node_size64(node, nullptr) > 0;
}

// The node's CPUs this process may run on.
std::vector<int> usable_cpus(int node)
{
    Mask mask(numa_allocate_cpumask(), numa_bitmask_free);
    std::vector<int> cpus;
    if (!mask || numa_node_to_cpus(node, mask.get()) != 0) return cpus;
    for (int cpu : allowed_cpus())
        if (numa_bitmask_isbitset(mask.get(), static_cast<unsigned>(cpu))) cpus.push_back(cpu);
    return cpus;
}

// Why `node` cannot be a device, or empty when it can.
std::string why_not(int node, const bitmask &mems_allowed)
{
    if (node > numa_max_node() || numa_node_size64(node, nullptr) < 0) return "which this machine does not have";
    if (!node_has_memory(node)) return "which has no memory";
    if (!numa_bitmask_isbitset(&mems_allowed, static_cast<unsigned>(node)))
        return "whose memory this process may not use (its cpuset)";
    if (usable_cpus(node).empty()) return "which has no CPU this process may run on";
    return {};
}

NumaLayout layout_from_libnuma()
{
    NumaLayout layout;
    const std::optional<std::string> chosen = chosen_nodes_text();
    if (numa_available() < 0) {
        if (chosen)
            fail(VRB_ERROR_INVALID_ARGUMENT, setting(*chosen) + " names NUMA nodes, but NUMA is not available here "
                                                                "(libnuma's numa_available() says no)");
        layout.summary = "not available (numa_available): the whole machine is one device";
        return layout;
    }
    std::vector<int> with_memory;
    for (int node = 0; node <= numa_max_node(); ++node)
        if (node_has_memory(node)) with_memory.push_back(node);
    layout.nodes_with_memory = static_cast<int>(with_memory.size());
    const Mask mems_allowed(numa_get_mems_allowed(), numa_bitmask_free);
    if (!mems_allowed) fail(VRB_ERROR_INTERNAL, "libnuma could not say which NUMA nodes' memory this process may use");

    std::vector<int> nodes;
    std::string left_out;
    if (chosen) {
        nodes = parse_nodes(*chosen);
        for (int node : nodes)
            if (const std::string why = why_not(node, *mems_allowed); !why.empty())
                fail(VRB_ERROR_INVALID_ARGUMENT, setting(*chosen) + " names NUMA node " + std::to_string(node) + ", " +
                                                     why + " (nodes with memory: " + join(with_memory) + ")");
    } else {
        for (int node : with_memory) {
            if (why_not(node, *mems_allowed).empty())
                nodes.push_back(node);
            else
                left_out += "; node " + std::to_string(node) + " " + why_not(node, *mems_allowed);
        }
        // One usable node is the whole machine already: host:0 says everything it would.
        if (nodes.size() < 2) nodes.clear();
    }
    for (int node : nodes)
        layout.devices.push_back({node, usable_cpus(node)});
    layout.summary = std::to_string(with_memory.size()) + " with memory; " +
                     (nodes.empty() ? std::string("no node devices")
                                    : device_span(nodes.size()) + join(nodes) +
                                          (chosen ? " (" + setting(*chosen) + ")" : std::string())) +
                     left_out;
    return layout;
}

#endif

} // namespace

#ifdef VRAMBENCH_HAVE_LIBNUMA

NumaLayout numa_layout()
{
    return layout_from_libnuma();
}

NodeMemory node_memory(int node)
{
    long long free_bytes = 0;
    const long long total = numa_node_size64(node, &free_bytes);
    if (total <= 0) return {};
    uint64_t available = static_cast<uint64_t>(std::max(free_bytes, 0LL));
    // "Node 0 Active(file):  2535284 kB" and so on; free is MemFree already.
    std::ifstream meminfo("/sys/devices/system/node/node" + std::to_string(node) + "/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
        std::istringstream fields(line);
        std::string word, key;
        uint64_t kib = 0;
        if (!(fields >> word >> word >> key >> kib)) continue;
        if (key == "Active(file):" || key == "Inactive(file):" || key == "SReclaimable:") available += kib << 10;
    }
    if (const uint64_t machine = available_memory_bytes()) available = std::min(available, machine);
    return {static_cast<uint64_t>(total), available};
}

void bind_to_node(void *memory, uint64_t bytes, int node)
{
    const Mask nodes(numa_allocate_nodemask(), numa_bitmask_free);
    if (!nodes) fail(VRB_ERROR_OUT_OF_MEMORY, "libnuma could not make a node mask");
    numa_bitmask_setbit(nodes.get(), static_cast<unsigned>(node));
    // The kernel reads maxnode - 1 bits of the mask (mbind(2)): one more than its size.
    if (mbind(memory, bytes, MPOL_BIND, nodes->maskp, nodes->size + 1, 0) != 0)
        fail(VRB_ERROR_OUT_OF_MEMORY, "binding " + std::to_string(bytes) + " bytes to NUMA node " +
                                          std::to_string(node) + " failed: " + std::strerror(errno));
}

#else

NumaLayout numa_layout()
{
    if (const std::optional<std::string> chosen = chosen_nodes_text())
        fail(VRB_ERROR_INVALID_ARGUMENT, setting(*chosen) + " names NUMA nodes, but this host module was built "
                                                            "without libnuma (install libnuma-dev and rebuild)");
    NumaLayout layout;
    layout.summary = "not known: built without libnuma, so the whole machine is one device";
    return layout;
}

NodeMemory node_memory(int)
{
    return {};
}

void bind_to_node(void *, uint64_t, int node)
{
    fail(VRB_ERROR_UNSUPPORTED, "cannot bind memory to NUMA node " + std::to_string(node) + ": built without libnuma");
}

#endif

} // namespace vrb::host
