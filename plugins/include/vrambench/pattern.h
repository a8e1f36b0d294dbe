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

/*
 * Version of the data this header defines and of the checksums plugin.h defines over
 * it; result sets carry it, so figures and answers from different versions are never
 * mistaken for each other. 2: the random pattern is a whitened block (below) of 256
 * lanes; 3: of 64 lanes.
 */
#define VRB_PATTERN_VERSION 3

/*
 * The random pattern is a block of VRB_PATTERN_BLOCK_LANES random lanes, the same for
 * every block of a buffer, each block XORed with its own whitening word:
 *
 *   lane = block * VRB_PATTERN_BLOCK_LANES + j
 *   vrb_pattern_random(lane, seed) = vrb_pattern_block_lane(j, seed) ^ vrb_pattern_whitening(block)
 *
 * A writer computes the block once (a table on a CPU, or eight 256-bit registers, so
 * that a store needs no load; one word per thread on a GPU, whose grid strides by a
 * multiple of the block) and pays one XOR per lane plus one whitening word per block or
 * element, where a hash per lane would hide the memory's speed behind the ALUs. It
 * stays incompressible: the block is random, so neither of its two 128-byte lines
 * repeats the other or is constant, and the whitening word is a bijection of the block
 * number below 2^32 blocks (1 TiB), so the same line in two blocks differs too.
 */
#define VRB_PATTERN_BLOCK_LANES 64u
#define VRB_PATTERN_BLOCK_SHIFT 6u

/* A 32-bit mixer (xorshift-multiply finaliser) over a lane's place in the block and the seed. */
VRB_PATTERN_FN uint32_t vrb_pattern_block_lane(uint32_t j, uint32_t seed)
{
    uint32_t h = j * 0x9e3779b1u + seed;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

/* The word that whitens block `block`: odd multipliers, so distinct below 2^32 blocks. */
VRB_PATTERN_FN uint32_t vrb_pattern_whitening(uint64_t block)
{
    return (uint32_t)block * 0x9e3779b1u + (uint32_t)(block >> 32) * 0x85ebca77u;
}

VRB_PATTERN_FN uint32_t vrb_pattern_random(uint64_t lane, uint32_t seed)
{
    return vrb_pattern_block_lane((uint32_t)lane & (VRB_PATTERN_BLOCK_LANES - 1u), seed) ^
           vrb_pattern_whitening(lane >> VRB_PATTERN_BLOCK_SHIFT);
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
