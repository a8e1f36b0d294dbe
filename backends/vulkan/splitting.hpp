// How work larger than what Vulkan accepts in one piece is cut: a buffer into segments
// (each one VkBuffer and one allocation), a piece of an operation into dispatches; the
// pieces and copy regions themselves are the SDK's (vrambench/segments.hpp). Pure
// arithmetic, unit-tested without a device.
#pragma once

#include <vrambench/segments.hpp>

#include <cstdint>
#include <vector>

namespace vrb::vulkan {

// The segment size of a device: the largest power of two that one allocation may hold
// and one storage-buffer binding may cover, at most 2^31 so that every element index of
// a segment fits a shader's uint. `requested` (0: none) lowers it further, for tests.
uint64_t choose_segment_bytes(uint64_t max_storage_buffer_range, uint64_t max_allocation_bytes, uint64_t requested);

uint64_t segment_count(uint64_t bytes, uint64_t segment_bytes);

// The pieces of an operation and the regions of a copy (vrambench/segments.hpp).
using plugin::Access;
using plugin::CopyRegion;
using plugin::Piece;
using plugin::PieceAccess;
using plugin::split_copy;
using plugin::split_pieces;

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
    uint32_t widest_local_size = 256; // the most the device allows, up to 1024: a per-unit walk's workgroup
};

struct Slice {
    uint64_t first = 0; // element index within the piece
    uint64_t count = 0;
    uint32_t groups = 0;
};

std::vector<Slice> slice_dispatch(uint64_t count, const DispatchShape &shape);

// The workgroups that walk a stream operation's elements each whole: a working set below
// one full wave of the device (`filling_groups` workgroups of `local_size`) would leave
// most compute units (CPU threads, on lavapipe) without work if shared out, and the
// units' own caches unused. 0 when the set is shared out: it fills the device, or
// nothing says how many workgroups do (filling_groups 0).
uint32_t whole_set_groups(uint64_t count, uint32_t filling_groups, uint32_t local_size);

} // namespace vrb::vulkan
