#include "gpu_resources.hpp"

#include <vrambench/plugin_support.hpp>

#include <cerrno>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace vrb::gpu {

DeviceMemory allocate_device(std::size_t bytes)
{
    void *p = nullptr;
    check(malloc_device(&p, bytes), "allocating device memory");
    return DeviceMemory(p);
}

PinnedMemory allocate_pinned(std::size_t bytes, bool mapped)
{
    void *p = nullptr;
    check(malloc_pinned(&p, bytes, mapped), "allocating pinned host memory");
    return PinnedMemory(p);
}

PageableMemory allocate_pageable(std::size_t bytes)
{
    // Page alignment keeps every element width's loads aligned and matches what the
    // copy engine and a device reading pageable memory handle best.
    constexpr std::size_t kAlignment = 4096;
    void *p = nullptr;
    if (posix_memalign(&p, kAlignment, bytes) != 0 || !p)
        plugin::fail(VRB_ERROR_OUT_OF_MEMORY,
                     "out of host memory allocating " + std::to_string(bytes) + " bytes of pageable memory");
    return PageableMemory(p);
}

Stream create_stream()
{
    StreamHandle s = nullptr;
    check(stream_create(&s), "creating a stream");
    return Stream(s);
}

Event create_event()
{
    EventHandle e = nullptr;
    check(event_create(&e), "creating an event");
    return Event(e);
}

namespace {

Held<PhysicalAllocation> hold(const std::shared_ptr<const VirtualMemoryCalls> &calls, PhysicalHandle handle)
{
    return {{calls, handle}, [](const PhysicalAllocation &p) noexcept { (void)vm_release(*p.calls, p.handle); }};
}

// Reserves an address range for `physical`, maps it there and opens it to the device.
void map_for_device(ExportableMemory &memory, const std::shared_ptr<const VirtualMemoryCalls> &calls, int device,
                    std::size_t alignment)
{
    const std::size_t bytes = memory.allocation_bytes;
    void *base = nullptr;
    check(vm_reserve(*calls, &base, bytes, alignment), "reserving device addresses for exportable memory");
    memory.reserved = {{calls, base, bytes},
                       [](const AddressRange &r) noexcept { (void)vm_address_free(*r.calls, r.base, r.bytes); }};
    check(vm_map(*calls, base, bytes, memory.physical.get().handle), "mapping exportable memory");
    memory.mapped = {{calls, base, bytes},
                     [](const AddressRange &r) noexcept { (void)vm_unmap(*r.calls, r.base, r.bytes); }};
    check(vm_set_access(*calls, base, bytes, device), "opening exportable memory to the device");
}

std::size_t granularity(const std::shared_ptr<const VirtualMemoryCalls> &calls, int device)
{
    std::size_t g = 0;
    check(vm_granularity(*calls, &g, device), "asking the granularity of exportable memory");
    if (g == 0) plugin::fail(VRB_ERROR_DEVICE, "the driver gives exportable memory a granularity of 0 bytes");
    return g;
}

} // namespace

ExportableMemory allocate_exportable(const std::shared_ptr<const VirtualMemoryCalls> &calls, int device,
                                     std::size_t bytes)
{
    const std::size_t g = granularity(calls, device);
    ExportableMemory memory;
    if (bytes > SIZE_MAX - (g - 1))
        plugin::fail(VRB_ERROR_OUT_OF_MEMORY, std::to_string(bytes) + " bytes cannot be rounded to whole pages");
    memory.allocation_bytes = (bytes + g - 1) / g * g;
    PhysicalHandle handle{};
    check(vm_create(*calls, &handle, memory.allocation_bytes, device), "allocating exportable device memory");
    memory.physical = hold(calls, handle);
    map_for_device(memory, calls, device, g);
    return memory;
}

ExportableMemory import_exported(const std::shared_ptr<const VirtualMemoryCalls> &calls, int device, int fd,
                                 std::size_t allocation_bytes)
{
    const std::size_t g = granularity(calls, device);
    if (allocation_bytes % g != 0)
        plugin::fail(VRB_ERROR_INVALID_ARGUMENT, "the handle's allocation of " + std::to_string(allocation_bytes) +
                                                     " bytes is not a whole number of the driver's granularity (" +
                                                     std::to_string(g) +
                                                     " bytes): it is not memory this driver exported");
    ExportableMemory memory;
    memory.allocation_bytes = allocation_bytes;
    PhysicalHandle handle{};
    check(vm_import_fd(*calls, &handle, fd), "importing an exported allocation");
    memory.physical = hold(calls, handle);
    map_for_device(memory, calls, device, g);
    return memory;
}

ImportedMemory import_external(int fd, std::size_t allocation_bytes, std::size_t bytes, bool dedicated)
{
    const int duplicate = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (duplicate < 0)
        plugin::fail(VRB_ERROR_DEVICE,
                     "cannot duplicate file descriptor " + std::to_string(fd) + ": " + std::strerror(errno));
    ImportedMemory imported;
    ExternalMemoryHandle memory{};
    const Error e = import_external_fd(&memory, duplicate, allocation_bytes, dedicated);
    if (e != kSuccess) {
        ::close(duplicate); // the driver took nothing
        raise_error(e, "importing an opaque fd");
    }
    imported.memory = {memory, [](const ExternalMemoryHandle &m) noexcept { (void)destroy_external(m); }};
    void *p = nullptr;
    check(map_external(&p, memory, bytes), "mapping imported memory");
    imported.mapping = DeviceMemory(p);
    return imported;
}

HostRegistration register_host(void *p, std::size_t bytes)
{
    check(host_register(p, bytes), "registering host memory with the device");
    return {p, [](void *const &registered) noexcept { (void)host_unregister(registered); }};
}

} // namespace vrb::gpu
