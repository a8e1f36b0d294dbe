// Timestamps to seconds: periods, counters narrower than 64 bits, wrap-around, and the
// durations that must be refused rather than reported.
#include "timing.hpp"

#include <vrambench/plugin_support.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
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

TEST(Timestamps, refuse_a_period_no_real_counter_has)
{
    for (double period :
         {0.0, -1.0, -0.0, std::nan(""), std::numeric_limits<double>::infinity(), 1e-6, 0.009, 1e4 + 1, 1e9})
        EXPECT_EQ(status_of([&] { timestamp_seconds(1, 2, 64, period); }), VRB_ERROR_TIMER) << period;
    for (double period : {0.01, 1.0, 10.0, 52.08, 83.333, 1e4})
        EXPECT_EQ(status_of([&] { timestamp_seconds(1, 2, 64, period); }), VRB_OK) << period;
}

// Two queues whose counters stand far apart: each queue's calibration says where its
// counter stood at one host moment.
struct TwoQueues {
    static constexpr uint64_t host_origin = 5'000'000'000; // ns on the host's clock
    ClockPair a{1'000, host_origin};
    ClockPair b{900'000'000'000, host_origin};
    HostWindow window{host_origin - 1'000, host_origin + 10'000'000};
};

TEST(Timestamps, place_a_queue_timestamp_on_the_host_clock_before_and_after_its_calibration)
{
    const ClockPair c{1'000'000, 7'000'000};
    EXPECT_DOUBLE_EQ(host_ns_of(1'000'500, c, 64, 2.0), 7'001'000.0);
    EXPECT_DOUBLE_EQ(host_ns_of(999'500, c, 64, 2.0), 6'999'000.0);
    // A 32-bit counter that wrapped after its calibration.
    const ClockPair top{0xffffff00u, 1'000'000};
    EXPECT_DOUBLE_EQ(host_ns_of(0x10, top, 32, 1.0), 1'000'000.0 + 0x110);
}

TEST(Timestamps, span_runs_on_two_queues_with_their_own_clock_offsets_on_the_host_clock)
{
    const TwoQueues q;
    // Queue a runs host +100 ns to +400 ns, queue b +50 ns to +300 ns: 350 ns in all.
    const std::vector<QueueRun> runs{{q.a.device_ticks + 100, q.a.device_ticks + 400, q.a},
                                     {q.b.device_ticks + 50, q.b.device_ticks + 300, q.b}};
    EXPECT_DOUBLE_EQ(calibrated_span_seconds(runs, 64, 1.0, q.window, 0), 350e-9);
    // The raw timestamps of the two queues, compared as they stand, would say hours.
    EXPECT_GT(double(runs[1].end - runs[0].start), 1e11);
    // With a period, and queue b's calibration taken after its run ended.
    const ClockPair late_b{q.b.device_ticks + 1'000, q.host_origin + 10'000};
    const std::vector<QueueRun> scaled{{q.a.device_ticks + 10, q.a.device_ticks + 40, q.a},
                                       {q.b.device_ticks + 5, q.b.device_ticks + 30, late_b}};
    EXPECT_DOUBLE_EQ(calibrated_span_seconds(scaled, 64, 10.0, q.window, 0), 350e-9);
}

TEST(Timestamps, span_runs_on_two_queues_across_a_wrap_of_one_counter)
{
    const TwoQueues q;
    const ClockPair near_top{0xffffff00u, q.host_origin};
    // Queue b wraps: it runs host +200 ns to +0x100 + 0x20 ns.
    const std::vector<QueueRun> runs{{q.a.device_ticks + 100, q.a.device_ticks + 150, q.a},
                                     {0xffffff00u + 200, 0x20, near_top}};
    EXPECT_DOUBLE_EQ(calibrated_span_seconds(runs, 32, 1.0, q.window, 0), (0x120 - 100) * 1e-9);
}

TEST(Timestamps, refuse_a_two_queue_span_the_host_window_cannot_hold)
{
    const TwoQueues q;
    // Queue b's calibration is off by a second: its run lands before the submission.
    const ClockPair wrong_b{q.b.device_ticks, q.host_origin - 1'000'000'000};
    const std::vector<QueueRun> runs{{q.a.device_ticks + 100, q.a.device_ticks + 400, q.a},
                                     {q.b.device_ticks + 50, q.b.device_ticks + 300, wrong_b}};
    EXPECT_EQ(status_of([&] { calibrated_span_seconds(runs, 64, 1.0, q.window, 0); }), VRB_ERROR_TIMER);
    // Unless the calibration itself says it may be that far off.
    EXPECT_EQ(status_of([&] { calibrated_span_seconds(runs, 64, 1.0, q.window, 2'000'000'000); }), VRB_OK);
    // A run that ends after the host saw it finish.
    const std::vector<QueueRun> after{{q.a.device_ticks + 100, q.a.device_ticks + 20'000'000, q.a}};
    EXPECT_EQ(status_of([&] { calibrated_span_seconds(after, 64, 1.0, q.window, 0); }), VRB_ERROR_TIMER);
}

TEST(Timestamps, refuse_a_two_queue_span_whose_queue_ran_backwards_or_not_at_all)
{
    const TwoQueues q;
    const std::vector<QueueRun> backwards{{q.a.device_ticks + 400, q.a.device_ticks + 100, q.a},
                                          {q.b.device_ticks + 50, q.b.device_ticks + 300, q.b}};
    EXPECT_EQ(status_of([&] { calibrated_span_seconds(backwards, 64, 1.0, q.window, 0); }), VRB_ERROR_TIMER);
    const std::vector<QueueRun> still{{q.a.device_ticks + 100, q.a.device_ticks + 100, q.a}};
    EXPECT_EQ(status_of([&] { calibrated_span_seconds(still, 64, 1.0, q.window, 0); }), VRB_ERROR_TIMER);
    const std::vector<QueueRun> fine{{q.a.device_ticks + 100, q.a.device_ticks + 200, q.a}};
    EXPECT_EQ(status_of([&] { calibrated_span_seconds(fine, 64, 0.0, q.window, 0); }), VRB_ERROR_TIMER);
    EXPECT_EQ(status_of([&] { calibrated_span_seconds(fine, 64, std::nan(""), q.window, 0); }), VRB_ERROR_TIMER);
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
