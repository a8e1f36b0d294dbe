// The memory kinds a device offers and the buffers made of them: device memory, pinned
// host memory the device can map (zero-copy), and ordinary pageable host memory.
#include "backend.hpp"

#include <vrambench/plugin_support.hpp>

#include <cstdint>
#include <cstring>
#include <limits>

using vrb::plugin::fail;

namespace vrb::gpu {
namespace {

void check_kind(const vrb_device &device, uint32_t kind)
{
    if (kind >= device.kinds.size())
        fail(VRB_ERROR_INVALID_ARGUMENT, "memory kind " + std::to_string(kind) + " does not exist; there are " +
                                             std::to_string(device.kinds.size()));
}

void check_range(const vrb_buffer &buffer, uint64_t offset, uint64_t bytes, const void *data)
{
    if (offset > buffer.bytes || bytes > buffer.bytes - offset)
        fail(VRB_ERROR_INVALID_ARGUMENT, std::to_string(bytes) + " bytes from offset " + std::to_string(offset) +
                                             " do not fit in a buffer of " + std::to_string(buffer.bytes));
    if (bytes > 0 && !data) fail(VRB_ERROR_INVALID_ARGUMENT, "no host memory to copy from or to");
}

} // namespace

void describe_memory_kind(const vrb_device &device, uint32_t kind, vrb_memory_kind_info &info)
{
    check_kind(device, kind);
    const MemoryKind &k = device.kinds[kind];
    info = vrb_memory_kind_info{};
    info.struct_size = sizeof info;
    info.flags = k.flags;
    plugin::copy_string(info.name, k.name);
    info.heap_index = k.heap;
    info.max_allocation_bytes = 0; // the runtimes state no limit below what is free
}

std::unique_ptr<vrb_buffer> allocate_buffer(vrb_device &device, uint32_t kind, uint64_t bytes)
{
    check_kind(device, kind);
    if (bytes == 0) fail(VRB_ERROR_INVALID_ARGUMENT, "a buffer needs at least one byte");
    if (bytes > std::numeric_limits<std::size_t>::max())
        fail(VRB_ERROR_OUT_OF_MEMORY, "a buffer of " + std::to_string(bytes) + " bytes cannot be addressed here");
    make_current(device.ordinal);

    auto buffer = std::make_unique<vrb_buffer>();
    buffer->device = &device;
    buffer->ordinal = device.ordinal;
    buffer->kind = kind;
    buffer->bytes = bytes;
    const bool device_access = device.kinds[kind].flags & VRB_MEMORY_DEVICE_ACCESS;
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
        if (device_access) buffer->device_address = buffer->host;
        break;
    }
    return buffer;
}

// Host kinds are plain memory to the host; device memory goes through the runtime, on
// the device's own stream and waited for there. A plain copy would run on the legacy
// stream, which does not order against the backend's non-blocking streams, and from
// pageable memory it may return before the bytes have landed: a kernel run next could
// read what was there before.
void upload(vrb_buffer &buffer, uint64_t offset, const void *src, uint64_t bytes)
{
    check_range(buffer, offset, bytes, src);
    if (bytes == 0) return;
    if (buffer.in_host_memory()) {
        std::memcpy(static_cast<char *>(buffer.host) + offset, src, bytes);
        return;
    }
    make_current(buffer.ordinal);
    StreamHandle stream = buffer.device->stream.get();
    check(copy_async(static_cast<char *>(buffer.device_address) + offset, src, bytes, CopyKind::host_to_device, stream),
          "uploading to device memory");
    check(stream_synchronize(stream), "waiting for an upload to land");
}

void download(vrb_buffer &buffer, uint64_t offset, void *dst, uint64_t bytes)
{
    check_range(buffer, offset, bytes, dst);
    if (bytes == 0) return;
    if (buffer.in_host_memory()) {
        std::memcpy(dst, static_cast<const char *>(buffer.host) + offset, bytes);
        return;
    }
    make_current(buffer.ordinal);
    StreamHandle stream = buffer.device->stream.get();
    check(copy_async(dst, static_cast<const char *>(buffer.device_address) + offset, bytes, CopyKind::device_to_host,
                     stream),
          "downloading from device memory");
    check(stream_synchronize(stream), "waiting for a download to land");
}

} // namespace vrb::gpu

vrb_buffer::~vrb_buffer()
{
    // Memory is freed in its own device's context.
    if (device_memory) (void)vrb::gpu::set_device(ordinal);
}
