// Init, open, allocate, free, close, shut down, again and again: a module that keeps a
// file descriptor or a heap block per cycle would run a long session out of either.
#include "checks.hpp"
#include "lanes.hpp"

#include <fmt/format.h>

#include <malloc.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VRB_ADDRESS_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(VRB_ADDRESS_SANITIZER)
#define VRB_ADDRESS_SANITIZER 1
#endif
#if VRB_ADDRESS_SANITIZER
#include <sanitizer/allocator_interface.h>
#endif
#include <map>
#include <string>
#include <vector>

namespace vrb::conformance {

namespace {

// AddressSanitizer's allocator keeps glibc's counters at zero; it counts for itself.
uint64_t heap_in_use()
{
#if VRB_ADDRESS_SANITIZER
    return __sanitizer_get_current_allocated_bytes();
#else
    const struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
#endif
}

// One cycle; what fails inside is the other checks' business, not this one's.
void cycle(const std::shared_ptr<Module> &module)
{
    try {
        auto backend = Backend::create(module, default_host_table());
        for (uint32_t d = 0; d < backend->device_count(); ++d) {
            auto device = backend->open(d);
            const auto kinds = device->memory_kinds();
            for (uint32_t k = 0; k < kinds.size(); ++k) {
                try {
                    auto buffer = device->allocate(k, 1u << 20);
                } catch (const BackendError &) {
                }
            }
        }
    } catch (const std::exception &) {
    }
}

} // namespace

void check_open_close_cycles(const std::filesystem::path &file, Findings &findings)
{
    std::shared_ptr<Module> module;
    try {
        module = Module::load(file);
    } catch (const std::exception &e) {
        findings.fail(fmt::format("not checked: the module does not load: {}", e.what()));
        return;
    }
    // The first cycles may fill caches a driver keeps for the process: measured from the third.
    constexpr int warm_cycles = 2, measured_cycles = 8;
    for (int i = 0; i < warm_cycles; ++i)
        cycle(module);
    const auto fds_before = open_fds();
    std::vector<uint64_t> heap;
    heap.reserve(measured_cycles + 1);
    heap.push_back(heap_in_use());
    for (int i = 0; i < measured_cycles; ++i) {
        cycle(module);
        heap.push_back(heap_in_use());
    }
    const auto fds_after = open_fds();
    std::vector<std::string> new_fds;
    for (const auto &[fd, target] : fds_after)
        if (!fds_before.contains(fd)) new_fds.push_back(fmt::format("{} -> {}", fd, target));
    if (!new_fds.empty())
        findings.fail(fmt::format("{} file descriptors more after {} init/open/close/shutdown cycles: {}",
                                  new_fds.size(), measured_cycles, fmt::join(new_fds, ", ")));
    // A leak grows the heap every cycle; a cache grows it once. Driver stacks grow by some
    // KiB per instance (the Vulkan loader with lavapipe, 10 to 20 KiB, with no module at
    // all), so only what grows every cycle by more than that is the module's: a buffer of
    // the MiB each cycle allocates, a context, a staging area.
    int grew = 0;
    for (std::size_t i = 1; i < heap.size(); ++i)
        if (heap[i] > heap[i - 1]) ++grew;
    const uint64_t growth = heap.back() > heap.front() ? heap.back() - heap.front() : 0;
    constexpr uint64_t bytes_per_cycle = 256u << 10;
    if (grew == measured_cycles && growth >= bytes_per_cycle * measured_cycles)
        findings.fail(fmt::format("the heap grew in each of {} init/open/close/shutdown cycles, by {} bytes in all "
                                  "({} per cycle): something is not freed",
                                  measured_cycles, growth, growth / measured_cycles));
}

} // namespace vrb::conformance
