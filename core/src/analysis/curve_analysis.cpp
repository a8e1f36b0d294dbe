#include <vrambench/core/analysis/curve_analysis.hpp>
#include <vrambench/core/measurement/tlb_reach.hpp>
#include <vrambench/core/results/json_fields.hpp>
#include <vrambench/core/results/readable.hpp>

#include "../probes/curve_plan.hpp"

#include <fmt/format.h>

namespace vrb::analysis {

using nlohmann::json;

json curve_plateaus(std::span<const CurvePoint> curve, const CurveContext &context)
{
    json out = json::array();
    auto found = find_plateaus(curve);
    const double largest = context.largest_x > 0 ? context.largest_x : curve.empty() ? 0 : curve.back().x;
    name_plateaus(found, context.caches, largest, context.figure, context.settled, context.tlbs);
    for (const Plateau &p : found) {
        json j = {{"name", p.name},
                  {"value", p.level},
                  {"from", curve[p.first].x},
                  {"to", curve[p.last].x},
                  {"ends_at", p.ends_at}};
        if (p.reported_bytes) j["reported_bytes"] = p.reported_bytes;
        out.push_back(std::move(j));
    }
    return out;
}

bool stored_curve_context(const json &result, const DeviceRecord &device, CurveContext &context)
{
    const std::string probe = text_or(result, "probe", "");
    const json &parameters = object_or_empty(result, "parameters");
    if (probe == "latency.chase") {
        context.caches = plan_caches(device, 1);
        context.figure = CurveFigure::latency;
        context.largest_x = number_or(parameters, "largest_footprint_bytes", 0.0);
        context.tlbs = tlb_reach(device.info);
    } else if (probe == "bandwidth.sweep") {
        context.caches = plan_sweep_caches(device);
        context.figure = CurveFigure::bandwidth;
        context.largest_x = 0;
        context.tlbs.clear();
    } else {
        return false;
    }
    context.settled = object_or_empty(object_or_empty(result, "extra"), "growth").contains("settled_bytes");
    return true;
}

namespace {

// "L1 16.7 ns, L2 142 ns, memory 333 ns": a curve's levels as `analyze` prints them.
std::string levels_text(const json &plateaus, const std::string &unit)
{
    std::string out;
    for (const json &p : plateaus)
        out += fmt::format("{}{} {:.4g} {}", out.empty() ? "" : ", ", text_or(p, "name", "?"), number_or(p, "value", 0),
                           unit);
    return out.empty() ? "no plateaus" : out;
}

} // namespace

SetDevices::SetDevices(const json &set)
{
    for (const json &d : array_or_empty(set, "devices"))
        devices_.emplace_back(text_or(d, "id", ""), device_record_from_json(d));
}

const DeviceRecord *SetDevices::find(std::string_view id) const
{
    for (const auto &[known, d] : devices_)
        if (known == id) return &d;
    return nullptr;
}

std::vector<Change> reanalyze(json &set)
{
    std::vector<Change> changes;
    if (!set.is_object() || !set.contains("results") || !set["results"].is_array()) return changes;
    const SetDevices devices(set);
    for (json &r : set["results"]) {
        if (!r.is_object() || !r.contains("extra") || !r["extra"].is_object()) continue;
        json &extra = r["extra"];
        if (!extra.contains("curve") || !extra["curve"].is_object()) continue;
        json &curve = extra["curve"];
        const std::string device = text_or(r, "device", "");
        const DeviceRecord *record = devices.find(device);
        CurveContext context;
        if (!record || !stored_curve_context(r, *record, context)) continue;
        const std::string x = text_or(curve, "x", "");
        std::vector<CurvePoint> points;
        for (const json &p : array_or_empty(curve, "points"))
            if (const double v = number_or(p, "value", 0); v > 0 && p.contains(x) && p[x].is_number())
                points.push_back({p[x].get<double>(), v});
        json after = curve_plateaus(points, context);
        // A chase measured with the core's clock known gives each level in cycles too.
        if (const double khz = number_or(extra, "core_clock_khz", 0); khz > 0)
            for (json &p : after)
                p["cycles"] = p["value"].get<double>() * khz / 1e6;
        const json before = curve.contains("plateaus") ? curve["plateaus"] : json::array();
        const std::string unit = text_or(r, "unit", "");
        const std::string was = levels_text(before, unit), now = levels_text(after, unit);
        const std::string operation = text_or(object_or_empty(r, "parameters"), "operation", "");
        changes.push_back({fmt::format("{} {} {}", device, text_or(r, "probe", ""), operation), was, now});
        curve["plateaus"] = std::move(after);
    }
    return changes;
}

} // namespace vrb::analysis
