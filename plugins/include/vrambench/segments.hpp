// Work past what an API accepts in one piece. A buffer larger than one allocation (or
// one binding) may hold is a row of segments of segment_bytes each; an operation over
// it is cut into pieces within which every operand it walks stays inside one segment,
// and a copy into regions inside one segment of each side. Every GPU API has such a
// limit (Vulkan's maxStorageBufferRange, OpenCL's CL_DEVICE_MAX_MEM_ALLOC_SIZE), so the
// arithmetic is the SDK's, header-only, and needs no device to test.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

namespace vrb::plugin {

// How an operation walks one operand: element i starts `offset + i * step` bytes into
// the buffer.
struct Access {
    uint64_t offset;
    uint64_t step;
};

// Where a piece's first element lies in one operand.
struct PieceAccess {
    uint64_t segment = 0;
    uint64_t offset = 0; // bytes from the segment's start
};

inline constexpr std::size_t kMaxAccesses = 3;

struct Piece {
    uint64_t first = 0; // element index within the operation
    uint64_t count = 0;
    std::array<PieceAccess, kMaxAccesses> access{};
};

// Cuts elements [0, count) into pieces within which every access stays inside one
// segment, each at most max_piece_elements long and, per access, spanning at most
// max_span_bytes from its first element's start to its last element's end. Throws
// std::invalid_argument on a malformed request: an element that would straddle two
// segments, or a step shorter than an element (elements would overlap).
inline std::vector<Piece> split_pieces(uint64_t count, uint32_t element_bytes, uint64_t segment_bytes,
                                       std::span<const Access> accesses, uint64_t max_piece_elements = UINT64_MAX,
                                       uint64_t max_span_bytes = UINT64_MAX)
{
    if (accesses.size() > kMaxAccesses || element_bytes == 0 || segment_bytes % element_bytes != 0 ||
        max_piece_elements == 0 || max_span_bytes < element_bytes)
        throw std::invalid_argument("split_pieces: malformed request");
    for (const Access &a : accesses)
        if (a.step < element_bytes) throw std::invalid_argument("split_pieces: a step shorter than an element");
    std::vector<Piece> pieces;
    for (uint64_t i = 0; i < count;) {
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

// One copy between two segmented buffers that stays inside one segment of each.
struct CopyRegion {
    uint64_t src_segment = 0;
    uint64_t src_offset = 0;
    uint64_t dst_segment = 0;
    uint64_t dst_offset = 0;
    uint64_t bytes = 0;
};

// A copy of `bytes` from src_offset to dst_offset as regions; a host range on either
// side is one segment of UINT64_MAX bytes.
inline std::vector<CopyRegion> split_copy(uint64_t src_offset, uint64_t src_segment_bytes, uint64_t dst_offset,
                                          uint64_t dst_segment_bytes, uint64_t bytes)
{
    if (src_segment_bytes == 0 || dst_segment_bytes == 0) throw std::invalid_argument("split_copy: no segment size");
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

} // namespace vrb::plugin
