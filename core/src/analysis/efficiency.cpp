#include <vrambench/core/analysis/efficiency.hpp>
#include <vrambench/core/card/sampler.hpp>
#include <vrambench/core/results/device_record.hpp>
#include <vrambench/core/results/json_fields.hpp>
#include <vrambench/core/results/result.hpp>

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <string>
#include <utility>

namespace vrb::analysis {

namespace {

using nlohmann::json;

std::optional<double> number_at(const json &j, const char *key)
{
    if (!j.contains(key) || !j[key].is_number()) return std::nullopt;
    return j[key].get<double>();
}

std::string efficiency_text(const std::optional<double> &e)
{
    return e ? fmt::format("{:.3f}", *e) : std::string("none");
}

// Writes `after` at `key` and notes the change where it differs past rounding.
void rewrite(json &r, const char *key, const std::optional<double> &after, const std::string &where,
             std::vector<Change> &changes)
{
    if (!after) return;
    const std::optional<double> before = number_at(r, key);
    if (before && std::abs(*before - *after) <= 1e-9 * std::abs(*after)) return;
    changes.push_back({where, efficiency_text(before), efficiency_text(after)});
    r[key] = *after;
}

} // namespace

std::vector<Change> rederive_efficiencies(json &set)
{
    std::vector<Change> changes;
    if (!set.is_object() || !set.contains("results") || !set["results"].is_array()) return changes;
    const SetDevices devices(set);
    for (json &r : set["results"]) {
        if (!r.is_object()) continue;
        const std::optional<double> value = number_at(r, "value");
        if (!value || *value <= 0 || text_or(r, "metric", "") != "bandwidth") continue;
        const std::string device = text_or(r, "device", "");
        const DeviceRecord *record = devices.find(device);
        if (!record) continue;
        const json &parameters = object_or_empty(r, "parameters");
        const std::string what = text_or(parameters, "operation", text_or(parameters, "direction", ""));
        const std::string where = fmt::format("{} {} {}", device, text_or(r, "probe", ""), what);
        // Only a figure the run set against the peak is set against it again: a probe that
        // left its efficiency out (a latency, a capacity) meant to.
        if (r.contains("efficiency") && !r["efficiency"].is_null())
            if (const PeakChoice peak = record->peak(); peak.gb_per_s && *peak.gb_per_s > 0)
                rewrite(r, "efficiency", *value / *peak.gb_per_s, where + " efficiency", changes);
        if (r.contains("link") && r["link"].is_object()) {
            ProbeResult as_read = result_from_json(r);
            as_read.link_efficiency.reset();
            annotate_transfer(as_read, r["link"]);
            rewrite(r, "link_efficiency", as_read.link_efficiency, where + " link efficiency", changes);
        }
    }
    return changes;
}

} // namespace vrb::analysis
