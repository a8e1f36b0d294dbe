#include <vrambench/core/measurement/parallel.hpp>
#include <vrambench/core/measurement/reference.hpp>
#include <vrambench/pattern.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <vector>

namespace vrb {

uint32_t reference_lane(vrb_op_kind kind, uint32_t a, uint32_t b, uint32_t s)
{
    switch (kind) {
    case VRB_OP_COPY: return a;
    case VRB_OP_SCALE: return s * a;
    case VRB_OP_ADD: return a + b;
    case VRB_OP_TRIAD: return a + s * b;
    default: return 0;
    }
}

namespace {

// Verification recomputes every lane of multi-GiB buffers, so these loops are built
// twice, for AVX2 and for the baseline, and the loader picks one for this CPU.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VRB_HOT_LOOP __attribute__((target_clones("avx2", "default")))
#else
#define VRB_HOT_LOOP
#endif

// The random pattern's block for one seed: every lane is one of these XORed with its
// block's whitening word (pattern.h), so the loops below hash one block per call, not
// every lane, and what remains is an XOR the compiler vectorises.
struct BlockTable {
    uint32_t lanes[VRB_PATTERN_BLOCK_LANES];
    explicit BlockTable(uint32_t seed)
    {
        for (uint32_t j = 0; j < VRB_PATTERN_BLOCK_LANES; ++j)
            lanes[j] = vrb_pattern_block_lane(j, seed);
    }
};

// Calls run(i, j, w, m) for each stretch of lanes first+i .. first+i+m that lies in one
// block, starting at place j of it, whose whitening word is w.
template <typename Run> inline void for_each_block(uint64_t first, uint64_t n, Run &&run)
{
    for (uint64_t i = 0; i < n;) {
        const uint64_t lane = first + i;
        const uint32_t j = static_cast<uint32_t>(lane) & (VRB_PATTERN_BLOCK_LANES - 1u);
        const uint64_t m = std::min<uint64_t>(VRB_PATTERN_BLOCK_LANES - j, n - i);
        run(i, j, vrb_pattern_whitening(lane >> VRB_PATTERN_BLOCK_SHIFT), m);
        i += m;
    }
}

VRB_HOT_LOOP void random_lanes(uint32_t *out, uint64_t first, uint32_t seed, uint64_t n)
{
    const BlockTable t(seed);
    for_each_block(first, n, [&](uint64_t i, uint32_t j, uint32_t w, uint64_t m) {
        for (uint64_t k = 0; k < m; ++k)
            out[i + k] = t.lanes[j + k] ^ w;
    });
}

VRB_HOT_LOOP void stream_lanes(uint32_t *out, vrb_op_kind kind, uint64_t first, uint32_t seed1, uint32_t seed2,
                               uint32_t s, uint64_t n)
{
    const BlockTable t1(seed1), t2(seed2);
    for_each_block(first, n, [&](uint64_t i, uint32_t j, uint32_t w, uint64_t m) {
        uint32_t *o = out + i;
        const uint32_t *a = t1.lanes + j, *b = t2.lanes + j;
        switch (kind) {
        case VRB_OP_COPY:
            for (uint64_t k = 0; k < m; ++k)
                o[k] = a[k] ^ w;
            break;
        case VRB_OP_SCALE:
            for (uint64_t k = 0; k < m; ++k)
                o[k] = s * (a[k] ^ w);
            break;
        case VRB_OP_ADD:
            for (uint64_t k = 0; k < m; ++k)
                o[k] = (a[k] ^ w) + (b[k] ^ w);
            break;
        default:
            for (uint64_t k = 0; k < m; ++k)
                o[k] = reference_lane(kind, a[k] ^ w, b[k] ^ w, s);
            break;
        }
    });
}

VRB_HOT_LOOP uint64_t random_sum(uint64_t first, uint32_t seed, uint64_t n)
{
    const BlockTable t(seed);
    uint64_t sum = 0;
    for_each_block(first, n, [&](uint64_t, uint32_t j, uint32_t w, uint64_t m) {
        for (uint64_t k = 0; k < m; ++k)
            sum += t.lanes[j + k] ^ w;
    });
    return sum;
}

VRB_HOT_LOOP uint64_t random_dot(uint64_t first, uint32_t seed1, uint32_t seed2, uint64_t n)
{
    const BlockTable t1(seed1), t2(seed2);
    uint64_t sum = 0;
    for_each_block(first, n, [&](uint64_t, uint32_t j, uint32_t w, uint64_t m) {
        for (uint64_t k = 0; k < m; ++k)
            sum += static_cast<uint32_t>((t1.lanes[j + k] ^ w) * (t2.lanes[j + k] ^ w));
    });
    return sum;
}

} // namespace

uint64_t reference_pattern_sum(uint32_t pattern, uint32_t seed, uint64_t first, uint64_t n)
{
    std::atomic<uint64_t> total{0};
    parallel_for(n, [&](uint64_t begin, uint64_t end) {
        const uint64_t sum = pattern == VRB_PATTERN_RANDOM ? random_sum(first + begin, seed, end - begin) : [&] {
            uint64_t s = 0;
            for (uint64_t i = begin; i < end; ++i)
                s += vrb_pattern(pattern, first + i, seed);
            return s;
        }();
        total += sum;
    });
    return total.load();
}

uint64_t reference_random_dot(uint32_t seed1, uint32_t seed2, uint64_t first, uint64_t n)
{
    std::atomic<uint64_t> total{0};
    parallel_for(n,
                 [&](uint64_t begin, uint64_t end) { total += random_dot(first + begin, seed1, seed2, end - begin); });
    return total.load();
}

ExpectedLanes expect_pattern(uint32_t pattern, uint32_t seed)
{
    return [=](uint64_t first, std::span<uint32_t> out) {
        if (pattern == VRB_PATTERN_RANDOM) return random_lanes(out.data(), first, seed, out.size());
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = vrb_pattern(pattern, first + i, seed);
    };
}

ExpectedLanes expect_stream(vrb_op_kind kind, uint32_t seed1, uint32_t seed2, uint32_t scalar)
{
    return [=](uint64_t first, std::span<uint32_t> out) {
        stream_lanes(out.data(), kind, first, seed1, seed2, scalar, out.size());
    };
}

Mismatches compare_buffer(const Buffer &buffer, uint64_t offset, uint64_t lanes, const ExpectedLanes &expected)
{
    // Chunks small enough to stay in the host's caches while they are compared.
    constexpr uint64_t chunk_lanes = 1ull << 20;
    std::vector<uint32_t> chunk(std::min(lanes, chunk_lanes));
    std::vector<uint32_t> want(chunk.size());
    Mismatches result;
    for (uint64_t done = 0; done < lanes; done += chunk.size()) {
        const uint64_t n = std::min<uint64_t>(chunk.size(), lanes - done);
        buffer.download(offset + done * 4, std::as_writable_bytes(std::span(chunk.data(), n)));
        std::mutex lock;
        parallel_for(n, [&](uint64_t begin, uint64_t end) {
            expected(done + begin, std::span(want.data() + begin, end - begin));
            if (std::memcmp(chunk.data() + begin, want.data() + begin, (end - begin) * 4) == 0) return;
            Mismatches local;
            for (uint64_t i = begin; i < end; ++i) {
                if (chunk[i] == want[i]) continue;
                if (local.count++ == 0) {
                    local.first = done + i;
                    local.first_expected = want[i];
                    local.first_actual = chunk[i];
                }
            }
            if (local.count == 0) return;
            const std::lock_guard guard(lock);
            if (result.count == 0 || local.first < result.first) {
                result.first = local.first;
                result.first_expected = local.first_expected;
                result.first_actual = local.first_actual;
            }
            result.count += local.count;
        });
    }
    return result;
}

} // namespace vrb
