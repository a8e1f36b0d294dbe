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
// repetitions, each at least `target` long.
inline constexpr double calibration_runs = 3;

// time_point()'s runs at one point of `bytes` a run: the calibration and the timed
// repetitions. The calibration's last runs are made at the final passes and warm as
// warm-ups would, so time_point() makes no warm-ups after them (a 2-vCPU VM's lavapipe
// took 2.3 s for pattern.stride's points, what their calibration and repetitions cost).
inline PlannedRuns timed_point_runs(double bytes, uint32_t reps, double floor_seconds)
{
    return {static_cast<double>(reps), bytes, 0, 0, floor_seconds, calibration_runs};
}

} // namespace vrb
