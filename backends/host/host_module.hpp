// The host backend as the three classes make_table() turns into the ABI's table
// (plugin_table.hpp): the CPU's cores run the vocabulary over the process's own memory,
// the whole machine's (host:0) or one NUMA node's (host:1 onward).
// host_plugin.cpp exports them; a module built for tests may wrap them instead.
#pragma once

#include "numa_nodes.hpp"
#include "page_mapping.hpp"
#include "page_size.hpp"
#include "worker_pool.hpp"

#include <vrambench/plugin.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace vrb::host {

class HostDevice;

// Anonymous memory, mapped for the buffer's life (page_mapping.hpp), bound to a NUMA node's
// memory when its device is one.
class HostBuffer {
  public:
    // node < 0: wherever first touch puts each page. Fails with VRB_ERROR_OUT_OF_MEMORY.
    HostBuffer(uint64_t bytes, const HostDevice &owner, int node);

    uint64_t size() const { return bytes_; }
    // The device that made it: make_table admits it into another device's run() only as
    // far as that device's peer() answer reaches.
    const HostDevice *device() const { return owner_; }
    void upload(uint64_t offset, const void *src, uint64_t bytes);
    void download(uint64_t offset, void *dst, uint64_t bytes);
    void export_handle(vrb_external_handle &handle);

    unsigned char *bytes_at(uint64_t offset) const { return static_cast<unsigned char *>(mapping_.base()) + offset; }
    uint32_t *lanes(uint64_t offset) const { return reinterpret_cast<uint32_t *>(bytes_at(offset)); }
    // The whole pages it is mapped in: what the OS backs with 4 KiB or huge pages.
    const PageMapping &mapping() const { return mapping_; }

  private:
    uint64_t bytes_;
    // Owns the pages: unmapped with the buffer, or when binding them fails in its constructor.
    PageMapping mapping_;
    const HostDevice *owner_;
};

// host:0 is the whole machine; host:1 onward are NUMA nodes (numa_nodes.hpp), each with
// its own pinned workers, made when the device is first opened.
class HostContext {
  public:
    explicit HostContext(const vrb_host_table *host);

    uint32_t device_count() { return 1 + static_cast<uint32_t>(numa_.devices.size()); }
    void describe(uint32_t index, vrb_device_info &info);
    std::unique_ptr<HostDevice> open(uint32_t index);

    bool cancelled() const;
    WorkerPool &pool() { return *pool_; } // the whole machine's
    uint64_t last_level_cache() const { return last_level_cache_; }

    // The node host:index is bound to, or NULL for host:0 (index < device_count()).
    const NumaNode *node(uint32_t index) const { return index == 0 ? nullptr : &numa_.devices[index - 1]; }
    // The workers of host:index: the whole machine's, or the node's own, pinned to its CPUs.
    WorkerPool &pool_of(uint32_t index);

  private:
    void log(vrb_log_level level, const std::string &message) const;
    NumaLayout discover_nodes() const; // logs a refused VRAMBENCH_HOST_NUMA_NODES before failing

    const vrb_host_table *host_;
    NumaLayout numa_; // before the workers: a refused layout stops the backend before they start
    std::unique_ptr<WorkerPool> pool_;
    std::vector<std::unique_ptr<WorkerPool>> node_pools_; // [index - 1], made on first open
    uint64_t last_level_cache_ = 0;
};

// One device with one memory kind, 0 ("pageable"), that every operation runs on: the
// whole machine (host:0), or one NUMA node, whose buffers live in the node's memory and
// whose work runs on the node's CPUs, the calling thread's part (CHASE) included.
class HostDevice {
  public:
    HostDevice(HostContext &ctx, uint32_t index);

    uint32_t memory_kind_count() { return 1; }
    void describe(uint32_t kind, vrb_memory_kind_info &info);
    std::unique_ptr<HostBuffer> alloc(uint32_t kind, uint64_t bytes);
    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out);
    bool supports(uint32_t op_kind, uint32_t element_bytes, uint32_t memory_kind);
    // Node devices read and copy each other's memory in place (VRB_PEER_COPY |
    // VRB_PEER_ACCESS); host:0 spans every node, so it is no peer of one, nor one of it.
    uint32_t peer(const HostDevice &other) const;

  private:
    HostContext &ctx_;
    const NumaNode *node_; // NULL: the whole machine
    WorkerPool &pool_;
    RecentPageBytes pages_; // of the last run's buffers
};

// The buffer behind an operand the adapter has already checked.
inline HostBuffer &host_buffer(vrb_buffer *buffer)
{
    return *reinterpret_cast<HostBuffer *>(buffer);
}

} // namespace vrb::host
