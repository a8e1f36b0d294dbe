// The search behind capacity.max-alloc and capacity.fragmentation, against allocators
// played by a function: a hard limit anywhere, nothing at all, spilling past a size.
#include "capacity_search.hpp"

#include <gtest/gtest.h>
#include <vrambench/core/measurement/sizes.hpp>

#include <random>

using namespace vrb;
using namespace vrb::capacity;

using vrb::GiB;
using vrb::MiB;

namespace {

constexpr uint64_t granule = 2 * MiB;

// An allocator that gives anything up to `limit` and counts the attempts.
struct Limited {
    uint64_t limit;
    int attempts = 0;
    Attempt operator()(uint64_t bytes)
    {
        ++attempts;
        return bytes <= limit ? Attempt::fits : Attempt::refused;
    }
};

} // namespace

TEST(CapacitySearch, ReturnsTheBoundAfterOneAttemptWhenTheWholeBoundFits)
{
    Limited device{10 * GiB};
    const SearchOutcome out = search_largest(4 * GiB, 64 * MiB, granule, std::ref(device));
    EXPECT_EQ(out.largest, 4 * GiB);
    EXPECT_EQ(out.smallest_unfit, 0u);
    EXPECT_EQ(device.attempts, 1);
}

TEST(CapacitySearch, LandsWithinTheResolutionBelowAnyLimitUnderTheBound)
{
    std::mt19937_64 rng(7);
    const uint64_t upper = 24 * GiB, resolution = 64 * MiB;
    for (int i = 0; i < 200; ++i) {
        const uint64_t limit = granule + rng() % (upper - granule);
        Limited device{limit};
        const SearchOutcome out = search_largest(upper, resolution, granule, std::ref(device));
        ASSERT_LE(out.largest, limit) << "limit " << limit;
        ASSERT_LT(limit - out.largest, resolution) << "limit " << limit;
        ASSERT_EQ(out.largest % granule, 0u);
        ASSERT_EQ(out.steps.size(), static_cast<std::size_t>(device.attempts));
    }
}

TEST(CapacitySearch, FindsAnH200SizedLimitWithinSixtyFourMiBInFewAttempts)
{
    // 139 GiB reported free, the allocator stops 300 MiB short of it.
    Limited device{139 * GiB - 300 * MiB};
    const SearchOutcome out = search_largest(139 * GiB, 64 * MiB, granule, std::ref(device));
    EXPECT_LT(device.limit - out.largest, 64 * MiB);
    EXPECT_LE(device.attempts, 12);
    EXPECT_GT(static_cast<double>(out.largest), 0.98 * 139 * GiB);
}

TEST(CapacitySearch, ReportsZeroWhenNotEvenOneGranuleFits)
{
    Limited device{granule - 1};
    const SearchOutcome out = search_largest(1 * GiB, 16 * MiB, granule, std::ref(device));
    EXPECT_EQ(out.largest, 0u);
    EXPECT_EQ(out.smallest_unfit, granule);
}

TEST(CapacitySearch, DoesNotSearchABoundBelowOneGranule)
{
    Limited device{GiB};
    const SearchOutcome out = search_largest(granule - 4096, granule, granule, std::ref(device));
    EXPECT_EQ(out.largest, 0u);
    EXPECT_EQ(device.attempts, 0);
}

TEST(CapacitySearch, CountsSpilledSizesAsNotFitting)
{
    // Anything past 3 GiB is "allocated" in system memory: it must not count.
    auto spills = [](uint64_t bytes) { return bytes <= 3 * GiB ? Attempt::fits : Attempt::spilled; };
    const SearchOutcome out = search_largest(8 * GiB, 32 * MiB, granule, spills);
    EXPECT_LE(out.largest, 3 * GiB);
    EXPECT_GT(out.largest, 3 * GiB - 32 * MiB);
    bool saw_spill = false;
    for (const auto &s : out.steps)
        saw_spill |= s.outcome == Attempt::spilled;
    EXPECT_TRUE(saw_spill);
}

TEST(CapacitySearch, ResolutionIsOnePercentBetweenAGranuleAndSixtyFourMiB)
{
    EXPECT_EQ(search_resolution(64 * MiB, granule), granule);
    EXPECT_EQ(search_resolution(1 * GiB, granule), 10 * MiB);
    EXPECT_EQ(search_resolution(139 * GiB, granule), 64 * MiB);
    EXPECT_EQ(search_resolution(0, granule), granule);
}
