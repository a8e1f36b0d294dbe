#include "gpu_resources.hpp"

#include <vrambench/plugin_support.hpp>

#include <string>

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

} // namespace vrb::gpu
