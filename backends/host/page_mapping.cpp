#include "page_mapping.hpp"

#include <vrambench/plugin_support.hpp>

#include <atomic>
#include <string>
#include <sys/mman.h>

namespace vrb::host {

namespace {

constexpr uint64_t page = 4096;
constexpr uint64_t colour_bytes = uint64_t{2} << 20; // one colour: 2 MiB
constexpr uint64_t colours = 8;

// Shared by every device of the module: buffers of two devices can be used by one copy.
std::atomic<uint64_t> next_colour{0};

[[noreturn]] void refused(uint64_t bytes)
{
    plugin::fail(VRB_ERROR_OUT_OF_MEMORY, "mmap of " + std::to_string(bytes) + " bytes failed");
}

} // namespace

PageMapping::PageMapping(uint64_t bytes) : bytes_((bytes + page - 1) / page * page)
{
    const int prot = PROT_READ | PROT_WRITE, flags = MAP_PRIVATE | MAP_ANONYMOUS;
    if (bytes_ < coloured_from) {
        base_ = mmap(nullptr, bytes_, prot, flags, -1, 0);
        if (base_ == MAP_FAILED) refused(bytes);
        return;
    }
    // Room to move the start to any colour from any 2 MiB boundary, then trimmed back to
    // the buffer's own pages.
    const uint64_t reserved = bytes_ + colours * colour_bytes;
    void *raw = mmap(nullptr, reserved, prot, flags, -1, 0);
    if (raw == MAP_FAILED) refused(bytes);
    const uintptr_t first = reinterpret_cast<uintptr_t>(raw);
    uintptr_t start = (first + colour_bytes - 1) / colour_bytes * colour_bytes;
    const uint64_t want = next_colour.fetch_add(1, std::memory_order_relaxed) % colours;
    start += ((want + colours - address_colour(reinterpret_cast<void *>(start))) % colours) * colour_bytes;
    if (start > first) munmap(raw, start - first);
    if (const uintptr_t end = start + bytes_, last = first + reserved; last > end)
        munmap(reinterpret_cast<void *>(end), last - end);
    base_ = reinterpret_cast<void *>(start);
}

PageMapping::~PageMapping()
{
    munmap(base_, bytes_);
}

} // namespace vrb::host
