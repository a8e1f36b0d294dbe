// Which workgroups walk a small working set: below one full wave of the device it is
// walked whole, by one widest workgroup on every GPU compute unit, by every workgroup of
// every CPU thread on lavapipe, so every unit works at every sweep point from a set of
// its own; from one wave on the set is shared out.
#include "filling_grid.hpp"
#include "splitting.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace vrb::vulkan {
namespace {

constexpr uint32_t kLocal = 256;       // a GPU's workgroup
constexpr uint32_t kLavapipeLocal = 8; // lavapipe's: one SIMD vector (device.cpp)

// Every sweep point from 4 KiB to 4 GiB, a quarter-octave apart, at each element width:
// either every workgroup walks the set, or each of them has at least a workgroup's width
// of elements of its own.
void expect_every_workgroup_works(uint32_t fill, uint32_t local)
{
    for (uint32_t element : {4u, 8u, 16u}) {
        for (double bytes = 4096; bytes <= double(uint64_t(1) << 32); bytes *= 1.189207) {
            const uint64_t count = static_cast<uint64_t>(bytes) / element;
            const uint32_t whole = whole_set_groups(count, fill, local);
            if (whole) {
                ASSERT_EQ(whole, fill) << count << " elements";
            } else {
                ASSERT_GE(count, uint64_t(fill) * local) << count << " elements";
            }
        }
    }
}

TEST(WholeSetGroups, put_work_on_every_cpu_thread_of_lavapipe_at_every_sweep_point_from_4_kib)
{
    for (uint32_t threads : {1u, 2u, 16u, 96u}) {
        DeviceUnits units;
        units.cpu = true;
        units.cpu_threads = threads;
        const uint32_t fill = filling_groups(units, kLavapipeLocal);
        ASSERT_GE(fill, threads);
        expect_every_workgroup_works(fill, kLavapipeLocal);
        // Fewer elements than the threads' workgroups have invocations: each walks all.
        EXPECT_EQ(whole_set_groups(7, fill, kLavapipeLocal), threads * kWorkgroupsPerCpuThread);
    }
}

TEST(WholeSetGroups, put_work_on_all_132_sms_of_an_h200_at_every_sweep_point_from_4_kib)
{
    DeviceUnits units;
    units.compute_units = 132;
    units.resident_threads = 2048;
    const uint32_t fill = filling_groups(units, kLocal);
    EXPECT_EQ(fill, 132u * 8);
    expect_every_workgroup_works(fill, kLocal);
    EXPECT_EQ(whole_set_groups(4096 / 4, fill, kLocal), fill); // 4 KiB: every SM walks it
}

TEST(WholeSetGroups, share_the_set_out_from_one_full_wave_and_where_nothing_says_what_fills_the_device)
{
    EXPECT_EQ(whole_set_groups(16 * kLocal - 1, 16, kLocal), 16u);
    EXPECT_EQ(whole_set_groups(16 * kLocal, 16, kLocal), 0u);
    EXPECT_EQ(whole_set_groups(100, 0, kLocal), 0u);
    EXPECT_EQ(whole_set_groups(0, 16, kLocal), 0u);
}

// An H200 as its Vulkan driver describes it (VK_NV_shader_sm_builtins): 132 SMs of 64
// warps of 32, workgroups of up to 1024 invocations.
DeviceUnits h200_sms()
{
    DeviceUnits units;
    units.compute_units = 132;
    units.resident_threads = 2048;
    units.subgroup_size = 32;
    units.nvidia_sms = true;
    return units;
}

TEST(SweepWalk, below_one_wave_a_gpu_walks_the_set_in_one_widest_workgroup_on_every_compute_unit)
{
    const DeviceUnits units = h200_sms();
    const uint32_t fill = filling_groups(units, kLocal);
    for (uint64_t count : {uint64_t(1), uint64_t(4096 / 4), uint64_t(fill) * kLocal - 1}) {
        const SweepWalk walk = plan_sweep_walk(count, units, fill, kLocal, 1024);
        EXPECT_TRUE(walk.per_unit()) << count;
        EXPECT_EQ(walk.groups, 132u) << "one workgroup a unit, each unit's set its own: " << count;
        EXPECT_EQ(walk.local_size, 1024u) << count;
    }
}

TEST(SweepWalk, from_one_wave_on_the_set_is_shared_out)
{
    const DeviceUnits units = h200_sms();
    const uint32_t fill = filling_groups(units, kLocal);
    EXPECT_FALSE(plan_sweep_walk(uint64_t(fill) * kLocal, units, fill, kLocal, 1024).per_unit());
    EXPECT_FALSE(plan_sweep_walk(uint64_t(1) << 30, units, fill, kLocal, 1024).per_unit());
    EXPECT_FALSE(plan_sweep_walk(0, units, fill, kLocal, 1024).per_unit());
}

TEST(SweepWalk, the_per_unit_workgroup_is_no_wider_than_the_device_or_a_unit_allows_and_no_narrower_than_the_grids)
{
    DeviceUnits units = h200_sms();
    const uint32_t fill = filling_groups(units, kLocal);
    EXPECT_EQ(plan_sweep_walk(1000, units, fill, kLocal, 512).local_size, 512u);
    EXPECT_EQ(plan_sweep_walk(1000, units, fill, kLocal, 4096).local_size, 1024u);
    units.resident_threads = 768; // not a power of two: the widest power of two below it
    EXPECT_EQ(plan_sweep_walk(1000, units, filling_groups(units, kLocal), kLocal, 1024).local_size, 512u);
    units.resident_threads = 128;
    EXPECT_EQ(plan_sweep_walk(100, units, 132, kLocal, 1024).local_size, kLocal);
}

TEST(SweepWalk, lavapipe_walks_a_small_set_on_every_workgroup_of_every_cpu_thread_at_its_own_width)
{
    DeviceUnits units;
    units.cpu = true;
    units.cpu_threads = 16;
    const uint32_t fill = filling_groups(units, kLavapipeLocal);
    const SweepWalk walk = plan_sweep_walk(1000, units, fill, kLavapipeLocal, 1024);
    EXPECT_EQ(walk.groups, fill);
    EXPECT_EQ(walk.local_size, kLavapipeLocal);
}

TEST(SweepWalk, nothing_saying_what_fills_the_device_shares_the_set_out)
{
    EXPECT_FALSE(plan_sweep_walk(100, DeviceUnits{}, 0, kLocal, 1024).per_unit());
}

} // namespace
} // namespace vrb::vulkan
