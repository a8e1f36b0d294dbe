// The plateaus a working-set sweep plans for, on datacenter GPUs described as their
// modules describe them: each cache level and memory, with at least three of the
// sweep's points inside each, in every suite that names levels (standard and full).
#include "../unit/described_device.hpp"
#include "curve_plan.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

constexpr uint64_t KiB = 1024, MiB = KiB * KiB;

// A CUDA module's description: an L1 per SM beside the L2 all SMs share.
vrb::DeviceRecord through_cuda(vrb::test::Description d, uint64_t l1_bytes)
{
    vrb::DeviceRecord r = vrb::test::describe(d);
    r.info.caches[0].shared_by = d.compute_units;
    r.info.caches[r.info.cache_count++] = vrb_cache_info{1, 1, l1_bytes, "data"};
    return r;
}

vrb::test::Description h100()
{
    vrb::test::Description d = vrb::test::h200();
    d.device = 0x2330;
    d.memory_gib = 80;
    d.memory_clock_mhz = 2619;
    d.bus_bits = 5120;
    d.name = "NVIDIA H100 80GB HBM3";
    return d;
}

vrb::test::Description a100()
{
    vrb::test::Description d;
    d.vendor = 0x10de;
    d.device = 0x20b2;
    d.memory_gib = 80;
    d.compute_units = 108;
    d.bus_bits = 5120;
    d.memory_clock_mhz = 1593;
    d.llc_bytes = 40 * MiB;
    d.name = "NVIDIA A100-SXM4-80GB";
    return d;
}

std::vector<std::string> names(const std::vector<vrb::PlannedPlateau> &plateaus)
{
    std::vector<std::string> out;
    for (const auto &p : plateaus)
        out.push_back(p.name);
    return out;
}

void expect_plateaus(const vrb::DeviceRecord &device, const std::vector<std::string> &expected)
{
    for (vrb::Suite suite : {vrb::Suite::standard, vrb::Suite::full}) {
        vrb::ProbeOptions options;
        options.suite = suite;
        const vrb::CurvePlan plan = vrb::plan_sweep(device, options);
        const auto sizes = vrb::geometric_sizes(plan.from, plan.to, plan.ratio, 4096);
        const auto plateaus = vrb::sweep_plateaus(device, sizes);
        EXPECT_EQ(names(plateaus), expected) << device.info.name;
        for (const auto &p : plateaus)
            EXPECT_GE(p.points, 3u) << device.info.name << ": " << p.name << " from " << p.from_bytes << " to "
                                    << p.to_bytes;
    }
}

TEST(SweepPlateaus, AnH200sSweepHasPointsInsideItsL1ItsL2AndMemory)
{
    const auto h200 = through_cuda(vrb::test::h200(), 256 * KiB);
    expect_plateaus(h200, {"L1", "L2", "memory"});
    // One SM's L1, not 132 of them: the kernels never let the L1s add up.
    const auto plateaus = vrb::sweep_plateaus(h200, {4 * KiB});
    EXPECT_EQ(plateaus[0].to_bytes, 256 * KiB);
    EXPECT_EQ(plateaus[1].from_bytes, 256 * KiB);
    EXPECT_EQ(plateaus[1].to_bytes, 50 * MiB);
}

TEST(SweepPlateaus, AnH100sAndAnA100sToo)
{
    expect_plateaus(through_cuda(h100(), 256 * KiB), {"L1", "L2", "memory"});
    expect_plateaus(through_cuda(a100(), 192 * KiB), {"L1", "L2", "memory"});
}

TEST(SweepPlateaus, AnMi300xsNameItsInfinityCacheAfterItsL2)
{
    // As the HIP module describes it: a CU's 32 KiB L1, each XCD's 4 MiB L2 shared by its
    // 38 CUs (l1_caches.cpp); the device table adds the 256 MiB Infinity Cache.
    vrb::test::Description d = vrb::test::mi300x();
    d.llc_bytes = 4 * MiB;
    d.llc_level = 2;
    vrb::DeviceRecord mi300x = vrb::test::describe(d);
    mi300x.info.caches[0].shared_by = 38;
    mi300x.info.caches[mi300x.info.cache_count++] = vrb_cache_info{1, 1, 32 * KiB, "data"};
    expect_plateaus(mi300x, {"L1", "L2", "L3", "memory"});
}

TEST(SweepPlateaus, ACpusL1sAddUpAsItsCoresShareTheSetOut)
{
    vrb::test::Description d;
    d.type = VRB_DEVICE_CPU;
    d.api = "host";
    d.compute_units = 16;
    d.llc_bytes = 32 * MiB;
    d.llc_level = 3;
    vrb::DeviceRecord cpu = vrb::test::describe(d);
    cpu.info.caches[cpu.info.cache_count++] = vrb_cache_info{1, 1, 48 * KiB, "data"};
    const auto caches = vrb::plan_sweep_caches(cpu);
    ASSERT_FALSE(caches.empty());
    EXPECT_EQ(caches.front().level, 1u);
    EXPECT_EQ(caches.front().most, 16u);
}

} // namespace
