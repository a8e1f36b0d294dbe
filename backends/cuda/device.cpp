// Opening a device: its shape for launches, the memory kinds it offers, its streams and
// the scratch memory the kernels answer into.
#include "backend.hpp"

#include <vrambench/plugin_support.hpp>

namespace vrb::gpu {

std::unique_ptr<vrb_device> open_device(vrb_context &context, int ordinal)
{
    make_current(ordinal);
    auto device = std::make_unique<vrb_device>();
    device->context = &context;
    device->ordinal = ordinal;
    device->shape.compute_units = uint32_t(std::max(attribute_or(Attribute::compute_units, ordinal, 1), 1));
    device->shape.warp_size = uint32_t(std::max(attribute_or(Attribute::warp_size, ordinal, 32), 1));

    // Kernels reach pinned memory through its mapping (zero-copy), and pageable memory
    // only where the device walks the host's page tables (HMM, ATS).
    const bool mapped = attribute_or(Attribute::can_map_host_memory, ordinal, 0) > 0;
    const bool pageable = attribute_or(Attribute::pageable_memory_access, ordinal, 0) > 0;
    const uint32_t host_flags =
        VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_HOST_COHERENT | VRB_MEMORY_HOST_CACHED | VRB_MEMORY_HOST_MEMORY;
    device->kinds[kind_device] = {"device", VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS, 0};
    device->kinds[kind_pinned] = {
        "pinned", host_flags | VRB_MEMORY_PINNED | (mapped ? uint32_t(VRB_MEMORY_DEVICE_ACCESS) : 0u), 1};
    device->kinds[kind_pageable] = {
        "pageable", host_flags | VRB_MEMORY_PAGEABLE | (pageable ? uint32_t(VRB_MEMORY_DEVICE_ACCESS) : 0u), 1};

    device->stream = create_stream();
    device->second_stream = create_stream();

    // Room for one partial result per resident block of any kernel: no unit holds more
    // than 32 blocks on the GPUs of either vendor.
    const uint32_t capacity = device->shape.compute_units * 32;
    const std::size_t words = 2 * std::size_t(capacity) + kScratchWords;
    device->scratch_memory = allocate_device(words * sizeof(uint64_t));
    auto *base = static_cast<uint64_t *>(device->scratch_memory.get());
    device->scratch.partial_a = base;
    device->scratch.partial_b = base + capacity;
    device->scratch.words = base + 2 * std::size_t(capacity);
    device->scratch.capacity = capacity;
    return device;
}

} // namespace vrb::gpu

vrb_device::~vrb_device()
{
    // Streams and memory belong to this device's context: select it before they go.
    (void)vrb::gpu::set_device(ordinal);
    (void)vrb::gpu::stream_synchronize(stream.get());
    (void)vrb::gpu::stream_synchronize(second_stream.get());
}
