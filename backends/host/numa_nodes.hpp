// The NUMA nodes the host backend offers as devices of their own, as libnuma reports
// them, and the binding of a buffer's memory to one. host:0 stays the whole machine;
// with more than one node that has memory and CPUs this process may use, host:1
// onward are those nodes in ascending order. VRAMBENCH_HOST_NUMA_NODES ("0,1", "0,0")
// names the nodes to offer instead: a person choosing nodes, or a test making a
// one-node machine look like several (the same node twice is two devices bound to it).
// Built without libnuma (VRAMBENCH_HAVE_LIBNUMA unset) there are no node devices, and
// the variable is refused.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vrb::host {

struct NumaNode {
    int id = -1;           // the kernel's node number
    std::vector<int> cpus; // the node's CPUs this process may run on, ascending
};

struct NumaLayout {
    std::vector<NumaNode> devices; // host:1 onward, in order
    int nodes_with_memory = 0;     // on the machine: the "of 2" of "NUMA node 1 of 2"
    std::string summary;           // what was found and chosen, for the log and host:0's description
};

// Reads the machine's nodes and VRAMBENCH_HOST_NUMA_NODES; a variable that names a
// node this process cannot use, or is not a list of node numbers, fails with
// VRB_ERROR_INVALID_ARGUMENT naming it.
NumaLayout numa_layout();

// A node's memory now. Linux keeps no per-node MemAvailable: available is the node's free
// memory plus the page cache and reclaimable slab the kernel drops for a bound
// allocation before it fails (MemAvailable's parts, without its reserves), and never more
// than the machine's MemAvailable.
struct NodeMemory {
    uint64_t total_bytes = 0, available_bytes = 0; // 0 when not known
};
NodeMemory node_memory(int node);

// Binds [memory, memory + bytes), mapped and not yet touched, to `node` (MPOL_BIND):
// every page faulted in later comes from that node's memory. Fails with
// VRB_ERROR_OUT_OF_MEMORY when the kernel refuses.
void bind_to_node(void *memory, uint64_t bytes, int node);

} // namespace vrb::host
