// `health`'s verdict on one card: every figure against its reference and the datasheet
// peak, the PCIe link, integrity, and the card's telemetry where the set records them;
// one check a line, and the exit code a scheduler acts on. JSON first: the text is drawn
// from the same checks.
#pragma once

#include <vrambench/core/error.hpp>
#include <vrambench/core/health/reference.hpp>
#include <vrambench/core/health/thresholds.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace vrb::health {

// health's own exit code, beside error.hpp's that every command shares: a card nothing
// was judged on (no reference, no datasheet floor, no figure). Not 0, so no scheduler
// takes it for healthy; not 3 or 5, so none drains a node for want of a reference.
inline constexpr ExitCode not_judged_exit{6};

enum class Outcome {
    pass,
    below_floor,  // a figure under its floor, a downgraded link, a throttled card: exit 5
    failed,       // an integrity mismatch or a failed verification: exit 4
    not_measured, // what the verdict needs failed to run: exit 3
    not_judged,   // nothing to judge it against (no reference, no datasheet floor), or not the card's
                  // own figure (a pageable transfer): reported; a verdict of nothing else is exit 6
    not_recorded, // the set does not record it (a link, telemetry, a skipped figure): no effect
};
std::string_view to_string(Outcome outcome);

struct Check {
    std::string name; // "bandwidth.stream triad (16 B)", "link", "integrity", "telemetry"
    Outcome outcome = Outcome::pass;
    std::string reason; // for a failure, what a fleet names: "below reference", "link", "throttled",
                        // "integrity", "verification", "above peak", "not measured"
    std::string detail; // the rest of the line
    std::string unit;
    std::optional<double> value, reference, floor, ratio, efficiency, peak;
    std::string reference_source;
    std::optional<FigureKey> figure; // the figure it judges; none for the card's other checks
    // What a figure was held against: "a measured reference", "a reference file" or "the
    // datasheet floor"; empty when it was not judged.
    std::string judged_against;
};

struct HealthOptions {
    double floor = default_floor; // the fraction of a measured reference a figure must reach
};

struct CardVerdict {
    std::string set;    // the result set's name
    std::string device; // "cuda:0"
    std::string name, model, key;
    std::vector<Check> checks;
    ExitCode exit = ExitCode::ok;
    std::string verdict; // "healthy: ...", "unhealthy: ...", "could not measure: ...", "not judged: ..."
    // The failed checks' reasons, each once, in the order of the checks.
    std::vector<std::string> reasons() const;
};

// Judges one device of a set (the device's record in it).
CardVerdict judge_card(const nlohmann::json &set, const std::string &set_name, const nlohmann::json &device,
                       const References &references, const HealthOptions &options);

// The devices a set's verdict covers: `device` alone when given (UsageError when the set
// has no such device), else every device but host:0 when there are others.
std::vector<CardVerdict> judge_set(const nlohmann::json &set, const std::string &set_name, const std::string &device,
                                   const References &references, const HealthOptions &options);

// Integrity or verification (4) first, then a floor (5), then what could not be measured
// (3), then a card with too little judged (6); 0 only when every card was judged healthy.
ExitCode health_exit(const std::vector<CardVerdict> &verdicts);

std::string health_text(const std::vector<CardVerdict> &verdicts, const References &references,
                        const HealthOptions &options);
nlohmann::json health_json(const std::vector<CardVerdict> &verdicts, const References &references,
                           const HealthOptions &options);

} // namespace vrb::health
