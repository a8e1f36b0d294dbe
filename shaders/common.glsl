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
    uint flags;       // chase: 1 on the chain's first dispatch
    // gather, chase: counted in elements from the start of the first bound segment
    uvec2 chain_base;   // where src1.offset is
    uvec2 chain_limit;  // where src1's buffer ends
    uint segment_shift; // log2 of the elements in one segment
    uint reserved;
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

// The loop over a dispatch's elements. On GPUs a grid-stride loop: neighbouring
// invocations touch neighbouring elements at every step. CPU implementations run a
// workgroup on one core, so there each workgroup walks its own contiguous block, which
// the core's prefetchers follow.
#ifdef CPU_TUNED
#define FOR_EACH_ELEMENT(i)                                                                   \
    uint block_ = (pc.count + gl_NumWorkGroups.x - 1u) / gl_NumWorkGroups.x;                \
    uint end_ = min(gl_WorkGroupID.x * block_ + block_, pc.count);                           \
    for (uint i = gl_WorkGroupID.x * block_ + gl_LocalInvocationID.x; i < end_; i += LOCAL_SIZE)
#else
#define FOR_EACH_ELEMENT(i) for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += gl_NumWorkGroups.x * LOCAL_SIZE)
#endif

#endif
