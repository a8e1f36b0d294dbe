// The memory kinds a device offers and the buffers made of them: device memory, pinned
// host memory the device can map (zero-copy), and ordinary pageable host memory.
#include "backend.hpp"

#include <vrambench/plugin_support.hpp>

#include <atomic>

#include <cstdint>
#include <cstring>
#include <limits>

using vrb::plugin::fail;

void vrb_device::describe(uint32_t kind, vrb_memory_kind_info &info)
{
    const vrb::gpu::MemoryKind &k = kinds[kind];
    info.flags = k.flags;
    vrb::plugin::copy_string(info.name, k.name);
    info.heap_index = k.heap;
    info.max_allocation_bytes = 0; // the runtimes state no limit below what is free
}

std::unique_ptr<vrb_buffer> vrb_device::alloc(uint32_t kind, uint64_t bytes)
{
    using namespace vrb::gpu;
    if (bytes > std::numeric_limits<std::size_t>::max())
        fail(VRB_ERROR_OUT_OF_MEMORY, "a buffer of " + std::to_string(bytes) + " bytes cannot be addressed here");
    make_current(ordinal);

    auto buffer = std::make_unique<vrb_buffer>();
    buffer->owner = this;
    buffer->ordinal = ordinal;
    buffer->kind = kind;
    buffer->bytes = bytes;
    buffer->contents = vrb::gpu::next_contents();
    const bool device_access = kinds[kind].flags & VRB_MEMORY_DEVICE_ACCESS;
    switch (kind) {
    case kind_device:
        buffer->device_memory = allocate_device(bytes);
        buffer->device_address = buffer->device_memory.get();
        break;
    case kind_pinned:
        buffer->pinned_memory = allocate_pinned(bytes, device_access);
        buffer->host = buffer->pinned_memory.get();
        if (device_access) {
            void *mapped = nullptr;
            check(mapped_device_pointer(&mapped, buffer->host), "mapping pinned memory into the device");
            buffer->device_address = mapped;
        }
        break;
    default:
        buffer->pageable_memory = allocate_pageable(bytes);
        buffer->host = buffer->pageable_memory.get();
        if (device_access) {
            buffer->device_address = buffer->host;
            // Advice only: where the driver takes none (no HMM, an older driver), the
            // device reads the memory as the runtime leaves it.
            if (keep_in_host_memory(buffer->host, bytes, ordinal) != kSuccess) (void)take_last_error();
        }
        break;
    }
    return buffer;
}

// Host kinds are plain memory to the host; device memory goes through the runtime, on
// the device's own stream and waited for there. A plain copy would run on the legacy
// stream, which does not order against the backend's non-blocking streams, and from
// pageable memory it may return before the bytes have landed: a kernel run next could
// read what was there before.
void vrb_buffer::upload(uint64_t offset, const void *src, uint64_t count)
{
    using namespace vrb::gpu;
    changed();
    if (in_host_memory()) {
        std::memcpy(static_cast<char *>(host) + offset, src, count);
        return;
    }
    make_current(ordinal);
    StreamHandle stream = owner->stream.get();
    check(copy_async(static_cast<char *>(device_address) + offset, src, count, CopyKind::host_to_device, stream),
          "uploading to device memory");
    check(stream_synchronize(stream), "waiting for an upload to land");
}

void vrb_buffer::download(uint64_t offset, void *dst, uint64_t count)
{
    using namespace vrb::gpu;
    if (in_host_memory()) {
        std::memcpy(dst, static_cast<const char *>(host) + offset, count);
        return;
    }
    make_current(ordinal);
    StreamHandle stream = owner->stream.get();
    check(copy_async(dst, static_cast<const char *>(device_address) + offset, count, CopyKind::device_to_host, stream),
          "downloading from device memory");
    check(stream_synchronize(stream), "waiting for a download to land");
}

uint64_t vrb::gpu::next_contents()
{
    static std::atomic<uint64_t> last{0};
    return ++last;
}

void vrb_buffer::changed()
{
    if (contents) contents = vrb::gpu::next_contents();
    chase_links.reset(); // made for what the chain held before
}

vrb_buffer::~vrb_buffer()
{
    // Memory is freed in its own device's context.
    if (holds_device_resources()) (void)vrb::gpu::set_device(ordinal);
}
