// The host's stream kernels over 32-bit lanes, as plugin.h defines the vocabulary.
// Each works on a range of lanes and is called by one worker for its share.
#pragma once

#include <vrambench/pattern.h>

#include <cstdint>

namespace vrb::host {

// The random pattern's block for one seed (pattern.h), twice over, so that the eight
// lanes from any place j < 256 in it are read with one load: writers XOR it with each
// block's whitening word instead of hashing every lane.
struct RandomBlock {
    alignas(64) uint32_t lanes[2 * VRB_PATTERN_BLOCK_LANES];
    explicit RandomBlock(uint32_t seed);
};

// Lane sums without widening every lane: the lanes are read as 64-bit words (low lane
// plus 2^32 times high lane) and summed, beside a sum of the high lanes alone; the lane
// sum modulo 2^64 follows from the two (plugin.h's checksum).
struct PairSums {
    uint64_t words = 0; // sum of (low + 2^32 * high), modulo 2^64
    uint64_t highs = 0; // sum of high lanes, modulo 2^64
};
inline uint64_t lane_sum(PairSums s)
{
    return s.words + s.highs - (s.highs << 32);
}

// fold, copy and random, the sweep's operations, make `passes` passes in one call: a
// sweep's smallest share is a few hundred vectors per worker, where a call, its setup and
// its reduction per pass cost as much as the pass. Every pass loads and stores again.
struct Kernels {
    // `past_caches`: the operation's arrays lie past the last-level cache, where a core's
    // misses in flight bound one stream; READ then walks several a core (host_kernels_avx2.cpp).
    uint64_t (*sum)(const uint32_t *src, uint64_t lanes, bool past_caches);
    // Every lane loaded and XORed together, `passes` times over: the cheapest use of
    // loaded data a compiler cannot drop. READ's passes before its last sum (docs/probes.md):
    // the exact sum costs three vector operations per load, more than a core's ALUs can
    // pair with its load ports in L1.
    uint32_t (*fold)(const uint32_t *src, uint64_t lanes, uint32_t passes, bool past_caches);
    uint64_t (*dot)(const uint32_t *a, const uint32_t *b, uint64_t lanes);
    // Stores: streaming = non-temporal (bypass the caches) for arrays past the caches.
    void (*copy)(uint32_t *dst, const uint32_t *src, uint64_t lanes, bool streaming, uint32_t passes);
    void (*scale)(uint32_t *dst, const uint32_t *src, uint32_t s, uint64_t lanes, bool streaming);
    void (*add)(uint32_t *dst, const uint32_t *a, const uint32_t *b, uint64_t lanes, bool streaming);
    void (*triad)(uint32_t *dst, const uint32_t *a, const uint32_t *b, uint32_t s, uint64_t lanes, bool streaming);
    // dst[i] = vrb_pattern_random(first_lane + i, seed), `block` made for that seed
    void (*random)(uint32_t *dst, uint64_t first_lane, const RandomBlock &block, uint64_t lanes, bool streaming,
                   uint32_t passes);
    const char *name;
};

// The fastest set this CPU supports (AVX2 where present, portable C++ otherwise).
const Kernels &kernels();
const Kernels &portable_kernels();
const Kernels &avx2_kernels(); // only on x86-64 CPUs with AVX2

// The portable kernels, also used for the ends of ranges the vector code leaves.
uint64_t sum_portable(const uint32_t *src, uint64_t lanes, bool past_caches = false);
uint32_t fold_portable(const uint32_t *src, uint64_t lanes, uint32_t passes, bool past_caches = false);
uint64_t dot_portable(const uint32_t *a, const uint32_t *b, uint64_t lanes);
void copy_portable(uint32_t *dst, const uint32_t *src, uint64_t lanes, bool streaming, uint32_t passes);
void scale_portable(uint32_t *dst, const uint32_t *src, uint32_t s, uint64_t lanes, bool streaming);
void add_portable(uint32_t *dst, const uint32_t *a, const uint32_t *b, uint64_t lanes, bool streaming);
void triad_portable(uint32_t *dst, const uint32_t *a, const uint32_t *b, uint32_t s, uint64_t lanes, bool streaming);
void random_portable(uint32_t *dst, uint64_t first_lane, const RandomBlock &block, uint64_t lanes, bool streaming,
                     uint32_t passes);

// Between two passes of one call: the compiler may neither reuse a pass's loads in the
// next nor drop a pass's stores as overwritten by the next.
inline void between_passes()
{
    asm volatile("" ::: "memory");
}

} // namespace vrb::host
