// The host CPU and its memory as the OS describes them.
#pragma once

#include "numa_nodes.hpp"

#include <vrambench/plugin.h>

#include <cstdint>
#include <string>

namespace vrb::host {

// The whole machine; `numa` is what numa_nodes.hpp found (numa_layout()'s summary).
void describe_host(vrb_device_info &info, unsigned workers, const std::string &numa);

// One NUMA node as a device: the machine's CPU model and caches, the node's memory and
// the node's CPUs this process may use, named "... (NUMA node 1 of 2)".
void describe_node(vrb_device_info &info, const NumaNode &node, int nodes_with_memory);

// MemAvailable from /proc/meminfo: what can be allocated without pushing others out.
uint64_t available_memory_bytes();

} // namespace vrb::host
