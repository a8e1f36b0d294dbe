// A buffer (vrb_buffer): bytes of one memory kind, held as segments of at most the
// device's segment size, each one VkBuffer bound to its own allocation. Segmenting is
// what lets a buffer exceed maxMemoryAllocationSize and maxStorageBufferRange.
// It is the Buffer of vrb::plugin::make_table (plugin.cpp): ranges and pointers are
// checked there before upload() and download() run.
#pragma once

#include "chase_links.hpp"
#include "handles.hpp"
#include "memory_kinds.hpp"

#include <vrambench/plugin.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace vrb::vulkan {

class Device;

// Members are destroyed bottom-up: unmapped, then the buffer, then its memory.
struct Segment {
    Owned<VkDeviceMemory> memory;
    Owned<VkBuffer> buffer;
    Mapping mapping;           // host-visible kinds only
    uint64_t bytes = 0;        // the part of the vrb_buffer this segment holds
    uint64_t buffer_bytes = 0; // the VkBuffer's size: bytes rounded up to whole 16-byte elements
    uint64_t allocation_bytes = 0;
};

// What a buffer shares with other APIs (external_memory.cpp).
struct ExternalMemory {
    VkExternalMemoryHandleTypeFlags exportable = 0; // what buffer_export may hand out
    bool dedicated = false;                         // its one allocation is dedicated to it
    bool imported = false;                          // the memory came from another API or device
};

// CHASE's links made of the chain a buffer holds at `contents`, from byte `offset` on, for
// the walk on `device`: every run over the same chain walks them, so a point's warm-up and
// timed runs do not each write a chain's worth of links first.
struct KeptLinks {
    uint64_t contents = 0;
    uint64_t offset = 0;
    const Device *device = nullptr;
    std::shared_ptr<LinkBuffer> buffer;
    LinkLayout layout;
};

class Buffer {
  public:
    // Throws Failure(VRB_ERROR_OUT_OF_MEMORY) having freed whatever it had allocated.
    Buffer(Device &device, const MemoryKind &kind, uint64_t bytes);
    // A buffer of one segment made by external_memory.cpp, exportable or imported;
    // `reserved` bytes of the kind's heap were reserved for it and go back with it.
    Buffer(Device &device, const MemoryKind &kind, uint64_t bytes, Segment segment, ExternalMemory external,
           uint64_t reserved);
    ~Buffer();
    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;

    // The ABI's calls; each fails when the validation layer spoke (validation.hpp).
    void upload(uint64_t offset, const void *source, uint64_t bytes);
    void download(uint64_t offset, void *destination, uint64_t bytes);
    // Throws Failure(VRB_ERROR_UNSUPPORTED) unless the buffer was allocated exportable.
    void export_handle(vrb_external_handle &handle);

    // A pointer, as make_table compares it with the device an operation runs on.
    Device *device() const noexcept { return &device_; }
    const MemoryKind &kind() const noexcept { return kind_; }
    uint64_t size() const noexcept { return bytes_; }
    uint64_t segment_bytes() const noexcept { return segment_bytes_; }
    const std::vector<Segment> &segments() const noexcept { return segments_; }
    bool mapped() const noexcept;
    bool coherent() const noexcept;
    const ExternalMemory &external() const noexcept { return external_; }

    // A stamp of what the buffer holds, new at every change this module makes (an upload,
    // an operation that writes it); 0 for memory another API may write (exported or
    // imported), whose contents nothing here sees change.
    uint64_t contents() const noexcept { return contents_; }
    // The buffer's bytes were (or are about to be) written: a new stamp, and the links
    // made of what it held before are dropped.
    void changed() noexcept;
    // Links made of the chain this buffer holds now, from `offset`, for `device`; null if none.
    const KeptLinks *kept_links(uint64_t offset, const Device &device) const noexcept;
    // Keeps `links` with the buffer while it holds what they were made of; memory whose
    // contents are not tracked keeps none.
    void keep_links(KeptLinks links);

  private:
    Device &device_;
    const MemoryKind &kind_;
    uint64_t bytes_;
    uint64_t segment_bytes_;
    uint64_t reserved_ = 0;
    std::vector<Segment> segments_;
    ExternalMemory external_;
    uint64_t contents_ = 0;
    std::unique_ptr<KeptLinks> links_;
};

} // namespace vrb::vulkan
