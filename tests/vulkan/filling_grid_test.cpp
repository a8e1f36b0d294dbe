// How many workgroups fill a device once, from what the device says about its units.
#include "filling_grid.hpp"

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

} // namespace
} // namespace vrb::vulkan
