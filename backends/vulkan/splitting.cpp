#include "splitting.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace vrb::vulkan {

namespace {

// Below this a buffer would need absurdly many allocations.
constexpr uint64_t kMinSegmentBytes = 4096;
constexpr uint64_t kMaxSegmentBytes = uint64_t(1) << 31;

uint64_t floor_power_of_two(uint64_t v)
{
    return v == 0 ? 0 : std::bit_floor(v);
}

} // namespace

uint64_t choose_segment_bytes(uint64_t max_storage_buffer_range, uint64_t max_allocation_bytes, uint64_t requested)
{
    uint64_t limit = std::min({max_storage_buffer_range, max_allocation_bytes, kMaxSegmentBytes});
    if (requested != 0) limit = std::min(limit, requested);
    return std::max(floor_power_of_two(limit), kMinSegmentBytes);
}

uint64_t segment_count(uint64_t bytes, uint64_t segment_bytes)
{
    return bytes / segment_bytes + (bytes % segment_bytes != 0);
}

Window bind_window(uint64_t offset_in_segment, uint32_t element_bytes, uint64_t min_offset_alignment)
{
    const uint64_t alignment = std::max<uint64_t>(min_offset_alignment, element_bytes);
    Window window;
    window.offset = offset_in_segment - offset_in_segment % alignment;
    window.base = (offset_in_segment - window.offset) / element_bytes;
    return window;
}

std::vector<Slice> slice_dispatch(uint64_t count, const DispatchShape &shape)
{
    std::vector<Slice> slices;
    const uint64_t local = shape.local_size;
    const uint64_t per_dispatch = local * shape.max_groups * shape.max_iterations;
    for (uint64_t first = 0; first < count;) {
        const uint64_t n = std::min(count - first, per_dispatch);
        const uint64_t groups = std::min<uint64_t>((n + local - 1) / local, shape.max_groups);
        slices.push_back({first, n, static_cast<uint32_t>(groups)});
        first += n;
    }
    return slices;
}

uint32_t whole_set_groups(uint64_t count, uint32_t filling_groups, uint32_t local_size)
{
    if (count == 0 || filling_groups == 0 || local_size == 0) return 0;
    return count < uint64_t(filling_groups) * local_size ? filling_groups : 0;
}

} // namespace vrb::vulkan
