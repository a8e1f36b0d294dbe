// The push constants every shader reads, laid out exactly as shaders/common.glsl
// declares them (std430: every member here is 4-byte aligned, uvec2 8-byte aligned).
#pragma once

#include <cstddef>
#include <cstdint>

namespace vrb::vulkan {

struct PushConstants {
    uint32_t count = 0;
    uint32_t dst_base = 0;
    uint32_t src1_base = 0;
    uint32_t src2_base = 0;
    uint32_t first_lane[2] = {0, 0};
    uint32_t scalar = 0;
    uint32_t seed = 0;
    uint32_t pattern = 0;
    uint32_t stride = 0;
    uint32_t slot = 0;
    uint32_t flags = 0;
    uint32_t chain_base[2] = {0, 0};
    uint32_t chain_limit[2] = {0, 0};
    uint32_t segment_shift = 0;
    uint32_t passes = 1; // times each invocation walks its elements in one dispatch
    // CHASE by device address (chase_links.hpp)
    uint32_t link_base[2] = {0, 0};
    uint32_t link_trap[2] = {0, 0};
    uint32_t link_shift = 3;
    uint32_t reserved = 0;
};

static_assert(sizeof(PushConstants) == 96);
static_assert(offsetof(PushConstants, link_base) == 72);
static_assert(offsetof(PushConstants, link_shift) == 88);
static_assert(offsetof(PushConstants, first_lane) == 16);
static_assert(offsetof(PushConstants, chain_base) == 48);
static_assert(offsetof(PushConstants, segment_shift) == 64);

inline void set64(uint32_t (&field)[2], uint64_t value)
{
    field[0] = static_cast<uint32_t>(value);
    field[1] = static_cast<uint32_t>(value >> 32);
}

// Segments of one operand a GATHER or CHASE shader can reach (CHAIN_SEGMENT_SLOTS in
// shaders/chain.glsl).
inline constexpr uint32_t kChainSegmentSlots = 16;
// PushConstants::flags of a stream operation whose every workgroup walks the whole set
// (FLAG_WHOLE_SET in shaders/common.glsl).
inline constexpr uint32_t kFlagWholeSet = 2;
// PushConstants::flags of CHASE's dispatches: the chain's first, and (by address) its
// last, whose final step loads the answer (shaders/chase_addresses.comp).
inline constexpr uint32_t kFlagChaseFirst = 1, kFlagChaseLast = 4;

// Binding numbers of the two descriptor set layouts.
namespace binding {
inline constexpr uint32_t dst = 0, src1 = 1, src2 = 2, results = 3; // stream, reduce, fill, check
inline constexpr uint32_t index = 0, chain_results = 1, chain = 2;  // gather, chase
} // namespace binding

} // namespace vrb::vulkan
