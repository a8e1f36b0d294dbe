// Lining up result sets: the same figure (probe and parameters) on the same card or
// card model, never by device index, with the ratio to the baseline and whether the
// change is beyond the noise the samples show.
#pragma once

#include <vrambench/core/publishing/rank_test.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace vrb {

// card: the same physical card (the device's key: PCI address, else UUID), so one card
// measured through two APIs lines up. model: the same card model (PCI vendor and device
// id and memory size; name and memory size where there is no PCI id), so two hosts'
// cards line up; several cards of one model pair in the order of their keys. chosen:
// only the pairs named with `compare --pair`, whatever the devices are (a new module's
// device against the host's RAM shares neither key nor model).
enum class DeviceMatch { card, model, chosen };

std::string_view to_string(DeviceMatch match);

// The text two devices (records of a result set) must share to be matched: the key for
// card, "10de:2335, 140 GiB" (or "name, memory" without PCI ids) for model.
std::string device_match_text(const nlohmann::json &device, DeviceMatch match);

struct ComparedFigure {
    // A result's own figure, one point of its curve, or one of its plateaus (a level
    // over points, with no samples of its own).
    enum class Kind { result, point, plateau };
    Kind kind = Kind::result;
    std::string probe, metric, unit;
    nlohmann::json parameters; // the parameters that name the figure (identity_parameters)
    std::string parameters_text;
    // Empty for the result itself; "4 KiB" for a curve point (at its x), "plateau L2".
    std::string point;
    std::string base_device, other_device; // ids, "cuda:0"
    std::optional<double> base, other;
    // Oriented so above 1 is better: other / base, or base / other for latency and time.
    // Unset when either value is missing or not positive.
    std::optional<double> ratio;
    bool lower_is_better = false;
    RankTest test; // over the two figures' samples; plateaus have none
};

struct DevicePairing {
    std::string base_id, other_id;
    std::string name;  // the base device's name
    std::string match; // the key or model text both share
};

struct Comparison {
    std::string base_file, other_file;
    DeviceMatch match = DeviceMatch::model;
    std::vector<DevicePairing> devices;
    std::vector<ComparedFigure> figures;
    // What only one file has: a device, a result, a curve point or a plateau, as a line.
    std::vector<std::string> only_in_base, only_in_other;
};

// The parameters that say what a figure is, without those that say how it was
// measured (repetitions, warm-ups, passes, size and budget rules) and, for curves,
// the range whose points are matched one by one.
nlohmann::json identity_parameters(const nlohmann::json &result);

// Whether a smaller figure is better: latency and time (metric latency or time, unit
// ns, us or s) and counts of errors.
bool lower_is_better(const std::string &metric, const std::string &unit);

// Both documents must be valid result sets (read_result_file, validate_result_json).
Comparison compare_result_sets(const nlohmann::json &base, const std::string &base_file, const nlohmann::json &other,
                               const std::string &other_file, DeviceMatch match);

// A device of the base file lined up with one of the other by hand: each side is a
// device's id ("host:0", backend:index) or its key ("pci:0000:19:00.0"), as the result
// set names them.
struct ChosenPair {
    std::string base, other;
};

// "host:0=acme:0" -> {host:0, acme:0}; throws UsageError naming `flag` and the form
// expected.
ChosenPair parse_chosen_pair(const std::string &text, const std::string &flag);

// Lines up only the chosen pairs. Throws UsageError naming the file and the devices it
// has when a side names no device of its file, or a device is chosen twice.
Comparison compare_chosen_devices(const nlohmann::json &base, const std::string &base_file, const nlohmann::json &other,
                                  const std::string &other_file, const std::vector<ChosenPair> &pairs);

// Whether no figure of any comparison was lined up with another.
bool nothing_compared(const std::vector<Comparison> &comparisons);

// What to do when no device of one file matches one of the other: --pair, or `report`.
std::string no_match_hint(const Comparison &comparison);

// The figures of the comparisons whose ratio is below `threshold`.
std::vector<const ComparedFigure *> figures_below(const std::vector<Comparison> &comparisons, double threshold);

// The comparisons as a person or a program reads them; each states the test it used.
std::string compare_text(const std::vector<Comparison> &comparisons);
std::string compare_markdown(const std::vector<Comparison> &comparisons);
std::string compare_csv(const std::vector<Comparison> &comparisons);
nlohmann::json compare_json(const std::vector<Comparison> &comparisons);

// One sentence naming the test, the threshold and the orientation of ratios.
std::string compare_method_text();

} // namespace vrb
