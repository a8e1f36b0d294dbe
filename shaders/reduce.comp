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
#if defined(OP_READ)
#define VALUE(i) LOAD_SRC1(src1_base + (i))
#elif defined(OP_DOT)
#define VALUE(i) (LOAD_SRC1(src1_base + (i)) * LOAD_SRC2(src2_base + (i)))
#elif defined(OP_STRIDED)
#define VALUE(i) LOAD_SRC1(src1_base + (i) * stride)
#else
#error no reduction selected
#endif
    FOR_EACH_PASS(p) {
        if (p + 1u == walk_passes) before_last = total;
        FOR_EACH_CHUNK_FROM(i, PASS_FIRST(p)) {
            uvec2 s = uvec2(0u);
            uint n = min(CHUNK_ELEMENTS, (walk_end - i - 1u) / walk_step + 1u);
            // Four elements a trip, all loaded before any is added: an invocation's share
            // of a set in L2, shared out over a full wave, is a few elements a pass, and
            // one load at a time would wait out the L2's latency at every element. Indices
            // stay below 2^31, as in stream.comp.
            for (; n >= 4u; n -= 4u, i += 4u * walk_step) {
                const ELEM v0 = VALUE(i), v1 = VALUE(i + walk_step), v2 = VALUE(i + 2u * walk_step),
                           v3 = VALUE(i + 3u * walk_step);
                s = chunk_add(chunk_add(chunk_add(chunk_add(s, v0), v1), v2), v3);
            }
            for (; n > 0u; --n, i += walk_step)
                s = chunk_add(s, VALUE(i));
            total = chunk_flush(total, s);
        }
    }
    uvec2 sum = workgroup_sum(sub64(total, before_last));
    if (gl_LocalInvocationID.x == 0u) results[pc.slot + gl_WorkGroupID.x] = uvec4(sum, 0u, 0u);
}
