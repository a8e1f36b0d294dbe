// Timestamps to seconds: periods, counters narrower than 64 bits, wrap-around, and the
// durations that must be refused rather than reported.
#include "timing.hpp"

#include <vrambench/plugin_support.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace vrb::vulkan {
namespace {

vrb_status status_of(auto &&f)
{
    try {
        f();
        return VRB_OK;
    } catch (const plugin::Failure &failure) {
        return failure.status();
    }
}

TEST(Timestamps, convert_ticks_with_the_period)
{
    EXPECT_DOUBLE_EQ(timestamp_seconds(1000, 3000, 64, 1.0), 2e-6);
    EXPECT_DOUBLE_EQ(timestamp_seconds(10, 20, 64, 83.333), 833.33e-9);
}

TEST(Timestamps, undo_one_wrap_of_a_narrow_counter)
{
    // A 36-bit counter that wrapped between the two reads.
    const uint64_t top = (uint64_t(1) << 36) - 100;
    EXPECT_EQ(timestamp_ticks(top, 50, 36), 150u);
    EXPECT_DOUBLE_EQ(timestamp_seconds(top, 50, 36, 1.0), 150e-9);
    // Bits above the valid ones are ignored.
    EXPECT_EQ(timestamp_ticks(0xabc0000000000010ull, 0x1230000000000020ull, 36), 16u);
    // A 64-bit counter wraps too.
    EXPECT_EQ(timestamp_ticks(~uint64_t(0) - 1, 3, 64), 5u);
}

TEST(Timestamps, refuse_zero_negative_and_impossible_durations)
{
    EXPECT_EQ(status_of([] { timestamp_seconds(500, 500, 64, 1.0); }), VRB_ERROR_TIMER);
    EXPECT_EQ(status_of([] { timestamp_seconds(500, 400, 64, 1.0); }), VRB_ERROR_TIMER);
    EXPECT_EQ(status_of([] { timestamp_seconds(500, 400, 32, 1.0); }), VRB_ERROR_TIMER);
    EXPECT_EQ(status_of([] { timestamp_seconds(1, 2, 64, 0.0); }), VRB_ERROR_TIMER);
    EXPECT_EQ(status_of([] { timestamp_seconds(1, 2, 64, -1.0); }), VRB_ERROR_TIMER);
    EXPECT_EQ(status_of([] { timestamp_seconds(1, 2, 0, 1.0); }), VRB_ERROR_TIMER);
}

TEST(Timestamps, span_runs_on_two_queues_from_the_first_start_to_the_last_end)
{
    const std::vector<uint64_t> starts{100, 90}, ends{200, 180};
    EXPECT_DOUBLE_EQ(timestamp_span_seconds(starts, ends, 64, 1.0), 110e-9);
    // Across a wrap of a 32-bit counter.
    const uint64_t top = 0xffffff00u;
    const std::vector<uint64_t> s2{top, top + 16}, e2{0x10, top + 0x80};
    EXPECT_DOUBLE_EQ(timestamp_span_seconds(s2, e2, 32, 1.0), (0x100 + 0x10) * 1e-9);
    const std::vector<uint64_t> backwards{100, 90}, before{50, 180};
    EXPECT_EQ(status_of([&] { timestamp_span_seconds(backwards, before, 64, 1.0); }), VRB_ERROR_TIMER);
}

TEST(Timestamps, that_add_up_to_more_than_the_host_waited_are_refused)
{
    const std::vector<double> seconds{0.4, 0.4};
    EXPECT_EQ(status_of([&] { check_against_host(seconds, 0.5); }), VRB_ERROR_TIMER);
    EXPECT_EQ(status_of([&] { check_against_host(seconds, 0.81); }), VRB_OK);
}

TEST(HostTimer, refuses_a_zero_duration)
{
    EXPECT_EQ(status_of([] { host_seconds_or_fail(0.0); }), VRB_ERROR_TIMER);
    EXPECT_DOUBLE_EQ(host_seconds_or_fail(0.25), 0.25);
}

} // namespace
} // namespace vrb::vulkan
