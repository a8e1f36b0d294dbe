// Owners for every runtime resource the backend creates: device memory, pinned and
// pageable host memory, streams and events. Each frees what it holds exactly once, so
// no failure path leaks; releasing is best effort because a destructor cannot fail.
#pragma once

#include "gpu_runtime.hpp"

#include <cstdlib>
#include <memory>
#include <type_traits>
#include <utility>

namespace vrb::gpu {

struct DeviceMemoryDeleter {
    void operator()(void *p) const noexcept { (void)free_device(p); }
};
struct PinnedMemoryDeleter {
    void operator()(void *p) const noexcept { (void)free_pinned(p); }
};
struct PageableMemoryDeleter {
    void operator()(void *p) const noexcept { std::free(p); }
};
struct StreamDeleter {
    void operator()(StreamHandle s) const noexcept { (void)stream_destroy(s); }
};
struct EventDeleter {
    void operator()(EventHandle e) const noexcept { (void)event_destroy(e); }
};

using DeviceMemory = std::unique_ptr<void, DeviceMemoryDeleter>;
using PinnedMemory = std::unique_ptr<void, PinnedMemoryDeleter>;
using PageableMemory = std::unique_ptr<void, PageableMemoryDeleter>;
using Stream = std::unique_ptr<std::remove_pointer_t<StreamHandle>, StreamDeleter>;
using Event = std::unique_ptr<std::remove_pointer_t<EventHandle>, EventDeleter>;

// A resource that is not a pointer (a driver handle, an address range), released once
// by `release` unless moved away. The release function is a plain function so that an
// owner is two words and never allocates.
template <typename Value> class Held {
  public:
    using Release = void (*)(const Value &) noexcept;
    Held() = default;
    Held(Value value, Release release) noexcept : value_(value), release_(release) {}
    Held(Held &&other) noexcept : value_(other.value_), release_(std::exchange(other.release_, nullptr)) {}
    Held &operator=(Held &&other) noexcept
    {
        if (this != &other) {
            reset();
            value_ = other.value_;
            release_ = std::exchange(other.release_, nullptr);
        }
        return *this;
    }
    Held(const Held &) = delete;
    Held &operator=(const Held &) = delete;
    ~Held() { reset(); }

    const Value &get() const noexcept { return value_; }
    explicit operator bool() const noexcept { return release_ != nullptr; }
    void reset() noexcept
    {
        if (const Release release = std::exchange(release_, nullptr)) release(value_);
    }

  private:
    Value value_{};
    Release release_ = nullptr;
};

// Device addresses the driver's virtual memory API reserved, or mapped there.
struct AddressRange {
    std::shared_ptr<const VirtualMemoryCalls> calls; // kept: a buffer may outlive its device
    void *base = nullptr;
    std::size_t bytes = 0;
};
struct PhysicalAllocation {
    std::shared_ptr<const VirtualMemoryCalls> calls; // kept: a buffer may outlive its device
    PhysicalHandle handle{};
};

// Device memory allocated through the virtual memory API so that it can be exported:
// created, given an address, mapped there and opened to the device, in that order;
// released in the reverse one (the members are declared so).
struct ExportableMemory {
    Held<PhysicalAllocation> physical;
    Held<AddressRange> reserved;
    Held<AddressRange> mapped;
    std::size_t allocation_bytes = 0;
};

// Memory another API exported, imported through the runtime: the imported memory and
// its mapping as a device pointer, freed before the memory it maps.
struct ImportedMemory {
    Held<ExternalMemoryHandle> memory;
    DeviceMemory mapping;
};

using HostRegistration = Held<void *>;

// Each throws the backend's failure (out of memory included) and owns nothing then.
DeviceMemory allocate_device(std::size_t bytes);
PinnedMemory allocate_pinned(std::size_t bytes, bool mapped);
PageableMemory allocate_pageable(std::size_t bytes);
Stream create_stream();
Event create_event();

// `bytes` rounded up to the driver's granularity, exportable as a POSIX fd.
ExportableMemory allocate_exportable(const std::shared_ptr<const VirtualMemoryCalls> &calls, int device,
                                     std::size_t bytes);
// Memory this driver exported (vm_export_fd), mapped for `device`; the fd stays the caller's.
ExportableMemory import_exported(const std::shared_ptr<const VirtualMemoryCalls> &calls, int device, int fd,
                                 std::size_t allocation_bytes);
// Memory another API exported as an opaque fd. The driver, which takes the fd it is
// given, gets a duplicate: `fd` stays the caller's whatever happens.
ImportedMemory import_external(int fd, std::size_t allocation_bytes, std::size_t bytes, bool dedicated);
HostRegistration register_host(void *p, std::size_t bytes);

} // namespace vrb::gpu
