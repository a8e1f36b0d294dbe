// Opening a device: its shape for launches, the memory kinds it offers, its identity for
// imported handles, its streams and the scratch memory the kernels answer into.
#include "backend.hpp"

#include <vrambench/plugin_support.hpp>

std::unique_ptr<vrb_device> vrb_context::open(uint32_t index)
{
    using namespace vrb::gpu;
    const int ordinal = static_cast<int>(index);
    make_current(ordinal);
    auto device = std::make_unique<vrb_device>();
    device->context = this;
    device->ordinal = ordinal;
    device->shape.compute_units = uint32_t(std::max(attribute_or(Attribute::compute_units, ordinal, 1), 1));
    device->shape.warp_size = uint32_t(std::max(attribute_or(Attribute::warp_size, ordinal, 32), 1));
    device->shape.l1_bytes = unit_l1_bytes(ordinal);

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

    device->identity = card_identity(ordinal);
    device->virtual_memory = std::make_shared<const VirtualMemoryCalls>(find_virtual_memory_calls());

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

bool vrb_device::supports(uint32_t op_kind, uint32_t element_bytes, uint32_t memory_kind) const
{
    if (memory_kind >= kinds.size()) return false;
    switch (op_kind) {
    case VRB_OP_TRANSFER: return true; // the copy engine reaches every kind; the width does not apply
    case VRB_OP_READ:
    case VRB_OP_WRITE:
    case VRB_OP_COPY:
    case VRB_OP_SCALE:
    case VRB_OP_ADD:
    case VRB_OP_TRIAD:
    case VRB_OP_DOT:
    case VRB_OP_STRIDED_READ:
    case VRB_OP_GATHER:
    case VRB_OP_CHASE:
    case VRB_OP_FILL:
    case VRB_OP_CHECK:
        // Kernels, at every width, on memory they can reach.
        return (element_bytes == 4 || element_bytes == 8 || element_bytes == 16) &&
               (kinds[memory_kind].flags & VRB_MEMORY_DEVICE_ACCESS);
    default: return false;
    }
}

vrb_device::~vrb_device()
{
    // Streams and memory belong to this device's context: select it before they go.
    (void)vrb::gpu::set_device(ordinal);
    (void)vrb::gpu::stream_synchronize(stream.get());
    (void)vrb::gpu::stream_synchronize(second_stream.get());
    // Peer access belongs to the runtime's context, which outlives this device: the
    // next open of it starts from access off, as this one did.
    for (const int peer : peers_enabled)
        (void)vrb::gpu::disable_peer_access(peer);
}
