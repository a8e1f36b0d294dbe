// How work larger than what Vulkan accepts in one piece is cut: a buffer into segments
// (each one VkBuffer and one allocation), an operation into pieces that each stay inside
// one segment of every operand, a piece into dispatches, a copy into regions. Pure
// arithmetic, unit-tested without a device.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace vrb::vulkan {

// The segment size of a device: the largest power of two that one allocation may hold
// and one storage-buffer binding may cover, at most 2^31 so that every element index of
// a segment fits a shader's uint. `requested` (0: none) lowers it further, for tests.
uint64_t choose_segment_bytes(uint64_t max_storage_buffer_range, uint64_t max_allocation_bytes, uint64_t requested);

uint64_t segment_count(uint64_t bytes, uint64_t segment_bytes);

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
// max_span_bytes from its first element's start to its last element's end.
std::vector<Piece> split_pieces(uint64_t count, uint32_t element_bytes, uint64_t segment_bytes,
                                std::span<const Access> accesses, uint64_t max_piece_elements,
                                uint64_t max_span_bytes = UINT64_MAX);

// A storage-buffer binding starts at an offset aligned as the device requires; the
// piece's first element is then `base` elements into it.
struct Window {
    uint64_t offset = 0;
    uint64_t base = 0;
};

Window bind_window(uint64_t offset_in_segment, uint32_t element_bytes, uint64_t min_offset_alignment);

// The dispatches of one piece: at most max_groups workgroups each, every invocation
// looping over at most max_iterations elements (some drivers cut longer loops short).
struct DispatchShape {
    uint32_t local_size = 256;
    uint32_t max_groups = 65535;
    uint32_t max_iterations = 1u << 20;
};

struct Slice {
    uint64_t first = 0; // element index within the piece
    uint64_t count = 0;
    uint32_t groups = 0;
};

std::vector<Slice> slice_dispatch(uint64_t count, const DispatchShape &shape);

// One vkCmdCopyBuffer region between two segmented buffers.
struct CopyRegion {
    uint64_t src_segment = 0;
    uint64_t src_offset = 0;
    uint64_t dst_segment = 0;
    uint64_t dst_offset = 0;
    uint64_t bytes = 0;
};

std::vector<CopyRegion> split_copy(uint64_t src_offset, uint64_t src_segment_bytes, uint64_t dst_offset,
                                   uint64_t dst_segment_bytes, uint64_t bytes);

} // namespace vrb::vulkan
