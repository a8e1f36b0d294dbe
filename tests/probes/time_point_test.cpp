// How a point is timed: passes grow until a run is long enough, and the runs that found
// them warm the point, so warm-ups are run only when the search stopped short of them.
#include "curve.hpp"

#include <vrambench/operation.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

// A device whose run lasts `per_pass` seconds per pass (per run, where it ignores
// passes, as a backend may), recording every call.
struct FakeDevice {
    explicit FakeDevice(double seconds, bool ignores = false) : per_pass(seconds), ignores_passes(ignores) {}
    double per_pass;
    bool ignores_passes;
    struct Call {
        uint32_t passes, repetitions;
    };
    std::vector<Call> calls;

    vrb::RunOperation runner()
    {
        return [this](const vrb_operation &op, uint32_t repetitions) {
            calls.push_back({op.passes, repetitions});
            vrb::Device::RunOutput out;
            const uint32_t passes = ignores_passes ? 1u : std::max(op.passes, 1u);
            out.seconds.assign(repetitions, per_pass * passes);
            out.output.struct_size = sizeof out.output;
            out.output.timer = VRB_TIMER_HOST_MONOTONIC;
            out.output.passes = passes;
            return out;
        };
    }
};

const vrb_operation read_op = vrb::make_operation(VRB_OP_READ, 16, 1024);

} // namespace

TEST(TimePoint, ALongRunIsTimedAtOnePassWithoutWarmUpsBeyondTheRunThatFoundIt)
{
    FakeDevice device(0.1);
    const vrb::PointTiming t = vrb::time_point(device.runner(), "fake", read_op, 2, 5, 1e-3);
    EXPECT_EQ(t.passes, 1u);
    ASSERT_EQ(device.calls.size(), 2u); // the search's one run, then the five timed
    EXPECT_EQ(device.calls[0].repetitions, 1u);
    EXPECT_EQ(device.calls[1].repetitions, 5u);
    EXPECT_EQ(t.timing.seconds.size(), 5u);
}

TEST(TimePoint, AShortRunGrowsItsPassesAndTheLastSearchRunsWarmTheTimedOnes)
{
    FakeDevice device(1e-6);
    const vrb::PointTiming t = vrb::time_point(device.runner(), "fake", read_op, 2, 5, 1e-3);
    EXPECT_GE(t.passes * 1e-6, 0.5e-3);
    ASSERT_GE(device.calls.size(), 3u);
    const auto &last = device.calls.back();
    EXPECT_EQ(last.repetitions, 5u);
    // The call before the timed runs is the search's, at the passes timed: no warm-up call.
    const auto &before = device.calls[device.calls.size() - 2];
    EXPECT_EQ(before.passes, last.passes);
    EXPECT_EQ(before.repetitions, 2u);
}

TEST(TimePoint, ASearchThatEndsOnPassesItNeverRanWarmsThemUpFirst)
{
    // A backend that ignores passes never lengthens its runs: eight tries of 4 x growth
    // end on passes no search run was made with.
    FakeDevice device(0.25e-3, true);
    const vrb::PointTiming t = vrb::time_point(device.runner(), "fake", read_op, 2, 5, 1e-3);
    ASSERT_GE(device.calls.size(), 3u);
    const auto &warmup = device.calls[device.calls.size() - 2];
    EXPECT_EQ(warmup.repetitions, 2u);
    EXPECT_EQ(warmup.passes, device.calls.back().passes);
    EXPECT_NE(device.calls[device.calls.size() - 3].passes, warmup.passes);
    EXPECT_EQ(t.passes, 1u); // what the backend says it ran
    EXPECT_EQ(t.timing.seconds.size(), 5u);
}

TEST(TimePoint, RefusesATimedRunWithoutATimer)
{
    FakeDevice device(0.1);
    auto broken = [&](const vrb_operation &op, uint32_t n) {
        auto out = device.runner()(op, n);
        out.output.timer = 0;
        return out;
    };
    EXPECT_THROW(vrb::time_point(broken, "fake", read_op, 1, 3, 1e-3), vrb::RunError);
}

TEST(TimePoint, OnAGpuTheTimedRunsFollowBackToBackRunsOfAtLeastTheWarmTimeInOneCall)
{
    FakeDevice device(1e-6);
    const vrb::PointTiming t = vrb::time_point(device.runner(), "fake", read_op, 2, 5, 1e-3, vrb::kGpuWarmSeconds);
    ASSERT_GE(device.calls.size(), 3u);
    const auto &warm = device.calls[device.calls.size() - 2];
    EXPECT_EQ(warm.passes, device.calls.back().passes);
    const double run_seconds = warm.passes * 1e-6;
    EXPECT_GE(warm.repetitions * run_seconds, vrb::kGpuWarmSeconds * 0.999);
    EXPECT_LT((warm.repetitions - 1) * run_seconds, vrb::kGpuWarmSeconds);
    EXPECT_EQ(t.timing.seconds.size(), 5u);
}

TEST(TimePoint, TheGpuWarmUpIsBoundedWhenRunsAreFarShorterThanIt)
{
    // A backend that ignores passes stays at a microsecond a run: a second of warming
    // would be a million runs.
    FakeDevice device(1e-6, true);
    vrb::time_point(device.runner(), "fake", read_op, 2, 5, 1e-3, 1.0);
    EXPECT_EQ(device.calls[device.calls.size() - 2].repetitions, 256u);
}
