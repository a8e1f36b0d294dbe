// The plans (plan.hpp) of the bandwidth, curve and pattern probes: the sizes their
// run() will use, from the same plan functions, and the runs those sizes cost.
#pragma once

#include <vrambench/core/planning/plan.hpp>
#include <vrambench/core/probes/probe.hpp>

namespace vrb {

ProbePlan plan_stream_probe(const DeviceRecord &device, const ProbeOptions &options);
ProbePlan plan_vector_probe(const DeviceRecord &device, const ProbeOptions &options);
ProbePlan plan_sweep_probe(const DeviceRecord &device, const ProbeOptions &options);
ProbePlan plan_chase_probe(const DeviceRecord &device, const ProbeOptions &options);
ProbePlan plan_stride_probe(const DeviceRecord &device, const ProbeOptions &options);
ProbePlan plan_alignment_probe(const DeviceRecord &device, const ProbeOptions &options);
ProbePlan plan_gather_probe(const DeviceRecord &device, const ProbeOptions &options);

// Runs time_point() makes at one point: about three to find the passes, then the
// warm-ups and repetitions, each at least `target` long.
inline constexpr double calibration_runs = 3;

} // namespace vrb
