// The objects behind the ABI's opaque handles, and the functions of the backend that
// plugin.cpp exposes through the table. Each function throws vrb::plugin::Failure;
// plugin.cpp's guard() turns that into a status and a message.
#pragma once

#include "gpu_resources.hpp"
#include "kernels.hpp"

#include <vrambench/plugin.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct vrb_context {
    vrb_host_table host{}; // the fields the host's table had; absent ones stay null
    int device_count = 0;

    bool cancelled() const;
    void log(vrb_log_level level, const std::string &message) const;
};

namespace vrb::gpu {

enum MemoryKindIndex : uint32_t { kind_device = 0, kind_pinned = 1, kind_pageable = 2, kind_count = 3 };

struct MemoryKind {
    const char *name;
    uint32_t flags; // VRB_MEMORY_*
    uint32_t heap;  // into vrb_device_info.heaps
};

// Two events bracket each run, a third joins the second stream of a two-way transfer.
struct RunEvents {
    Event start, stop, joined;
};

} // namespace vrb::gpu

struct vrb_device {
    vrb_context *context = nullptr;
    int ordinal = 0;
    vrb::gpu::DeviceShape shape;
    std::array<vrb::gpu::MemoryKind, vrb::gpu::kind_count> kinds{};
    vrb::gpu::Stream stream;        // kernels, and the first direction of a transfer
    vrb::gpu::Stream second_stream; // the other direction of a two-way transfer
    vrb::gpu::DeviceMemory scratch_memory;
    vrb::gpu::Scratch scratch;
    std::vector<vrb::gpu::RunEvents> events; // grown on demand, reused by every run

    ~vrb_device();
};

struct vrb_buffer {
    vrb_device *device = nullptr;
    int ordinal = 0; // the device's, kept so freeing never reads a closed device
    uint32_t kind = 0;
    uint64_t bytes = 0;
    vrb::gpu::DeviceMemory device_memory;
    vrb::gpu::PinnedMemory pinned_memory;
    vrb::gpu::PageableMemory pageable_memory;
    void *host = nullptr;           // where the host reads and writes it; null for device memory
    void *device_address = nullptr; // what kernels use; null when kernels cannot reach it

    ~vrb_buffer();

    bool in_host_memory() const { return host != nullptr; }
    // The address the copy engine is given.
    void *copy_address() const { return host ? host : device_address; }
};

namespace vrb::gpu {

// runtime.cpp
std::unique_ptr<vrb_context> create_context(const vrb_host_table *host);
void make_current(int ordinal);

// device_info.cpp
void describe_device(int ordinal, vrb_device_info &info);

// device.cpp
std::unique_ptr<vrb_device> open_device(vrb_context &context, int ordinal);

// memory.cpp
void describe_memory_kind(const vrb_device &device, uint32_t kind, vrb_memory_kind_info &info);
std::unique_ptr<vrb_buffer> allocate_buffer(vrb_device &device, uint32_t kind, uint64_t bytes);
void upload(vrb_buffer &buffer, uint64_t offset, const void *src, uint64_t bytes);
void download(vrb_buffer &buffer, uint64_t offset, void *dst, uint64_t bytes);

// operations.cpp
void run_operation(vrb_device &device, const vrb_operation &op, uint32_t repetitions, double *seconds,
                   vrb_op_output &out);

} // namespace vrb::gpu
