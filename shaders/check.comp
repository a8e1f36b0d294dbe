#version 450
#extension GL_EXT_control_flow_attributes : require
// CHECK: counts the lanes of src1 that differ from vrb_pattern(pattern, lane, seed) and
// finds the lowest such lane; one (count, first) pair per workgroup, finished on the host.
#include "common.glsl"
#include "pattern.glsl"
#include "pattern_elements.glsl"
#include "reduction.glsl"
#include "access.glsl"

layout(std430, binding = 3) writeonly buffer Results { uvec4 results[]; };

const uvec2 NONE = uvec2(0xffffffffu, 0xffffffffu);

// Lane by lane, only for an element that differs somewhere.
void compare_element(ELEM value, ELEM want, uvec2 lane, inout uint mismatches, inout uvec2 first)
{
#if WIDTH == 1
    if (value != want) {
        ++mismatches;
        if (less64(lane, first)) first = lane;
    }
#else
    if (all(equal(value, want))) return;
    for (uint k = 0u; k < uint(WIDTH); ++k) {
        if (value[k] == want[k]) continue;
        ++mismatches;
        const uvec2 l = add64(lane, k);
        if (less64(l, first)) first = l;
    }
#endif
}

// The walk's elements against the random pattern, each place's block lanes made once
// (pattern_elements.glsl).
void check_random_cycling(uint walk_first, uint walk_end, uint walk_step, uint walk_passes, uint places,
                          inout uint mismatches, inout uint before_last, inout uvec2 first)
{
    const uvec2 first_lane = pc.first_lane;
    ELEM placed[MOST_PLACES];
    place_walk(placed, first_lane, pc.seed, walk_first, walk_step, places);
    const uint cycle = places * walk_step;
    FOR_EACH_PASS(p) {
        if (p + 1u == walk_passes) before_last = mismatches;
        for (uint i = walk_first; i < walk_end; i += cycle) {
            [[unroll]] for (uint k = 0u; k < MOST_PLACES; ++k)
            {
                const uint e = i + k * walk_step;
                if (k >= places || e >= walk_end) break;
                const uvec2 lane = add64(first_lane, e * uint(WIDTH));
                compare_element(LOAD_SRC1(pc.src1_base + e), placed_element(placed[k], lane), lane, mismatches,
                                first);
            }
        }
    }
}

void main()
{
    WALK_RANGE;
    uint mismatches = 0u; // one invocation sees fewer than 2^32 lanes per dispatch
    uint before_last = 0u;
    uvec2 first = NONE;
    const uint places = pc.pattern == VRB_PATTERN_RANDOM ? places_of(walk_step) : 0u;
    if (places > 0u) {
        check_random_cycling(walk_first, walk_end, walk_step, walk_passes, places, mismatches, before_last, first);
    } else {
        FOR_EACH_PASS(p) {
            if (p + 1u == walk_passes) before_last = mismatches;
            FOR_EACH_ELEMENT(i) {
                const uvec2 lane = add64(pc.first_lane, i * uint(WIDTH));
                compare_element(LOAD_SRC1(pc.src1_base + i), pattern_element(pc.pattern, lane, pc.seed), lane,
                                mismatches, first);
            }
        }
    }
    uvec2 total = workgroup_sum(uvec2(mismatches - before_last, 0u));
    uvec2 lowest = workgroup_min(first);
    if (gl_LocalInvocationID.x == 0u) results[pc.slot + gl_WorkGroupID.x] = uvec4(total, lowest);
}
