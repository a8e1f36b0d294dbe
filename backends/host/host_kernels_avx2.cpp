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

// The lane sum of pattern.h's checksum at the cost of three vector operations per
// eight lanes: the 64-bit words and their high halves, added as they are (PairSums).
struct PairAccumulator {
    __m256i words = _mm256_setzero_si256();
    __m256i highs = _mm256_setzero_si256();
    void add(__m256i v)
    {
        words = _mm256_add_epi64(words, v);
        highs = _mm256_add_epi64(highs, _mm256_srli_epi64(v, 32));
    }
};

inline uint64_t horizontal(__m256i v)
{
    alignas(32) uint64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i *>(lanes), v);
    return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

inline uint64_t lane_sum_of(const PairAccumulator &a, const PairAccumulator &b, const PairAccumulator &c,
                            const PairAccumulator &d)
{
    const __m256i words = _mm256_add_epi64(_mm256_add_epi64(a.words, b.words), _mm256_add_epi64(c.words, d.words));
    const __m256i highs = _mm256_add_epi64(_mm256_add_epi64(a.highs, b.highs), _mm256_add_epi64(c.highs, d.highs));
    return lane_sum({horizontal(words), horizontal(highs)});
}

// A loaded vector the compiler must keep in a register. Without it GCC folds the add
// into a second load of the same address (vpaddq mem) beside the one the shift uses:
// three loads for two vectors, and the load ports, not the adds, set the pace in L1.
inline __m256i held(const __m256i *p)
{
    __m256i v = _mm256_loadu_si256(p);
    asm("" : "+x"(v));
    return v;
}

// READ's walk: a range is cut into blocks of kStreams runs of kRunLanes each (the last,
// shorter block into kStreams equal runs), and a block's runs are walked side by side, a
// cache line of each at a time, each run into accumulators of its own. One sequential
// stream a core is bound by the misses that core keeps in flight and by the prefetcher
// restarting at every 4 KiB page: with four streams a Xeon core read 1.3 times as fast.
// The runs stay within one block because four runs a quarter of the range apart (64 MiB
// on a 512 MiB read by two cores) share their address bits below that and collide in
// DRAM: on a Zen 4 VM those ran at 0.6-0.85 of one stream, where 256 KiB runs ran at
// 0.8-1.0 of it (25 rounds each, alternated, two cores). Only past the caches: within
// them a core's misses are short and its prefetcher serves one stream best (the Zen 4
// VM's 8 MiB sweep point read at 173 GB/s in one stream, 152 in blocks, 8 rounds
// alternated). The sum and the XOR are the same in any order, so the answer is the
// one-stream answer.
constexpr uint64_t kStreams = 4;
constexpr uint64_t kLineLanes = 16;             // one cache line, two vectors
constexpr uint64_t kRunLanes = (256 << 10) / 4; // 256 KiB

// Lanes in each of the kStreams runs of a last block of n lanes; what is left after them
// is walked as one stream.
inline uint64_t run_lanes(uint64_t n)
{
    return n / (kStreams * kLineLanes) * kLineLanes;
}

// The runs of each block, in order: run(first lane, lanes in each of its kStreams runs).
template <typename Run> inline uint64_t for_each_block(uint64_t n, Run run)
{
    uint64_t at = 0;
    for (; n - at >= kStreams * kRunLanes; at += kStreams * kRunLanes)
        run(at, kRunLanes);
    const uint64_t last = run_lanes(n - at);
    run(at, last);
    return at + kStreams * last; // lanes the blocks covered
}

// Four cache lines at a time, line(p0, p1, p2, p3), each pointing at a line's two vectors:
// past the caches a line of each of a block's kStreams runs, side by side; within them
// four lines in a row, one stream. Returns the lanes covered.
template <typename Line> inline uint64_t for_each_line(const uint32_t *src, uint64_t n, bool past_caches, Line line)
{
    if (!past_caches) {
        uint64_t i = 0;
        for (; n - i >= kStreams * kLineLanes; i += kStreams * kLineLanes) {
            const auto *p = reinterpret_cast<const __m256i *>(src + i);
            line(p, p + 2, p + 4, p + 6);
        }
        return i;
    }
    return for_each_block(n, [&](uint64_t at, uint64_t run) {
        const uint32_t *s0 = src + at, *s1 = s0 + run, *s2 = s1 + run, *s3 = s2 + run;
        for (uint64_t j = 0; j < run; j += kLineLanes)
            line(reinterpret_cast<const __m256i *>(s0 + j), reinterpret_cast<const __m256i *>(s1 + j),
                 reinterpret_cast<const __m256i *>(s2 + j), reinterpret_cast<const __m256i *>(s3 + j));
    });
}

uint64_t sum_avx2(const uint32_t *src, uint64_t n, bool past_caches)
{
    // One accumulator per run: no add waits on another run's.
    PairAccumulator a0, a1, a2, a3;
    uint64_t i = for_each_line(src, n, past_caches,
                               [&](const __m256i *p0, const __m256i *p1, const __m256i *p2, const __m256i *p3) {
                                   a0.add(held(p0));
                                   a1.add(held(p1));
                                   a2.add(held(p2));
                                   a3.add(held(p3));
                                   a0.add(held(p0 + 1));
                                   a1.add(held(p1 + 1));
                                   a2.add(held(p2 + 1));
                                   a3.add(held(p3 + 1));
                               });
    for (; i + 8 <= n; i += 8)
        a0.add(held(reinterpret_cast<const __m256i *>(src + i)));
    return lane_sum_of(a0, a1, a2, a3) + sum_portable(src + i, n - i);
}

uint32_t fold_avx2(const uint32_t *src, uint64_t n, uint32_t passes, bool past_caches)
{
    // The accumulators live through every pass and are reduced once.
    __m256i x0 = _mm256_setzero_si256(), x1 = x0, x2 = x0, x3 = x0;
    uint64_t body = 0;
    for (uint32_t pass = 0; pass < passes; ++pass) {
        uint64_t i = for_each_line(src, n, past_caches,
                                   [&](const __m256i *p0, const __m256i *p1, const __m256i *p2, const __m256i *p3) {
                                       x0 = _mm256_xor_si256(x0, _mm256_loadu_si256(p0));
                                       x1 = _mm256_xor_si256(x1, _mm256_loadu_si256(p1));
                                       x2 = _mm256_xor_si256(x2, _mm256_loadu_si256(p2));
                                       x3 = _mm256_xor_si256(x3, _mm256_loadu_si256(p3));
                                       x0 = _mm256_xor_si256(x0, _mm256_loadu_si256(p0 + 1));
                                       x1 = _mm256_xor_si256(x1, _mm256_loadu_si256(p1 + 1));
                                       x2 = _mm256_xor_si256(x2, _mm256_loadu_si256(p2 + 1));
                                       x3 = _mm256_xor_si256(x3, _mm256_loadu_si256(p3 + 1));
                                   });
        for (; i + 8 <= n; i += 8)
            x0 = _mm256_xor_si256(x0, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i)));
        body = i;
        between_passes();
    }
    const __m256i x = _mm256_xor_si256(_mm256_xor_si256(x0, x1), _mm256_xor_si256(x2, x3));
    alignas(32) uint32_t lanes[8];
    _mm256_store_si256(reinterpret_cast<__m256i *>(lanes), x);
    uint32_t out = fold_portable(src + body, n - body, passes);
    for (uint32_t lane : lanes)
        out ^= lane;
    return out;
}

uint64_t dot_avx2(const uint32_t *a, const uint32_t *b, uint64_t n)
{
    PairAccumulator s0, s1, s2, s3;
    uint64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const auto *p = reinterpret_cast<const __m256i *>(a + i);
        const auto *q = reinterpret_cast<const __m256i *>(b + i);
        s0.add(_mm256_mullo_epi32(_mm256_loadu_si256(p), _mm256_loadu_si256(q)));
        s1.add(_mm256_mullo_epi32(_mm256_loadu_si256(p + 1), _mm256_loadu_si256(q + 1)));
        s2.add(_mm256_mullo_epi32(_mm256_loadu_si256(p + 2), _mm256_loadu_si256(q + 2)));
        s3.add(_mm256_mullo_epi32(_mm256_loadu_si256(p + 3), _mm256_loadu_si256(q + 3)));
    }
    return lane_sum_of(s0, s1, s2, s3) + dot_portable(a + i, b + i, n - i);
}

// Lanes to peel before dst is 32-byte aligned (lanes are 4-byte aligned always).
inline uint64_t head_lanes(const uint32_t *dst, uint64_t n)
{
    const uint64_t misalign = (reinterpret_cast<uintptr_t>(dst) & 31) / 4;
    const uint64_t head = misalign ? 8 - misalign : 0;
    return head < n ? head : n;
}

template <bool Streaming> inline void store_vector(__m256i *d, __m256i v)
{
    if constexpr (Streaming)
        _mm256_stream_si256(d, v);
    else
        _mm256_store_si256(d, v);
}

// One loop for every elementwise kernel: `make(i)` yields the vector for lanes i..i+7.
// Four vectors are loaded before any is stored: buffers are page-aligned, so a source
// lane and its destination share their address bits below 4 KiB, and a load issued
// after a store with those bits equal waits on it as if they overlapped (the CPU's
// store-to-load check compares only those bits). Grouping keeps each load ahead of the
// stores it could be mistaken for; in L1 it is the difference between one vector per
// cycle and one per two.
template <bool Streaming, typename Make> inline void store_loop(uint32_t *dst, uint64_t n, Make make)
{
    uint64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m256i v0 = make(i), v1 = make(i + 8), v2 = make(i + 16), v3 = make(i + 24);
        auto *d = reinterpret_cast<__m256i *>(dst + i);
        store_vector<Streaming>(d, v0);
        store_vector<Streaming>(d + 1, v1);
        store_vector<Streaming>(d + 2, v2);
        store_vector<Streaming>(d + 3, v3);
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

void copy_avx2(uint32_t *dst, const uint32_t *src, uint64_t n, bool streaming, uint32_t passes)
{
    for (uint32_t pass = 0; pass < passes; ++pass) {
        elementwise(
            dst, n, streaming,
            [&](uint64_t i) { return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i)); },
            [&](uint64_t at, uint64_t k) { copy_portable(dst + at, src + at, k, false, 1); });
        between_passes();
    }
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

// pattern.h's random lanes: eight lanes of the block from place j on (the block is
// stored twice, so j + 7 never runs off it), XORed with the whitening word of each
// lane's block. One load and one XOR per eight lanes, and a whitening word per block.
template <bool Streaming> void random_body(uint32_t *dst, uint64_t first, const RandomBlock &block, uint64_t vectors)
{
    const __m256i place = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    uint64_t lane = first;
    auto *d = reinterpret_cast<__m256i *>(dst);
    constexpr uint64_t block_vectors = VRB_PATTERN_BLOCK_LANES / 8;
    while (vectors > 0) {
        const uint32_t j = static_cast<uint32_t>(lane % VRB_PATTERN_BLOCK_LANES);
        const uint64_t number = lane >> VRB_PATTERN_BLOCK_SHIFT;
        if (j == 0 && vectors >= block_vectors) {
            // Whole blocks, every block but the first and last of a range. The block's
            // eight vectors stay in registers, so a store waits on no load: with one load
            // per store, L2 writes ran at 0.76x of plain stores on Zen 3, without it at
            // 0.97x. The whitening word grows by whitening(1) per block until the low word
            // of the block number wraps, where the loop ends and the next one starts afresh.
            static_assert(VRB_PATTERN_BLOCK_LANES == 64, "the block is held in eight vectors");
            const auto *whole = reinterpret_cast<const __m256i *>(block.lanes);
            const __m256i x0 = _mm256_load_si256(whole), x1 = _mm256_load_si256(whole + 1),
                          x2 = _mm256_load_si256(whole + 2), x3 = _mm256_load_si256(whole + 3),
                          x4 = _mm256_load_si256(whole + 4), x5 = _mm256_load_si256(whole + 5),
                          x6 = _mm256_load_si256(whole + 6), x7 = _mm256_load_si256(whole + 7);
            const uint64_t before_wrap = (uint64_t{1} << 32) - (number & 0xffffffffu);
            const uint64_t blocks = vectors / block_vectors < before_wrap ? vectors / block_vectors : before_wrap;
            const __m256i step = _mm256_set1_epi32(static_cast<int>(vrb_pattern_whitening(1)));
            __m256i white = _mm256_set1_epi32(static_cast<int>(vrb_pattern_whitening(number)));
            for (uint64_t b = 0; b < blocks; ++b, d += block_vectors) {
                store_vector<Streaming>(d, _mm256_xor_si256(x0, white));
                store_vector<Streaming>(d + 1, _mm256_xor_si256(x1, white));
                store_vector<Streaming>(d + 2, _mm256_xor_si256(x2, white));
                store_vector<Streaming>(d + 3, _mm256_xor_si256(x3, white));
                store_vector<Streaming>(d + 4, _mm256_xor_si256(x4, white));
                store_vector<Streaming>(d + 5, _mm256_xor_si256(x5, white));
                store_vector<Streaming>(d + 6, _mm256_xor_si256(x6, white));
                store_vector<Streaming>(d + 7, _mm256_xor_si256(x7, white));
                white = _mm256_add_epi32(white, step);
            }
            vectors -= blocks * block_vectors;
            lane += blocks * VRB_PATTERN_BLOCK_LANES;
            continue;
        }
        const __m256i white = _mm256_set1_epi32(static_cast<int>(vrb_pattern_whitening(number)));
        const uint32_t inside = (VRB_PATTERN_BLOCK_LANES - j) / 8; // vectors wholly in this block
        const uint64_t run = inside < vectors ? inside : vectors;
        const auto *from = reinterpret_cast<const __m256i *>(block.lanes + j);
        uint64_t v = 0;
        // Four loads of the block before four stores, for the reason store_loop gives:
        // the block and the destination can share their low address bits too.
        for (; v + 4 <= run; v += 4, d += 4, from += 4) {
            const __m256i x0 = _mm256_loadu_si256(from), x1 = _mm256_loadu_si256(from + 1),
                          x2 = _mm256_loadu_si256(from + 2), x3 = _mm256_loadu_si256(from + 3);
            store_vector<Streaming>(d, _mm256_xor_si256(x0, white));
            store_vector<Streaming>(d + 1, _mm256_xor_si256(x1, white));
            store_vector<Streaming>(d + 2, _mm256_xor_si256(x2, white));
            store_vector<Streaming>(d + 3, _mm256_xor_si256(x3, white));
        }
        for (; v < run; ++v, ++d, ++from)
            store_vector<Streaming>(d, _mm256_xor_si256(_mm256_loadu_si256(from), white));
        vectors -= run;
        lane += run * 8;
        if (vectors == 0 || (run == inside && (VRB_PATTERN_BLOCK_LANES - j) % 8 == 0)) continue;
        // One vector straddles two blocks: its first lanes take this block's word.
        const uint32_t at = j + inside * 8;
        const __m256i next = _mm256_set1_epi32(static_cast<int>(vrb_pattern_whitening(number + 1)));
        const __m256i later =
            _mm256_cmpgt_epi32(place, _mm256_set1_epi32(static_cast<int>(VRB_PATTERN_BLOCK_LANES - 1 - at)));
        const __m256i x = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(block.lanes + at)),
                                           _mm256_blendv_epi8(white, next, later));
        store_vector<Streaming>(d, x);
        ++d;
        --vectors;
        lane += 8;
    }
}

void random_avx2(uint32_t *dst, uint64_t first, const RandomBlock &block, uint64_t n, bool streaming, uint32_t passes)
{
    const uint64_t head = head_lanes(dst, n);
    const uint64_t vectors = (n - head) / 8;
    const uint64_t done = head + vectors * 8;
    for (uint32_t pass = 0; pass < passes; ++pass) {
        random_portable(dst, first, block, head, false, 1);
        if (streaming)
            random_body<true>(dst + head, first + head, block, vectors);
        else
            random_body<false>(dst + head, first + head, block, vectors);
        random_portable(dst + done, first + done, block, n - done, false, 1);
        between_passes();
    }
    if (streaming) _mm_sfence();
}

} // namespace

const Kernels &avx2_kernels()
{
    static const Kernels avx2{sum_avx2, fold_avx2,  dot_avx2,    copy_avx2, scale_avx2,
                              add_avx2, triad_avx2, random_avx2, "avx2"};
    return avx2;
}

} // namespace vrb::host
