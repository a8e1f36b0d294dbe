#include <vrambench/core/analysis/headline.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

namespace vrb::analysis {

using nlohmann::json;

HeadlineRule headline_rule(std::string_view probe)
{
    // A misaligned copy at a third of the aligned rate is the figure a reader must see;
    // the last offset (256 bytes) is aligned again.
    return probe == "pattern.alignment" ? HeadlineRule::slowest : HeadlineRule::last;
}

std::optional<std::size_t> headline_point(std::span<const std::optional<double>> figures, HeadlineRule rule)
{
    std::optional<std::size_t> out;
    for (std::size_t i = 0; i < figures.size(); ++i) {
        if (!figures[i] || !(*figures[i] > 0)) continue;
        if (rule == HeadlineRule::last || !out || *figures[i] < *figures[*out]) out = i;
    }
    return out;
}

void headline_extras(std::string_view probe, const json &parameters, std::size_t headline, json &extra)
{
    const json &points = array_or_empty(object_or_empty(extra, "curve"), "points");
    if (headline >= points.size() || !points[headline].contains("value") || !points[headline]["value"].is_number())
        return;
    const json &point = points[headline];
    const double value = point["value"].get<double>();
    if (probe == "pattern.alignment") {
        extra["headline"] = "the slowest offset";
        extra["headline_offset_bytes"] = number_or(point, "offset_bytes", 0.0);
        for (const json &p : points)
            if (number_or(p, "offset_bytes", -1.0) == 0 && p["value"].is_number()) {
                const double aligned = p["value"].get<double>();
                extra["aligned_gb_per_s"] = aligned;
                if (aligned > 0) extra["slowest_to_aligned"] = value / aligned;
            }
    } else if (probe == "bandwidth.transfer" && text_or(parameters, "direction", "") == "device-to-device") {
        // Within the device a copy reads and writes the device's memory: beside the bytes
        // counted once (comparable with every set before), the traffic, counted as
        // bandwidth.stream counts COPY.
        extra["traffic_gb_per_s"] = 2 * value;
        extra["traffic_counted"] = "bytes read plus bytes written, as bandwidth.stream counts COPY";
    }
}

namespace {

// "3683 GB/s at offset_bytes 4, 0.86 of aligned": a headline as `analyze` prints it.
std::string headline_text(const json &result, const json &extra)
{
    const json &value = result.contains("value") ? result["value"] : json();
    if (!value.is_number()) return "no headline";
    const std::string unit = text_or(result, "unit", "");
    std::string out = fmt::format("{:.4g} {}", value.get<double>(), unit);
    const json &curve = object_or_empty(extra, "curve");
    const std::string x = text_or(curve, "x", "");
    for (const json &p : array_or_empty(curve, "points"))
        if (p.contains("value") && p["value"] == value && p.contains(x) && p[x].is_number()) {
            out += fmt::format(" at {} {:.0f}", x, p[x].get<double>());
            break;
        }
    if (extra.contains("slowest_to_aligned") && extra["slowest_to_aligned"].is_number())
        out += fmt::format(", {:.3f} of aligned", extra["slowest_to_aligned"].get<double>());
    if (extra.contains("traffic_gb_per_s") && extra["traffic_gb_per_s"].is_number())
        out += fmt::format(", traffic {:.4g} {}", extra["traffic_gb_per_s"].get<double>(), unit);
    return out;
}

} // namespace

std::vector<Change> rederive_headlines(json &set)
{
    std::vector<Change> changes;
    if (!set.is_object() || !set.contains("results") || !set["results"].is_array()) return changes;
    for (json &r : set["results"]) {
        if (!r.is_object() || !r.contains("extra") || !r["extra"].is_object()) continue;
        json &extra = r["extra"];
        if (!extra.contains("curve") || !extra["curve"].is_object()) continue;
        const json &points = array_or_empty(extra["curve"], "points");
        std::vector<std::optional<double>> figures;
        for (const json &p : points)
            figures.push_back(p.contains("value") && p["value"].is_number() ? std::optional(p["value"].get<double>())
                                                                            : std::nullopt);
        const std::string probe = text_or(r, "probe", "");
        const auto headline = headline_point(figures, headline_rule(probe));
        if (!headline) continue;
        const json before = r;
        const std::string was = headline_text(r, extra);
        const json &point = points[*headline];
        for (const char *key : {"value", "seconds", "samples", "statistics", "bytes_per_run"})
            r[key] = point.contains(key) ? point[key] : json();
        headline_extras(probe, object_or_empty(r, "parameters"), *headline, extra);
        if (r == before) continue;
        const json &parameters = object_or_empty(r, "parameters");
        const std::string what = text_or(parameters, "operation", text_or(parameters, "direction", ""));
        changes.push_back(
            {fmt::format("{} {} {} headline", text_or(r, "device", ""), probe, what), was, headline_text(r, extra)});
    }
    return changes;
}

} // namespace vrb::analysis
