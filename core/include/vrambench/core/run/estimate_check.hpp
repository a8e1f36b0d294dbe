// What each probe took against what its plan estimated, read from a result set: every
// result records the seconds its probe had run when it was emitted and the plan's
// estimate (extra.wall_time), so a run can say where the estimator was far off.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace vrb {

struct ProbeWallTime {
    std::string device, probe;
    double seconds = 0;             // the probe's whole time: its last result's probe_seconds
    std::optional<double> estimate; // the plan's, where it gave one
};

// Each (device, probe) of the set with wall times, in the order they ran; a set written
// before wall times were recorded gives none.
std::vector<ProbeWallTime> probe_wall_times(const nlohmann::json &document);

// A probe took more than this many times its estimate: `run` says so on stderr.
inline constexpr double estimate_warning_factor = 3;
// Shorter probes are left alone: a millisecond's probe is all fixed costs and noise.
inline constexpr double estimate_least_seconds = 0.5;

// One line per probe that took over estimate_warning_factor x its estimate (and over
// estimate_least_seconds): "latency.chase on host:0 took 371.0 s, 2.0 x its plan's
// 186.0 s estimate ...".
std::vector<std::string> estimate_warnings(const nlohmann::json &document);

} // namespace vrb
