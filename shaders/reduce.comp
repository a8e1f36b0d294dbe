#version 450
// Sums into a 64-bit total, one partial per workgroup, finished on the host:
//   OP_READ     sum(src1)
//   OP_DOT      sum(src1 * src2), products wrapping modulo 2^32
//   OP_STRIDED  sum(src1[i * stride])
#include "common.glsl"
#include "reduction.glsl"

#if defined(OP_DOT)
#define USES_SRC2
#endif
#include "access.glsl"

layout(std430, binding = 3) writeonly buffer Results { uvec4 results[]; };

void main()
{
    WALK_RANGE;
    // The total runs on over every pass and the answer is the last pass's share of it,
    // so no pass is dead code a compiler could drop, nor a repeat it could hoist.
    uvec2 total = uvec2(0u), before_last = uvec2(0u);
    const uint src1_base = pc.src1_base, src2_base = pc.src2_base, stride = pc.stride;
    FOR_EACH_PASS(p) {
        if (p + 1u == walk_passes) before_last = total;
        FOR_EACH_CHUNK_FROM(i, PASS_FIRST(p)) {
            uvec2 s = uvec2(0u);
            FOR_EACH_IN_CHUNK(i) {
#if defined(OP_READ)
                s = chunk_add(s, LOAD_SRC1(src1_base + i));
#elif defined(OP_DOT)
                s = chunk_add(s, LOAD_SRC1(src1_base + i) * LOAD_SRC2(src2_base + i));
#elif defined(OP_STRIDED)
                s = chunk_add(s, LOAD_SRC1(src1_base + i * stride));
#else
#error no reduction selected
#endif
            }
            total = chunk_flush(total, s);
        }
    }
    uvec2 sum = workgroup_sum(sub64(total, before_last));
    if (gl_LocalInvocationID.x == 0u) results[pc.slot + gl_WorkGroupID.x] = uvec4(sum, 0u, 0u);
}
