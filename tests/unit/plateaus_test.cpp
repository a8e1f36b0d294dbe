#include <vrambench/core/measurement/plateaus.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

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

namespace {

using Names = std::vector<std::string>;

std::vector<vrb::Plateau> plateaus_of(const std::vector<double> &levels, const std::vector<double> &ends)
{
    std::vector<vrb::Plateau> p(levels.size());
    for (std::size_t k = 0; k < p.size(); ++k)
        p[k].level = levels[k], p[k].ends_at = ends[k];
    return p;
}

Names names(const std::vector<vrb::Plateau> &plateaus)
{
    Names out;
    for (const auto &p : plateaus)
        out.push_back(p.name);
    return out;
}

// host_like()'s caches (L1 48 KiB, L2 1 MiB, L3 32 MiB) for one thread.
Names named_on_host(const std::vector<double> &levels, const std::vector<double> &ends, vrb::CurveFigure figure,
                    double largest = 1 << 30, const std::vector<vrb::TlbReach> &tlbs = {})
{
    auto p = plateaus_of(levels, ends);
    vrb::name_plateaus(p, vrb::cache_reach(host_like(), 1), largest, figure, false, tlbs);
    return names(p);
}

// An H200 as the CUDA module describes it: 132 SMs with a 256 KiB L1 each, one 60 MiB L2.
vrb_device_info h200_like()
{
    vrb_device_info info{};
    info.struct_size = sizeof info;
    info.type = VRB_DEVICE_DISCRETE_GPU;
    info.known = VRB_KNOWN_COMPUTE_UNITS;
    info.compute_units = 132;
    info.cache_count = 2;
    info.caches[0] = {1, 1, 256 << 10, "data"};
    info.caches[1] = {2, 132, 60 << 20, "unified"};
    return info;
}

} // namespace

TEST(Plateaus, NamesLevelsByTheCacheTheyEndWithinTwiceTheReachOfAndTheLastAsMemory)
{
    const Names n =
        named_on_host({1.4, 4, 15, 90}, {50 << 10, 1.3 * (1 << 20), 40 << 20, 0}, vrb::CurveFigure::latency);
    EXPECT_EQ(n, (Names{"L1", "L2", "L3", "memory"}));
    // A plateau that ends past twice a level's reach is no longer in it.
    EXPECT_EQ(named_on_host({1.4, 15, 90}, {50 << 10, 3 << 20, 0}, vrb::CurveFigure::latency),
              (Names{"L1", "L3", "memory"}));
}

TEST(Plateaus, TheH200ChaseIsL1ThenL2ThenMemoryAlthoughDramIsUnderTwoAndAHalfTimesTheL2)
{
    // L1 16.7 ns to ~128 KiB, the L2 142 ns to ~15 MiB (a random chase misses the far
    // partition of the 60 MiB L2 long before its size), memory 333 ns: 2.34 x the L2.
    auto p = plateaus_of({16.7, 142, 333}, {128 << 10, 15 << 20, 0});
    vrb::name_plateaus(p, vrb::cache_reach(h200_like(), 1), 240 << 20, vrb::CurveFigure::latency);
    EXPECT_EQ(names(p), (Names{"L1", "L2", "memory"}));
}

TEST(Plateaus, MemoryReachesBackOverStepsUnderTwiceItsLatencyAndNamesTheLaterOnesPastTheTlb)
{
    // An Intel Xeon VM's chase: the L3 (socket-wide: any size past the L2) at 44 ns and
    // past its TLB 68.5, then DRAM at 146 ns and the page walks of 177 and 252 ns.
    vrb_device_info info = host_like();
    info.caches[1].bytes = 2 << 20;
    info.caches[2].bytes = 480ull << 20;
    info.caches[2].shared_by = 2;
    auto p = plateaus_of({1.4, 4.7, 6.1, 44, 68.5, 146, 177, 252},
                         {55 << 10, 600 << 10, 2.5 * (1 << 20), 14 << 20, 28 << 20, 55 << 20, 700 << 20, 0});
    vrb::name_plateaus(p, vrb::cache_reach(info, 1), 2.0 * (1 << 30), vrb::CurveFigure::latency);
    EXPECT_EQ(names(p), (Names{"L1", "L2", "L2 past the TLB", "L3", "L3 past the TLB", "memory", "memory past the TLB",
                               "memory past the TLB (2)"}));
    EXPECT_EQ(p[3].reported_bytes, 480ull << 20);
    // A step of twice the latency or more is a further level, not a translation.
    p[5].level = 2 * 68.5;
    vrb::name_plateaus(p, vrb::cache_reach(info, 1), 2.0 * (1 << 30), vrb::CurveFigure::latency);
    EXPECT_EQ(p[5].name, "memory");
    p[5].level = 2 * 68.5 - 1;
    p[6].level = 2 * p[5].level;
    vrb::name_plateaus(p, vrb::cache_reach(info, 1), 2.0 * (1 << 30), vrb::CurveFigure::latency);
    EXPECT_EQ(p[6].name, "memory");
}

TEST(Plateaus, MemoryNeverReachesBackIntoAPlateauThatEndsInsideACache)
{
    // An L2's far half at 1.7 x its near half's latency, and DRAM at 1.35 x the far half:
    // both steps are under 2 x, but the far half ends inside the 60 MiB L2.
    auto p = plateaus_of({16.7, 142, 247, 333}, {128 << 10, 15 << 20, 40 << 20, 0});
    vrb::name_plateaus(p, vrb::cache_reach(h200_like(), 1), 240 << 20, vrb::CurveFigure::latency);
    EXPECT_EQ(names(p), (Names{"L1", "L2", "L2 past the TLB", "memory"}));
}

TEST(Plateaus, AStepInsideALevelThatDoublesTheLatencyIsNamedByWhereItLies)
{
    EXPECT_EQ(named_on_host({1.4, 5, 14, 20, 150}, {55 << 10, 700 << 10, 1.7 * (1 << 20), 40 << 20, 0},
                            vrb::CurveFigure::latency),
              (Names{"L1", "L2", "between L2 and L3", "L3", "memory"}));
}

TEST(Plateaus, APlateauPastEveryCacheBeforeMemoryIsBetweenTheLastAndMemoryNeverACacheOfItsOwn)
{
    // A write sweep that slows past the L3 and recovers at memory: no "dip", no "cache N".
    EXPECT_EQ(
        named_on_host({400, 200, 54, 19, 46}, {50 << 10, 1 << 20, 40 << 20, 190 << 20, 0}, vrb::CurveFigure::bandwidth),
        (Names{"L1", "L2", "L3", "between L3 and memory", "memory"}));
    // Short of memory, the last plateau past the caches is past the last one.
    EXPECT_EQ(
        named_on_host({400, 200, 54, 30}, {50 << 10, 1 << 20, 40 << 20, 0}, vrb::CurveFigure::bandwidth, 64 << 20),
        (Names{"L1", "L2", "L3", "past L3"}));
}

TEST(Plateaus, ABandwidthLevelThatTheNextImprovesOnBeforeAnyLevelIsOverhead)
{
    EXPECT_EQ(named_on_host({0.5, 5, 20, 8}, {16 << 10, 200 << 10, 40 << 20, 0}, vrb::CurveFigure::bandwidth),
              (Names{"overhead", "overhead (2)", "L3", "memory"}));
    // A latency curve has no overhead: lower is better there.
    EXPECT_EQ(named_on_host({1.4, 5, 20, 90}, {40 << 10, 700 << 10, 40 << 20, 0}, vrb::CurveFigure::latency)[0], "L1");
}

TEST(Plateaus, AStepPastMemoryIsNamedForTheTlbWhoseReachTheSetRecordsAndTheWorkingSetOutgrew)
{
    const std::vector<vrb::TlbReach> tlbs{{1, 72 << 12}, {2, 3072ull << 12}};
    EXPECT_EQ(named_on_host({1.4, 5, 20, 100, 130}, {40 << 10, 700 << 10, 40 << 20, 200 << 20, 0},
                            vrb::CurveFigure::latency, 1 << 30, tlbs)
                  .back(),
              "memory past the L2 TLB (12 MiB)");
}

TEST(Plateaus, ACurveShortOfFourTimesEveryCacheHasNoMemory)
{
    const Names n =
        named_on_host({1.4, 5, 20, 90}, {40 << 10, 700 << 10, 40 << 20, 0}, vrb::CurveFigure::latency, 64 << 20);
    EXPECT_EQ(std::count(n.begin(), n.end(), "memory"), 0);
    EXPECT_EQ(n.back(), "past L3");
}

TEST(Plateaus, TheLastPlateauOfAGrownCurveThatSettledIsMemoryOnADeviceThatReportsNoCaches)
{
    auto p = plateaus_of({30, 250, 550}, {256 << 10, 128 << 20, 0});
    vrb::name_plateaus(p, {}, 1 << 30, vrb::CurveFigure::latency, true);
    EXPECT_EQ(names(p), (Names{"before memory", "before memory (2)", "memory"}));
    // Not settled (stopped at a cap): nothing says the curve reached memory.
    vrb::name_plateaus(p, {}, 1 << 30, vrb::CurveFigure::latency, false);
    EXPECT_EQ(names(p), (Names{"short of memory", "short of memory (2)", "short of memory (3)"}));
}

TEST(Plateaus, APlateauThatBeganInsideAnEarlierLevelNoPlateauTookIsNamedForBoth)
{
    // Writes on a Zen 4 core: L1 and L2 at one speed to 2 MiB (two cores' L2), then the
    // L3 and memory. No step tells L1 from L2, so the first plateau is both.
    const auto caches = vrb::cache_reach(host_like(), 2);
    const auto curve = staircase({230, 150, 26}, {2 << 20, 16 << 20}, 0.03);
    auto p = vrb::find_plateaus(curve);
    vrb::name_plateaus(p, caches, curve.back().x, vrb::CurveFigure::bandwidth);
    EXPECT_EQ(names(p), (Names{"L1+L2", "L3", "memory"}));
    // One that began past half of what the L1s hold says nothing of them: the L2 alone.
    std::vector<vrb::CurvePoint> later;
    for (const auto &q : curve)
        if (q.x >= 64 << 10) later.push_back(q);
    p = vrb::find_plateaus(later);
    vrb::name_plateaus(p, caches, later.back().x, vrb::CurveFigure::bandwidth);
    EXPECT_EQ(names(p), (Names{"L2", "L3", "memory"}));
}

TEST(Plateaus, AGpusLastLevelWithoutSharingIsOneInstanceForTheWholeDevice)
{
    // 96 units, an 8 MiB L2 and a 128 MiB L3, neither saying who shares it: the L3 is
    // the card's, so its memory begins past 128 MiB, not past 96 x 128 MiB.
    vrb_device_info info{};
    info.struct_size = sizeof info;
    info.type = VRB_DEVICE_DISCRETE_GPU;
    info.known = VRB_KNOWN_COMPUTE_UNITS;
    info.compute_units = 96;
    info.cache_count = 2;
    info.caches[0] = {2, 0, 8 << 20, "unified"};
    info.caches[1] = {3, 0, 128 << 20, "unified"};
    const auto caches = vrb::cache_reach(info, 96);
    ASSERT_EQ(caches.size(), 2u);
    EXPECT_EQ(caches[1].most, 1u);
    EXPECT_EQ(caches[1].fewest, 1u);
    EXPECT_EQ(caches[0].most, 96u); // not the last level: sharing still unknown
    // A CPU's last level without sharing is left as it was: one per thread at most.
    info.type = VRB_DEVICE_CPU;
    EXPECT_EQ(vrb::cache_reach(info, 2).back().most, 2u);
}

namespace {

// A host's curves as a result set recorded them (tests/data/plateaus/README.md): the
// device's caches, and each sweep's and chase's points.
struct Recorded {
    vrb_device_info info{};
    struct Curve {
        std::string probe, operation;
        vrb::CurveFigure figure = vrb::CurveFigure::unspecified;
        double reach = 0;
        std::vector<vrb::CurvePoint> points;
    };
    std::vector<Curve> curves;
};

Recorded load_recorded(const std::string &name)
{
    const std::string path = std::string(VRAMBENCH_TEST_DATA) + "/plateaus/" + name + ".json";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    const auto j = nlohmann::json::parse(in);
    Recorded r;
    r.info.struct_size = sizeof r.info;
    r.info.known = VRB_KNOWN_COMPUTE_UNITS;
    r.info.compute_units = j.at("compute_units").get<uint32_t>();
    // The data TLBs are not in the sets as published: README.md says where they come from.
    if (j.contains("data_tlb")) {
        vrb_property &tlb = r.info.properties[r.info.property_count++];
        std::snprintf(tlb.key, sizeof tlb.key, "%s", VRB_PROPERTY_DATA_TLB);
        std::snprintf(tlb.value, sizeof tlb.value, "%s", j.at("data_tlb").get<std::string>().c_str());
    }
    for (const auto &c : j.at("caches")) {
        vrb_cache_info &out = r.info.caches[r.info.cache_count++];
        out.level = c.at("level").get<uint32_t>();
        out.bytes = c.at("bytes").get<uint64_t>();
        out.shared_by = c.at("shared_by").is_null() ? 0 : c.at("shared_by").get<uint32_t>();
        const auto kind = c.at("kind").get<std::string>();
        std::snprintf(out.kind, sizeof out.kind, "%s", kind.c_str());
    }
    for (const auto &c : j.at("curves")) {
        Recorded::Curve curve;
        curve.probe = c.at("probe").get<std::string>();
        curve.operation = c.at("operation").get<std::string>();
        curve.figure = c.at("metric") == "latency" ? vrb::CurveFigure::latency : vrb::CurveFigure::bandwidth;
        curve.reach = c.at("reach").get<double>();
        for (const auto &p : c.at("points"))
            curve.points.push_back({p.at(0).get<double>(), p.at(1).get<double>()});
        r.curves.push_back(std::move(curve));
    }
    return r;
}

// The plateaus a probe finds and names on a recorded curve, with the threads it runs
// on: the chase one, the sweeps every unit.
std::vector<vrb::Plateau> named(const Recorded &set, const Recorded::Curve &curve)
{
    const bool chase = curve.figure == vrb::CurveFigure::latency;
    const auto caches = vrb::cache_reach(set.info, chase ? 1 : std::max<uint32_t>(set.info.compute_units, 1));
    auto plateaus = vrb::find_plateaus(curve.points);
    vrb::name_plateaus(plateaus, caches, curve.reach > 0 ? curve.reach : curve.points.back().x, curve.figure, false,
                       vrb::tlb_reach(set.info));
    return plateaus;
}

const Recorded::Curve &curve_of(const Recorded &set, std::string_view operation)
{
    for (const auto &c : set.curves)
        if (c.operation == operation) return c;
    throw std::runtime_error("no " + std::string(operation) + " curve");
}

const char *const recorded_sets[] = {"intel-xeon-vm-standard", "intel-xeon-vm-quick", "epyc-vm-standard",
                                     "epyc-zen3-vm-standard", "epyc-zen5-vm-standard"};

} // namespace

TEST(Plateaus, NeighbouringLevelsWithinTenPercentAreOneLevel)
{
    const auto curve = staircase({100, 108, 20}, {1 << 20, 32 << 20}, 0.01);
    const auto plateaus = vrb::find_plateaus(curve);
    ASSERT_EQ(plateaus.size(), 2u);
    EXPECT_NEAR(std::log2(plateaus[0].ends_at), std::log2(32 << 20), 0.5);
}

TEST(Plateaus, NeighbouringPlateausDifferByMoreThanTenPercentOnEveryRecordedCurve)
{
    for (const char *name : recorded_sets) {
        const Recorded set = load_recorded(name);
        for (const auto &c : set.curves) {
            const auto p = named(set, c);
            for (std::size_t k = 1; k < p.size(); ++k)
                EXPECT_GT(std::max(p[k].level, p[k - 1].level) / std::min(p[k].level, p[k - 1].level), 1.10)
                    << name << " " << c.operation << " plateaus " << k - 1 << " and " << k;
        }
    }
}

TEST(Plateaus, ACacheReportedFarLargerThanACoresShareOfItIsTheSockets)
{
    // The Intel VM: an L3 of 480 MiB "shared by 2", its two vCPUs; the EPYC VM: 508 MiB,
    // sharing unknown; a Zen 3 VM's 32 MiB shared by 2 is a real instance.
    EXPECT_TRUE(vrb::cache_reach(load_recorded("intel-xeon-vm-standard").info, 1).back().socket_wide);
    EXPECT_TRUE(vrb::cache_reach(load_recorded("epyc-vm-standard").info, 2).back().socket_wide);
    EXPECT_FALSE(vrb::cache_reach(load_recorded("epyc-zen3-vm-standard").info, 1).back().socket_wide);
    EXPECT_FALSE(vrb::cache_reach(host_like(), 2).back().socket_wide);
}

TEST(Plateaus, AZen3VmsWritesNameTheL1AndL2TogetherWhereTheirStepIsBelowTheNoise)
{
    // 179-192 GB/s to 64 KiB, 164-168 to 512 KiB: a step of 12 %, below the 15 % that
    // makes two levels.
    const Recorded set = load_recorded("epyc-zen3-vm-standard");
    const auto p = named(set, curve_of(set, "write"));
    EXPECT_EQ(names(p), (Names{"L1+L2", "L3", "memory"}));
    ASSERT_FALSE(p.empty());
    EXPECT_EQ(p[0].starts_at, 4096);
}
