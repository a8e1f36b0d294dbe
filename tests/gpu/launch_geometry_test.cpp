// The launch geometry and the grid-stride loop of the CUDA and HIP kernels, checked on
// the host: the very code the kernels run, for counts up to and past 2^32.
#include "grid_stride.hpp"
#include "launch_geometry.hpp"
#include "pass_sums.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

using vrb::gpu::grid_stride;
using vrb::gpu::grid_stride_visits;
using vrb::gpu::LaunchGeometry;
using vrb::gpu::LaunchLimits;
using vrb::gpu::plan_launch;
using vrb::gpu::plan_sweep_launch;
using u128 = unsigned __int128;

constexpr unsigned kUnroll = 4; // as the kernels use

LaunchLimits h200() // 132 SMs, 32-wide warps, 8 blocks of 256 resident per SM
{
    LaunchLimits l;
    l.threads_per_block = 256;
    l.warp_size = 32;
    l.compute_units = 132;
    l.blocks_per_unit = 8;
    l.max_blocks = 132 * 32;
    return l;
}

LaunchLimits mi300x() // 304 CUs, 64-wide wavefronts
{
    LaunchLimits l;
    l.threads_per_block = 256;
    l.warp_size = 64;
    l.compute_units = 304;
    l.blocks_per_unit = 8;
    l.max_blocks = 304 * 32;
    return l;
}

LaunchLimits tiny() // a small grid, so that brute force covers many remainders
{
    LaunchLimits l;
    l.threads_per_block = 64;
    l.warp_size = 32;
    l.compute_units = 3;
    l.blocks_per_unit = 2;
    return l;
}

// Runs every thread's loop as a kernel would and counts the visits of each item.
template <unsigned Unroll> std::vector<int> visits_per_item(uint64_t count, const LaunchGeometry &g)
{
    std::vector<int> seen(count, 0);
    const uint64_t stride = g.grid_threads();
    for (uint64_t t = 0; t < stride; ++t)
        grid_stride<Unroll>(
            count, t, stride,
            [&](uint64_t i, uint64_t s) {
                for (unsigned k = 0; k < Unroll; ++k)
                    ++seen.at(i + k * s);
            },
            [&](uint64_t i) { ++seen.at(i); });
    return seen;
}

// For counts too large to mark item by item: every thread's visits must end on the
// last item of its residue class below count, and the visits must add up to count.
// Together that is "every item exactly once", since threads own distinct residues.
void expect_exact_cover(uint64_t count, const LaunchGeometry &g)
{
    const uint64_t stride = g.grid_threads();
    ASSERT_GT(stride, 0u);
    u128 total = 0;
    for (uint64_t t = 0; t < stride; ++t) {
        const uint64_t n = grid_stride_visits(count, t, stride);
        total += n;
        if (n == 0) {
            ASSERT_GE(t, count);
            continue;
        }
        const u128 last = u128(t) + u128(n - 1) * stride;
        ASSERT_LT(last, u128(count)) << "thread " << t;
        ASSERT_GE(last + stride, u128(count)) << "thread " << t << " stops early";
        // The loop's index after its last visit must not wrap.
        ASSERT_LE(last + stride, u128(UINT64_MAX)) << "thread " << t;
    }
    EXPECT_EQ(total, u128(count));
}

// Runs the real loop for a few threads and checks each visits what it should, in order.
void expect_loop_follows_the_plan(uint64_t count, const LaunchGeometry &g, std::vector<uint64_t> threads)
{
    const uint64_t stride = g.grid_threads();
    for (uint64_t t : threads) {
        if (t >= stride) continue;
        uint64_t expected = t, visits = 0;
        auto one = [&](uint64_t i) {
            ASSERT_EQ(i, expected);
            ASSERT_LT(i, count);
            expected += stride;
            ++visits;
        };
        grid_stride<kUnroll>(
            count, t, stride,
            [&](uint64_t i, uint64_t s) {
                for (unsigned k = 0; k < kUnroll; ++k)
                    one(i + k * s);
            },
            one);
        EXPECT_EQ(visits, grid_stride_visits(count, t, stride)) << "thread " << t;
    }
}

TEST(LaunchGeometry, AWalkWorkedOutOnceVisitsTheSameItemsOnEveryPass)
{
    const LaunchGeometry g = plan_launch(1000, tiny());
    const uint64_t stride = g.grid_threads();
    for (uint64_t t = 0; t < stride; ++t) {
        const vrb::gpu::GridWalk walk = vrb::gpu::grid_walk(1000, t, stride);
        EXPECT_EQ(walk.visits, grid_stride_visits(1000, t, stride));
        std::vector<uint64_t> passes[2];
        for (auto &seen : passes)
            grid_stride<kUnroll>(
                walk,
                [&](uint64_t i, uint64_t s) {
                    for (unsigned k = 0; k < kUnroll; ++k)
                        seen.push_back(i + k * s);
                },
                [&](uint64_t i) { seen.push_back(i); });
        EXPECT_EQ(passes[0], passes[1]) << "thread " << t;
        EXPECT_EQ(passes[0].size(), walk.visits) << "thread " << t;
        for (std::size_t k = 0; k < passes[0].size(); ++k)
            EXPECT_EQ(passes[0][k], t + k * stride) << "thread " << t;
    }
}

TEST(LaunchGeometry, LaunchesNothingForZeroItems)
{
    EXPECT_EQ(plan_launch(0, h200()).blocks, 0u);
    EXPECT_EQ(grid_stride_visits(0, 0, 1), 0u);
    EXPECT_TRUE(visits_per_item<kUnroll>(0, plan_launch(1, tiny())).empty());
}

TEST(LaunchGeometry, GivesOneThreadPerItemWhileTheItemsFitInOneWave)
{
    EXPECT_EQ(plan_launch(1, h200()).blocks, 1u);
    EXPECT_EQ(plan_launch(256, h200()).blocks, 1u);
    EXPECT_EQ(plan_launch(257, h200()).blocks, 2u);
    EXPECT_EQ(plan_launch(1000, h200()).blocks, 4u);
    EXPECT_EQ(plan_launch(1000, h200()).threads, 256u);
}

TEST(LaunchGeometry, StopsAtTheBlocksThatStayResidentOnEveryUnit)
{
    EXPECT_EQ(plan_launch(uint64_t(1) << 30, h200()).blocks, 132u * 8);
    EXPECT_EQ(plan_launch(uint64_t(1) << 30, mi300x()).blocks, 304u * 8);
    LaunchLimits unknown_occupancy = h200();
    unknown_occupancy.blocks_per_unit = 0; // an occupancy query that failed counts as one
    EXPECT_EQ(plan_launch(uint64_t(1) << 30, unknown_occupancy).blocks, 132u);
}

TEST(LaunchGeometry, NeverLaunchesMoreBlocksThanThePartialResultsHaveRoomFor)
{
    LaunchLimits l = h200();
    l.max_blocks = 100;
    EXPECT_EQ(plan_launch(uint64_t(1) << 40, l).blocks, 100u);
    l.max_blocks = 0; // treated as one, never as "no launch"
    EXPECT_EQ(plan_launch(uint64_t(1) << 40, l).blocks, 1u);
}

TEST(LaunchGeometry, RoundsBlocksToWholeWarpsOfAnyWidth)
{
    LaunchLimits l = h200();
    l.warp_size = 64;
    l.threads_per_block = 200;
    EXPECT_EQ(plan_launch(1, l).threads, 192u);
    l.warp_size = 48;
    EXPECT_EQ(plan_launch(1, l).threads, 192u);
    l.threads_per_block = 16; // less than a warp: one warp
    EXPECT_EQ(plan_launch(1, l).threads, 48u);
    l.warp_size = 0; // unknown width: any block size
    l.threads_per_block = 100;
    EXPECT_EQ(plan_launch(1, l).threads, 100u);
    l.warp_size = 32;
    l.threads_per_block = 5000; // above the runtimes' limit
    EXPECT_EQ(plan_launch(1, l).threads, 1024u);
}

TEST(LaunchGeometry, KeepsTheGridWithinTheRuntimesLimits)
{
    LaunchLimits l;
    l.threads_per_block = 1024;
    l.warp_size = 64;
    l.compute_units = 0xffffffffu;
    l.blocks_per_unit = 0xffffffffu;
    const LaunchGeometry g = plan_launch(UINT64_MAX, l);
    EXPECT_LE(uint64_t(g.blocks), vrb::gpu::kMaxGridBlocks);
    EXPECT_LE(g.grid_threads(), vrb::gpu::kMaxGridThreads); // HIP counts grid threads in 32 bits
    EXPECT_GT(g.blocks, 0u);
}

TEST(GridStride, VisitsEveryItemExactlyOnceForEveryRemainder)
{
    const LaunchLimits l = tiny(); // 6 blocks of 64: 384 threads
    for (uint64_t count = 1; count <= 5 * 384 + 7; ++count) {
        const LaunchGeometry g = plan_launch(count, l);
        const std::vector<int> seen = visits_per_item<kUnroll>(count, g);
        for (uint64_t i = 0; i < count; ++i)
            ASSERT_EQ(seen[i], 1) << "item " << i << " of " << count;
    }
}

TEST(GridStride, VisitsEveryItemExactlyOnceWhateverTheUnroll)
{
    const LaunchLimits l = tiny();
    for (uint64_t count : {1u, 383u, 384u, 385u, 1535u, 1536u, 1537u, 4000u, 9999u}) {
        const LaunchGeometry g = plan_launch(count, l);
        for (int seen : visits_per_item<1>(count, g))
            ASSERT_EQ(seen, 1) << count;
        for (int seen : visits_per_item<3>(count, g))
            ASSERT_EQ(seen, 1) << count;
        for (int seen : visits_per_item<8>(count, g))
            ASSERT_EQ(seen, 1) << count;
    }
}

TEST(GridStride, CoversCountsPastTwoToThe31And32WithoutOverflow)
{
    for (const LaunchLimits &l : {h200(), mi300x()}) {
        for (uint64_t count : {(uint64_t(1) << 31) + 1, (uint64_t(1) << 32) + 7, (uint64_t(1) << 32) - 1}) {
            const LaunchGeometry g = plan_launch(count, l);
            expect_exact_cover(count, g);
            const uint64_t s = g.grid_threads();
            expect_loop_follows_the_plan(count, g, {0, 1, 255, 256, s / 2, s - 2, s - 1});
        }
    }
}

TEST(GridStride, CoversTheLargestCountsABufferCanHold)
{
    // 2^62 four-byte elements fill the 64-bit address space; a grid of 2^32 - 1024
    // threads is the largest any runtime launches.
    LaunchLimits huge_grid;
    huge_grid.threads_per_block = 1024;
    huge_grid.compute_units = 0xffffffffu;
    huge_grid.blocks_per_unit = 1;
    for (uint64_t count : {uint64_t(1) << 62, (uint64_t(1) << 62) - 3, uint64_t(1) << 40}) {
        const LaunchGeometry g = plan_launch(count, h200());
        expect_exact_cover(count, g);
        expect_loop_follows_the_plan(count >> 30, g, {0, 7, g.grid_threads() - 1}); // the loop itself, cut short
        const LaunchGeometry big = plan_launch(count, huge_grid);
        const uint64_t s = big.grid_threads();
        // Per-thread arithmetic for the first and last threads of the largest grid.
        for (uint64_t t : {uint64_t(0), s - 1}) {
            const uint64_t n = grid_stride_visits(count, t, s);
            ASSERT_GT(n, 0u);
            EXPECT_LT(u128(t) + u128(n - 1) * s, u128(count));
            EXPECT_GE(u128(t) + u128(n) * s, u128(count));
        }
    }
}

TEST(GridStride, LeavesThreadsPastTheLastItemIdle)
{
    const LaunchGeometry g = plan_launch(10, tiny()); // one block of 64 threads for 10 items
    EXPECT_EQ(g.blocks, 1u);
    for (uint64_t t = 10; t < g.grid_threads(); ++t)
        EXPECT_EQ(grid_stride_visits(10, t, g.grid_threads()), 0u);
}

// How many items block `block` of a planned sweep walks in one pass: all of them for a
// per-unit plan, its threads' grid-stride shares otherwise; counted with the kernels' walks.
uint64_t items_of_block(uint64_t count, const LaunchGeometry &g, uint32_t block)
{
    u128 total = 0;
    for (uint32_t t = 0; t < g.threads; ++t) {
        const vrb::gpu::GridWalk walk =
            g.whole_set ? vrb::gpu::unit_walk(count, t, g.threads)
                        : vrb::gpu::grid_walk(count, uint64_t(block) * g.threads + t, g.grid_threads());
        total += walk.visits;
    }
    return static_cast<uint64_t>(total);
}

LaunchLimits with_l1(LaunchLimits l, uint64_t l1_bytes, uint32_t item_bytes)
{
    l.l1_bytes = l1_bytes;
    l.item_bytes = item_bytes;
    return l;
}

// Every sweep point from 4 KiB to 4 GiB, a quarter-octave apart, for each element width:
// one block on every unit while one L1 holds the set, every resident block past it.
void expect_every_unit_works_at_every_point(const LaunchLimits &base, uint64_t l1_bytes)
{
    const uint64_t resident = uint64_t(base.compute_units) * base.blocks_per_unit;
    for (uint32_t element : {4u, 8u, 16u}) {
        const LaunchLimits l = with_l1(base, l1_bytes, element);
        for (double bytes = 4096; bytes <= double(uint64_t(1) << 32); bytes *= 1.189207) {
            const uint64_t count = static_cast<uint64_t>(bytes) / element;
            const LaunchGeometry g = plan_sweep_launch(count, l);
            ASSERT_EQ(g.whole_set, count * element <= l1_bytes) << count << " items of " << element << " bytes";
            ASSERT_NE(g.whole_set, g.past_l1) << "a set one L1 holds is read through it, any other past it";
            if (g.whole_set) {
                ASSERT_EQ(g.blocks, base.compute_units) << "one block a unit";
                ASSERT_EQ(g.threads, 1024u);
                ASSERT_EQ(g.copies(), base.compute_units);
                for (uint32_t b : {0u, g.blocks / 2, g.blocks - 1})
                    ASSERT_EQ(items_of_block(count, g, b), count) << "block " << b << " of " << count << " items";
            } else {
                ASSERT_EQ(g.blocks, resident) << "a full resident wave at " << count;
                ASSERT_EQ(g.copies(), 1u);
            }
        }
    }
}

TEST(SweepLaunch, GivesEachOfAnH200s132SmsASetOfItsOwnUpToItsL1AndSharesItOutPastL1Beyond)
{
    expect_every_unit_works_at_every_point(h200(), 256 << 10);
    const LaunchLimits l = with_l1(h200(), 256 << 10, 4);
    const LaunchGeometry g = plan_sweep_launch(4096 / 4, l);
    EXPECT_TRUE(g.whole_set);
    EXPECT_FALSE(g.past_l1);
    EXPECT_EQ(g.blocks, 132u);
    EXPECT_EQ(g.copies(), 132u); // each unit moved the set once a pass
    // At the L1's size every unit still walks it; one item past, the grid shares it out.
    EXPECT_TRUE(plan_sweep_launch((256 << 10) / 4, l).whole_set);
    const LaunchGeometry past = plan_sweep_launch((256 << 10) / 4 + 1, l);
    EXPECT_FALSE(past.whole_set);
    EXPECT_TRUE(past.past_l1);
    EXPECT_EQ(past.blocks, 132u * 8);
    EXPECT_EQ(past.threads, 256u);
}

TEST(SweepLaunch, GivesEachOfAnMi300xs304CusASetOfItsOwnUpToItsL1)
{
    expect_every_unit_works_at_every_point(mi300x(), 32 << 10);
}

TEST(SweepLaunch, WithoutAKnownL1WalksPerUnitBelowOneFullWaveAndSharesOutFromIt)
{
    const LaunchLimits l = h200(); // l1_bytes 0: unknown
    const uint64_t wave = 132u * 8 * 256;
    EXPECT_TRUE(plan_sweep_launch(wave - 1, l).whole_set);
    EXPECT_FALSE(plan_sweep_launch(wave, l).whole_set);
    EXPECT_EQ(plan_sweep_launch(wave, l).copies(), 1u);
    EXPECT_EQ(plan_sweep_launch(0, l).blocks, 0u);
}

TEST(SweepLaunch, KeepsThePerUnitBlockWithinWhatTheKernelAllowsAndThePartialResultsHold)
{
    LaunchLimits l = with_l1(h200(), 256 << 10, 4);
    l.unit_threads = 512; // the per-unit kernel's occupancy allows no block of 1024
    EXPECT_EQ(plan_sweep_launch(1024, l).threads, 512u);
    l.max_blocks = 100;
    const LaunchGeometry g = plan_sweep_launch(1024, l);
    EXPECT_EQ(g.blocks, 100u);
    EXPECT_EQ(g.copies(), 100u); // the walks made are the walks counted
}

TEST(OneReadLaunch, SharesEvenASmallSetOutPastL1SoItIsReadOnce)
{
    const LaunchLimits l = with_l1(h200(), 256 << 10, 4);
    for (uint64_t count : {uint64_t{1}, uint64_t{1024}, uint64_t{1} << 18, uint64_t{1} << 28}) {
        const LaunchGeometry g = vrb::gpu::plan_one_read_launch(count, l);
        EXPECT_FALSE(g.whole_set) << count;
        EXPECT_TRUE(g.past_l1) << count;
        EXPECT_EQ(g.copies(), 1u) << count;
        u128 total = 0;
        for (uint32_t b = 0; b < g.blocks; ++b)
            total += items_of_block(count, g, b);
        EXPECT_EQ(uint64_t(total), count) << "every item read once";
    }
    EXPECT_EQ(vrb::gpu::plan_one_read_launch(0, l).blocks, 0u);
}

// Runs lapped_stride as a thread would and lists the items in the order it visits them.
std::vector<uint64_t> lapped_order(const vrb::gpu::GridWalk &walk, uint32_t laps, std::vector<unsigned> *groups)
{
    std::vector<uint64_t> order;
    vrb::gpu::lapped_stride<kUnroll>(
        walk, laps,
        [&](const uint64_t(&at)[kUnroll]) {
            for (unsigned k = 0; k < kUnroll; ++k)
                order.push_back(at[k]);
            if (groups) groups->push_back(kUnroll);
        },
        [&](uint64_t i) {
            order.push_back(i);
            if (groups) groups->push_back(1);
        });
    return order;
}

TEST(LappedStride, VisitsAThreadsShareOncePerLapInOrder)
{
    for (uint64_t count : {1u, 3u, 7u, 64u, 1000u})
        for (uint64_t first : {0u, 1u, 5u})
            for (uint64_t stride : {1u, 4u, 6u})
                for (uint32_t laps : {1u, 2u, 3u, 7u}) {
                    const vrb::gpu::GridWalk walk = vrb::gpu::grid_walk(count, first, stride);
                    std::vector<uint64_t> want;
                    for (uint32_t p = 0; p < laps; ++p)
                        for (uint64_t i = first; i < count; i += stride)
                            want.push_back(i);
                    ASSERT_EQ(lapped_order(walk, laps, nullptr), want)
                        << count << " items from " << first << " by " << stride << ", " << laps << " laps";
                }
}

TEST(LappedStride, KeepsUnrollItemsInFlightWhenAShareIsSmallerThanAGroup)
{
    // One item a thread (a 4 MiB set over a full wave of an H200): a pass-by-pass walk would
    // load one at a time; lapped, every group but the last of the run is a full one.
    std::vector<unsigned> groups;
    const vrb::gpu::GridWalk walk = vrb::gpu::grid_walk(270336, 17, 270336);
    ASSERT_EQ(walk.visits, 1u);
    const std::vector<uint64_t> order = lapped_order(walk, 9, &groups);
    EXPECT_EQ(order, std::vector<uint64_t>(9, 17));
    EXPECT_EQ(groups, (std::vector<unsigned>{kUnroll, kUnroll, 1}));
}

TEST(LappedStride, WalksNothingForAnEmptyShareOrNoLaps)
{
    EXPECT_TRUE(lapped_order(vrb::gpu::grid_walk(5, 9, 4), 3, nullptr).empty());
    EXPECT_TRUE(lapped_order(vrb::gpu::grid_walk(5, 0, 1), 0, nullptr).empty());
}

TEST(PassSums, AnOddNumberOfPassesGivesBackOnePasssSumExactly)
{
    EXPECT_EQ(vrb::gpu::odd_passes(0), 1u);
    EXPECT_EQ(vrb::gpu::odd_passes(1), 1u);
    EXPECT_EQ(vrb::gpu::odd_passes(2), 1u);
    EXPECT_EQ(vrb::gpu::odd_passes(9), 9u);
    EXPECT_EQ(vrb::gpu::odd_passes(10), 9u);
    EXPECT_EQ(vrb::gpu::odd_passes(0xffffffffu), 0xffffffffu);
    for (uint64_t sum : {uint64_t{0}, uint64_t{1}, uint64_t{0x123456789abcdefull}, ~uint64_t{0}})
        for (uint32_t passes : {1u, 3u, 5u, 1001u, 0x7fffffffu, 0xffffffffu}) {
            const uint64_t total = sum * passes; // modulo 2^64, as the kernels add
            EXPECT_EQ(vrb::gpu::one_pass_sum(total, passes), sum) << sum << " x " << passes;
        }
}

} // namespace
