// Owners for every runtime resource the backend creates: device memory, pinned and
// pageable host memory, streams and events. Each frees what it holds exactly once, so
// no failure path leaks; releasing is best effort because a destructor cannot fail.
#pragma once

#include "gpu_runtime.hpp"

#include <cstdlib>
#include <memory>
#include <type_traits>

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

// Each throws the backend's failure (out of memory included) and owns nothing then.
DeviceMemory allocate_device(std::size_t bytes);
PinnedMemory allocate_pinned(std::size_t bytes, bool mapped);
PageableMemory allocate_pageable(std::size_t bytes);
Stream create_stream();
Event create_event();

} // namespace vrb::gpu
