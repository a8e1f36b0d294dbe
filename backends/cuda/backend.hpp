// The backend as the three classes plugin_table.hpp turns into the C table: a context
// (the runtime, initialised), a device (opened) and a buffer (memory of one kind). The
// adapter checks every argument it can before a member runs; members throw
// vrb::plugin::Failure for the rest.
#pragma once

#include "gpu_resources.hpp"
#include "kernels.hpp"

#include <vrambench/external_handle.hpp>
#include <vrambench/plugin.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

struct vrb_device;
struct vrb_buffer;
struct vrb_semaphore;

namespace vrb::gpu {
// CHASE's links kept with their chain: made at `contents` for the chain at `chain`
// (its address with the operand's offset) of `limit` indices.
struct ChaseLinksKept {
    uint64_t contents = 0;
    const void *chain = nullptr;
    uint64_t limit = 0;
    ChaseLinksMade made;
};
} // namespace vrb::gpu

struct vrb_context {
    explicit vrb_context(const vrb_host_table *host);

    uint32_t device_count() const { return devices; }
    void describe(uint32_t index, vrb_device_info &info);
    std::unique_ptr<vrb_device> open(uint32_t index);

    bool cancelled() const;
    void log(vrb_log_level level, const std::string &message) const;

    vrb_host_table host{}; // the fields the host's table had; absent ones stay null
    uint32_t devices = 0;
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

// What an imported handle is checked against: this card and this driver.
struct CardIdentity {
    bool uuid_known = false;
    uint8_t uuid[16] = {};
    uint8_t driver[16] = {}; // the API, its driver version and the kernel driver's (external_memory.cpp)
    std::string name;
    // "dddd:bb:dd.f", "" where unknown: the key that names the card alike in every API,
    // where HIP's UUID and Vulkan's differ for one AMD card.
    std::string pci_address;
};

} // namespace vrb::gpu

struct vrb_device {
    ~vrb_device();

    uint32_t memory_kind_count() const { return uint32_t(kinds.size()); }
    void describe(uint32_t kind, vrb_memory_kind_info &info);
    std::unique_ptr<vrb_buffer> alloc(uint32_t kind, uint64_t bytes);
    void run(const vrb_operation &op, std::span<double> seconds, vrb_op_output &out);
    bool supports(uint32_t op_kind, uint32_t element_bytes, uint32_t memory_kind) const;
    // external_memory.cpp
    std::unique_ptr<vrb_buffer> alloc_exportable(uint32_t kind, uint64_t bytes, uint32_t handle_type);
    std::unique_ptr<vrb_buffer> import_buffer(const vrb_external_handle &handle, uint32_t kind);
    // external_semaphore.cpp: the runtimes import timeline semaphores but export none.
    std::unique_ptr<vrb_semaphore> create_exportable_semaphore(uint32_t handle_type);
    std::unique_ptr<vrb_semaphore> import_semaphore(const vrb_external_handle &handle);
    void signal(vrb_semaphore &semaphore, uint64_t value);
    void device_wait(vrb_semaphore &semaphore, uint64_t value);
    // peer.cpp: VRB_PEER_* bits for another device of this context; turns peer access on
    // where the runtime offers it.
    uint32_t peer(const vrb_device &other);

    vrb_context *context = nullptr;
    int ordinal = 0;
    vrb::gpu::DeviceShape shape;
    std::array<vrb::gpu::MemoryKind, vrb::gpu::kind_count> kinds{};
    vrb::gpu::CardIdentity identity;
    // Found when the device opens; shared with the memory made through them.
    std::shared_ptr<const vrb::gpu::VirtualMemoryCalls> virtual_memory;
    vrb::gpu::Stream stream;        // kernels, and the first direction of a transfer
    vrb::gpu::Stream second_stream; // the other direction of a two-way transfer
    vrb::gpu::DeviceMemory scratch_memory;
    vrb::gpu::Scratch scratch;
    std::vector<vrb::gpu::RunEvents> events; // grown on demand, reused by every run
    std::map<int, uint32_t> peer_answers;    // by the peer's ordinal
    std::vector<int> peers_enabled;          // turned on by this device, off when it closes
};

struct vrb_buffer {
    ~vrb_buffer();

    uint64_t size() const { return bytes; }
    vrb_device *device() const { return owner; }
    void upload(uint64_t offset, const void *src, uint64_t count);
    void download(uint64_t offset, void *dst, uint64_t count);
    void export_handle(vrb_external_handle &handle); // external_memory.cpp
    // What the buffer holds has changed (an upload, an operation writing it): what was
    // made of its contents (CHASE's links) is made again.
    void changed();

    vrb_device *owner = nullptr;
    int ordinal = 0; // the device's, kept so freeing never reads a closed device
    uint32_t kind = 0;
    uint64_t bytes = 0;
    // At most one of these holds the buffer's memory; the rest stay empty.
    vrb::gpu::DeviceMemory device_memory;
    vrb::gpu::PinnedMemory pinned_memory;
    vrb::gpu::PageableMemory pageable_memory;
    vrb::gpu::ExportableMemory exportable; // allocated exportable, or imported from this driver
    vrb::gpu::ImportedMemory imported;     // imported from another API
    vrb::gpu::HostRegistration registered; // another module's host memory, registered in place
    void *host = nullptr;                  // where the host reads and writes it; null for device memory
    void *device_address = nullptr;        // what kernels use; null when kernels cannot reach it
    // A stamp of what the buffer holds, new at every change this module makes; 0 for
    // memory another API may write (exported or imported), whose contents nothing here tracks.
    uint64_t contents = 0;
    // CHASE's links made of this chain at `contents` (operations.cpp).
    std::shared_ptr<vrb::gpu::ChaseLinksKept> chase_links;

    bool in_host_memory() const { return host != nullptr; }
    // Host memory the runtime did not lock: its copies are synchronous with the host.
    bool in_pageable_memory() const { return pageable_memory != nullptr; }
    bool holds_device_resources() const
    {
        return device_memory || pinned_memory || exportable.physical || imported.memory || registered;
    }
    // The address the copy engine is given.
    void *copy_address() const { return host ? host : device_address; }
};

// A timeline semaphore another API exported, imported through the runtime
// (external_semaphore.cpp). Signals and waits go on the device's stream; a host wait,
// which the runtimes cannot make on an imported semaphore, is a device wait on a stream
// of its own whose event the host watches.
struct vrb_semaphore {
    ~vrb_semaphore();

    vrb_device &owner() const { return *device; }
    void export_handle(vrb_external_handle &handle);
    void host_wait(uint64_t value, uint64_t timeout_ns);

    vrb_device *device = nullptr;
    int ordinal = 0;
    vrb::gpu::Stream host_wait_stream; // declared before the semaphore: destroyed after it
    vrb::gpu::Event reached;
    vrb::gpu::Held<vrb::gpu::ExternalSemaphoreHandle> semaphore;
};

namespace vrb::gpu {

// runtime.cpp
void make_current(int ordinal);

// memory.cpp: a stamp no buffer's contents had before.
uint64_t next_contents();

// device_info.cpp
void describe_device(int ordinal, vrb_device_info &info);
// The device's PCI address, lower case ("0000:3b:00.0"); false where the runtime cannot tell.
bool pci_address(int ordinal, std::string &out);
std::string kernel_driver_version(); // empty where the kernel driver does not say
// One SM's or CU's L1 data cache (l1_caches.hpp); 0 where the architecture is not listed.
uint64_t unit_l1_bytes(int ordinal);

// external_memory.cpp
CardIdentity card_identity(int ordinal);
// What an imported handle's UUIDs are checked against.
plugin::ImporterIdentity importer_of(const vrb_device &device);

} // namespace vrb::gpu
