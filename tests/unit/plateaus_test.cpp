#include <vrambench/core/measurement/plateaus.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace {

// A cache-like curve: `levels[k]` up to `ends[k]` bytes, on a grid of ratio sqrt(2),
// with a deterministic +-noise wobble.
std::vector<vrb::CurvePoint> staircase(std::vector<double> levels, std::vector<double> ends, double noise)
{
    std::vector<vrb::CurvePoint> out;
    int i = 0;
    for (double x = 4096; x <= 1 << 30; x *= std::sqrt(2.0), ++i) {
        std::size_t k = 0;
        while (k + 1 < levels.size() && x > ends[k])
            ++k;
        const double wobble = 1 + noise * ((i * 7919) % 5 - 2) / 2.0;
        out.push_back({x, levels[k] * wobble});
    }
    return out;
}

vrb_device_info host_like()
{
    vrb_device_info info{};
    info.struct_size = sizeof info;
    info.known = VRB_KNOWN_COMPUTE_UNITS;
    info.compute_units = 2;
    info.cache_count = 3;
    const uint64_t sizes[] = {48 << 10, 1 << 20, 32 << 20};
    for (uint32_t i = 0; i < 3; ++i) {
        info.caches[i].level = i + 1;
        info.caches[i].bytes = sizes[i];
        std::strcpy(info.caches[i].kind, i == 0 ? "data" : "unified");
    }
    return info;
}

} // namespace

TEST(Plateaus, FindsEachLevelOfAStaircaseAndWhereItEnds)
{
    const auto curve = staircase({400, 200, 100, 12}, {64 << 10, 1 << 20, 32 << 20}, 0.05);
    const auto plateaus = vrb::find_plateaus(curve);
    ASSERT_EQ(plateaus.size(), 4u);
    EXPECT_NEAR(plateaus[0].level, 400, 40);
    EXPECT_NEAR(plateaus[3].level, 12, 1.5);
    // The step lies between two grid points: the end is found within one grid step.
    EXPECT_NEAR(std::log2(plateaus[0].ends_at), std::log2(64 << 10), 0.5);
    EXPECT_NEAR(std::log2(plateaus[1].ends_at), std::log2(1 << 20), 0.5);
    EXPECT_NEAR(std::log2(plateaus[2].ends_at), std::log2(32 << 20), 0.5);
}

TEST(Plateaus, DoesNotMakeStepsOutOfNoise)
{
    const auto curve = staircase({100}, {}, 0.08);
    EXPECT_EQ(vrb::find_plateaus(curve).size(), 1u);
}

TEST(Plateaus, IgnoresASingleOutlierInsideALevel)
{
    auto curve = staircase({300, 20}, {8 << 20}, 0.02);
    curve[5].y /= 4;
    const auto plateaus = vrb::find_plateaus(curve);
    ASSERT_EQ(plateaus.size(), 2u);
    EXPECT_LT(plateaus[0].first, 5u);
    EXPECT_GT(plateaus[0].last, 5u);
}

TEST(Plateaus, FindsRisingLatencyLevelsToo)
{
    const auto curve = staircase({1, 4, 40, 100}, {48 << 10, 1 << 20, 32 << 20}, 0.03);
    EXPECT_EQ(vrb::find_plateaus(curve).size(), 4u);
}

TEST(Plateaus, GivesNothingForTooFewPoints)
{
    const std::vector<vrb::CurvePoint> two{{4096, 10}, {8192, 5}};
    EXPECT_TRUE(vrb::find_plateaus(two).empty());
}

TEST(Plateaus, NamesLevelsByTheCacheTheyEndNearAndTheLastAsMemory)
{
    const auto caches = vrb::cache_reach(host_like(), 1);
    std::vector<vrb::Plateau> p(4);
    p[0].ends_at = 50 << 10;
    p[1].ends_at = 1.3 * (1 << 20);
    p[2].ends_at = 40 << 20;
    vrb::name_plateaus(p, caches, 1 << 30);
    EXPECT_EQ(p[0].name, "L1");
    EXPECT_EQ(p[1].name, "L2");
    EXPECT_EQ(p[2].name, "L3");
    EXPECT_EQ(p[3].name, "memory");
}

TEST(Plateaus, CountsPrivateCachesOfEveryThreadWhenSharingIsUnknown)
{
    const auto caches = vrb::cache_reach(host_like(), 2);
    ASSERT_EQ(caches.size(), 3u);
    EXPECT_EQ(caches[0].fewest, 1u);
    EXPECT_EQ(caches[0].most, 2u);
    std::vector<vrb::Plateau> p(2);
    p[0].ends_at = 300 << 20; // far from every cache
    vrb::name_plateaus(p, caches, 64 << 20);
    EXPECT_EQ(p[0].name, "cache 1");
    EXPECT_EQ(p[1].name, "cache 2"); // 64 MiB is not far enough past 32 MiB to be memory
}

TEST(Plateaus, ALastLevelPastTheLastNamedCacheButShortOfMemoryIsNamedPastIt)
{
    // A quick sweep to 64 MiB over a 32 MiB L3: past it, not 4 x past it.
    const auto caches = vrb::cache_reach(host_like(), 1);
    std::vector<vrb::Plateau> p(3);
    p[0].ends_at = 1 << 20;
    p[1].ends_at = 40 << 20;
    vrb::name_plateaus(p, caches, 64 << 20);
    EXPECT_EQ(p[1].name, "L3");
    EXPECT_EQ(p[2].name, "past L3");
}

TEST(Plateaus, ABandwidthLevelThatTheNextImprovesOnIsOverheadNotACache)
{
    // A device bound by its cost per dispatch at small sizes: bandwidth climbs, then holds.
    const auto caches = vrb::cache_reach(host_like(), 1);
    std::vector<vrb::Plateau> p(4);
    p[0].level = 0.5, p[0].ends_at = 16 << 10;
    p[1].level = 5, p[1].ends_at = 1 << 20;
    p[2].level = 20, p[2].ends_at = 40 << 20;
    p[3].level = 18;
    vrb::name_plateaus(p, caches, 1 << 30, 4, vrb::CurveFigure::bandwidth);
    EXPECT_EQ(p[0].name, "overhead");
    EXPECT_EQ(p[1].name, "overhead");
    EXPECT_EQ(p[2].name, "L3"); // 40 MiB is the host-like L3's reach; 18 after 20 is within 15 %
    EXPECT_EQ(p[3].name, "memory");
}

TEST(Plateaus, AGpuSweepReadingFromItsSmsL1sIsNamedL1ThenL2ThenMemory)
{
    // An H200 as the CUDA module describes it: 132 SMs with an L1 each, one 50 MiB L2.
    // Its sweep's blocks re-read their own items on every pass, so up to the SMs' L1s
    // together (33 MiB) the figures are L1's.
    vrb_device_info info{};
    info.struct_size = sizeof info;
    info.known = VRB_KNOWN_COMPUTE_UNITS;
    info.compute_units = 132;
    info.cache_count = 2;
    info.caches[0] = {1, 1, 256 << 10, "data"};
    info.caches[1] = {2, 132, 50 << 20, "unified"};
    std::vector<vrb::Plateau> p(5);
    p[0].level = 2000, p[0].ends_at = 1 << 20; // too few threads in flight for the L1s
    p[1].level = 9000, p[1].ends_at = 4 << 20;
    p[2].level = 20000, p[2].ends_at = 30 << 20;
    p[3].level = 9000, p[3].ends_at = 55 << 20;
    p[4].level = 4500;
    vrb::name_plateaus(p, vrb::cache_reach(info, 132), 1 << 30, 4, vrb::CurveFigure::bandwidth);
    EXPECT_EQ(p[0].name, "overhead");
    EXPECT_EQ(p[1].name, "overhead");
    EXPECT_EQ(p[2].name, "L1");
    EXPECT_EQ(p[3].name, "L2");
    EXPECT_EQ(p[4].name, "memory");
    // Without the L1 the stretch in it has no level of its own to take.
    info.caches[0] = info.caches[1];
    info.cache_count = 1;
    vrb::name_plateaus(p, vrb::cache_reach(info, 132), 1 << 30, 4, vrb::CurveFigure::bandwidth);
    EXPECT_EQ(p[2].name, "cache 1");
    EXPECT_EQ(p[3].name, "L2");
}

TEST(Plateaus, ADipPastALevelThatTheNextImprovesOnIsADipNotOverheadNorALevel)
{
    // L1 and L2, then a stretch a busy neighbour slowed, then L3 and memory: the dip takes
    // no level's name, and the levels after it keep theirs.
    const auto caches = vrb::cache_reach(host_like(), 1);
    std::vector<vrb::Plateau> p(5);
    p[0].level = 250, p[0].ends_at = 48 << 10;
    p[1].level = 150, p[1].ends_at = 1 << 20;
    p[2].level = 80, p[2].ends_at = 2 << 20;
    p[3].level = 120, p[3].ends_at = 40 << 20;
    p[4].level = 20;
    vrb::name_plateaus(p, caches, 1 << 30, 4, vrb::CurveFigure::bandwidth);
    EXPECT_EQ(p[0].name, "L1");
    EXPECT_EQ(p[1].name, "L2");
    EXPECT_EQ(p[2].name, "dip");
    EXPECT_EQ(p[3].name, "L3");
    EXPECT_EQ(p[4].name, "memory");
}

TEST(Plateaus, ALatencyLevelThatTheNextImprovesOnIsOverheadNotACache)
{
    const auto caches = vrb::cache_reach(host_like(), 1);
    std::vector<vrb::Plateau> p(3);
    p[0].level = 50, p[0].ends_at = 8 << 10; // a fixed cost spread over few loads
    p[1].level = 2, p[1].ends_at = 50 << 10;
    p[2].level = 100;
    vrb::name_plateaus(p, caches, 1 << 30, 4, vrb::CurveFigure::latency);
    EXPECT_EQ(p[0].name, "overhead");
    EXPECT_EQ(p[1].name, "L1");
    EXPECT_EQ(p[2].name, "memory");
}

TEST(Plateaus, CountsCacheLevelsPastTheOverheadOnADeviceThatReportsNoCaches)
{
    std::vector<vrb::Plateau> p(3);
    p[0].level = 0.2, p[0].ends_at = 16 << 10;
    p[1].level = 8, p[1].ends_at = 1 << 20;
    p[2].level = 4;
    vrb::name_plateaus(p, {}, 1 << 30, 4, vrb::CurveFigure::bandwidth);
    EXPECT_EQ(p[0].name, "overhead");
    EXPECT_EQ(p[1].name, "cache 1");
    EXPECT_EQ(p[2].name, "cache 2");
}

TEST(Plateaus, AShortStretchOnTheWayOutOfALevelLeavesTheNextLevelsNameToThePlateauThatIsIt)
{
    // A read sweep on a Zen 5 VM whose measured L3 instance is 9.5 MiB, two threads: L1,
    // L2, a stretch of 2-3.4 MiB where the L2s are still partly full, the L3 to 36 MiB,
    // the way down to memory, memory. The 3.4 MiB stretch lies within 4x of the L3's
    // reach, but the plateau to 36 MiB lies nearer.
    vrb_device_info info = host_like();
    info.caches[2].bytes = 9728 << 10;
    const auto caches = vrb::cache_reach(info, 2);
    std::vector<vrb::Plateau> p(6);
    const double levels[] = {410, 331, 212, 169, 88, 63};
    const double ends[] = {107 << 10, 1.7 * (1 << 20), 3.4 * (1 << 20), 36 << 20, 75 << 20, 0};
    for (std::size_t k = 0; k < p.size(); ++k)
        p[k].level = levels[k], p[k].ends_at = ends[k];
    vrb::name_plateaus(p, caches, 4.0 * (1 << 30), 4, vrb::CurveFigure::bandwidth);
    EXPECT_EQ(p[0].name, "L1");
    EXPECT_EQ(p[1].name, "L2");
    EXPECT_EQ(p[2].name, "cache 3");
    EXPECT_EQ(p[3].name, "L3");
    EXPECT_EQ(p[4].name, "cache 5");
    EXPECT_EQ(p[5].name, "memory");
}

TEST(Plateaus, ALevelIsLeftToALaterPlateauOnlyWhenThatPlateauTakesIt)
{
    // One thread, L1 48 KiB, L2 1 MiB, a small measured L3 of 9.5 MiB: the plateau to
    // 3.2 MiB lies nearer the L2's reach than the one to 300 KiB, but nearer still the
    // L3's, which it takes; the L2 stays with the plateau to 300 KiB.
    vrb_device_info info = host_like();
    info.caches[2].bytes = 9728 << 10;
    const auto caches = vrb::cache_reach(info, 1);
    std::vector<vrb::Plateau> p(4);
    p[0].ends_at = 50 << 10;
    p[1].ends_at = 300 << 10;
    p[2].ends_at = 3.2 * (1 << 20);
    vrb::name_plateaus(p, caches, 1 << 30);
    EXPECT_EQ(p[0].name, "L1");
    EXPECT_EQ(p[1].name, "L2");
    EXPECT_EQ(p[2].name, "L3");
    EXPECT_EQ(p[3].name, "memory");
}
