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

#if defined(OP_COPY)
#define APPLY(a, b) (a)
#elif defined(OP_SCALE)
#define APPLY(a, b) (scalar * (a))
#elif defined(OP_ADD)
#define APPLY(a, b) ((a) + (b))
#elif defined(OP_TRIAD)
#define APPLY(a, b) ((a) + scalar * (b))
#else
#error no stream operation selected
#endif

#ifdef USES_SRC2
#define LOAD_B(i) LOAD_SRC2(src2_base + (i))
#else
#define LOAD_B(i) ELEM(0u)
#endif

void main()
{
    // Read before the loop: llvmpipe reloads a push constant at every use inside a loop
    // that stores (the store might alias it), a gather of 8 loads each time.
    const uint dst_base = pc.dst_base, src1_base = pc.src1_base, src2_base = pc.src2_base, scalar = pc.scalar;
    WALK_RANGE;
    // Every pass stores again: stores to a buffer are effects no compiler drops. Four
    // elements a trip, all their loads written before any store, so four loads are in
    // flight where one element at a time would wait for each load before its store.
    // Indices stay below 2^31: a dispatch covers at most 2^30 elements and a stride
    // below 2^26 (65535 workgroups of at most 1024).
    FOR_EACH_PASS(p) {
        uint i = PASS_FIRST(p);
        for (; i + 3u * walk_step < walk_end; i += 4u * walk_step) {
            const uint i1 = i + walk_step, i2 = i1 + walk_step, i3 = i2 + walk_step;
            const ELEM a0 = LOAD_SRC1(src1_base + i), a1 = LOAD_SRC1(src1_base + i1), a2 = LOAD_SRC1(src1_base + i2),
                       a3 = LOAD_SRC1(src1_base + i3);
            const ELEM b0 = LOAD_B(i), b1 = LOAD_B(i1), b2 = LOAD_B(i2), b3 = LOAD_B(i3);
            store_dst(dst_base + i, APPLY(a0, b0));
            store_dst(dst_base + i1, APPLY(a1, b1));
            store_dst(dst_base + i2, APPLY(a2, b2));
            store_dst(dst_base + i3, APPLY(a3, b3));
        }
        for (; i < walk_end; i += walk_step)
            store_dst(dst_base + i, APPLY(LOAD_SRC1(src1_base + i), LOAD_B(i)));
    }
}
