#version 450
// CHECK: counts the lanes of src1 that differ from vrb_pattern(pattern, lane, seed) and
// finds the lowest such lane; one (count, first) pair per workgroup, finished on the host.
#include "common.glsl"
#include "pattern.glsl"
#include "reduction.glsl"
#include "access.glsl"

layout(std430, binding = 3) writeonly buffer Results { uvec4 results[]; };

const uvec2 NONE = uvec2(0xffffffffu, 0xffffffffu);

void compare_lane(uint value, uvec2 lane, inout uint mismatches, inout uvec2 first)
{
    if (value != vrb_pattern(pc.pattern, lane, pc.seed)) {
        ++mismatches;
        if (less64(lane, first)) first = lane;
    }
}

void main()
{
    WALK_RANGE;
    uint mismatches = 0u; // one invocation sees fewer than 2^32 lanes per dispatch
    uint before_last = 0u;
    uvec2 first = NONE;
    FOR_EACH_PASS(p) {
        if (p + 1u == walk_passes) before_last = mismatches;
        FOR_EACH_ELEMENT(i) {
            ELEM v = LOAD_SRC1(pc.src1_base + i);
            uvec2 lane = add64(pc.first_lane, i * uint(WIDTH));
#if WIDTH == 1
            compare_lane(v, lane, mismatches, first);
#else
            for (uint k = 0u; k < uint(WIDTH); ++k) compare_lane(v[k], add64(lane, k), mismatches, first);
#endif
        }
    }
    uvec2 total = workgroup_sum(uvec2(mismatches - before_last, 0u));
    uvec2 lowest = workgroup_min(first);
    if (gl_LocalInvocationID.x == 0u) results[pc.slot + gl_WorkGroupID.x] = uvec4(total, lowest);
}
