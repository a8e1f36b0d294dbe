// A fleet's result sets side by side: every card of one model (through one backend)
// lined up on the figures that tell a slow card (copy, triad, latency), and the cards
// whose figure is further from the model's median than the fleet's own spread allows.
#pragma once

#include <vrambench/core/health/verdict.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace vrb {

// How far from the median a card's figure may lie: max(mad_factor x MAD, min_deviation
// x median). The MAD (median absolute deviation, unscaled) is the fleet's own noise; the
// fraction keeps a fleet of near-identical figures from naming a card for 1%.
struct OutlierRule {
    double mad_factor = 3.0;
    double min_deviation = 0.05;
};

// One card's figure in a group.
struct FleetCard {
    std::string file;   // the result set it came from, relative to the fleet folder
    std::string host;   // host.hostname of that result set
    std::string key;    // the device's key (PCI address, UUID, or backend:index)
    std::string device; // the device's id in its result set, "cuda:0"
    double value = 0;
    double deviation = 0; // (value - median) / median
    bool outlier = false;
};

// The cards of one model, through one backend, on one figure.
struct FleetGroup {
    std::string model;   // device_match_text(.., model)
    std::string name;    // the first card's device name
    std::string backend; // "cuda"
    std::string figure;  // "copy", "triad" or "latency"
    std::string probe, metric, unit, parameters_text;
    nlohmann::json parameters; // identity_parameters of the result
    bool lower_is_better = false;
    double median = 0, mad = 0, allowed = 0; // allowed: the largest |value - median| not named
    std::vector<FleetCard> cards;            // in order of host, then key
    // Set when the group has too few cards to tell an outlier (fewer than 3).
    std::optional<std::string> not_judged;
};

// One card's health verdict (`vrambench health`'s checks), so a card is named with its
// reason (below reference, link, throttled, integrity), not only as an outlier.
struct FleetCardHealth {
    std::string file, host, key, device;
    health::CardVerdict verdict;
};

// What the fleet's cards are checked against: references (by default the published
// result sets, health::published_sets()), else the datasheet floor; and the floor.
struct FleetChecks {
    std::optional<health::References> references; // unset: the published sets
    health::HealthOptions options;
};

struct FleetComparison {
    std::string folder;
    OutlierRule rule;
    std::size_t result_sets = 0, cards = 0;
    std::vector<FleetGroup> groups;
    // Figures that could not take part, as lines: a failed result, a card without one.
    std::vector<std::string> left_out;
    std::vector<FleetCardHealth> health; // every card, in the order of the files
    std::vector<std::string> reference_origins;
};

// Reads every *.json file directly in `folder` (a journal or a temporary file is not a
// result set and is passed over). Throws UsageError for a folder that does not exist
// or holds no result set, and for a file that is not a valid result set, naming it.
FleetComparison compare_fleet(const std::filesystem::path &folder, const OutlierRule &rule = {},
                              const FleetChecks &checks = {});

// The same over result sets already read, each with the name it is reported under.
FleetComparison compare_fleet_documents(const std::vector<std::pair<std::string, nlohmann::json>> &documents,
                                        const OutlierRule &rule = {}, const FleetChecks &checks = {});

// The named cards: (group, card) pairs in the order of the groups.
std::vector<std::pair<const FleetGroup *, const FleetCard *>> fleet_outliers(const FleetComparison &fleet);

// The cards health's checks fail, in the order of the files.
std::vector<const FleetCardHealth *> fleet_unhealthy(const FleetComparison &fleet);
// The cards health could not call healthy without failing them: not measured (3) or not
// judged (6). Counted and named, never dropped: a card nothing was judged on is no healthy card.
std::vector<const FleetCardHealth *> fleet_not_judged(const FleetComparison &fleet);
// 4 when a card fails integrity or verification, 5 when one is named (an outlier or a
// failed check), else 3 when a card could not be measured, 6 when one was not judged,
// else 0 (health_exit's order).
int fleet_exit_code(const FleetComparison &fleet);

std::string fleet_text(const FleetComparison &fleet);
nlohmann::json fleet_json(const FleetComparison &fleet);

} // namespace vrb
