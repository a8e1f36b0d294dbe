// How many workgroups fill a device once, from what the device says about its units.
#include "filling_grid.hpp"
#include "nvidia_residency.hpp"

#include <gtest/gtest.h>

namespace vrb::vulkan {
namespace {

TEST(FillingGroups, is_a_few_workgroups_per_thread_on_a_cpu_implementation)
{
    EXPECT_EQ(filling_groups({true, 2, 0, 0}, 8), 2u * kWorkgroupsPerCpuThread);
    EXPECT_EQ(filling_groups({true, 64, 0, 0}, 256), 64u * kWorkgroupsPerCpuThread);
    EXPECT_EQ(filling_groups({true, 0, 0, 0}, 8), kWorkgroupsPerCpuThread) << "a CPU that reports no threads has one";
}

TEST(FillingGroups, is_every_unit_times_the_workgroups_it_keeps_resident_on_a_gpu)
{
    // 132 SMs of 64 resident warps of 32: eight 256-wide workgroups each.
    EXPECT_EQ(filling_groups({false, 0, 132, 64 * 32}, 256), 132u * 8);
    // 104 CUs of 4 SIMDs x 8 waves of 64: 2048 invocations, eight 256-wide workgroups.
    EXPECT_EQ(filling_groups({false, 0, 104, 4 * 8 * 64}, 256), 104u * 8);
    EXPECT_EQ(filling_groups({false, 0, 10, 128}, 256), 10u) << "a unit always holds one workgroup";
}

TEST(FillingGroups, is_zero_when_the_gpu_does_not_say_so_the_caller_keeps_its_bound)
{
    EXPECT_EQ(filling_groups({false, 16, 0, 0}, 256), 0u);
    EXPECT_EQ(filling_groups({false, 16, 80, 0}, 256), 0u);
}

// An H200 as NVIDIA's driver describes it: 132 SMs of 64 warps of 32.
DeviceUnits nvidia_sms()
{
    DeviceUnits units;
    units.compute_units = 132;
    units.resident_threads = 64 * 32;
    units.subgroup_size = 32;
    units.nvidia_sms = true;
    return units;
}

TEST(FillingGroups, is_bounded_by_the_registers_nvidias_driver_says_the_shader_takes)
{
    // 32 registers: 64 warps fit, eight 256-wide workgroups, as without statistics.
    EXPECT_EQ(filling_groups(nvidia_sms(), 256, {32, 0, 32}), 132u * 8);
    // 40 registers: 1280 a warp, 12 warps in each of four 16K partitions, 48 warps: six.
    EXPECT_EQ(filling_groups(nvidia_sms(), 256, {40, 0, 32}), 132u * 6);
    // 64 registers: 2048 a warp, 8 a partition, 32 warps: four workgroups, half the
    // wave the warp count alone promises.
    EXPECT_EQ(filling_groups(nvidia_sms(), 256, {64, 0, 32}), 132u * 4);
    // 33 registers round up to 1280 a warp, as 40 do.
    EXPECT_EQ(filling_groups(nvidia_sms(), 256, {33, 0, 32}), 132u * 6);
    EXPECT_EQ(filling_groups(nvidia_sms(), 1024, {255, 0, 32}), 132u) << "a unit always holds one workgroup";
    EXPECT_EQ(filling_groups(nvidia_sms(), 256, {0xffffffffu, 0, 32}), 132u)
        << "a count past NVIDIA's 255 is taken as 255, not a division by an overflowed zero";
}

TEST(FillingGroups, keeps_small_workgroups_to_what_every_nvidia_sm_holds)
{
    // 64 warps would hold 64 workgroups of 32; Turing and GA10x hold 16.
    EXPECT_EQ(filling_groups(nvidia_sms(), 32, {16, 0, 32}), 132u * residency::kNvidiaGroupsPerSm);
}

TEST(FillingGroups, is_bounded_by_the_waves_radv_says_a_simd_keeps_in_flight)
{
    DeviceUnits units;
    units.compute_units = 96;
    units.resident_threads = 2 * 16 * 32; // RDNA3: 2 SIMDs of 16 wave32 each
    units.subgroup_size = 64;
    units.simds_per_unit = 2;
    // Compiled for wave32: 8 waves a workgroup of 256; 6 a SIMD, 12 a CU: one workgroup.
    EXPECT_EQ(filling_groups(units, 256, {0, 6, 32}), 96u * 1);
    // 16 a SIMD: four, as the thread count allows.
    EXPECT_EQ(filling_groups(units, 256, {0, 16, 32}), 96u * 4);
    EXPECT_EQ(filling_groups(units, 256, {0, 0xffffffffu, 32}), 96u * 4) << "a count no driver means overflows nothing";
}

TEST(FillingGroups, ignores_statistics_it_cannot_place_on_a_unit)
{
    DeviceUnits units = nvidia_sms();
    units.nvidia_sms = false; // a driver that names registers on a device it does not describe
    EXPECT_EQ(filling_groups(units, 256, {64, 0, 32}), 132u * 8);
    EXPECT_EQ(filling_groups(nvidia_sms(), 256, {}), 132u * 8) << "no statistics: the warp count alone";
    EXPECT_EQ(filling_groups({true, 2, 0, 0}, 256, {255, 1, 32}), 2u * kWorkgroupsPerCpuThread)
        << "a CPU implementation's workgroups are tasks, not resident waves";
}

} // namespace
} // namespace vrb::vulkan
