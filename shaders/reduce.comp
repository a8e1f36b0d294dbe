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
    uvec2 acc = uvec2(0u);
    FOR_EACH_ELEMENT(i) {
#if defined(OP_READ)
        acc = add_lanes(acc, LOAD_SRC1(pc.src1_base + i));
#elif defined(OP_DOT)
        acc = add_lanes(acc, LOAD_SRC1(pc.src1_base + i) * LOAD_SRC2(pc.src2_base + i));
#elif defined(OP_STRIDED)
        acc = add_lanes(acc, LOAD_SRC1(pc.src1_base + i * pc.stride));
#else
#error no reduction selected
#endif
    }
    uvec2 total = workgroup_sum(acc);
    if (gl_LocalInvocationID.x == 0u) results[pc.slot + gl_WorkGroupID.x] = uvec4(total, 0u, 0u);
}
