// What every vrambench compute shader shares: the push constants (mirrored by
// backends/vulkan/push_constants.hpp), 64-bit arithmetic on uvec2(low, high) so no
// shader needs shaderInt64, and the element type of WIDTH 32-bit lanes.
#ifndef VRAMBENCH_COMMON_GLSL
#define VRAMBENCH_COMMON_GLSL

// Workgroup width, chosen per device at pipeline creation; always a power of two.
layout(constant_id = 0) const uint LOCAL_SIZE = 256;
layout(local_size_x_id = 0) in;

layout(push_constant, std430) uniform Push {
    uint count;       // elements (steps, for a chase) this dispatch covers
    uint dst_base;    // index of the dispatch's first element in each binding
    uint src1_base;
    uint src2_base;
    uvec2 first_lane; // lane number of the dispatch's first element within the operation
    uint scalar;
    uint seed;
    uint pattern;
    uint stride;      // elements between strided reads
    uint slot;        // first result slot this dispatch writes
    uint flags;       // chase: 1 on the chain's first dispatch; stream: FLAG_WHOLE_SET
    // gather, chase: counted in elements from the start of the first bound segment
    uvec2 chain_base;   // where src1.offset is
    uvec2 chain_limit;  // where src1's buffer ends
    uint segment_shift; // log2 of the elements in one segment
    uint passes;        // times each invocation walks its elements (0 and 1: once)
    // chase by device address (backends/vulkan/chase_links.hpp)
    uvec2 link_base;    // the first link's device address
    uvec2 link_trap;    // the trap's: the link after the last
    uint link_shift;    // a link lies at byte index << link_shift: 2 or 3
    uint reserved_;
} pc;

#ifndef WIDTH
#define WIDTH 1
#endif
#if WIDTH == 1
#define ELEM uint
#elif WIDTH == 2
#define ELEM uvec2
#elif WIDTH == 4
#define ELEM uvec4
#else
#error WIDTH must be 1, 2 or 4
#endif

uvec2 add64(uvec2 a, uint b)
{
    uint carry;
    uint lo = uaddCarry(a.x, b, carry);
    return uvec2(lo, a.y + carry);
}

uvec2 add64(uvec2 a, uvec2 b)
{
    uint carry;
    uint lo = uaddCarry(a.x, b.x, carry);
    return uvec2(lo, a.y + b.y + carry);
}

uvec2 sub64(uvec2 a, uvec2 b)
{
    uint borrow;
    uint lo = usubBorrow(a.x, b.x, borrow);
    return uvec2(lo, a.y - b.y - borrow);
}

bool less64(uvec2 a, uvec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }

// a >> s for 0 <= s < 32.
uvec2 shr64(uvec2 a, uint s)
{
    if (s == 0u) return a;
    return uvec2((a.x >> s) | (a.y << (32u - s)), a.y >> s);
}

// Adds every lane of v to a 64-bit total.
uvec2 add_lanes(uvec2 acc, ELEM v)
{
#if WIDTH == 1
    return add64(acc, v);
#elif WIDTH == 2
    return add64(add64(acc, v.x), v.y);
#else
    return add64(add64(add64(add64(acc, v.x), v.y), v.z), v.w);
#endif
}

// The lane sum of plugin.h's checksums without a 64-bit add per lane: over at most
// 65536 lanes, t = the lanes' sum modulo 2^32 and h = the sum of their high 16 bits
// (exact, below 2^32), one add and one shift-add per lane; flushing then adds the low
// halves' sum (t - h * 2^16, exact below 2^32) and h * 2^16 to a 64-bit total.
#define CHUNK_LANES 65536u
#define CHUNK_ELEMENTS (CHUNK_LANES / uint(WIDTH))

uvec2 chunk_add(uvec2 s, ELEM v)
{
#if WIDTH == 1
    return s + uvec2(v, v >> 16);
#elif WIDTH == 2
    return s + uvec2(v.x + v.y, (v.x >> 16) + (v.y >> 16));
#else
    uvec4 h = v >> 16;
    return s + uvec2(v.x + v.y + v.z + v.w, h.x + h.y + h.z + h.w);
#endif
}

uvec2 chunk_flush(uvec2 total, uvec2 s)
{
    return add64(add64(total, s.x - (s.y << 16)), uvec2(s.y << 16, s.y >> 16));
}

// The elements one invocation walks in a dispatch: walk_first, + walk_step ... below
// walk_end. On GPUs a grid stride: neighbouring invocations touch neighbouring elements
// at every step. CPU implementations run a workgroup on one core, so there each
// workgroup walks its own contiguous block, which the core's prefetchers follow.
// With FLAG_WHOLE_SET (a working set below one wave of the device), every workgroup
// walks all the elements instead, so every compute unit (CPU thread) works on the set.
#define FLAG_WHOLE_SET 2u
#ifdef CPU_TUNED
#define WALK_RANGE                                                                               \
    const bool walk_whole = (pc.flags & FLAG_WHOLE_SET) != 0u;                                   \
    const uint walk_block = walk_whole ? pc.count : (pc.count + gl_NumWorkGroups.x - 1u) / gl_NumWorkGroups.x; \
    const uint walk_origin = walk_whole ? 0u : gl_WorkGroupID.x * walk_block;                    \
    const uint walk_first = walk_origin + gl_LocalInvocationID.x;                                \
    const uint walk_end = min(walk_origin + walk_block, pc.count);                               \
    const uint walk_step = LOCAL_SIZE;                                                           \
    const uint walk_passes = max(pc.passes, 1u)
#else
#define WALK_RANGE                                                                               \
    const bool walk_whole = (pc.flags & FLAG_WHOLE_SET) != 0u;                                   \
    const uint walk_first = walk_whole ? gl_LocalInvocationID.x : gl_GlobalInvocationID.x;       \
    const uint walk_end = pc.count;                                                              \
    const uint walk_step = walk_whole ? LOCAL_SIZE : gl_NumWorkGroups.x * LOCAL_SIZE;            \
    const uint walk_passes = max(pc.passes, 1u)
#endif

// Every pass walks the same elements: a small working set is timed in the shader's
// loop over a cache, not over dispatches (a dispatch costs microseconds, a pass over
// an L1-sized slice nanoseconds).
#define FOR_EACH_PASS(p) for (uint p = 0u; p < walk_passes; ++p)
#define FOR_EACH_ELEMENT(i) for (uint i = walk_first; i < walk_end; i += walk_step)
// Where a pass of a reading shader starts. On a GPU a set shared out among the
// workgroups would otherwise be re-read by each workgroup from its own unit's L1, and the
// L1s together (132 x 256 KiB on an H200) would pass for an L2: so each pass moves every
// workgroup's share on by ROTATION_GROUPS workgroups, and what a unit read last pass is
// another unit's this one. Eight, not one: where consecutive workgroups go to different
// dies with L2s of their own (MI300X's eight XCDs), the share stays on its die's L2.
// A set walked whole by every workgroup, or on a CPU implementation, is not moved.
#define ROTATION_GROUPS 8u
#ifdef CPU_TUNED
#define PASS_FIRST(p) walk_first
#else
#define PASS_FIRST(p)                                                                            \
    (walk_whole ? walk_first                                                                     \
                : ((gl_WorkGroupID.x + (p) * ROTATION_GROUPS) % gl_NumWorkGroups.x) * LOCAL_SIZE + \
                      gl_LocalInvocationID.x)
#endif
// The walk in chunks of at most CHUNK_ELEMENTS, for chunk_add and chunk_flush:
//   FOR_EACH_CHUNK(i) { uvec2 s = uvec2(0u); FOR_EACH_IN_CHUNK(i) s = chunk_add(s, ..); total = chunk_flush(total, s); }
#define FOR_EACH_CHUNK_FROM(i, first) for (uint i = (first); i < walk_end;)
#define FOR_EACH_CHUNK(i) FOR_EACH_CHUNK_FROM(i, walk_first)
#define FOR_EACH_IN_CHUNK(i)                                                                   \
    for (uint n_ = min(CHUNK_ELEMENTS, (walk_end - i - 1u) / walk_step + 1u); n_ > 0u; --n_, i += walk_step)

#endif
