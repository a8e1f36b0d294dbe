/*
 * The data every backend writes and every check expects, defined once.
 *
 * A buffer is a sequence of 32-bit lanes; lane i of a pattern depends only on the
 * pattern, i and a seed, so a device can fill or check any range by itself and the
 * host can recompute any lane without reading the rest. Plain C, usable from C++,
 * CUDA and HIP (define VRB_PATTERN_FN to add __host__ __device__); the GLSL shaders
 * carry the same formulas in shaders/pattern.glsl, pinned by the conformance tests.
 */
#ifndef VRAMBENCH_PATTERN_H
#define VRAMBENCH_PATTERN_H

#include <stdint.h>

#ifndef VRB_PATTERN_FN
#define VRB_PATTERN_FN static inline
#endif

typedef enum vrb_pattern_kind {
    VRB_PATTERN_ZEROS = 0,
    VRB_PATTERN_ONES = 1,
    VRB_PATTERN_WALKING_ONES = 2,
    VRB_PATTERN_ADDRESS = 3, /* the lane's own index, so a misdirected write shows */
    VRB_PATTERN_RANDOM = 4   /* incompressible: no memory compression can shrink it */
} vrb_pattern_kind;

#define VRB_PATTERN_COUNT 5

/* A 32-bit mixer (xorshift-multiply finaliser) over the lane index and the seed. */
VRB_PATTERN_FN uint32_t vrb_pattern_random(uint64_t lane, uint32_t seed)
{
    uint32_t h = (uint32_t)lane * 0x9e3779b1u + (uint32_t)(lane >> 32) * 0x85ebca77u + seed;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

VRB_PATTERN_FN uint32_t vrb_pattern(uint32_t pattern, uint64_t lane, uint32_t seed)
{
    switch (pattern) {
    case VRB_PATTERN_ZEROS: return 0u;
    case VRB_PATTERN_ONES: return 0xffffffffu;
    case VRB_PATTERN_WALKING_ONES: return 1u << (uint32_t)(lane & 31u);
    case VRB_PATTERN_ADDRESS: return (uint32_t)lane ^ (uint32_t)(lane >> 32);
    default: return vrb_pattern_random(lane, seed);
    }
}

#endif /* VRAMBENCH_PATTERN_H */
