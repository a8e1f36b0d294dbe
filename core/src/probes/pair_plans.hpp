// The plans of the probes that measure pairs (interop between two APIs on one card, peer
// access between two cards), which find their pairs as they run: each is costed for the
// pairs the run can offer it, the run's other backends for interop
// (ProbeOptions::partner_modules) and the backend's other devices for peers
// (ProbeOptions::peer_devices), each pair at the probe's own sizes.
#pragma once

#include <vrambench/core/probes/probe.hpp>

namespace vrb {

// Opening a partner's module and device for a pair: a GPU API's context and device take
// a good share of a second (an H200's CUDA-Vulkan pairs: 0.34-0.66 s a probe, of which
// its sync's own trips are a few ms); a CPU backend's, some tens of milliseconds.
double pair_open_seconds(const DeviceRecord &device);

ProbePlan plan_interop_bandwidth(const DeviceRecord &device, const ProbeOptions &options);
ProbePlan plan_interop_handoff(const DeviceRecord &device, const ProbeOptions &options, uint64_t bytes);
ProbePlan plan_interop_import(const DeviceRecord &device, const ProbeOptions &options,
                              const std::vector<uint64_t> &sizes, uint32_t reps);
ProbePlan plan_interop_sync(const DeviceRecord &device, const ProbeOptions &options, uint32_t trips);
ProbePlan plan_peer_bandwidth(const DeviceRecord &device, const ProbeOptions &options);
ProbePlan plan_peer_latency(const DeviceRecord &device, const ProbeOptions &options);

} // namespace vrb
