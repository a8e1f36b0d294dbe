// The data patterns of plugins/include/vrambench/pattern.h, formula for formula.
// A lane number is 64 bits wide and arrives as uvec2(low, high); every operation is on
// 32-bit unsigned values and wraps exactly as the C version does, so a lane filled
// here compares equal to vrb_pattern() on the host. The conformance tests pin this.
// Needs shr64 from common.glsl.
#ifndef VRAMBENCH_PATTERN_GLSL
#define VRAMBENCH_PATTERN_GLSL

#define VRB_PATTERN_ZEROS 0u
#define VRB_PATTERN_ONES 1u
#define VRB_PATTERN_WALKING_ONES 2u
#define VRB_PATTERN_ADDRESS 3u
#define VRB_PATTERN_RANDOM 4u

#define VRB_PATTERN_BLOCK_LANES 64u
#define VRB_PATTERN_BLOCK_SHIFT 6u

uint vrb_pattern_block_lane(uint j, uint seed)
{
    uint h = j * 0x9e3779b1u + seed;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

// The whitening word of the block holding `lane`.
uint vrb_pattern_whitening_of(uvec2 lane)
{
    uvec2 block = shr64(lane, VRB_PATTERN_BLOCK_SHIFT);
    return block.x * 0x9e3779b1u + block.y * 0x85ebca77u;
}

uint vrb_pattern_random(uvec2 lane, uint seed)
{
    return vrb_pattern_block_lane(lane.x & (VRB_PATTERN_BLOCK_LANES - 1u), seed) ^ vrb_pattern_whitening_of(lane);
}

uint vrb_pattern(uint pattern, uvec2 lane, uint seed)
{
    switch (pattern) {
    case VRB_PATTERN_ZEROS:
        return 0u;
    case VRB_PATTERN_ONES:
        return 0xffffffffu;
    case VRB_PATTERN_WALKING_ONES:
        return 1u << (lane.x & 31u);
    case VRB_PATTERN_ADDRESS:
        return lane.x ^ lane.y;
    default:
        return vrb_pattern_random(lane, seed);
    }
}

#endif
