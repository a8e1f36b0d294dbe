// The modules' own messages: warnings and errors always reach stderr; their info and
// debug messages (what a GPU run did and why) only where VRAMBENCH_LOG asks.
#include "run_process.hpp"

#include <gtest/gtest.h>

namespace {

// The host module says at info level how many NUMA nodes it found, on every machine.
const std::string numa_note = "info: NUMA nodes:";

TEST(ModuleLog, InfoAndDebugMessagesStayHiddenByDefault)
{
    const ProcessResult list = vrambench({"list"}, {"VRAMBENCH_LOG="});
    ASSERT_EQ(list.exit_code, 0) << list.err;
    EXPECT_FALSE(contains(list.err, numa_note)) << list.err;
    EXPECT_FALSE(contains(list.err, "debug:")) << list.err;
}

TEST(ModuleLog, VrambenchLogInfoShowsTheModulesInfoMessages)
{
    const ProcessResult list = vrambench({"list"}, {"VRAMBENCH_LOG=info"});
    ASSERT_EQ(list.exit_code, 0) << list.err;
    EXPECT_TRUE(contains(list.err, numa_note)) << list.err;
}

TEST(ModuleLog, VrambenchLogDebugShowsInfoMessagesToo)
{
    const ProcessResult list = vrambench({"list"}, {"VRAMBENCH_LOG=debug"});
    ASSERT_EQ(list.exit_code, 0) << list.err;
    EXPECT_TRUE(contains(list.err, numa_note)) << list.err;
}

TEST(ModuleLog, AnUnknownLevelIsNamedAndOnlyWarningsAreShown)
{
    const ProcessResult list = vrambench({"list"}, {"VRAMBENCH_LOG=loud"});
    ASSERT_EQ(list.exit_code, 0) << "a wrong level costs the run nothing: " << list.err;
    EXPECT_TRUE(contains(list.err, "VRAMBENCH_LOG=loud is not debug, info or warning")) << list.err;
    EXPECT_FALSE(contains(list.err, numa_note)) << list.err;
}

} // namespace
