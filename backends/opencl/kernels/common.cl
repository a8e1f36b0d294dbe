// What every kernel of the OpenCL backend shares. The program is this file, then
// width.cl once per element width (1, 2 and 4 lanes of 32 bits); pattern.h comes
// before it as it stands, so the pattern formulas are the ones the host checks with.
// The build defines LOCAL_SIZE (the work-group width every launch of this build uses:
// the device's, or a sweep's per-unit walk's, geometry.hpp) and, for a device that is a
// CPU, CPU_TUNED.

// Lanes summed without a 64-bit add per lane: over at most CHUNK elements a lane's
// running sum t (mod 2^32) and the sum h of its high 16 bits (exact) give the exact
// sum as (t - h * 2^16) + h * 2^16, the first term being a sum of low halves below 2^32.
#define CHUNK 65536u

// The elements one work-item walks. On a GPU a grid stride, so neighbouring work-items
// touch neighbouring elements at every step. A CPU runs a work-group as a loop on one
// core, where a work-item that walks one contiguous block is what its prefetchers and
// vector units follow; the blocks are whole multiples of 16 elements, so no cache
// line is shared by two cores.
#ifdef CPU_TUNED
#define WALK                                                                                                   \
    const ulong walk_items = get_global_size(0);                                                               \
    const ulong walk_block = ((count + walk_items - 1) / walk_items + 15) & ~(ulong)15;                        \
    const ulong walk_first = min(get_global_id(0) * walk_block, count);                                        \
    const ulong walk_end = min(walk_first + walk_block, count)
#define walk_step 1
#define STREAM_WALK WALK
#define PASS_FIRST(p) walk_first
#else
#define WALK                                                                                                   \
    const ulong walk_first = get_global_id(0);                                                                 \
    const ulong walk_end = count;                                                                              \
    const ulong walk_step = get_global_size(0)
// A stream kernel's walk: with WALK_WHOLE_SET in its flags (a set below one wave of the
// device, one group on every compute unit) every work-group walks all the elements, so
// every unit reads a set of its own.
#define WALK_WHOLE_SET 1u
#define STREAM_WALK                                                                                            \
    const bool walk_whole = (flags & WALK_WHOLE_SET) != 0u;                                                    \
    const ulong walk_first = walk_whole ? get_local_id(0) : get_global_id(0);                                  \
    const ulong walk_end = count;                                                                              \
    const ulong walk_step = walk_whole ? (ulong)LOCAL_SIZE : get_global_size(0)
// Where pass p of a reading kernel starts. A set shared out among the groups would be
// re-read by each group from its own unit's L1, and the L1s together (132 x 256 KiB on an
// H200) would pass for an L2: each pass moves every group's share on by ROTATION_GROUPS
// groups, so what a unit read last pass is another unit's this one (eight, so a share
// stays on its die where consecutive groups go to dies with L2s of their own).
#define ROTATION_GROUPS 8u
#define PASS_FIRST(p)                                                                                          \
    (walk_whole ? walk_first                                                                                   \
                : ((get_group_id(0) + (ulong)(p)*ROTATION_GROUPS) % get_num_groups(0)) * LOCAL_SIZE +          \
                      get_local_id(0))
#endif

#ifdef CPU_TUNED
// The exact total of 16 lanes kept as running sums t (mod 2^32) and high halves h.
ulong lane_total16(uint16 t, uint16 h)
{
    const uint16 low = t - (h << 16);
    const ulong8 w =
        convert_ulong8(low.lo) + convert_ulong8(low.hi) + ((convert_ulong8(h.lo) + convert_ulong8(h.hi)) << 16);
    return w.s0 + w.s1 + w.s2 + w.s3 + w.s4 + w.s5 + w.s6 + w.s7;
}
#endif

#ifdef CPU_TUNED
// The stream kernels' flag for a destination past the caches (geometry.hpp's
// streaming_stores): its lines are written without being read first. A plain store
// reads each line in before it overwrites it, so COPY moves three arrays, not two.
#define STREAMING_STORES 2u
#if defined(__clang__) && defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store)
#define STORE16_STREAMING(v, p) __builtin_nontemporal_store((v), (global uint16 *)(p))
#endif
#endif
#ifndef STORE16_STREAMING
#define STORE16_STREAMING(v, p) vstore16((v), 0, (p))
#endif
#endif

#define PASS_COUNT (passes > 1u ? passes : 1u)

// Every result slot is two words: (sum, faults) for sums, (mismatches, first
// mismatching lane) for CHECK, (position, fault) for CHASE.
ulong group_sum(ulong value, local ulong *scratch)
{
    const uint lid = get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint half_size = LOCAL_SIZE / 2u; half_size > 0u; half_size >>= 1) {
        if (lid < half_size) scratch[lid] += scratch[lid + half_size];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return scratch[0];
}

ulong group_min(ulong value, local ulong *scratch)
{
    const uint lid = get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint half_size = LOCAL_SIZE / 2u; half_size > 0u; half_size >>= 1) {
        if (lid < half_size) scratch[lid] = min(scratch[lid], scratch[lid + half_size]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return scratch[0];
}

// GATHER's source and CHASE's chain may span several segments of a buffer: each is
// one kernel argument, and a position splits into a segment and an index inside it.
#define CHAIN_SEGMENTS 8
#define CHAIN_ARGS(T)                                                                                          \
    global const T *c0, global const T *c1, global const T *c2, global const T *c3, global const T *c4,        \
        global const T *c5, global const T *c6, global const T *c7
#define CHAIN_LOAD(p, shift)                                                                                   \
    chain_pick(c0, c1, c2, c3, c4, c5, c6, c7, (uint)((p) >> (shift)))[(p) & ((((ulong)1) << (shift)) - 1)]

global const uint *chain_pick(CHAIN_ARGS(uint), uint segment)
{
    switch (segment) {
    case 0: return c0;
    case 1: return c1;
    case 2: return c2;
    case 3: return c3;
    case 4: return c4;
    case 5: return c5;
    case 6: return c6;
    default: return c7;
    }
}

// A whole-operation CHASE: one work-item, each load waiting on the one before. Only an
// index about to be followed must lie inside the buffer; the last one is the answer.
kernel void chase(global ulong2 *results, CHAIN_ARGS(uint), ulong steps, ulong chain_base, ulong chain_limit,
                  uint shift, uint passes)
{
    uint j = 0u;
    ulong fault = 0;
    if (shift == 62u && chain_limit > chain_base) {
        // One segment (the host's sign): between two loads only the address and a clamp
        // into the chain, no compare and branch, which would lengthen every step on a GPU
        // (backends/cuda/chase_walk.hpp). The first index that had to be clamped is kept,
        // to be reported instead of the answer.
        const ulong room = chain_limit - chain_base;
        const uint last = room > 0xffffffffUL ? 0xffffffffu : (uint)(room - 1);
        global const uint *chain = c0 + chain_base;
        uint stray = 0u;
        for (uint p = 0u; p < PASS_COUNT; ++p) {
            j = 0u;
            for (ulong s = 0; s < steps; ++s) {
                stray = fault ? stray : j;
                fault |= j > last;
                j = chain[min(j, last)];
            }
        }
        results[0] = fault ? (ulong2)(stray, 1) : (ulong2)(j, 0);
        return;
    }
    for (uint p = 0u; p < PASS_COUNT && fault == 0; ++p) {
        j = 0u;
        for (ulong s = 0; s < steps; ++s) {
            const ulong at = chain_base + j;
            if (at >= chain_limit) {
                fault = 1;
                break;
            }
            j = CHAIN_LOAD(at, shift);
        }
    }
    results[0] = (ulong2)(j, fault);
}
