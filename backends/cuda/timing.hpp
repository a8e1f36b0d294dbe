// Timing runs with the device's own clock: an event before and after each run on the
// device's stream, read back as seconds and checked for sanity.
#pragma once

#include "backend.hpp"

#include <functional>

namespace vrb::gpu {

// Enqueues `repetitions` runs, each between its start and stop events, and writes each
// run's seconds. `enqueue` puts one run on device.stream (it may use the run's events,
// e.g. to bring in the second stream). Throws VRB_ERROR_TIMER for a duration that is
// not a positive number and VRB_ERROR_CANCELLED when the host asks to stop; no work is
// left in flight when it returns or throws.
void time_runs(vrb_device &device, uint32_t repetitions, double *seconds,
               const std::function<void(RunEvents &)> &enqueue);

// For work the device takes no part in (a copy between two host buffers): each run is
// `run`, which must return only when the work is done, timed by the host's monotonic
// clock, with the same checks.
void time_runs_on_host(vrb_device &device, uint32_t repetitions, double *seconds, const std::function<void()> &run);

} // namespace vrb::gpu
