// `health --device ID`: the figures the verdict needs, measured now through the runner
// as `vrambench run --suite quick` would (the stream, a short integrity pass, the
// transfer sweep up to transfer_bytes); the link and telemetry come with the device's
// description and the results where the run records them.
#pragma once

#include <vrambench/core/health/verdict.hpp>
#include <vrambench/core/modules/registry.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vrb::health {

// The probes measured on each card.
const std::vector<std::string> &health_probes();

// The result set of that run (schema v1). A device name of the wrong form is a
// UsageError; a run that fails to start is a RunError.
nlohmann::json measure_for_health(const std::vector<std::string> &devices, const DiscoveryOptions &discovery,
                                  double timeout_seconds);

// Each device asked for, judged; one the set has no figures of gets a verdict of
// "could not measure" with the run's reason (exit 3).
std::vector<CardVerdict> judge_measured(const nlohmann::json &set, const std::vector<std::string> &devices,
                                        const References &references, const HealthOptions &options);

} // namespace vrb::health
