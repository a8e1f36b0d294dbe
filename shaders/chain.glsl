// Reading element p of an operand that may span several buffer segments (GATHER's
// source, CHASE's chain): every segment is bound as one element of an array binding,
// and p splits into a segment and an index inside it. How the array is indexed depends
// on what the device allows:
//   CHAIN_SINGLE      the operand lies in one segment: always element 0
//   CHAIN_NONUNIFORM  any index per invocation (descriptor indexing's non-uniform feature)
//   CHAIN_UNIFORM     one index for the whole dispatch (CHASE runs one invocation)
//   otherwise         a switch, so each access names its segment by a constant
#ifndef VRAMBENCH_CHAIN_GLSL
#define VRAMBENCH_CHAIN_GLSL

#ifdef CHAIN_NONUNIFORM
#extension GL_EXT_nonuniform_qualifier : require
#endif

// Must match kChainSegmentSlots in backends/vulkan/push_constants.hpp.
#define CHAIN_SEGMENT_SLOTS 16

layout(std430, binding = 2) readonly buffer Chain { ELEM data[]; } chain[CHAIN_SEGMENT_SLOTS];

#define CHAIN_CASE(n) case n: return chain[n].data[local];

ELEM chain_load(uvec2 p)
{
    uint segment = shr64(p, pc.segment_shift).x;
    uint local = p.x & ((1u << pc.segment_shift) - 1u);
#if defined(CHAIN_SINGLE)
    return chain[0].data[local];
#elif defined(CHAIN_NONUNIFORM)
    return chain[nonuniformEXT(segment)].data[local];
#elif defined(CHAIN_UNIFORM)
    return chain[segment].data[local];
#else
    switch (segment) {
    CHAIN_CASE(0) CHAIN_CASE(1) CHAIN_CASE(2) CHAIN_CASE(3)
    CHAIN_CASE(4) CHAIN_CASE(5) CHAIN_CASE(6) CHAIN_CASE(7)
    CHAIN_CASE(8) CHAIN_CASE(9) CHAIN_CASE(10) CHAIN_CASE(11)
    CHAIN_CASE(12) CHAIN_CASE(13) CHAIN_CASE(14)
    default: return chain[15].data[local];
    }
#endif
}

#endif
