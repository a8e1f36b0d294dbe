#version 450
// Element-wise stream operations, one variant per operation and WIDTH:
//   OP_COPY   dst = src1
//   OP_SCALE  dst = scalar * src1
//   OP_ADD    dst = src1 + src2
//   OP_TRIAD  dst = src1 + scalar * src2
// Lanes are uint, so arithmetic wraps modulo 2^32 as the ABI defines.
#include "common.glsl"

#define USES_DST
#if defined(OP_ADD) || defined(OP_TRIAD)
#define USES_SRC2
#endif
#include "access.glsl"

void main()
{
    // Read before the loop: llvmpipe reloads a push constant at every use inside a loop
    // that stores (the store might alias it), a gather of 8 loads each time.
    const uint dst_base = pc.dst_base, src1_base = pc.src1_base, src2_base = pc.src2_base, scalar = pc.scalar;
    WALK_RANGE;
    // Every pass stores again: stores to a buffer are effects no compiler drops.
    FOR_EACH_PASS(p) FOR_EACH_ELEMENT(i) {
#if defined(OP_COPY)
        store_dst(dst_base + i, LOAD_SRC1(src1_base + i));
#elif defined(OP_SCALE)
        store_dst(dst_base + i, scalar * LOAD_SRC1(src1_base + i));
#elif defined(OP_ADD)
        store_dst(dst_base + i, LOAD_SRC1(src1_base + i) + LOAD_SRC2(src2_base + i));
#elif defined(OP_TRIAD)
        store_dst(dst_base + i, LOAD_SRC1(src1_base + i) + scalar * LOAD_SRC2(src2_base + i));
#else
#error no stream operation selected
#endif
    }
}
