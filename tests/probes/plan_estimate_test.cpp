#include "curve_plan.hpp"
#include "planned_devices.hpp"

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/planning/plan.hpp>
#include <vrambench/core/probes/probe.hpp>

#include <gtest/gtest.h>

#include <algorithm>

using vrb::KiB;
using vrb::MiB;

namespace {

using vrb::test::every_probe;

// The 2-core VM CI runs on: CPUID reports a 508 MiB L3 for the whole package, and
// there is no sysfs cache topology to say that two cores reach one complex's share.
vrb::DeviceRecord two_core_vm()
{
    vrb::test::Description d;
    d.api = "host";
    d.type = VRB_DEVICE_CPU;
    d.compute_units = 2;
    d.memory_gib = 8;
    d.llc_bytes = 508 * MiB;
    d.llc_level = 3;
    auto r = vrb::test::describe(d);
    auto add = [&](uint32_t level, uint64_t bytes) {
        vrb_cache_info &c = r.info.caches[r.info.cache_count++];
        c.level = level;
        c.bytes = bytes;
        std::snprintf(c.kind, sizeof c.kind, "data");
    };
    add(1, 48 << 10);
    add(2, 1 * MiB);
    r.kinds[0].flags = VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_HOST_MEMORY | VRB_MEMORY_PAGEABLE;
    return r;
}

const vrb::ProbePlan &find(const vrb::DevicePlan &plan, std::string_view probe)
{
    return vrb::test::planned(plan, probe);
}

void expect_past_four_times_the_cache(const vrb::DeviceRecord &device, uint64_t llc)
{
    vrb::ProbeOptions standard;
    const auto plan = vrb::plan_device(device, every_probe(), standard);
    EXPECT_EQ(plan.last_level_cache.bytes, llc);
    const auto &sweep = find(plan, "bandwidth.sweep");
    EXPECT_GE(sweep.sizes["to_bytes"].get<uint64_t>(), 4 * llc);
    EXPECT_EQ(sweep.reason, "memory");
    const auto &chase = find(plan, "latency.chase");
    EXPECT_GE(chase.sizes["to_bytes"].get<uint64_t>(), 4 * llc);
    // The loads of one run alone reach 4 x the cache in distinct lines.
    EXPECT_GE(chase.sizes["largest_footprint_bytes"].get<uint64_t>(), 4 * llc);
    EXPECT_GE(chase.sizes["most_steps"].get<uint64_t>() * vrb::line_bytes, 4 * llc);
    for (const char *pattern : {"pattern.stride", "pattern.alignment"})
        EXPECT_GE(find(plan, pattern)
                      .sizes[std::string_view(pattern) == "pattern.stride" ? "footprint_bytes" : "array_bytes"]
                      .get<uint64_t>(),
                  4 * llc)
            << pattern;
    // The data alone past 4 x the cache: random indices miss every level.
    EXPECT_GE(find(plan, "pattern.gather").sizes["array_bytes"].get<uint64_t>(), 4 * llc);
    EXPECT_EQ(plan.peak.source, "datasheet");
}

} // namespace

TEST(Plans, TakeAnH200sSweepAndChasePastFourTimesItsL2WithTheDatasheetPeak)
{
    const auto h200 = vrb::test::describe(vrb::test::h200());
    expect_past_four_times_the_cache(h200, 50 * MiB);
    EXPECT_DOUBLE_EQ(*vrb::plan_device(h200, every_probe(), {}).peak.gb_per_s, 4800);
}

TEST(Plans, GiveAKnownCardsComputeUnitsTheirL1WhereTheApiReportsNone)
{
    // An H200 through Vulkan: no caches reported, its SMs counted.
    auto d = vrb::test::h200();
    d.api = "Vulkan";
    d.llc_bytes = 0;
    const auto h200 = vrb::test::describe(d);
    const auto sweep = vrb::plan_caches(h200, 132);
    ASSERT_FALSE(sweep.empty());
    EXPECT_EQ(sweep.front().level, 1u);
    EXPECT_EQ(sweep.front().bytes, 256 * KiB);
    EXPECT_EQ(sweep.front().fewest, 132u); // one per SM, every SM reading
    EXPECT_EQ(sweep.front().most, 132u);
    EXPECT_EQ(sweep.back().bytes, 50 * MiB); // the table's L2 after it, as level 2
    EXPECT_EQ(sweep.back().level, 2u);
    const auto chase = vrb::plan_caches(h200, 1);
    EXPECT_EQ(chase.front().fewest * chase.front().bytes, 256 * KiB);

    // A module that reports its own L1 keeps it, and no second one is added.
    auto reported = vrb::test::describe(vrb::test::h200());
    reported.info.caches[reported.info.cache_count++] = vrb_cache_info{1, 1, 200 * KiB, "data"};
    const auto own = vrb::plan_caches(reported, 132);
    EXPECT_EQ(std::count_if(own.begin(), own.end(), [](const vrb::CacheReach &c) { return c.level == 1; }), 1);
    EXPECT_EQ(own.front().bytes, 200 * KiB);

    // Where the L1s together outgrow the L2 (an RTX 3090: 82 x 128 KiB against 6 MiB),
    // the table's L2 still follows them.
    vrb::test::Description rtx3090;
    rtx3090.api = "Vulkan";
    rtx3090.vendor = 0x10de;
    rtx3090.device = 0x2204;
    rtx3090.memory_gib = 24;
    rtx3090.compute_units = 82;
    const auto ga102 = vrb::plan_caches(vrb::test::describe(rtx3090), 82);
    ASSERT_EQ(ga102.size(), 2u);
    EXPECT_EQ(ga102[0].bytes * ga102[0].most, 82 * 128 * KiB);
    EXPECT_EQ(ga102[1].level, 2u);
    EXPECT_EQ(ga102[1].bytes, 6 * MiB);

    // A card the table does not know gets none.
    auto unknown = d;
    unknown.device = 0x1234;
    EXPECT_TRUE(vrb::plan_caches(vrb::test::describe(unknown), 132).empty());
}

TEST(Plans, TakeAnMi300xsSweepAndChasePastFourTimesItsInfinityCacheWithTheDatasheetPeak)
{
    const auto mi300x = vrb::test::describe(vrb::test::mi300x());
    expect_past_four_times_the_cache(mi300x, 256 * MiB);
    EXPECT_GE(vrb::plan_chase(mi300x, {}).to, 1ull << 30);
    EXPECT_DOUBLE_EQ(*vrb::plan_device(mi300x, every_probe(), {}).peak.gb_per_s, 5300);
}

TEST(Plans, KeepTheQuickSuiteOnATwoCoreVmWithAPackageWideL3UnderFiveSeconds)
{
    vrb::ProbeOptions quick;
    quick.suite = vrb::Suite::quick;
    const auto plan = vrb::plan_device(two_core_vm(), every_probe(), quick);
    EXPECT_LT(plan.seconds, 5.0) << vrb::plan_text(plan);
    // Sized from what two cores reach, not from the package's 508 MiB.
    EXPECT_LE(find(plan, "bandwidth.sweep").sizes["to_bytes"].get<uint64_t>(), 128 * MiB);
    EXPECT_EQ(find(plan, "bandwidth.sweep").reason, "cache");
}

// The Intel Xeon VM of tests/data/plateaus: L1d 48 KiB and L2 2 MiB a core, the socket's
// 480 MiB L3 reported as shared by its two vCPUs.
using vrb::test::intel_two_vcpu_vm;

TEST(Plans, KeepTheQuickSuiteOnATwoVcpuVmWhoseL3IsTheSocketsUnderFiveSecondsWithinItsCap)
{
    vrb::ProbeOptions quick;
    quick.suite = vrb::Suite::quick;
    const auto plan = vrb::plan_device(intel_two_vcpu_vm(), every_probe(), quick);
    EXPECT_LT(plan.seconds, 5.0) << vrb::plan_text(plan);
    for (const auto &p : plan.probes) {
        for (const char *size : {"to_bytes", "largest_footprint_bytes", "array_bytes", "footprint_bytes"}) {
            if (p.sizes.contains(size) && p.sizes[size].is_number()) {
                EXPECT_LE(p.sizes[size].get<uint64_t>(), vrb::quick_most_bytes) << p.probe << " " << size;
            }
        }
    }
    EXPECT_EQ(find(plan, "bandwidth.sweep").sizes["to_bytes"].get<uint64_t>(), vrb::quick_most_bytes);
    EXPECT_EQ(find(plan, "bandwidth.sweep").reason, "cap");
    EXPECT_EQ(find(plan, "latency.chase").sizes["to_bytes"].get<uint64_t>(), vrb::quick_most_bytes);
    // The standard suite still sizes from the cache: its sweep passes 4 x the 480 MiB.
    const auto standard = vrb::plan_device(intel_two_vcpu_vm(), every_probe(), {});
    EXPECT_GT(find(standard, "bandwidth.sweep").sizes["to_bytes"].get<uint64_t>(), 4 * 480 * MiB);
}

TEST(Plans, LeaveAGpusQuickSizesToItsCache)
{
    // An MI300X's 256 MiB Infinity Cache: its quick sweep passes it twice over.
    vrb::ProbeOptions quick;
    quick.suite = vrb::Suite::quick;
    const auto plan = vrb::plan_device(vrb::test::describe(vrb::test::mi300x()), every_probe(), quick);
    EXPECT_GE(find(plan, "bandwidth.sweep").sizes["to_bytes"].get<uint64_t>(), 512 * MiB);
}

TEST(Plans, EstimateMoreTimeForMoreBytesAndLongerRuns)
{
    vrb::Throughput t;
    t.device_gb_per_s = 10;
    t.host_gb_per_s = 5;
    t.seconds_per_run = 0;
    vrb::Cost cost;
    cost.runs.push_back({10, 1e9, 0, 0, 0}); // 10 runs of 1 GB at 10 GB/s
    EXPECT_NEAR(vrb::estimate_seconds(cost, t), 1.0, 1e-9);
    cost.runs.push_back({4, 0, 0, 0, 0.25}); // four runs stretched to 0.25 s each
    cost.host_bytes = 5e9;
    EXPECT_NEAR(vrb::estimate_seconds(cost, t), 3.0, 1e-9);
}

TEST(Plans, FollowTheLlcOptionOverTheApi)
{
    auto h200 = vrb::test::describe(vrb::test::h200());
    h200.llc_option = 512 * MiB;
    const auto plan = vrb::plan_device(h200, every_probe(), {});
    EXPECT_EQ(plan.last_level_cache.source, "option");
    EXPECT_GE(find(plan, "latency.chase").sizes["to_bytes"].get<uint64_t>(), 2048 * MiB);
}

TEST(Plans, FitTheStandardSuiteOfAnH200InAMinuteAndOfAnMi300xInAMinuteAndAHalf)
{
    for (const auto &[described, most] : {std::pair{vrb::test::h200(), 60.0}, std::pair{vrb::test::mi300x(), 90.0}}) {
        const auto plan = vrb::plan_device(vrb::test::describe(described), every_probe(), {});
        EXPECT_LE(plan.seconds, most) << vrb::plan_text(plan);
        // The chase still ends with one lap of 4 x the cache: a memory latency.
        const auto &chase = find(plan, "latency.chase");
        EXPECT_EQ(chase.sizes["largest_footprint_bytes"].get<uint64_t>(), 4 * described.llc_bytes);
    }
}

TEST(Plans, StepAStandardChasePastTheCacheByDoublingWithTwoRunsEach)
{
    const auto h200 = vrb::test::describe(vrb::test::h200());
    const vrb::CurvePlan plan = vrb::plan_chase(h200, {});
    const auto sizes = vrb::chase_sizes(plan);
    std::vector<uint64_t> past;
    for (uint64_t x : sizes)
        if (x > 50 * MiB) past.push_back(x);
    EXPECT_EQ(past, (std::vector<uint64_t>{100 * MiB, 200 * MiB}));
    EXPECT_EQ(vrb::chase_reps(plan, 200 * MiB), 2u);
    EXPECT_EQ(vrb::chase_reps(plan, 32 * MiB), plan.reps);
    // Below the cache the grid keeps its ratio; the full suite keeps it all the way.
    EXPECT_GT(std::count_if(sizes.begin(), sizes.end(), [](uint64_t x) { return x <= 50 * MiB; }), 25);
    vrb::ProbeOptions full;
    full.suite = vrb::Suite::full;
    const vrb::CurvePlan f = vrb::plan_chase(h200, full);
    EXPECT_EQ(f.coarse_from, 0u);
    EXPECT_EQ(f.to, 400 * MiB);
}

// A run over a small chain laps it until it has made as many loads as docs/probes.md
// says, so even a chain of a few lines is timed over a run the timer resolves.
TEST(Plans, LapASmallChaseChainFor2To13LoadsQuick2To17StandardAnd2To18Full)
{
    const auto h200 = vrb::test::describe(vrb::test::h200());
    for (const auto &[suite, least] :
         {std::pair{vrb::Suite::quick, uint64_t{1} << 13}, std::pair{vrb::Suite::standard, uint64_t{1} << 17},
          std::pair{vrb::Suite::full, uint64_t{1} << 18}}) {
        vrb::ProbeOptions options;
        options.suite = suite;
        SCOPED_TRACE(static_cast<int>(suite));
        const vrb::CurvePlan plan = vrb::plan_chase(h200, options);
        EXPECT_EQ(plan.least_steps, least);
        EXPECT_GE(plan.most_steps, plan.least_steps);
    }
}

// The plan says from which footprint the chase's last plateau is memory: 4 x the
// last-level cache, as name_plateaus() calls it.
TEST(Plans, SayTheChasesLastPlateauIsMemoryPastFourTimesTheLastLevelCache)
{
    for (const auto &described : {vrb::test::h200(), vrb::test::mi300x()}) {
        const auto plan = vrb::plan_device(vrb::test::describe(described), every_probe(), {});
        EXPECT_EQ(find(plan, "latency.chase").sizes["memory_reach_bytes"].get<uint64_t>(), 4 * described.llc_bytes);
    }
}

TEST(Plans, TakeTheChaseOfACardWithNoKnownCacheThroughOneLapOfEachSpanAndGrowItPastThePlan)
{
    vrb::test::Description unknown;
    unknown.vendor = 0x10de;
    unknown.device = 0xffff; // in no table
    unknown.memory_gib = 180;
    unknown.compute_units = 148;
    const auto device = vrb::test::describe(unknown);
    ASSERT_EQ(device.last_level_cache_bytes(), 0u);
    const vrb::CurvePlan plan = vrb::plan_chase(device, {});
    // Planned to the largest cache the table knows, then grown until the latency settles.
    EXPECT_EQ(plan.to, 256 * MiB);
    EXPECT_TRUE(plan.grow);
    // Past a 126 MB L2 (a B200's) by far: every point, grown ones too, is one lap of its span.
    EXPECT_GE(plan.most_steps * vrb::line_bytes, plan.grow.most_bytes);
    EXPECT_EQ(plan.coarse_from, 64 * MiB);
    EXPECT_EQ(vrb::chase_warmups(plan, 1ull << 30, 0), 0u);
    const auto plan_all = vrb::plan_device(device, every_probe(), {});
    EXPECT_EQ(find(plan_all, "latency.chase").sizes["largest_footprint_bytes"].get<uint64_t>(), 256 * MiB);
    EXPECT_EQ(find(plan_all, "latency.chase").reason, "grow");
}

TEST(PlanEstimate, ACpusTransferPlanCostsTheFirstTouchOfTheMostBuffersOneRouteTakesOfEachKind)
{
    // The host has one kind: both directions at once take four buffers of it, the one-way
    // route two that the run's pool hands on, so four are first touched, not six; their
    // page faults took longer than the timed copies on a 2-vCPU VM.
    const auto cpu = vrb::plan_device(vrb::test::intel_two_vcpu_vm(), every_probe(), {});
    const auto &transfer = find(cpu, "bandwidth.transfer");
    const double largest = transfer.sizes["to_bytes"].get<double>();
    EXPECT_DOUBLE_EQ(transfer.cost.first_touch_bytes, 4 * largest);
    EXPECT_GE(transfer.seconds, 4 * largest / (cpu.throughput.first_touch_gb_per_s * 1e9));
}

TEST(PlanEstimate, ACpusStridePlanCostsTheFirstTouchOfItsArrayAndAGpusOnlyItsAllocation)
{
    // The Xeon VM's stride array spans 64 x its footprint (a page's stride); its page
    // faults, not its reads, took the time on a CPU. A GPU backs and maps its pages at
    // allocation, far faster than a CPU faults them.
    const auto cpu = vrb::plan_device(vrb::test::intel_two_vcpu_vm(), every_probe(), {});
    const auto &stride = find(cpu, "pattern.stride");
    const double span = stride.sizes["array_bytes"].get<double>();
    EXPECT_GE(stride.seconds, span / (cpu.throughput.first_touch_gb_per_s * 1e9));
    EXPECT_GT(cpu.throughput.first_touch_gb_per_s, 0);
    const auto gpu = vrb::plan_device(vrb::test::describe(vrb::test::h200()), every_probe(), {});
    EXPECT_GT(gpu.throughput.first_touch_gb_per_s, 10 * cpu.throughput.first_touch_gb_per_s);
    EXPECT_LT(find(gpu, "pattern.stride").seconds, 5);
}

namespace {

// An H200 as the CUDA module describes it: device memory, pinned host memory its kernels
// reach through the mapping, and pageable host memory they do not.
vrb::DeviceRecord h200_with_host_kinds()
{
    vrb::DeviceRecord r = vrb::test::describe(vrb::test::h200());
    const uint32_t host = VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_HOST_COHERENT | VRB_MEMORY_HOST_MEMORY;
    for (const auto &[name, flags] : {std::pair{"pinned", host | VRB_MEMORY_PINNED | VRB_MEMORY_DEVICE_ACCESS},
                                      std::pair{"pageable", host | VRB_MEMORY_PAGEABLE}}) {
        vrb_memory_kind_info kind{};
        kind.struct_size = sizeof kind;
        kind.flags = flags;
        std::snprintf(kind.name, sizeof kind.name, "%s", name);
        r.kinds.push_back(kind);
    }
    r.info.type = VRB_DEVICE_DISCRETE_GPU;
    return r;
}

std::vector<std::string> route_names(const vrb::DeviceRecord &device)
{
    const vrb::DevicePlan plan = vrb::plan_device(device, every_probe(), {});
    return find(plan, "bandwidth.transfer").sizes.at("route_names").get<std::vector<std::string>>();
}

} // namespace

TEST(PlanEstimate, AnH200sStandardPlanCopiesEachWayByTheCopyEngineAndByTheSmsWhereKernelsReachBothEnds)
{
    const vrb::DeviceRecord h200 = h200_with_host_kinds();
    const std::vector<std::string> names = route_names(h200);
    for (const char *route : {"host-to-device pinned (ce)", "device-to-host pinned (ce)", "device-to-device (ce)",
                              "host-to-device pinned (sm)", "device-to-host pinned (sm)", "device-to-device (sm)",
                              "both-directions pinned (ce)", "host-to-device pageable (ce)"})
        EXPECT_NE(std::find(names.begin(), names.end(), route), names.end()) << route;
    // Kernels do not reach pageable memory here, and both ways at once is the copy engines'.
    for (const char *route : {"host-to-device pageable (sm)", "both-directions pinned (sm)"})
        EXPECT_EQ(std::find(names.begin(), names.end(), route), names.end()) << route;
    EXPECT_LE(vrb::plan_device(h200, every_probe(), {}).seconds, 60.0);
}

TEST(PlanEstimate, ACpuCopiesByItsCopyRoutinesOnly)
{
    vrb::DeviceRecord cpu = vrb::test::describe(vrb::test::h200());
    cpu.info.type = VRB_DEVICE_CPU;
    for (const std::string &name : route_names(cpu))
        EXPECT_TRUE(name.ends_with("(ce)")) << name;
}

TEST(PlanEstimate, AnInteropBandwidthPlanTakesArraysNoLargerThanTheDeviceSharesInOneAllocation)
{
    // lavapipe binds at most 128 MiB in one descriptor, so it shares no larger a buffer,
    // and the run caps interop.bandwidth's arrays there: so does the plan it is costed by.
    vrb::DeviceRecord lavapipe = vrb::test::intel_two_vcpu_vm();
    std::snprintf(lavapipe.info.api, sizeof lavapipe.info.api, "Vulkan");
    vrb::ProbeOptions o;
    o.partner_modules = {"vrambench-host.so"};
    const auto uncapped = find(vrb::plan_device(lavapipe, every_probe(), o), "interop.bandwidth");
    ASSERT_GT(uncapped.sizes["array_bytes"].get<uint64_t>(), 128 * MiB);
    vrb_property &bound = lavapipe.info.properties[lavapipe.info.property_count++];
    std::snprintf(bound.key, sizeof bound.key, "external.max_bytes");
    std::snprintf(bound.value, sizeof bound.value, "%llu", 128ull * MiB);
    const auto capped = find(vrb::plan_device(lavapipe, every_probe(), o), "interop.bandwidth");
    EXPECT_EQ(capped.sizes["array_bytes"].get<uint64_t>(), 128 * MiB);
    EXPECT_NE(capped.size_rule.find("capped to 128 MiB"), std::string::npos) << capped.size_rule;
    EXPECT_LT(capped.seconds, uncapped.seconds);
}
