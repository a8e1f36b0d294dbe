#include "host_kernels.hpp"

#include <cstring>

namespace vrb::host {

// ------------------------------------------------------------ portable

RandomBlock::RandomBlock(uint32_t seed)
{
    for (uint32_t j = 0; j < 2 * VRB_PATTERN_BLOCK_LANES; ++j)
        lanes[j] = vrb_pattern_block_lane(j % VRB_PATTERN_BLOCK_LANES, seed);
}

uint32_t fold_portable(const uint32_t *src, uint64_t n, uint32_t passes, bool)
{
    uint32_t x = 0;
    for (uint32_t p = 0; p < passes; ++p) {
        for (uint64_t i = 0; i < n; ++i)
            x ^= src[i];
        between_passes();
    }
    return x;
}

uint64_t sum_portable(const uint32_t *src, uint64_t n, bool)
{
    PairSums s;
    uint64_t i = 0;
    for (; i + 2 <= n; i += 2) {
        uint64_t w;
        std::memcpy(&w, src + i, sizeof w);
        s.words += w;
        s.highs += w >> 32;
    }
    return lane_sum(s) + (i < n ? src[i] : 0);
}

uint64_t dot_portable(const uint32_t *a, const uint32_t *b, uint64_t n)
{
    uint64_t s = 0;
    for (uint64_t i = 0; i < n; ++i)
        s += static_cast<uint32_t>(a[i] * b[i]);
    return s;
}

void copy_portable(uint32_t *dst, const uint32_t *src, uint64_t n, bool, uint32_t passes)
{
    for (uint32_t p = 0; p < passes; ++p) {
        std::memcpy(dst, src, n * 4);
        between_passes();
    }
}

void scale_portable(uint32_t *dst, const uint32_t *src, uint32_t s, uint64_t n, bool)
{
    for (uint64_t i = 0; i < n; ++i)
        dst[i] = s * src[i];
}

void add_portable(uint32_t *dst, const uint32_t *a, const uint32_t *b, uint64_t n, bool)
{
    for (uint64_t i = 0; i < n; ++i)
        dst[i] = a[i] + b[i];
}

void triad_portable(uint32_t *dst, const uint32_t *a, const uint32_t *b, uint32_t s, uint64_t n, bool)
{
    for (uint64_t i = 0; i < n; ++i)
        dst[i] = a[i] + s * b[i];
}

void random_portable(uint32_t *dst, uint64_t first, const RandomBlock &block, uint64_t n, bool, uint32_t passes)
{
    for (uint32_t p = 0; p < passes; ++p) {
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t lane = first + i;
            dst[i] =
                block.lanes[lane % VRB_PATTERN_BLOCK_LANES] ^ vrb_pattern_whitening(lane >> VRB_PATTERN_BLOCK_SHIFT);
        }
        between_passes();
    }
}

namespace {
const Kernels portable{sum_portable, fold_portable,  dot_portable,    copy_portable, scale_portable,
                       add_portable, triad_portable, random_portable, "portable"};

} // namespace

const Kernels &portable_kernels()
{
    return portable;
}

const Kernels &kernels()
{
#if defined(__x86_64__)
    static const bool has_avx2 = __builtin_cpu_supports("avx2");
    if (has_avx2) return avx2_kernels();
#endif
    return portable;
}

} // namespace vrb::host
