#include "capacity_result.hpp"

#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/measure.hpp>
#include <vrambench/core/measurement/sizes.hpp>

#include <gtest/gtest.h>

using vrb::MiB;

namespace {

vrb_op_output timed_by(uint32_t timer)
{
    vrb_op_output out{};
    out.struct_size = sizeof out;
    out.timer = timer;
    return out;
}

} // namespace

TEST(TimingChecks, RefuseARunWhoseTimerWasNeverSet)
{
    EXPECT_THROW(vrb::check_timing({1e-3, 2e-3}, timed_by(0), "mock"), vrb::RunError);
    EXPECT_THROW(vrb::check_timing({1e-3}, timed_by(99), "mock"), vrb::RunError);
    EXPECT_THROW((void)vrb::timer_name(0), vrb::RunError);
    EXPECT_NO_THROW(vrb::check_timing({1e-3}, timed_by(VRB_TIMER_DEVICE_EVENTS), "mock"));
    EXPECT_EQ(vrb::timer_name(VRB_TIMER_DEVICE_TIMESTAMPS), "device-timestamps");
}

TEST(TimingChecks, RefuseZeroNegativeAndInfiniteDurations)
{
    const auto timer = timed_by(VRB_TIMER_HOST_MONOTONIC);
    EXPECT_THROW(vrb::check_timing({1e-3, 0.0}, timer, "mock"), vrb::RunError);
    EXPECT_THROW(vrb::check_timing({-1e-3}, timer, "mock"), vrb::RunError);
    EXPECT_THROW(vrb::check_timing({std::numeric_limits<double>::infinity()}, timer, "mock"), vrb::RunError);
}

TEST(SuspectRule, CallsAFigureAboveThePeakInsideTheCacheACacheFigure)
{
    // An H200's 4.8 TB/s peak beaten over 16 MiB, inside its 50 MiB L2: that is the L2.
    EXPECT_FALSE(vrb::is_suspect(9000, 4800, 16 * MiB, 50 * MiB));
    EXPECT_FALSE(vrb::is_suspect(9000, 4800, 50 * MiB, 50 * MiB));
}

TEST(SuspectRule, CallsAFigureAboveThePeakBelowTwiceTheCachePartialHitsNotSuspect)
{
    // 1.3-1.8x an H200's L2: part of every pass still hits the L2.
    EXPECT_FALSE(vrb::is_suspect(5000, 4800, 65 * MiB, 50 * MiB));
    EXPECT_FALSE(vrb::is_suspect(5000, 4800, 90 * MiB, 50 * MiB));
    EXPECT_FALSE(vrb::is_suspect(5000, 4800, 100 * MiB - 1, 50 * MiB));
    EXPECT_TRUE(vrb::is_suspect(5000, 4800, 100 * MiB, 50 * MiB));
}

TEST(SuspectRule, CallsAFigureAboveThePeakPastTheCacheSuspect)
{
    EXPECT_TRUE(vrb::is_suspect(5000, 4800, 400 * MiB, 50 * MiB));
    EXPECT_TRUE(vrb::is_suspect(5000, 4800, 0, 50 * MiB));  // footprint unknown
    EXPECT_TRUE(vrb::is_suspect(5000, 4800, 400 * MiB, 0)); // cache unknown
    EXPECT_FALSE(vrb::is_suspect(4700, 4800, 400 * MiB, 50 * MiB));
    EXPECT_FALSE(vrb::is_suspect(5000, std::nullopt, 400 * MiB, 50 * MiB));
}

TEST(ReleaseCheck, FailsAFreeThatGaveNothingBack)
{
    const auto v = vrb::capacity::verify_release(1024 * MiB, 10'000 * MiB, 10'010 * MiB);
    EXPECT_EQ(v.status, vrb::Verification::Status::failed);
    EXPECT_NE(v.detail.find("gave back 10 MiB"), std::string::npos) << v.detail;
}

TEST(ReleaseCheck, PassesAFreeThatGaveItsMemoryBack)
{
    EXPECT_EQ(vrb::capacity::verify_release(1024 * MiB, 10'000 * MiB, 11'020 * MiB).status,
              vrb::Verification::Status::passed);
}

TEST(ReleaseCheck, SaysUnverifiedAndWhyWhenNothingCanShowIt)
{
    const auto small = vrb::capacity::verify_release(64 * MiB, 10'000 * MiB, 10'000 * MiB);
    EXPECT_EQ(small.status, vrb::Verification::Status::unverified);
    EXPECT_NE(small.detail.find("below"), std::string::npos) << small.detail;
    const auto unreported = vrb::capacity::verify_release(1024 * MiB, std::nullopt, std::nullopt);
    EXPECT_EQ(unreported.status, vrb::Verification::Status::unverified);
    EXPECT_NE(unreported.detail.find("reports no free memory"), std::string::npos);
}
