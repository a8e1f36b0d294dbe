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

std::vector<Piece> split_pieces(uint64_t count, uint32_t element_bytes, uint64_t segment_bytes,
                                std::span<const Access> accesses, uint64_t max_piece_elements, uint64_t max_span_bytes)
{
    if (accesses.size() > kMaxAccesses || element_bytes == 0 || segment_bytes % element_bytes != 0 ||
        max_piece_elements == 0 || max_span_bytes < element_bytes)
        throw std::invalid_argument("split_pieces: malformed request");
    std::vector<Piece> pieces;
    uint64_t i = 0;
    while (i < count) {
        Piece piece;
        piece.first = i;
        uint64_t n = std::min(count - i, max_piece_elements);
        for (std::size_t a = 0; a < accesses.size(); ++a) {
            const uint64_t position = accesses[a].offset + i * accesses[a].step;
            const uint64_t within = position % segment_bytes;
            piece.access[a] = {position / segment_bytes, within};
            // Elements whose every byte lies in this segment (and in the span), this one included.
            const uint64_t room = std::min(segment_bytes - within, max_span_bytes);
            const uint64_t fit = room < element_bytes ? 0 : (room - element_bytes) / accesses[a].step + 1;
            if (fit == 0) throw std::invalid_argument("split_pieces: an element straddles two segments");
            n = std::min(n, fit);
        }
        piece.count = n;
        pieces.push_back(piece);
        i += n;
    }
    return pieces;
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

std::vector<CopyRegion> split_copy(uint64_t src_offset, uint64_t src_segment_bytes, uint64_t dst_offset,
                                   uint64_t dst_segment_bytes, uint64_t bytes)
{
    std::vector<CopyRegion> regions;
    for (uint64_t done = 0; done < bytes;) {
        const uint64_t s = src_offset + done, d = dst_offset + done;
        CopyRegion r;
        r.src_segment = s / src_segment_bytes;
        r.src_offset = s % src_segment_bytes;
        r.dst_segment = d / dst_segment_bytes;
        r.dst_offset = d % dst_segment_bytes;
        r.bytes = std::min({bytes - done, src_segment_bytes - r.src_offset, dst_segment_bytes - r.dst_offset});
        regions.push_back(r);
        done += r.bytes;
    }
    return regions;
}

} // namespace vrb::vulkan
