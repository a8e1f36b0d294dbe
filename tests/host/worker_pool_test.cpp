// The host backend's worker pool: what a run's returned span covers. Timed runs of the
// host backend are this span, so a span that missed the work, or took in time before
// the last worker was awake or after the last finished, would be a wrong bandwidth.
#include "cpu_affinity.hpp"
#include "worker_pool.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace vrb::host {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

TEST(WorkerPoolSpan, CoversTheLongestWorkerAndLiesWithinTheCall)
{
    // Two workers on one CPU as well as one per CPU: the one that wakes first waits for
    // the other at the start line without holding the CPU it needs.
    const std::vector<int> allowed = allowed_cpus();
    ASSERT_FALSE(allowed.empty());
    for (const std::vector<int> &cpus : {std::vector<int>{allowed[0], allowed[0]}, allowed}) {
        WorkerPool pool(cpus);
        for (int round = 0; round < 3; ++round) {
            std::vector<Clock::time_point> entered(pool.size()), left(pool.size());
            const auto before = Clock::now();
            const double span = pool.run([&](unsigned w, unsigned n) {
                entered[w] = Clock::now();
                // The last worker works longest: the span must reach its end.
                std::this_thread::sleep_for(std::chrono::milliseconds(w + 1 == n ? 30 : 5));
                left[w] = Clock::now();
            });
            const auto after = Clock::now();
            EXPECT_GE(span, 0.030) << "the span ended before the longest worker did";
            EXPECT_LE(span, seconds_between(before, after)) << "the span took in time outside the call";
            for (unsigned w = 0; w < pool.size(); ++w) {
                // Every task's own time lies within the span.
                EXPECT_GE(span, seconds_between(entered[w], left[w]) - 1e-6);
                EXPECT_GE(entered[w], before);
            }
        }
    }
}

TEST(WorkerPoolSpan, AFailingTaskIsRethrownAndThePoolRunsAgain)
{
    WorkerPool pool;
    EXPECT_THROW(pool.run([](unsigned w, unsigned) {
        if (w == 0) throw std::runtime_error("task failed");
    }),
                 std::runtime_error);
    unsigned ran = 0;
    std::vector<unsigned> done(pool.size(), 0);
    const double span = pool.run([&](unsigned w, unsigned) { done[w] = 1; });
    for (unsigned d : done)
        ran += d;
    EXPECT_EQ(ran, pool.size());
    EXPECT_GT(span, 0);
}

} // namespace
} // namespace vrb::host
