#version 450
// FILL (and WRITE, which is FILL with the random pattern): lane l of the operation
// receives vrb_pattern(pattern, l, seed).
#include "common.glsl"
#include "pattern.glsl"

#define USES_DST
#include "access.glsl"

ELEM pattern_element(uint pattern, uvec2 lane, uint seed)
{
#if WIDTH == 1
    return vrb_pattern(pattern, lane, seed);
#elif WIDTH == 2
    return uvec2(vrb_pattern(pattern, lane, seed), vrb_pattern(pattern, add64(lane, 1u), seed));
#else
    return uvec4(vrb_pattern(pattern, lane, seed), vrb_pattern(pattern, add64(lane, 1u), seed),
                 vrb_pattern(pattern, add64(lane, 2u), seed), vrb_pattern(pattern, add64(lane, 3u), seed));
#endif
}

// The random pattern where every element an invocation walks lies at the same place
// in its block (the walk strides by a multiple of the block): the block's lanes for
// that place are hashed once, and each element costs one whitening word and an XOR
// per lane.
void fill_random_same_place(uint dst_base, uvec2 first_lane, uint seed, uint walk_first, uint walk_end,
                            uint walk_step, uint walk_passes)
{
    uvec2 lane0 = add64(first_lane, walk_first * uint(WIDTH));
    ELEM placed;
#if WIDTH == 1
    placed = vrb_pattern_block_lane(lane0.x & (VRB_PATTERN_BLOCK_LANES - 1u), seed);
#else
    for (uint k = 0u; k < uint(WIDTH); ++k)
        placed[k] = vrb_pattern_block_lane((lane0.x + k) & (VRB_PATTERN_BLOCK_LANES - 1u), seed);
#endif
    FOR_EACH_PASS(p) FOR_EACH_ELEMENT(i)
        store_dst(dst_base + i, placed ^ ELEM(vrb_pattern_whitening_of(add64(first_lane, i * uint(WIDTH)))));
}

void main()
{
    // Read before the loop, as in stream.comp.
    const uint dst_base = pc.dst_base, pattern = pc.pattern, seed = pc.seed;
    const uvec2 first_lane = pc.first_lane;
    WALK_RANGE;
    // Lanes of one element never straddle two blocks: first_lane is a multiple of WIDTH.
    if (pattern == VRB_PATTERN_RANDOM && (walk_step * uint(WIDTH)) % VRB_PATTERN_BLOCK_LANES == 0u) {
        fill_random_same_place(dst_base, first_lane, seed, walk_first, walk_end, walk_step, walk_passes);
        return;
    }
    FOR_EACH_PASS(p) FOR_EACH_ELEMENT(i)
        store_dst(dst_base + i, pattern_element(pattern, add64(first_lane, i * uint(WIDTH)), seed));
}
