// Environment settings are read strictly: a malformed value is an error, not a default.
#include "options.hpp"

#include <vrambench/plugin_support.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace vrb::vulkan {
namespace {

class OptionsFromEnvironment : public ::testing::Test {
  protected:
    void TearDown() override
    {
        for (const char *name :
             {"VRAMBENCH_VULKAN_SEGMENT_BYTES", "VRAMBENCH_VULKAN_STAGING", "VRAMBENCH_VULKAN_STAGING_BYTES",
              "VRAMBENCH_VULKAN_LOCAL_SIZE", "VRAMBENCH_VULKAN_CHASE", "VRAMBENCH_VULKAN_UNITS"})
            unsetenv(name);
    }
};

TEST_F(OptionsFromEnvironment, are_read_when_well_formed)
{
    setenv("VRAMBENCH_VULKAN_SEGMENT_BYTES", "65536", 1);
    setenv("VRAMBENCH_VULKAN_STAGING", "always", 1);
    setenv("VRAMBENCH_VULKAN_STAGING_BYTES", "12288", 1);
    const Options o = read_options();
    EXPECT_EQ(o.segment_bytes, 65536u);
    EXPECT_TRUE(o.always_stage);
    EXPECT_EQ(o.staging_bytes, 12288u);
}

TEST_F(OptionsFromEnvironment, refuse_a_segment_size_that_is_not_a_power_of_two)
{
    setenv("VRAMBENCH_VULKAN_SEGMENT_BYTES", "65537", 1);
    EXPECT_THROW(read_options(), plugin::Failure);
    setenv("VRAMBENCH_VULKAN_SEGMENT_BYTES", "64k", 1);
    EXPECT_THROW(read_options(), plugin::Failure);
}

TEST_F(OptionsFromEnvironment, refuse_an_unknown_staging_mode_and_a_huge_workgroup)
{
    setenv("VRAMBENCH_VULKAN_STAGING", "sometimes", 1);
    EXPECT_THROW(read_options(), plugin::Failure);
    unsetenv("VRAMBENCH_VULKAN_STAGING");
    setenv("VRAMBENCH_VULKAN_LOCAL_SIZE", "2048", 1);
    EXPECT_THROW(read_options(), plugin::Failure);
}

TEST_F(OptionsFromEnvironment, take_the_units_given_and_refuse_none_or_a_word)
{
    EXPECT_EQ(read_options().units, 0u) << "unset: what the driver says";
    setenv("VRAMBENCH_VULKAN_UNITS", "132", 1);
    EXPECT_EQ(read_options().units, 132u);
    for (const char *bad : {"0", "many", "-2"}) {
        setenv("VRAMBENCH_VULKAN_UNITS", bad, 1);
        try {
            read_options();
            ADD_FAILURE() << bad << " was accepted";
        } catch (const plugin::Failure &f) {
            EXPECT_NE(std::string(f.what()).find("VRAMBENCH_VULKAN_UNITS"), std::string::npos) << f.what();
        }
    }
}

TEST_F(OptionsFromEnvironment, name_the_chase_walk_asked_for_and_refuse_any_other)
{
    EXPECT_EQ(read_options().chase, ChaseWalk::Automatic);
    setenv("VRAMBENCH_VULKAN_CHASE", "indices", 1);
    EXPECT_EQ(read_options().chase, ChaseWalk::Indices);
    setenv("VRAMBENCH_VULKAN_CHASE", "addresses", 1);
    EXPECT_EQ(read_options().chase, ChaseWalk::Addresses);
    setenv("VRAMBENCH_VULKAN_CHASE", "pointers", 1);
    try {
        read_options();
        FAIL() << "VRAMBENCH_VULKAN_CHASE=pointers was accepted";
    } catch (const plugin::Failure &f) {
        EXPECT_NE(std::string(f.what()).find("VRAMBENCH_VULKAN_CHASE=pointers"), std::string::npos) << f.what();
    }
}

} // namespace
} // namespace vrb::vulkan
