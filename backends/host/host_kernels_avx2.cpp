// The AVX2 kernels. This file alone is compiled with -mavx2, and kernels() hands
// these out only on a CPU that has AVX2. It uses no standard-library templates, whose
// AVX2 instantiations the linker could otherwise pick for the baseline code.
#include "host_kernels.hpp"

#include <immintrin.h>

namespace vrb::host {

namespace {

// ------------------------------------------------------------ AVX2
//
// Written with intrinsics because the two things that decide memory bandwidth here are
// not expressible in portable C++: non-temporal stores (no read-for-ownership of the
// destination, no cache pollution) and 256-bit loads independent of the baseline ISA.
// Every kernel peels lanes until the destination is 32-byte aligned, as streaming
// stores require, and finishes the tail with the portable code.

inline __m256i widen_add(__m256i acc, __m256i v)
{
    acc = _mm256_add_epi64(acc, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(v)));
    return _mm256_add_epi64(acc, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(v, 1)));
}

inline uint64_t horizontal(__m256i a, __m256i b, __m256i c, __m256i d)
{
    alignas(32) uint64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i *>(lanes),
                       _mm256_add_epi64(_mm256_add_epi64(a, b), _mm256_add_epi64(c, d)));
    return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

uint64_t sum_avx2(const uint32_t *src, uint64_t n)
{
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    uint64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const auto *p = reinterpret_cast<const __m256i *>(src + i);
        a0 = widen_add(a0, _mm256_loadu_si256(p));
        a1 = widen_add(a1, _mm256_loadu_si256(p + 1));
        a2 = widen_add(a2, _mm256_loadu_si256(p + 2));
        a3 = widen_add(a3, _mm256_loadu_si256(p + 3));
    }
    return horizontal(a0, a1, a2, a3) + sum_portable(src + i, n - i);
}

uint64_t dot_avx2(const uint32_t *a, const uint32_t *b, uint64_t n)
{
    __m256i s0 = _mm256_setzero_si256(), s1 = s0, s2 = s0, s3 = s0;
    uint64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const auto *p = reinterpret_cast<const __m256i *>(a + i);
        const auto *q = reinterpret_cast<const __m256i *>(b + i);
        s0 = widen_add(s0, _mm256_mullo_epi32(_mm256_loadu_si256(p), _mm256_loadu_si256(q)));
        s1 = widen_add(s1, _mm256_mullo_epi32(_mm256_loadu_si256(p + 1), _mm256_loadu_si256(q + 1)));
        s2 = widen_add(s2, _mm256_mullo_epi32(_mm256_loadu_si256(p + 2), _mm256_loadu_si256(q + 2)));
        s3 = widen_add(s3, _mm256_mullo_epi32(_mm256_loadu_si256(p + 3), _mm256_loadu_si256(q + 3)));
    }
    return horizontal(s0, s1, s2, s3) + dot_portable(a + i, b + i, n - i);
}

// Lanes to peel before dst is 32-byte aligned (lanes are 4-byte aligned always).
inline uint64_t head_lanes(const uint32_t *dst, uint64_t n)
{
    const uint64_t misalign = (reinterpret_cast<uintptr_t>(dst) & 31) / 4;
    const uint64_t head = misalign ? 8 - misalign : 0;
    return head < n ? head : n;
}

// One loop for every elementwise kernel: `make(i)` yields the vector for lanes i..i+7.
template <bool Streaming, typename Make> inline void store_loop(uint32_t *dst, uint64_t n, Make make)
{
    uint64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256i v0 = make(i), v1 = make(i + 8);
        auto *d = reinterpret_cast<__m256i *>(dst + i);
        if constexpr (Streaming) {
            _mm256_stream_si256(d, v0);
            _mm256_stream_si256(d + 1, v1);
        } else {
            _mm256_store_si256(d, v0);
            _mm256_store_si256(d + 1, v1);
        }
    }
    for (; i + 8 <= n; i += 8)
        _mm256_store_si256(reinterpret_cast<__m256i *>(dst + i), make(i));
}

template <typename Body, typename Tail>
inline void elementwise(uint32_t *dst, uint64_t n, bool streaming, Body body, Tail tail)
{
    const uint64_t head = head_lanes(dst, n);
    tail(0, head);
    const uint64_t body_lanes = (n - head) / 8 * 8;
    auto make = [&](uint64_t i) { return body(head + i); };
    if (streaming)
        store_loop<true>(dst + head, body_lanes, make);
    else
        store_loop<false>(dst + head, body_lanes, make);
    tail(head + body_lanes, n - head - body_lanes);
    if (streaming) _mm_sfence(); // streaming stores are weakly ordered: publish before the run ends
}

void copy_avx2(uint32_t *dst, const uint32_t *src, uint64_t n, bool streaming)
{
    elementwise(
        dst, n, streaming, [&](uint64_t i) { return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i)); },
        [&](uint64_t at, uint64_t k) { copy_portable(dst + at, src + at, k, false); });
}

void scale_avx2(uint32_t *dst, const uint32_t *src, uint32_t s, uint64_t n, bool streaming)
{
    const __m256i vs = _mm256_set1_epi32(static_cast<int>(s));
    elementwise(
        dst, n, streaming,
        [&](uint64_t i) {
            return _mm256_mullo_epi32(vs, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i)));
        },
        [&](uint64_t at, uint64_t k) { scale_portable(dst + at, src + at, s, k, false); });
}

void add_avx2(uint32_t *dst, const uint32_t *a, const uint32_t *b, uint64_t n, bool streaming)
{
    elementwise(
        dst, n, streaming,
        [&](uint64_t i) {
            return _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(a + i)),
                                    _mm256_loadu_si256(reinterpret_cast<const __m256i *>(b + i)));
        },
        [&](uint64_t at, uint64_t k) { add_portable(dst + at, a + at, b + at, k, false); });
}

void triad_avx2(uint32_t *dst, const uint32_t *a, const uint32_t *b, uint32_t s, uint64_t n, bool streaming)
{
    const __m256i vs = _mm256_set1_epi32(static_cast<int>(s));
    elementwise(
        dst, n, streaming,
        [&](uint64_t i) {
            return _mm256_add_epi32(
                _mm256_loadu_si256(reinterpret_cast<const __m256i *>(a + i)),
                _mm256_mullo_epi32(vs, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(b + i))));
        },
        [&](uint64_t at, uint64_t k) { triad_portable(dst + at, a + at, b + at, s, k, false); });
}

// vrb_pattern_random on eight lanes; the caller keeps the high half of the lane index
// constant over a call (ranges are split at multiples of 2^32).
inline __m256i random8(uint32_t lo, __m256i offsets, __m256i base_mix)
{
    const __m256i lane = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(lo)), offsets);
    __m256i h = _mm256_add_epi32(_mm256_mullo_epi32(lane, _mm256_set1_epi32(static_cast<int>(0x9e3779b1u))), base_mix);
    h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 16));
    h = _mm256_mullo_epi32(h, _mm256_set1_epi32(0x7feb352d));
    h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 15));
    h = _mm256_mullo_epi32(h, _mm256_set1_epi32(static_cast<int>(0x846ca68bu)));
    return _mm256_xor_si256(h, _mm256_srli_epi32(h, 16));
}

void random_avx2(uint32_t *dst, uint64_t first, uint32_t seed, uint64_t n, bool streaming)
{
    const __m256i offsets = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    while (n > 0) {
        // Keep lane >> 32 fixed inside one segment.
        const uint64_t to_boundary = (uint64_t{1} << 32) - (first & 0xffffffffu);
        const uint64_t k = n < to_boundary ? n : to_boundary;
        const uint32_t hi = static_cast<uint32_t>(first >> 32);
        const __m256i base_mix = _mm256_set1_epi32(static_cast<int>(hi * 0x85ebca77u + seed));
        const uint64_t start = first;
        elementwise(
            dst, k, streaming, [&](uint64_t i) { return random8(static_cast<uint32_t>(start + i), offsets, base_mix); },
            [&](uint64_t at, uint64_t m) { random_portable(dst + at, start + at, seed, m, false); });
        dst += k;
        first += k;
        n -= k;
    }
}

} // namespace

const Kernels &avx2_kernels()
{
    static const Kernels avx2{sum_avx2, dot_avx2, copy_avx2, scale_avx2, add_avx2, triad_avx2, random_avx2, "avx2"};
    return avx2;
}

} // namespace vrb::host
