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

std::vector<Piece> split_pieces(uint64_t count, uint32_t element_bytes, uint64_t segment_bytes,
                                std::span<const Walk> walks)
{
    if (walks.size() > kMaxWalks || element_bytes == 0 || segment_bytes < element_bytes)
        throw std::invalid_argument("split_pieces: malformed request");
    for (const Walk &w : walks)
        if (w.step < element_bytes) throw std::invalid_argument("split_pieces: a step shorter than an element");
    std::vector<Piece> pieces;
    for (uint64_t i = 0; i < count;) {
        Piece piece;
        piece.first = i;
        uint64_t n = count - i;
        for (std::size_t a = 0; a < walks.size(); ++a) {
            const uint64_t at = walks[a].offset + i * walks[a].step;
            piece.place[a] = {at / segment_bytes, at % segment_bytes};
            const uint64_t room = segment_bytes - piece.place[a].offset;
            if (room < element_bytes) throw std::invalid_argument("split_pieces: an element straddles two segments");
            n = std::min(n, (room - element_bytes) / walks[a].step + 1);
        }
        piece.count = n;
        pieces.push_back(piece);
        i += n;
    }
    return pieces;
}

std::vector<CopyRegion> split_copy(uint64_t src_offset, uint64_t src_segment_bytes, uint64_t dst_offset,
                                   uint64_t dst_segment_bytes, uint64_t bytes)
{
    if (src_segment_bytes == 0 || dst_segment_bytes == 0) throw std::invalid_argument("split_copy: no segment size");
    std::vector<CopyRegion> regions;
    for (uint64_t done = 0; done < bytes;) {
        const uint64_t s = src_offset + done, d = dst_offset + done;
        CopyRegion r;
        r.src = {s / src_segment_bytes, s % src_segment_bytes};
        r.dst = {d / dst_segment_bytes, d % dst_segment_bytes};
        r.bytes = std::min({bytes - done, src_segment_bytes - r.src.offset, dst_segment_bytes - r.dst.offset});
        regions.push_back(r);
        done += r.bytes;
    }
    return regions;
}

} // namespace vrb::opencl
