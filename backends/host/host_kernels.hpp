// The host's stream kernels over 32-bit lanes, as plugin.h defines the vocabulary.
// Each works on a range of lanes and is called by one worker for its share.
#pragma once

#include <cstdint>

namespace vrb::host {

struct Kernels {
    uint64_t (*sum)(const uint32_t *src, uint64_t lanes);
    uint64_t (*dot)(const uint32_t *a, const uint32_t *b, uint64_t lanes);
    // Stores: streaming = non-temporal (bypass the caches) for arrays past the caches.
    void (*copy)(uint32_t *dst, const uint32_t *src, uint64_t lanes, bool streaming);
    void (*scale)(uint32_t *dst, const uint32_t *src, uint32_t s, uint64_t lanes, bool streaming);
    void (*add)(uint32_t *dst, const uint32_t *a, const uint32_t *b, uint64_t lanes, bool streaming);
    void (*triad)(uint32_t *dst, const uint32_t *a, const uint32_t *b, uint32_t s, uint64_t lanes, bool streaming);
    // dst[i] = vrb_pattern_random(first_lane + i, seed)
    void (*random)(uint32_t *dst, uint64_t first_lane, uint32_t seed, uint64_t lanes, bool streaming);
    const char *name;
};

// The fastest set this CPU supports (AVX2 where present, portable C++ otherwise).
const Kernels &kernels();
const Kernels &portable_kernels();
const Kernels &avx2_kernels(); // only on x86-64 CPUs with AVX2

// The portable kernels, also used for the ends of ranges the vector code leaves.
uint64_t sum_portable(const uint32_t *src, uint64_t lanes);
uint64_t dot_portable(const uint32_t *a, const uint32_t *b, uint64_t lanes);
void copy_portable(uint32_t *dst, const uint32_t *src, uint64_t lanes, bool streaming);
void scale_portable(uint32_t *dst, const uint32_t *src, uint32_t s, uint64_t lanes, bool streaming);
void add_portable(uint32_t *dst, const uint32_t *a, const uint32_t *b, uint64_t lanes, bool streaming);
void triad_portable(uint32_t *dst, const uint32_t *a, const uint32_t *b, uint32_t s, uint64_t lanes, bool streaming);
void random_portable(uint32_t *dst, uint64_t first_lane, uint32_t seed, uint64_t lanes, bool streaming);

} // namespace vrb::host
