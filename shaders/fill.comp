#version 450
#extension GL_EXT_control_flow_attributes : require
// FILL (and WRITE, which is FILL with the random pattern): lane l of the operation
// receives vrb_pattern(pattern, l, seed).
#include "common.glsl"
#include "pattern.glsl"
#include "pattern_elements.glsl"

#define USES_DST
#include "access.glsl"

// Each pass starts where PASS_FIRST says, as the reading shaders' do: a write sweep's set
// shared out over the device is then written by another unit each pass and reaches the
// L2, as a read sweep's is read from it. A pass starts ROTATION_GROUPS workgroups on,
// modulo the grid: where both that and the grid's stride span whole pattern blocks, an
// invocation's elements move by whole blocks and its places still hold (PLACES_STAY);
// elsewhere every lane is hashed.
#ifdef CPU_TUNED
#define PLACES_STAY true
#else
#define PLACES_STAY                                                                                    \
    (walk_whole || ((ROTATION_GROUPS * LOCAL_SIZE * uint(WIDTH)) % VRB_PATTERN_BLOCK_LANES == 0u &&    \
                    (walk_step * uint(WIDTH)) % VRB_PATTERN_BLOCK_LANES == 0u))
#endif

void fill_random_cycling(uint dst_base, uvec2 first_lane, uint seed, bool walk_whole, uint walk_first, uint walk_end,
                         uint walk_step, uint walk_passes, uint places)
{
    ELEM placed[MOST_PLACES];
    place_walk(placed, first_lane, seed, walk_first, walk_step, places);
    const uint cycle = places * walk_step;
    FOR_EACH_PASS(p) for (uint i = PASS_FIRST(p); i < walk_end; i += cycle)
    {
        [[unroll]] for (uint k = 0u; k < MOST_PLACES; ++k)
        {
            const uint e = i + k * walk_step;
            if (k >= places || e >= walk_end) break;
            store_dst(dst_base + e, placed_element(placed[k], add64(first_lane, e * uint(WIDTH))));
        }
    }
}

void main()
{
    // Read before the loop, as in stream.comp.
    const uint dst_base = pc.dst_base, pattern = pc.pattern, seed = pc.seed;
    const uvec2 first_lane = pc.first_lane;
    WALK_RANGE;
    if (pattern == VRB_PATTERN_RANDOM && PLACES_STAY) {
        const uint places = places_of(walk_step);
        if (places > 0u) {
            fill_random_cycling(dst_base, first_lane, seed, walk_whole, walk_first, walk_end, walk_step, walk_passes,
                                places);
            return;
        }
    }
    FOR_EACH_PASS(p) for (uint i = PASS_FIRST(p); i < walk_end; i += walk_step)
        store_dst(dst_base + i, pattern_element(pattern, add64(first_lane, i * uint(WIDTH)), seed));
}
