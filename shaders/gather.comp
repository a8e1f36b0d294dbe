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
    WALK_RANGE;
    // As in reduce.comp: the answer is the last pass's share of totals that run on.
    uvec2 total = uvec2(0u), before_last = uvec2(0u);
    uint faults = 0u, faults_before_last = 0u;
    FOR_EACH_PASS(p) {
        if (p + 1u == walk_passes) {
            before_last = total;
            faults_before_last = faults;
        }
        FOR_EACH_CHUNK(i) {
            uvec2 s = uvec2(0u);
            FOR_EACH_IN_CHUNK(i) {
                uvec2 at = add64(pc.chain_base, index_words[pc.src2_base + i]);
                if (less64(at, pc.chain_limit))
                    s = chunk_add(s, chain_load(at));
                else
                    ++faults;
            }
            total = chunk_flush(total, s);
        }
    }
    uvec2 sum = workgroup_sum(sub64(total, before_last));
    uvec2 fault_total = workgroup_sum(uvec2(faults - faults_before_last, 0u));
    if (gl_LocalInvocationID.x == 0u) results[pc.slot + gl_WorkGroupID.x] = uvec4(sum, fault_total);
}
