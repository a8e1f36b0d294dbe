// The host backend as the three classes make_table() turns into the ABI's table
// (plugin_table.hpp): the CPU's cores run the vocabulary over the process's own memory.
// host_plugin.cpp exports them; a module built for tests may wrap them instead.
#pragma once

#include "worker_pool.hpp"

#include <vrambench/plugin.h>

#include <cstdint>
#include <memory>
#include <span>

namespace vrb::host {

class HostDevice;

// Anonymous memory, mapped for the buffer's life (whole pages).
class HostBuffer {
  public:
    explicit HostBuffer(uint64_t bytes); // fails with VRB_ERROR_OUT_OF_MEMORY
    ~HostBuffer();
    HostBuffer(const HostBuffer &) = delete;
    HostBuffer &operator=(const HostBuffer &) = delete;

    uint64_t size() const { return bytes_; }
    void upload(uint64_t offset, const void *src, uint64_t bytes);
    void download(uint64_t offset, void *dst, uint64_t bytes);
    void export_handle(vrb_external_handle &handle);

    unsigned char *bytes_at(uint64_t offset) const { return static_cast<unsigned char *>(base_) + offset; }
    uint32_t *lanes(uint64_t offset) const { return reinterpret_cast<uint32_t *>(bytes_at(offset)); }

  private:
    void *base_;
    uint64_t bytes_;
    uint64_t mapped_; // whole pages
};

class HostContext {
  public:
    explicit HostContext(const vrb_host_table *host);

    uint32_t device_count() { return 1; }
    void describe(uint32_t index, vrb_device_info &info);
    std::unique_ptr<HostDevice> open(uint32_t index);

    bool cancelled() const;
    WorkerPool &pool() { return *pool_; }
    uint64_t last_level_cache() const { return last_level_cache_; }

  private:
    const vrb_host_table *host_;
    std::unique_ptr<WorkerPool> pool_;
    uint64_t last_level_cache_ = 0;
};

// The one device, host:0, with one memory kind, 0 ("pageable"), that every operation runs on.
class HostDevice {
  public:
    explicit HostDevice(HostContext &ctx) : ctx_(ctx) {}

    uint32_t memory_kind_count() { return 1; }
    void describe(uint32_t kind, vrb_memory_kind_info &info);
    std::unique_ptr<HostBuffer> alloc(uint32_t kind, uint64_t bytes);
    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out);
    bool supports(uint32_t op_kind, uint32_t element_bytes, uint32_t memory_kind);

  private:
    HostContext &ctx_;
};

// The buffer behind an operand the adapter has already checked.
inline HostBuffer &host_buffer(vrb_buffer *buffer)
{
    return *reinterpret_cast<HostBuffer *>(buffer);
}

} // namespace vrb::host
