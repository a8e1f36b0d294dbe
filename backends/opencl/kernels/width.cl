// The kernels of one element width. The program includes this text three times, each
// after defining WIDTH (lanes per element: 1, 2 or 4), ELEM (uint, uint2, uint4) and
// FN(name), which names this width's copy (read_w4).

// Every streaming kernel takes the same arguments, so the host binds them one way.
#define STREAM_ARGS                                                                                            \
    global ELEM *dst, global const ELEM *src1, global const ELEM *src2, global ulong2 *results, ulong count,    \
        ulong dst_base, ulong src1_base, ulong src2_base, ulong first_lane, ulong stride, uint scalar,         \
        uint seed, uint pattern, uint passes, uint slot, uint flags

ulong FN(lane_total)(ELEM t, ELEM h)
{
    const ELEM low = t - (h << 16);
#if WIDTH == 1
    return (ulong)low + ((ulong)h << 16);
#elif WIDTH == 2
    return (ulong)low.x + (ulong)low.y + (((ulong)h.x + (ulong)h.y) << 16);
#else
    return (ulong)low.x + (ulong)low.y + (ulong)low.z + (ulong)low.w +
           (((ulong)h.x + (ulong)h.y + (ulong)h.z + (ulong)h.w) << 16);
#endif
}

// READ, DOT and STRIDED_READ: the total runs on over every pass and the answer is the
// last pass's share of it, so no pass is dead code nor a repeat a compiler could hoist.
// Four elements a trip, all loaded before any is added: a work-item's share of a set in
// L2, shared out over a full wave, is a few elements a pass, and one load at a time would
// wait out the L2's latency at every element.
#define REDUCTION(NAME, VALUE)                                                                                 \
    kernel void FN(NAME)(STREAM_ARGS)                                                                          \
    {                                                                                                          \
        local ulong scratch[LOCAL_SIZE];                                                                       \
        STREAM_WALK;                                                                                                \
        ulong total = 0, before_last = 0;                                                                      \
        for (uint p = 0u; p < PASS_COUNT; ++p) {                                                               \
            if (p + 1u == PASS_COUNT) before_last = total;                                                     \
            for (ulong at = PASS_FIRST(p); at < walk_end;) {                                                   \
                uint n = (uint)min((ulong)CHUNK, (walk_end - at - 1) / walk_step + 1);                         \
                ELEM t = 0, h = 0;                                                                             \
                for (; n >= 4u; n -= 4u, at += 4u * walk_step) {                                               \
                    ELEM v[4];                                                                                 \
                    for (uint k = 0u; k < 4u; ++k) {                                                           \
                        const ulong i = at + k * walk_step;                                                    \
                        v[k] = VALUE;                                                                          \
                    }                                                                                          \
                    for (uint k = 0u; k < 4u; ++k) {                                                           \
                        t += v[k];                                                                             \
                        h += v[k] >> 16;                                                                       \
                    }                                                                                          \
                }                                                                                              \
                for (; n > 0u; --n, at += walk_step) {                                                         \
                    const ulong i = at;                                                                        \
                    const ELEM v = VALUE;                                                                      \
                    t += v;                                                                                    \
                    h += v >> 16;                                                                              \
                }                                                                                              \
                total += FN(lane_total)(t, h);                                                                 \
            }                                                                                                  \
        }                                                                                                      \
        const ulong sum = group_sum(total - before_last, scratch);                                             \
        if (get_local_id(0) == 0) results[slot + get_group_id(0)] = (ulong2)(sum, 0);                          \
    }

#ifdef CPU_TUNED
// READ and DOT on a CPU: lanes are lanes whatever the element width, so the walk goes
// over lanes, 16 (64 bytes) a step: what the compiler turns into full-width vector
// loads and adds, where a loop over uint4 elements stays at 16 bytes an instruction.
// A work-item's block is walked as STREAMS runs side by side, not front to back: one
// sequential stream a core leaves memory idle at every 4 KiB page, where the
// prefetcher stops and must learn the stream again, and several streams keep that many
// more misses in flight (on PoCL over a 2-core Zen 3, 1.6 times one stream's
// bandwidth, past clpeak's 16 fetches a work-item). Blocks are whole multiples of the
// STREAMS runs' step, so only the last work-item has a tail.
#define LANE_REDUCTION(NAME, STREAMS, VALUE16, VALUE1)                                                         \
    kernel void FN(NAME)(STREAM_ARGS)                                                                          \
    {                                                                                                          \
        local ulong scratch[LOCAL_SIZE];                                                                       \
        global const uint *a = (global const uint *)(src1 + src1_base);                                        \
        global const uint *b = (global const uint *)(src2 + src2_base);                                        \
        const ulong lanes = count * WIDTH, items = get_global_size(0), step = 16u * STREAMS;                    \
        const ulong block = ((lanes + items - 1) / items + step - 1) / step * step;                            \
        const ulong first = min(get_global_id(0) * block, lanes), end = min(first + block, lanes);             \
        const ulong run = (end - first) / step * 16u, tail = first + run * STREAMS;                            \
        ulong total = 0, before_last = 0;                                                                      \
        for (uint p = 0u; p < PASS_COUNT; ++p) {                                                               \
            if (p + 1u == PASS_COUNT) before_last = total;                                                     \
            for (ulong j = 0; j < run;) {                                                                      \
                uint n = (uint)min((ulong)(CHUNK / STREAMS), (run - j) / 16u);                                 \
                uint16 t = 0, h = 0;                                                                           \
                for (; n > 0u; --n, j += 16u)                                                                  \
                    for (uint s = 0u; s < STREAMS; ++s) {                                                      \
                        const ulong i = first + s * run + j;                                                   \
                        const uint16 v = VALUE16;                                                              \
                        t += v;                                                                                \
                        h += v >> 16;                                                                          \
                    }                                                                                          \
                total += lane_total16(t, h);                                                                   \
            }                                                                                                  \
            for (ulong i = tail; i < end; ++i)                                                                 \
                total += VALUE1;                                                                               \
        }                                                                                                      \
        const ulong sum = group_sum(total - before_last, scratch);                                             \
        if (get_local_id(0) == 0) results[slot + get_group_id(0)] = (ulong2)(sum, 0);                          \
    }

LANE_REDUCTION(read, 8u, vload16(0, a + i), (ulong)a[i])
// DOT's kernel is product_sum: an OpenCL C compiler may define `dot` as a macro. It
// reads two arrays: four runs of each keep as many streams as READ's eight.
LANE_REDUCTION(product_sum, 4u, vload16(0, a + i) * vload16(0, b + i), (ulong)(a[i] * b[i]))
#undef LANE_REDUCTION
#else
// DOT's kernel is product_sum: an OpenCL C compiler may define `dot` as a macro.
REDUCTION(read, src1[src1_base + i])
REDUCTION(product_sum, src1[src1_base + i] * src2[src2_base + i])
#endif
REDUCTION(strided, src1[src1_base + i * stride])

// COPY, SCALE, ADD and TRIAD on a GPU: four elements a trip, all loaded before any is
// stored, so four loads are in flight a work-item where one element at a time waits for
// its load before its store (4-byte copies on an H200: 3020 GB/s so, 3750 from the
// Vulkan shader written this way). What an operation writes overlaps nothing it reads
// (plugin.h), so the order of a trip's stores after its loads changes no answer.
#define ELEMENTWISE(NAME, VALUE)                                                                               \
    kernel void FN(NAME)(STREAM_ARGS)                                                                          \
    {                                                                                                          \
        STREAM_WALK;                                                                                           \
        for (uint p = 0u; p < PASS_COUNT; ++p) {                                                               \
            ulong at = PASS_FIRST(p);                                                                          \
            for (; at + 3u * walk_step < walk_end; at += 4u * walk_step) {                                     \
                ELEM v[4];                                                                                     \
                for (uint k = 0u; k < 4u; ++k) {                                                               \
                    const ulong i = at + k * walk_step;                                                        \
                    v[k] = VALUE;                                                                              \
                }                                                                                              \
                for (uint k = 0u; k < 4u; ++k)                                                                 \
                    dst[dst_base + at + k * walk_step] = v[k];                                                 \
            }                                                                                                  \
            for (ulong i = at; i < walk_end; i += walk_step)                                                   \
                dst[dst_base + i] = VALUE;                                                                     \
        }                                                                                                      \
    }

#ifdef CPU_TUNED
// COPY, SCALE, ADD and TRIAD on a CPU: every one works lane by lane, so, as READ, the
// walk goes over lanes 16 (64 bytes) a step whatever the element width: one full-width
// load per source and one store a step, where a loop over uint2 elements moved 8 bytes
// an instruction and ran at 0.92 of a one-element-per-work-item kernel that PoCL
// vectorises across its work-items. Past the caches the stores are streaming ones
// (STREAMING_STORES), which no OpenCL kernel whose stores are plain can match: those
// move the destination twice.
#define LANE_ELEMENTWISE(NAME, VALUE16, VALUE1)                                                                \
    kernel void FN(NAME)(STREAM_ARGS)                                                                          \
    {                                                                                                          \
        global uint *d = (global uint *)(dst + dst_base);                                                      \
        global const uint *a = (global const uint *)(src1 + src1_base);                                        \
        global const uint *b = (global const uint *)(src2 + src2_base);                                       \
        const ulong lanes = count * WIDTH, items = get_global_size(0);                                         \
        const ulong block = ((lanes + items - 1) / items + 15u) / 16u * 16u;                                   \
        const ulong first = min(get_global_id(0) * block, lanes), end = min(first + block, lanes);             \
        const ulong body = first + (end - first) / 16u * 16u;                                                  \
        /* streaming stores take whole aligned lines: a destination off 64 bytes stores plainly */             \
        const bool streaming = (flags & STREAMING_STORES) != 0u && ((size_t)(d + first) & 63u) == 0u;          \
        for (uint p = 0u; p < PASS_COUNT; ++p) {                                                               \
            if (streaming)                                                                                     \
                for (ulong i = first; i < body; i += 16u)                                                      \
                    STORE16_STREAMING(VALUE16, d + i);                                                         \
            else                                                                                               \
                for (ulong i = first; i < body; i += 16u)                                                      \
                    vstore16(VALUE16, 0, d + i);                                                               \
            for (ulong i = body; i < end; ++i)                                                                 \
                d[i] = VALUE1;                                                                                 \
        }                                                                                                      \
    }

LANE_ELEMENTWISE(copy, vload16(0, a + i), a[i])
LANE_ELEMENTWISE(scale, scalar * vload16(0, a + i), scalar * a[i])
LANE_ELEMENTWISE(add, vload16(0, a + i) + vload16(0, b + i), a[i] + b[i])
LANE_ELEMENTWISE(triad, vload16(0, a + i) + scalar * vload16(0, b + i), a[i] + scalar * b[i])
#undef LANE_ELEMENTWISE
#else
ELEMENTWISE(copy, src1[src1_base + i])
ELEMENTWISE(scale, scalar * src1[src1_base + i])
ELEMENTWISE(add, src1[src1_base + i] + src2[src2_base + i])
ELEMENTWISE(triad, src1[src1_base + i] + scalar * src2[src2_base + i])
#endif

// FILL, and WRITE as FILL with the random pattern. The random pattern's block is hashed
// once per work-group into local memory; an element then costs one whitening word and
// an XOR per lane (its lanes share a block: first_lane is a multiple of WIDTH).
kernel void FN(fill)(STREAM_ARGS)
{
    local uint block[VRB_PATTERN_BLOCK_LANES];
    for (uint j = get_local_id(0); j < VRB_PATTERN_BLOCK_LANES; j += get_local_size(0))
        block[j] = vrb_pattern_block_lane(j, seed);
    barrier(CLK_LOCAL_MEM_FENCE);
    STREAM_WALK;
    const bool random = pattern >= VRB_PATTERN_RANDOM;
    // Each pass starts where PASS_FIRST says, as the reading kernels' do: a write sweep's
    // set shared out over the device is written by another unit each pass and reaches
    // the L2, as a read sweep's is read from it.
    for (uint p = 0u; p < PASS_COUNT; ++p)
        for (ulong i = PASS_FIRST(p); i < walk_end; i += walk_step) {
            const ulong lane = first_lane + i * WIDTH;
            ELEM v;
            if (random) {
                const uint whitening = vrb_pattern_whitening(lane >> VRB_PATTERN_BLOCK_SHIFT);
                const uint j = (uint)lane & (VRB_PATTERN_BLOCK_LANES - 1u);
#if WIDTH == 1
                v = block[j] ^ whitening;
#elif WIDTH == 2
                v = (uint2)(block[j], block[j + 1]) ^ whitening;
#else
                v = (uint4)(block[j], block[j + 1], block[j + 2], block[j + 3]) ^ whitening;
#endif
            } else {
#if WIDTH == 1
                v = vrb_pattern(pattern, lane, seed);
#elif WIDTH == 2
                v = (uint2)(vrb_pattern(pattern, lane, seed), vrb_pattern(pattern, lane + 1, seed));
#else
                v = (uint4)(vrb_pattern(pattern, lane, seed), vrb_pattern(pattern, lane + 1, seed),
                            vrb_pattern(pattern, lane + 2, seed), vrb_pattern(pattern, lane + 3, seed));
#endif
            }
            dst[dst_base + i] = v;
        }
}

// CHECK: the lanes of src1 that differ from the pattern, and the lowest such lane.
kernel void FN(check)(STREAM_ARGS)
{
    local ulong scratch[LOCAL_SIZE];
    STREAM_WALK;
    ulong mismatches = 0, before_last = 0, first = ULONG_MAX;
    for (uint p = 0u; p < PASS_COUNT; ++p) {
        if (p + 1u == PASS_COUNT) before_last = mismatches;
        for (ulong i = walk_first; i < walk_end; i += walk_step) {
            const ulong lane = first_lane + i * WIDTH;
            const ELEM v = src1[src1_base + i];
#if WIDTH == 1
            const uint lanes[1] = {v};
#elif WIDTH == 2
            const uint lanes[2] = {v.x, v.y};
#else
            const uint lanes[4] = {v.x, v.y, v.z, v.w};
#endif
            for (uint k = 0u; k < WIDTH; ++k)
                if (lanes[k] != vrb_pattern(pattern, lane + k, seed)) {
                    ++mismatches;
                    first = min(first, lane + k);
                }
        }
    }
    const ulong total = group_sum(mismatches - before_last, scratch);
    const ulong lowest = group_min(first, scratch);
    if (get_local_id(0) == 0) results[slot + get_group_id(0)] = (ulong2)(total, lowest);
}

// GATHER: sum(src1[index[i]]) with the indices in src2. An index past src1's buffer is
// counted, not followed; the host turns a count into an error naming the index.
global const ELEM *FN(chain_pick)(CHAIN_ARGS(ELEM), uint segment)
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

kernel void FN(gather)(global const uint *index, global ulong2 *results, CHAIN_ARGS(ELEM), ulong count,
                       ulong index_base, ulong chain_base, ulong chain_limit, uint shift, uint passes, uint slot)
{
    local ulong scratch[LOCAL_SIZE];
    WALK;
    ulong total = 0, before_last = 0, faults = 0, faults_before_last = 0;
    const ulong mask = (((ulong)1) << shift) - 1;
    for (uint p = 0u; p < PASS_COUNT; ++p) {
        if (p + 1u == PASS_COUNT) {
            before_last = total;
            faults_before_last = faults;
        }
        for (ulong i = walk_first; i < walk_end;) {
            uint n = (uint)min((ulong)CHUNK, (walk_end - i - 1) / walk_step + 1);
            ELEM t = 0, h = 0;
            for (; n > 0u; --n, i += walk_step) {
                const ulong at = chain_base + index[index_base + i];
                if (at < chain_limit) {
                    const ELEM v = FN(chain_pick)(c0, c1, c2, c3, c4, c5, c6, c7, (uint)(at >> shift))[at & mask];
                    t += v;
                    h += v >> 16;
                } else {
                    ++faults;
                }
            }
            total += FN(lane_total)(t, h);
        }
    }
    const ulong sum = group_sum(total - before_last, scratch);
    const ulong fault_total = group_sum(faults - faults_before_last, scratch);
    if (get_local_id(0) == 0) results[slot + get_group_id(0)] = (ulong2)(sum, fault_total);
}

#undef STREAM_ARGS
#undef REDUCTION
#undef ELEMENTWISE
