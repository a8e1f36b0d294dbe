#include "timing.hpp"

#include <vrambench/plugin_support.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

using vrb::plugin::fail;

namespace vrb::gpu {
namespace {

// Runs are queued ahead of the one the device is doing so that no run waits for the
// host to launch it (an idle queue would put the launch latency inside the next run's
// events). How far ahead follows the first run's length: about kQueuedSeconds of work,
// which also bounds how long a cancellation waits.
constexpr uint32_t kMaxQueued = 16;
constexpr uint32_t kMinQueued = 2;
constexpr double kQueuedSeconds = 0.05;

void ensure_events(vrb_device &device)
{
    while (device.events.size() < kMaxQueued) {
        RunEvents e;
        e.start = create_event();
        e.stop = create_event();
        e.joined = create_event();
        device.events.push_back(std::move(e));
    }
}

double elapsed_seconds(RunEvents &e, uint32_t run, uint32_t repetitions)
{
    check(event_synchronize(e.stop.get()), "waiting for a run to finish");
    float ms = 0.0f;
    check(event_elapsed_ms(&ms, e.start.get(), e.stop.get()), "reading the event timer");
    if (!std::isfinite(ms) || !(ms > 0.0f))
        fail(VRB_ERROR_TIMER, std::string(kApiName) + " events timed run " + std::to_string(run + 1) + " of " +
                                  std::to_string(repetitions) + " at " + std::to_string(ms) +
                                  " ms, which is not a duration; the run may be shorter than the timer's resolution");
    return double(ms) * 1e-3;
}

} // namespace

void time_runs(vrb_device &device, uint32_t repetitions, double *seconds,
               const std::function<void(RunEvents &)> &enqueue)
{
    ensure_events(device);
    StreamHandle stream = device.stream.get();
    try {
        uint32_t queued_limit = kMinQueued;
        uint32_t collected = 0;
        auto collect = [&] {
            seconds[collected] = elapsed_seconds(device.events[collected % kMaxQueued], collected, repetitions);
            if (collected == 0) {
                const double runs = std::ceil(kQueuedSeconds / seconds[0]);
                queued_limit = uint32_t(std::clamp(runs, double(kMinQueued), double(kMaxQueued)));
            }
            ++collected;
        };
        for (uint32_t run = 0; run < repetitions; ++run) {
            while (run - collected >= queued_limit)
                collect();
            if (device.context->cancelled())
                fail(VRB_ERROR_CANCELLED, "cancelled by the host after " + std::to_string(collected) + " of " +
                                              std::to_string(repetitions) + " runs");
            RunEvents &events = device.events[run % kMaxQueued];
            check(event_record(events.start.get(), stream), "recording a run's start event");
            enqueue(events);
            check(event_record(events.stop.get(), stream), "recording a run's stop event");
        }
        while (collected < repetitions)
            collect();
    } catch (...) {
        // Nothing of a failed or cancelled call may still run when the call returns.
        (void)stream_synchronize(stream);
        (void)stream_synchronize(device.second_stream.get());
        (void)take_last_error();
        throw;
    }
}

void time_runs_on_host(vrb_device &device, uint32_t repetitions, double *seconds, const std::function<void()> &run)
{
    using clock = std::chrono::steady_clock;
    try {
        for (uint32_t i = 0; i < repetitions; ++i) {
            if (device.context->cancelled())
                fail(VRB_ERROR_CANCELLED, "cancelled by the host after " + std::to_string(i) + " of " +
                                              std::to_string(repetitions) + " runs");
            const auto start = clock::now();
            run();
            const double s = std::chrono::duration<double>(clock::now() - start).count();
            if (!std::isfinite(s) || !(s > 0.0))
                fail(VRB_ERROR_TIMER, "the host clock timed run " + std::to_string(i + 1) + " at " + std::to_string(s) +
                                          " s, which is not a duration");
            seconds[i] = s;
        }
    } catch (...) {
        (void)stream_synchronize(device.stream.get());
        (void)stream_synchronize(device.second_stream.get());
        (void)take_last_error();
        throw;
    }
}

} // namespace vrb::gpu
