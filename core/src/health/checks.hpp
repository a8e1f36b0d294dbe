// The checks a verdict is made of, one file each: the figures, and the card's own state
// (integrity and verification, the link, telemetry).
#pragma once

#include <vrambench/core/health/verdict.hpp>

namespace vrb::health {

std::vector<Check> figure_checks(const nlohmann::json &set, const nlohmann::json &device, const References &references,
                                 const HealthOptions &options);
Check integrity_check(const nlohmann::json &set, const std::string &device);
Check verification_check(const nlohmann::json &set, const std::string &device);
Check link_check(const nlohmann::json &set, const nlohmann::json &device);
Check telemetry_check(const nlohmann::json &set, const std::string &device);

// The results of the set measured on `device`.
std::vector<const nlohmann::json *> results_on(const nlohmann::json &set, const std::string &device);
std::string value_text(double value, const std::string &unit);

} // namespace vrb::health
