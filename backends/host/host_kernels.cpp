#include "host_kernels.hpp"

#include <vrambench/pattern.h>

#include <cstring>

namespace vrb::host {

// ------------------------------------------------------------ portable

uint64_t sum_portable(const uint32_t *src, uint64_t n)
{
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    uint64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += src[i];
        s1 += src[i + 1];
        s2 += src[i + 2];
        s3 += src[i + 3];
    }
    for (; i < n; ++i)
        s0 += src[i];
    return s0 + s1 + s2 + s3;
}

uint64_t dot_portable(const uint32_t *a, const uint32_t *b, uint64_t n)
{
    uint64_t s = 0;
    for (uint64_t i = 0; i < n; ++i)
        s += static_cast<uint32_t>(a[i] * b[i]);
    return s;
}

void copy_portable(uint32_t *dst, const uint32_t *src, uint64_t n, bool)
{
    std::memcpy(dst, src, n * 4);
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

void random_portable(uint32_t *dst, uint64_t first, uint32_t seed, uint64_t n, bool)
{
    for (uint64_t i = 0; i < n; ++i)
        dst[i] = vrb_pattern_random(first + i, seed);
}

namespace {
const Kernels portable{sum_portable, dot_portable,   copy_portable,   scale_portable,
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
