// The result model: what one run measured, as it is written to JSON (schema v1,
// results/schema/result-v1.schema.json).
#pragma once

#include <vrambench/core/measurement/statistics.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace vrb {

inline constexpr int schema_version = 1;

struct Verification {
    enum class Status { passed, failed, unverified };
    Status status = Status::unverified;
    std::string detail;
};

std::string_view to_string(Verification::Status status);

// One figure of one probe on one device, with everything needed to trust it.
struct ProbeResult {
    // waived: the probe does not apply here; skipped: it applies but was not run (the
    // run's --max-seconds budget was spent), with the reason in `error`.
    enum class Status { ok, suspect, failed, verification_failed, waived, skipped };

    std::string probe; // "bandwidth.stream"
    std::string backend;
    std::string device; // "host:0"
    nlohmann::json parameters = nlohmann::json::object();
    std::string metric = "bandwidth";
    std::string unit = "GB/s";
    std::string estimator = "median";
    std::optional<double> value;
    std::optional<uint64_t> bytes_per_run;
    std::optional<std::string> byte_counting;
    std::optional<std::string> timer;
    std::vector<double> seconds; // raw durations, one per repetition
    std::vector<double> samples; // the same runs in the result's unit
    std::optional<Statistics> statistics;
    std::optional<double> efficiency; // value / the device's theoretical peak
    Verification verification;
    Status status = Status::ok;
    std::optional<std::string> error;
    nlohmann::json extra; // probe-specific detail (plateaus, mismatch addresses ...)
    // The card around the memory (card/sampler.hpp); null: not recorded, written only when set.
    nlohmann::json telemetry;                // clocks, power, temperature, busy % during the timed runs
    nlohmann::json throttled;                // the throttling reasons active during them, when any were
    nlohmann::json link;                     // a host<->device transfer's PCIe link during it
    std::optional<double> link_efficiency;   // that transfer's value / the link's rate
    nlohmann::json fabric;                   // a peer copy's NVLink/xGMI between its two cards
    std::optional<double> fabric_efficiency; // that copy's value / the fabric's rate
};

std::string_view to_string(ProbeResult::Status status);

nlohmann::json to_json(const ProbeResult &result);
// The inverse, for results that crossed a process boundary. Throws on a malformed one.
ProbeResult result_from_json(const nlohmann::json &j);
nlohmann::json to_json(const Statistics &stats);

} // namespace vrb
