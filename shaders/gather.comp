#version 450
// GATHER: sum(src1[index[i]]) with index = src2 as uint32. An index past src1's buffer
// is counted, not followed; the host turns a nonzero count into an error.
#include "common.glsl"
#include "reduction.glsl"
#include "chain.glsl"

layout(std430, binding = 0) readonly buffer Index { uint index_words[]; };
layout(std430, binding = 1) writeonly buffer Results { uvec4 results[]; };

void main()
{
    uvec2 acc = uvec2(0u);
    uint faults = 0u;
    FOR_EACH_ELEMENT(i) {
        uvec2 p = add64(pc.chain_base, index_words[pc.src2_base + i]);
        if (less64(p, pc.chain_limit))
            acc = add_lanes(acc, chain_load(p));
        else
            ++faults;
    }
    uvec2 total = workgroup_sum(acc);
    uvec2 fault_total = workgroup_sum(uvec2(faults, 0u));
    if (gl_LocalInvocationID.x == 0u) results[pc.slot + gl_WorkGroupID.x] = uvec4(total, fault_total);
}
