#include <vrambench/core/run/concurrent_run.hpp>

#include <gtest/gtest.h>

namespace {

using vrb::OverlapLog;
using Strings = std::vector<std::string>;

OverlapLog::Clock::time_point at(int ms)
{
    return OverlapLog::Clock::time_point(std::chrono::milliseconds(ms));
}

} // namespace

TEST(OverlapLog, DevicesStartedTogetherRunAlongsideEachOther)
{
    OverlapLog log({"a:0", "a:1", "b:0"}, at(0));
    EXPECT_EQ(log.boundary(0, at(10)), (Strings{"a:1", "b:0"}));
    EXPECT_EQ(log.boundary(2, at(12)), (Strings{"a:0", "a:1"}));
}

TEST(OverlapLog, ADeviceThatEndedBeforeAStretchBeganIsNotAlongsideIt)
{
    OverlapLog log({"a:0", "a:1"}, at(0));
    EXPECT_EQ(log.boundary(0, at(10)), (Strings{"a:1"}));
    log.ended(1, at(15)); // a:1 ends during a:0's second stretch (10..20)
    EXPECT_EQ(log.boundary(0, at(20)), (Strings{"a:1"}));
    // The third stretch (20..30) began after a:1 had ended: a:0 ran alone.
    EXPECT_EQ(log.boundary(0, at(30)), Strings{});
}

TEST(OverlapLog, AnUnknownUnitIsRefused)
{
    OverlapLog log({"a:0"}, at(0));
    EXPECT_THROW(log.boundary(1, at(1)), std::out_of_range);
    EXPECT_THROW(log.ended(1, at(1)), std::out_of_range);
}
