#include "segments.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace vrb::opencl {

namespace {
constexpr uint64_t kMinSegmentBytes = 4096;
} // namespace

uint64_t choose_segment_bytes(uint64_t max_allocation_bytes, uint64_t requested)
{
    uint64_t limit = max_allocation_bytes;
    if (requested != 0) limit = std::min(limit, requested);
    return std::max<uint64_t>(limit == 0 ? 0 : std::bit_floor(limit), kMinSegmentBytes);
}

std::vector<uint64_t> segment_sizes(uint64_t bytes, uint64_t segment_bytes)
{
    if (segment_bytes == 0) throw std::invalid_argument("segment_sizes: no segment size");
    std::vector<uint64_t> sizes;
    for (uint64_t done = 0; done < bytes; done += sizes.back())
        sizes.push_back(std::min(segment_bytes, bytes - done));
    return sizes;
}

} // namespace vrb::opencl
