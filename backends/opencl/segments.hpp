// How the backend works past CL_DEVICE_MAX_MEM_ALLOC_SIZE: a buffer is a row of
// segments (one cl_mem or SVM allocation each, all but the last of one power-of-two
// size), an operation is cut into pieces that stay inside one segment of every operand,
// and a copy into regions. Pure arithmetic, tested without a device.
#pragma once

#include <vrambench/segments.hpp>

#include <cstdint>
#include <vector>

namespace vrb::opencl {

// The largest power of two at most max_allocation_bytes and, when set, `requested`;
// never below 4096 bytes.
uint64_t choose_segment_bytes(uint64_t max_allocation_bytes, uint64_t requested);

// The sizes of a buffer's segments: one of `bytes` when it fits a segment.
std::vector<uint64_t> segment_sizes(uint64_t bytes, uint64_t segment_bytes);

// The pieces of an operation and the regions of a copy (vrambench/segments.hpp).
using plugin::Access;
using plugin::CopyRegion;
using plugin::Piece;
using plugin::PieceAccess;
using plugin::split_copy;
using plugin::split_pieces;

} // namespace vrb::opencl
