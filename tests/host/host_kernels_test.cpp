// The host's vector kernels against its portable ones, at every length and alignment the
// vector code splits differently (peeled heads, grouped bodies, tails), since the probes
// only ever see whole runs and would report a wrong lane near an edge as a checksum.
#include "host_kernels.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace vrb::host {
namespace {

constexpr uint64_t most_lanes = 300; // past four 64-lane pattern blocks and several groups of 32

std::vector<uint32_t> lanes_from(uint32_t seed, uint64_t n)
{
    std::vector<uint32_t> out(n);
    uint32_t x = seed * 2654435761u + 1;
    for (uint32_t &v : out) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        v = x; // high bits set often, so the pair sums carry
    }
    return out;
}

class VectorKernels : public ::testing::Test {
  protected:
    void SetUp() override
    {
        if (&kernels() == &portable_kernels()) GTEST_SKIP() << "this CPU runs the portable kernels only";
    }
};

TEST_F(VectorKernels, SumFoldAndDotEqualThePortableOnesAtEveryLengthAndOffset)
{
    const auto a = lanes_from(1, most_lanes + 8), b = lanes_from(2, most_lanes + 8);
    for (uint64_t offset = 0; offset < 8; ++offset)
        for (uint64_t n = 0; n <= most_lanes; ++n) {
            for (bool past_caches : {false, true}) {
                ASSERT_EQ(kernels().sum(a.data() + offset, n, past_caches), sum_portable(a.data() + offset, n))
                    << n << " " << offset << " " << past_caches;
                for (uint32_t passes : {1u, 2u, 3u})
                    ASSERT_EQ(kernels().fold(a.data() + offset, n, passes, past_caches),
                              fold_portable(a.data() + offset, n, passes))
                        << n << " " << offset << " " << passes << " " << past_caches;
            }
            ASSERT_EQ(kernels().dot(a.data() + offset, b.data() + offset, n),
                      dot_portable(a.data() + offset, b.data() + offset, n))
                << n << " " << offset;
        }
}

TEST_F(VectorKernels, SumAndFoldOverSideBySideRunsEqualThePortableOnesOnLongRanges)
{
    // READ walks a range past the caches as four runs side by side, within them as four
    // lines in a row: lengths around whole multiples of the four runs' cache lines, and
    // past them, so each run's end and the remainder are met.
    const uint64_t longest = 4 * 16 * 40 + 100;
    const auto a = lanes_from(3, longest + 8);
    for (bool past_caches : {false, true})
        for (uint64_t offset : {0u, 3u})
            for (uint64_t n = 4 * 16 * 30; n <= longest; n += 7) {
                ASSERT_EQ(kernels().sum(a.data() + offset, n, past_caches), sum_portable(a.data() + offset, n))
                    << n << " " << offset << " " << past_caches;
                for (uint32_t passes : {1u, 3u})
                    ASSERT_EQ(kernels().fold(a.data() + offset, n, passes, past_caches),
                              fold_portable(a.data() + offset, n, passes))
                        << n << " " << offset << " " << passes << " " << past_caches;
            }
}

TEST_F(VectorKernels, SumAndFoldOverBlocksOfRunsEqualThePortableOnesPastWholeBlocks)
{
    // Past a block of four 256 KiB runs, READ walks block after block, then the rest as
    // four shorter runs: lengths around one and two whole blocks meet every seam.
    constexpr uint64_t block = 4 * (256 << 10) / 4;
    const auto a = lanes_from(5, 2 * block + 4096);
    for (uint64_t n :
         {block - 1, block, block + 1, block + 4 * 16 * 3 + 5, 2 * block - 17, 2 * block, 2 * block + 4095}) {
        for (bool past_caches : {false, true}) {
            ASSERT_EQ(kernels().sum(a.data() + 1, n, past_caches), sum_portable(a.data() + 1, n)) << n;
            ASSERT_EQ(kernels().fold(a.data() + 1, n, 2, past_caches), fold_portable(a.data() + 1, n, 2)) << n;
        }
    }
}

TEST_F(VectorKernels, FoldMakesAsManyPassesAsItIsAsked)
{
    // XOR over an even number of passes cancels and over an odd number leaves one pass's:
    // a fold that made one pass whatever it was asked would answer that pass's for both.
    const auto a = lanes_from(5, most_lanes);
    for (const Kernels *k : {&kernels(), &portable_kernels()}) {
        for (bool past_caches : {false, true}) {
            const uint32_t once = k->fold(a.data(), most_lanes, 1, past_caches);
            ASSERT_NE(once, 0u);
            EXPECT_EQ(k->fold(a.data(), most_lanes, 2, past_caches), 0u) << k->name;
            EXPECT_EQ(k->fold(a.data(), most_lanes, 5, past_caches), once) << k->name;
        }
    }
}

TEST_F(VectorKernels, ElementwiseKernelsWriteWhatThePortableOnesWriteAndNothingOutside)
{
    const auto a = lanes_from(3, most_lanes + 16), b = lanes_from(4, most_lanes + 16);
    for (bool streaming : {false, true})
        for (uint64_t offset = 0; offset < 8; ++offset)
            for (uint64_t n = 0; n <= most_lanes; n += (n < 70 ? 1 : 13)) {
                using Run = void (*)(const Kernels &, uint32_t *, const uint32_t *, const uint32_t *, uint64_t, bool);
                const Run runs[] = {
                    [](const Kernels &k, uint32_t *d, const uint32_t *x, const uint32_t *, uint64_t m, bool s) {
                        k.copy(d, x, m, s, 1 + m % 3);
                    },
                    [](const Kernels &k, uint32_t *d, const uint32_t *x, const uint32_t *, uint64_t m, bool s) {
                        k.scale(d, x, 7u, m, s);
                    },
                    [](const Kernels &k, uint32_t *d, const uint32_t *x, const uint32_t *y, uint64_t m, bool s) {
                        k.add(d, x, y, m, s);
                    },
                    [](const Kernels &k, uint32_t *d, const uint32_t *x, const uint32_t *y, uint64_t m, bool s) {
                        k.triad(d, x, y, 3u, m, s);
                    },
                };
                for (Run run : runs) {
                    std::vector<uint32_t> got(most_lanes + 16, 0xdeadbeef), want(most_lanes + 16, 0xdeadbeef);
                    run(kernels(), got.data() + offset, a.data() + offset, b.data() + offset, n, streaming);
                    run(portable_kernels(), want.data() + offset, a.data() + offset, b.data() + offset, n, false);
                    ASSERT_EQ(got, want) << "lanes " << n << " offset " << offset << " streaming " << streaming;
                }
            }
}

TEST_F(VectorKernels, RandomPatternEqualsThePatternDefinitionFromAnyFirstLane)
{
    const RandomBlock block(0x5eed);
    constexpr uint64_t B = VRB_PATTERN_BLOCK_LANES;
    // The last: a range across the block number's low word wrapping, where the whitening
    // word stops growing by one step per block.
    for (uint64_t first : {uint64_t{0}, uint64_t{5}, B - 8, B - 1, B * 1000 + 3, B * ((uint64_t{1} << 32) - 3) + 8})
        for (uint64_t offset = 0; offset < 8; ++offset)
            for (uint64_t n = 0; n <= most_lanes; n += (n < 70 ? 1 : 11)) {
                std::vector<uint32_t> got(most_lanes + 16, 0xdeadbeef);
                kernels().random(got.data() + offset, first, block, n, n % 2 == 1, 1 + n % 3);
                for (uint64_t i = 0; i < got.size(); ++i) {
                    const bool inside = i >= offset && i < offset + n;
                    const uint32_t want = inside ? vrb_pattern_random(first + i - offset, 0x5eed) : 0xdeadbeef;
                    ASSERT_EQ(got[i], want) << "lane " << i << " of " << n << " from " << first << " offset " << offset;
                }
            }
}

} // namespace
} // namespace vrb::host
