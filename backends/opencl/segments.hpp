// How the backend works past CL_DEVICE_MAX_MEM_ALLOC_SIZE: a buffer is a row of
// segments (one cl_mem or SVM allocation each, all but the last of one power-of-two
// size), an operation is cut into pieces that stay inside one segment of every operand,
// and a copy into regions. Pure arithmetic, tested without a device.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace vrb::opencl {

// The largest power of two at most max_allocation_bytes and, when set, `requested`;
// never below 4096 bytes.
uint64_t choose_segment_bytes(uint64_t max_allocation_bytes, uint64_t requested);

// The sizes of a buffer's segments: one of `bytes` when it fits a segment.
std::vector<uint64_t> segment_sizes(uint64_t bytes, uint64_t segment_bytes);

// How an operation walks an operand: element i starts at byte offset + i * step.
struct Walk {
    uint64_t offset = 0;
    uint64_t step = 0;
};

struct Place {
    uint64_t segment = 0;
    uint64_t offset = 0; // bytes from the segment's start
};

inline constexpr std::size_t kMaxWalks = 3;

struct Piece {
    uint64_t first = 0; // element index within the operation
    uint64_t count = 0;
    Place place[kMaxWalks]{};
};

// Cuts elements [0, count) of element_bytes each into pieces in which every walk stays
// inside one segment. Throws std::invalid_argument when an element would straddle two
// segments (segment_bytes is then no multiple of element_bytes) or the request is malformed.
std::vector<Piece> split_pieces(uint64_t count, uint32_t element_bytes, uint64_t segment_bytes,
                                std::span<const Walk> walks);

struct CopyRegion {
    Place src;
    Place dst;
    uint64_t bytes = 0;
};

// A copy of `bytes` between two segmented buffers as regions inside one segment of each.
std::vector<CopyRegion> split_copy(uint64_t src_offset, uint64_t src_segment_bytes, uint64_t dst_offset,
                                   uint64_t dst_segment_bytes, uint64_t bytes);

} // namespace vrb::opencl
