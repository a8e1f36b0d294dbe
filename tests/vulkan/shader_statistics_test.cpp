// Each driver's names for what a compiled shader needs, read into ShaderResources.
#include "shader_statistics.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace vrb::vulkan {
namespace {

TEST(ShaderStatistics, reads_the_registers_nvidias_driver_reports)
{
    const std::vector<Statistic> nvidia = {{"Register Count", 40}, {"Shared Memory Size", 2048}};
    const ShaderResources r = shader_resources(nvidia, 32);
    EXPECT_EQ(r.registers, 40u);
    EXPECT_EQ(r.subgroups_per_simd, 0u);
    EXPECT_EQ(r.subgroup_size, 32u);
}

TEST(ShaderStatistics, reads_the_waves_radv_keeps_in_flight_and_not_its_register_counts)
{
    const std::vector<Statistic> radv = {{"SGPRs", 48}, {"VGPRs", 24}, {"Subgroups per SIMD", 16}};
    const ShaderResources r = shader_resources(radv, 64);
    EXPECT_EQ(r.subgroups_per_simd, 16u);
    EXPECT_EQ(r.registers, 0u) << "RADV's VGPRs are per lane of a wave, not NVIDIA's registers";
    EXPECT_EQ(r.subgroup_size, 64u);
}

TEST(ShaderStatistics, says_nothing_for_a_driver_whose_names_it_does_not_know)
{
    const std::vector<Statistic> other = {{"Instructions", 812}, {"Loops", 3}};
    const ShaderResources r = shader_resources(other, 0);
    EXPECT_EQ(r.registers, 0u);
    EXPECT_EQ(r.subgroups_per_simd, 0u);
    EXPECT_EQ(r.subgroup_size, 0u);
}

} // namespace
} // namespace vrb::vulkan
