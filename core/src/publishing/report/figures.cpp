#include "figures.hpp"
#include <vrambench/core/analysis/levels.hpp>

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace vrb::report {

const std::vector<std::string> &stream_operations()
{
    static const std::vector<std::string> operations{"read", "write", "copy", "scale", "add", "triad", "dot"};
    return operations;
}

bool usable(const json &result)
{
    const std::string status = text_or(result, "status", "");
    return (status == "ok" || status == "suspect") && result.contains("value") && result["value"].is_number();
}

std::vector<const json *> results_of(const json &set, const std::string &device, const std::string &probe)
{
    std::vector<const json *> found;
    const auto results = set.find("results");
    if (results == set.end() || !results->is_array()) return found;
    for (const json &r : *results)
        if (text_or(r, "device", "") == device && text_or(r, "probe", "") == probe) found.push_back(&r);
    return found;
}

std::string parameter_text(const json &result, const char *name)
{
    const json &p = object_or_empty(result, "parameters");
    if (!p.contains(name)) return "";
    const json &v = p[name];
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
    return v.dump();
}

double parameter_number(const json &result, const char *name)
{
    const json &p = object_or_empty(result, "parameters");
    return p.contains(name) && p[name].is_number() ? p[name].get<double>() : 0;
}

json curve_points(const json &result, const char *x_field, double y_scale)
{
    json points = json::array();
    const json &extra = object_or_empty(result, "extra");
    if (!extra.contains("curve") || !extra["curve"].contains("points")) return points;
    for (const json &p : extra["curve"]["points"]) {
        if (!p.contains(x_field) || !p[x_field].is_number() || !usable(p)) continue;
        points.push_back({{"x", p[x_field]}, {"y", p["value"].get<double>() * y_scale}});
    }
    return points;
}

const json &plateaus_of(const json &result)
{
    static const json none = json::array();
    const auto extra = result.find("extra");
    if (extra == result.end() || !extra->is_object()) return none;
    const auto curve = extra->find("curve");
    if (curve == extra->end() || !curve->is_object()) return none;
    const auto plateaus = curve->find("plateaus");
    return plateaus != curve->end() && plateaus->is_array() ? *plateaus : none;
}

std::optional<double> widest_stream_figure(const json &set, const std::string &device, const std::string &operation)
{
    std::optional<double> best;
    double widest = -1;
    for (const json *r : results_of(set, device, "bandwidth.stream")) {
        if (!usable(*r) || parameter_text(*r, "operation") != operation) continue;
        const double width = parameter_number(*r, "element_bytes");
        if (width < widest) continue;
        widest = width;
        best = (*r)["value"].get<double>();
    }
    return best;
}

std::optional<double> memory_latency_ns(const json &set, const std::string &device)
{
    for (const json *r : results_of(set, device, "latency.chase")) {
        if (!usable(*r)) continue;
        if (const auto memory = analysis::memory_latency(*r)) return memory->ns;
    }
    return std::nullopt;
}

std::optional<double> capacity_figure(const json &set, const std::string &device, const std::string &probe,
                                      const std::string &operation)
{
    for (const json *r : results_of(set, device, probe))
        if (usable(*r) && (operation.empty() || parameter_text(*r, "operation") == operation))
            return (*r)["value"].get<double>();
    return std::nullopt;
}

json axis(std::string title, std::string scale)
{
    return {{"title", std::move(title)}, {"scale", std::move(scale)}};
}

json category_axis(std::string title, const std::vector<std::string> &labels)
{
    json a = axis(std::move(title), "category");
    a["labels"] = labels;
    return a;
}

json make_chart(std::string title, std::string type, json x, json y)
{
    return {{"title", std::move(title)}, {"type", std::move(type)}, {"horizontal", false},   {"x", std::move(x)},
            {"y", std::move(y)},         {"series", json::array()}, {"bands", json::array()}};
}

void add_series(json &chart, std::string label, json points, std::string style)
{
    if (points.empty()) return;
    chart["series"].push_back(
        {{"label", std::move(label)}, {"style", std::move(style)}, {"points", std::move(points)}});
}

std::optional<double> peak_of(const json &device)
{
    const json &peak = object_or_empty(device, "peak");
    if (peak.contains("gb_per_s") && peak["gb_per_s"].is_number()) return peak["gb_per_s"].get<double>();
    if (device.contains("peak_bandwidth_gbps") && device["peak_bandwidth_gbps"].is_number())
        return device["peak_bandwidth_gbps"].get<double>();
    return std::nullopt;
}

void add_peak_line(json &chart, const json &device)
{
    const auto peak = peak_of(device);
    if (!peak || !has_points(chart)) return;
    json points = json::array();
    if (chart["x"]["scale"] == "category") {
        for (const json &label : chart["x"]["labels"])
            points.push_back({{"x", label}, {"y", *peak}});
    } else {
        double low = std::numeric_limits<double>::infinity(), high = -low;
        for (const json &s : chart["series"])
            for (const json &p : s["points"]) {
                low = std::min(low, p["x"].get<double>());
                high = std::max(high, p["x"].get<double>());
            }
        points.push_back({{"x", low}, {"y", *peak}});
        if (high > low) points.push_back({{"x", high}, {"y", *peak}});
    }
    const std::string source = text_or(object_or_empty(device, "peak"), "source", "");
    add_series(chart, fmt::format("theoretical peak {:.1f} GB/s ({})", *peak, source), std::move(points), "peak");
}

bool has_points(const json &chart)
{
    for (const json &s : chart["series"])
        if (!s["points"].empty()) return true;
    return false;
}

json make_table(std::vector<std::string> columns)
{
    return {{"columns", std::move(columns)}, {"rows", json::array()}};
}

void add_row(json &table, std::vector<std::string> cells)
{
    table["rows"].push_back(std::move(cells));
}

json make_section(std::string title)
{
    return {
        {"title", std::move(title)}, {"notes", json::array()}, {"charts", json::array()}, {"tables", json::array()}};
}

std::string fixed(double value, int decimals)
{
    return fmt::format("{:.{}f}", value, decimals);
}

std::string figure_text(double value, int decimals)
{
    return std::abs(value) >= 10 || value == 0 ? fixed(value, decimals) : fmt::format("{:.3g}", value);
}

std::string gbps_text(std::optional<double> value)
{
    if (!value) return "-";
    return fmt::format("{:.{}f} GB/s", *value, *value < 10 ? 2 : 1);
}

std::string bytes_text(std::optional<double> value)
{
    if (!value || *value < 0) return "-";
    return format_size(static_cast<uint64_t>(std::llround(*value)));
}

std::string percent_text(std::optional<double> fraction)
{
    return fraction ? fmt::format("{:.1f} %", *fraction * 100) : "-";
}

std::string peak_sentence(const json &device)
{
    const json &peak = object_or_empty(device, "peak");
    const auto figure = peak_of(device);
    if (!figure) {
        const std::string note = peak.value("note", json()).is_string() ? peak["note"].get<std::string>() : "";
        return "No theoretical peak" + (note.empty() ? std::string(".") : ": " + note + ".");
    }
    std::string text = fmt::format("Theoretical peak {:.1f} GB/s ({})", *figure, text_or(peak, "source", "unknown"));
    if (peak.value("convention", json()).is_string()) text += ": " + peak["convention"].get<std::string>();
    if (flag_or(peak, "disagreement", false) && peak.value("note", json()).is_string())
        text += ". " + peak["note"].get<std::string>();
    return text + ".";
}

} // namespace vrb::report
