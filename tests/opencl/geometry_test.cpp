// How many work-groups a launch uses on a CPU and on a GPU, with and without passes, and
// how a sweep walks a set below one wave of a GPU: one widest group on every unit.
#include "geometry.hpp"

#include <gtest/gtest.h>

using namespace vrb::opencl;

namespace {
const Geometry cpu{true, 1, 512, 2, false};
const Geometry gpu{false, 256, 64 * 32, 64, false};
} // namespace

TEST(OpenclGeometry, OnePassOnACpuSpreadsBlocksOfAtLeast4096ElementsOverManyGroups)
{
    EXPECT_EQ(launch_groups(cpu, 1, 1), 1u);
    EXPECT_EQ(launch_groups(cpu, 4096, 1), 1u);
    EXPECT_EQ(launch_groups(cpu, 4097, 0), 2u);
    EXPECT_EQ(launch_groups(cpu, 64 * 4096, 1), 64u);
    EXPECT_EQ(launch_groups(cpu, uint64_t(1) << 30, 1), 512u);
}

TEST(OpenclGeometry, SeveralPassesOnACpuGiveOneBlockPerComputeUnit)
{
    EXPECT_EQ(launch_groups(cpu, 64 * 4096, 2), 2u);
    EXPECT_EQ(launch_groups(cpu, uint64_t(1) << 30, 1000), 2u);
    // Fewer blocks than units stay as few: a block is never under 4096 elements.
    EXPECT_EQ(launch_groups(cpu, 100, 5), 1u);
}

TEST(OpenclGeometry, ChosenGroupsHoldWhateverThePasses)
{
    const Geometry chosen{true, 1, 8, 2, true};
    EXPECT_EQ(launch_groups(chosen, 64 * 4096, 1), 8u);
    EXPECT_EQ(launch_groups(chosen, 64 * 4096, 7), 8u);
}

TEST(OpenclGeometry, OnePassOnAGpuGivesEveryWorkItemAnElement)
{
    EXPECT_EQ(launch_groups(gpu, 1, 1), 1u);
    EXPECT_EQ(launch_groups(gpu, 257, 1), 2u);
    EXPECT_EQ(launch_groups(gpu, 256 * 100, 0), 100u);
    EXPECT_EQ(launch_groups(gpu, uint64_t(1) << 30, 1), 64u * 32);
}

TEST(OpenclGeometry, SeveralPassesOnAGpuTakeAtMostOneResidentWave)
{
    // 64 units x 8 groups: a later wave would make its passes over a share L2 keeps.
    EXPECT_EQ(launch_groups(gpu, 256 * 100, 9), 100u);
    EXPECT_EQ(launch_groups(gpu, uint64_t(1) << 30, 2), 64u * kGroupsPerGpuUnit);
    EXPECT_EQ(launch_groups(gpu, uint64_t(1) << 30, 113), 64u * kGroupsPerGpuUnit);
    Geometry chosen = gpu;
    chosen.groups_chosen = true;
    EXPECT_EQ(launch_groups(chosen, uint64_t(1) << 30, 113), 64u * 32);
}

TEST(OpenclGeometry, AKernelsRegistersBoundTheGroupsAGpuUnitKeepsResident)
{
    // ptxas at sm_90: copy_w1 30 registers, read_w4 48, product_sum_w4 64.
    EXPECT_EQ(gpu_groups_per_unit(30, 256), kGroupsPerGpuUnit);
    EXPECT_EQ(gpu_groups_per_unit(48, 256), 5u);
    EXPECT_EQ(gpu_groups_per_unit(64, 256), 4u);
    EXPECT_EQ(gpu_groups_per_unit(0, 256), kGroupsPerGpuUnit) << "no count: the 2048 work-items most units hold";
    EXPECT_EQ(gpu_groups_per_unit(16, 64), kGroupsPerGpuUnit) << "never more groups than kGroupsPerGpuUnit";
    // The SM holds 64 warps whatever the groups' width: narrow groups are as many as
    // without a count, wide ones as many as 2048 work-items make.
    EXPECT_EQ(gpu_groups_per_unit(30, 16), kGroupsPerGpuUnit);
    EXPECT_EQ(gpu_groups_per_unit(16, 1024), 2u);
    EXPECT_EQ(gpu_groups_per_unit(16, 512), 4u);

    // read_w4's wave on 64 units: five groups each, for several passes and for where a
    // sweep's per-unit walk ends.
    Geometry read = gpu;
    read.groups_per_unit = gpu_groups_per_unit(48, 256);
    EXPECT_EQ(launch_groups(read, uint64_t(1) << 30, 48), 64u * 5);
    EXPECT_EQ(launch_groups(read, uint64_t(1) << 30, 1), 64u * 32) << "one pass needs no resident wave";
    EXPECT_TRUE(plan_sweep_walk(read, 64 * 5 * 256 - 1, 1024).per_unit());
    EXPECT_FALSE(plan_sweep_walk(read, 64 * 5 * 256, 1024).per_unit());
}

namespace {
// An H200 as its OpenCL driver describes it: 132 compute units, groups of 256 (the
// device's default width), kernels that run up to 1024 work-items a group.
Geometry h200()
{
    return Geometry{false, 256, 132 * 32, 132, false};
}
} // namespace

TEST(OpenclSweepWalk, BelowOneWaveAGpuWalksTheSetInOneWidestGroupOnEveryComputeUnit)
{
    const Geometry g = h200();
    const uint64_t wave = 132 * kGroupsPerGpuUnit * 256;
    for (uint64_t items : {uint64_t(1), uint64_t(4096 / 4), uint64_t(256) * 1024 / 4, wave - 1}) {
        const SweepWalk walk = plan_sweep_walk(g, items, 1024);
        EXPECT_TRUE(walk.per_unit()) << items;
        EXPECT_EQ(walk.groups, 132u) << "one group a unit, each unit's set its own, not the wave's 8: " << items;
        EXPECT_EQ(walk.local_size, 1024u) << items;
    }
}

TEST(OpenclSweepWalk, FromOneWaveOnTheSetIsSharedOut)
{
    const Geometry g = h200();
    const uint64_t wave = 132 * kGroupsPerGpuUnit * 256;
    EXPECT_FALSE(plan_sweep_walk(g, wave, 1024).per_unit());
    EXPECT_EQ(plan_sweep_walk(g, wave, 1024).groups, 0u);
    EXPECT_FALSE(plan_sweep_walk(g, uint64_t(1) << 30, 1024).per_unit());
    EXPECT_FALSE(plan_sweep_walk(g, 0, 1024).per_unit());
}

TEST(OpenclSweepWalk, ThePerUnitGroupIsNoWiderThanTheKernelAUnitOr1024AllowAndNoNarrowerThanTheDevicesGroups)
{
    Geometry g = h200();
    EXPECT_EQ(plan_sweep_walk(g, 1000, 512).local_size, 512u);
    EXPECT_EQ(plan_sweep_walk(g, 1000, 4096).local_size, 1024u);
    EXPECT_EQ(plan_sweep_walk(g, 1000, 768).local_size, 512u) << "the widest power of two the kernel runs";
    g.groups_per_unit = 2; // registers that leave room for 512 work-items a unit
    EXPECT_EQ(plan_sweep_walk(g, 1000, 1024).local_size, 512u);
    g.groups_per_unit = 1;
    EXPECT_EQ(plan_sweep_walk(g, 100, 1024).local_size, 256u);
    EXPECT_EQ(plan_sweep_walk(g, 100, 1024).groups, 132u);
}

TEST(OpenclSweepWalk, AGroupWidthChosenByOptionIsTheWidthOfThePerUnitWalk)
{
    Geometry g = h200();
    g.local_size = 64;
    g.local_size_chosen = true;
    const SweepWalk walk = plan_sweep_walk(g, 1000, 1024);
    EXPECT_EQ(walk.groups, 132u);
    EXPECT_EQ(walk.local_size, 64u);
}

TEST(OpenclSweepWalk, NoSetIsWalkedPerUnitOnACpuOrWithGroupsChosenByOption)
{
    EXPECT_FALSE(plan_sweep_walk(cpu, 10, 4096).per_unit());
    EXPECT_EQ(plan_sweep_walk(cpu, 10, 4096).groups, 0u);
    Geometry chosen = h200();
    chosen.groups_chosen = true;
    EXPECT_FALSE(plan_sweep_walk(chosen, 10, 1024).per_unit());
    EXPECT_EQ(plan_sweep_walk(chosen, 10, 1024).groups, 0u);
}

TEST(OpenclSweepWalk, EveryGpuUnitWorksAtEverySweepPointFrom4KiB)
{
    for (uint32_t element : {4u, 8u, 16u})
        for (double bytes = 4096; bytes <= double(uint64_t(1) << 32); bytes *= 1.189207) {
            const uint64_t items = static_cast<uint64_t>(bytes) / element;
            const SweepWalk walk = plan_sweep_walk(gpu, items, 1024);
            if (walk.per_unit()) {
                EXPECT_EQ(walk.groups, gpu.compute_units) << items;
                EXPECT_LT(items, gpu.compute_units * kGroupsPerGpuUnit * gpu.local_size) << items;
            } else { // shared out: a wave's groups or more, the last of them with an item too
                const uint64_t groups = launch_groups(gpu, items, 1);
                EXPECT_GE(groups, 64u * kGroupsPerGpuUnit) << items;
                EXPECT_LT((groups - 1) * gpu.local_size, items) << items;
            }
        }
}

TEST(OpenclGeometry, ACpuStreamsStoresOnlyPastHalfItsCacheAnd8MiB)
{
    const uint64_t mib = uint64_t(1) << 20;
    EXPECT_FALSE(streaming_stores(cpu, 16 * mib - 1, 32 * mib));
    EXPECT_TRUE(streaming_stores(cpu, 16 * mib, 32 * mib));
    EXPECT_FALSE(streaming_stores(cpu, 8 * mib - 1, 0)); // a cache the driver does not tell
    EXPECT_TRUE(streaming_stores(cpu, 8 * mib, 0));
    EXPECT_FALSE(streaming_stores(gpu, 1024 * mib, 32 * mib));
}
