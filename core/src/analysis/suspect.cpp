#include <vrambench/core/analysis/suspect.hpp>
#include <vrambench/core/measurement/link_bound.hpp>
#include <vrambench/core/measurement/measure.hpp>
#include <vrambench/core/measurement/traffic.hpp>
#include <vrambench/core/results/device_record.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include "../probes/curve_plan.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <utility>

namespace vrb::analysis {

namespace {

using nlohmann::json;

// How a figure is marked, as its probe marks it live: against the peak over `footprint`
// bytes (set_bandwidth), and against the host link (check_link_bound).
struct MarkRule {
    bool peak = false;
    uint64_t footprint = 0;
    bool link = false;
    double directions = 1;
    std::string what;
};

std::optional<uint64_t> whole(const json &object, const char *key)
{
    if (!object.contains(key) || !object[key].is_number() || object[key].get<double>() <= 0) return std::nullopt;
    return static_cast<uint64_t>(object[key].get<double>());
}

std::optional<uint32_t> op_kind(const std::string &name)
{
    for (uint32_t kind = VRB_OP_READ; kind <= VRB_OP_CHECK; ++kind)
        if (op_name(kind) == name) return kind;
    return std::nullopt;
}

// The bytes an operation of the result's `operation` and `element_bytes` moves over
// `bytes` of each buffer: what one pass touches, each byte once (stream_point.cpp).
std::optional<Traffic> traffic_over(const json &parameters, std::optional<uint64_t> bytes)
{
    const auto kind = op_kind(text_or(parameters, "operation", ""));
    const auto width = whole(parameters, "element_bytes");
    if (!kind || !width || !bytes) return std::nullopt;
    return bytes_moved(*kind, static_cast<uint32_t>(*width), *bytes / *width);
}

std::optional<MarkRule> peak_over(std::optional<Traffic> traffic)
{
    if (!traffic) return std::nullopt;
    return MarkRule{true, traffic->total()};
}

bool has_flag(const json &parameters, const char *flag)
{
    for (const json &f : array_or_empty(parameters, "memory_flags"))
        if (f.is_string() && f.get<std::string>() == flag) return true;
    return false;
}

// A host-device transfer's bytes cross the link; a copy within the device's does not.
bool transfer_crosses_link(const json &parameters)
{
    return text_or(parameters, "direction", "device-to-device") != "device-to-device";
}

// The rule of a result that is one figure, or of a curve result's own figure (its
// headline); none where the stored result does not say enough to decide.
std::optional<MarkRule> result_rule(const json &r, const DeviceRecord &device)
{
    const std::string probe = text_or(r, "probe", "");
    const json &parameters = object_or_empty(r, "parameters");
    if (probe == "bandwidth.stream") {
        // Each byte once a pass: the operation's traffic over its elements (stream.cpp).
        const auto kind = op_kind(text_or(parameters, "operation", ""));
        const auto width = whole(parameters, "element_bytes");
        const auto elements = whole(parameters, "elements");
        if (!kind || !width || !elements) return std::nullopt;
        return MarkRule{true, bytes_moved(*kind, static_cast<uint32_t>(*width), *elements).total()};
    }
    if (probe == "pattern.vector") return peak_over(traffic_over(parameters, whole(parameters, "array_bytes")));
    if (probe == "pattern.gather") {
        const auto width = whole(parameters, "element_bytes");
        const auto elements = whole(parameters, "elements");
        if (!width || !elements) return std::nullopt;
        return MarkRule{true, bytes_moved(VRB_OP_GATHER, static_cast<uint32_t>(*width), *elements).total()};
    }
    if (probe == "memory.kinds") {
        const auto traffic = traffic_over(parameters, whole(parameters, "array_bytes"));
        auto rule = peak_over(traffic);
        // A kernel on host memory reads and writes it across the link.
        if (rule && has_flag(parameters, "host-memory")) {
            rule->link = true;
            rule->directions = link_directions(*traffic);
            rule->what = fmt::format("{} on memory kind {}", text_or(parameters, "operation", ""),
                                     text_or(parameters, "memory_kind", ""));
        }
        return rule;
    }
    if (probe == "interop.bandwidth") {
        // Whether the exporter shared host memory (its bytes then cross this device's
        // link) is not recorded: where the device has a link, the mark stays.
        if (host_link(device)) return std::nullopt;
        return peak_over(traffic_over(parameters, whole(parameters, "array_bytes")));
    }
    const bool curve = object_or_empty(object_or_empty(r, "extra"), "curve").contains("points");
    // A curve's own figure is never set against the peak (its points are, each over its
    // footprint); a host-device transfer's is against the link.
    if (curve && probe == "bandwidth.transfer") {
        MarkRule rule;
        if (transfer_crosses_link(parameters))
            rule = {false, 0, true, flag_or(parameters, "both_directions", false) ? 2.0 : 1.0,
                    text_or(parameters, "direction", "")};
        return rule;
    }
    if (curve && (probe == "bandwidth.sweep" || probe == "pattern.stride" || probe == "pattern.alignment" ||
                  probe == "bandwidth.peer"))
        return MarkRule{};
    return std::nullopt;
}

// The rule of one point of a curve result at `x`.
std::optional<MarkRule> point_rule(const json &r, const json &point, double x)
{
    const std::string probe = text_or(r, "probe", "");
    const json &parameters = object_or_empty(r, "parameters");
    const auto at = static_cast<uint64_t>(x > 0 ? x : 0);
    if (probe == "bandwidth.sweep") {
        if (at == 0) return std::nullopt;
        // x is every byte the operation touches: a copy's source and destination halves.
        const bool copy = text_or(parameters, "operation", "") == "copy";
        return peak_over(traffic_over(parameters, copy ? at / 2 : at));
    }
    if (probe == "pattern.alignment") return peak_over(traffic_over(parameters, whole(parameters, "array_bytes")));
    if (probe == "pattern.stride") {
        if (const auto touched = whole(point, "footprint_bytes")) return MarkRule{true, *touched};
        // A set recorded before the footprint was: the lines its reads touched, as the probe counts them.
        const auto read = whole(point, "elements_read");
        const auto width = whole(parameters, "element_bytes");
        if (!read || !width || at == 0) return std::nullopt;
        return MarkRule{true, stride_footprint(*read, at, static_cast<uint32_t>(*width))};
    }
    if (probe == "bandwidth.transfer" || probe == "bandwidth.peer") {
        if (at == 0) return std::nullopt;
        // A copy touches its source and its destination: twice the bytes, per direction (curve.cpp).
        const double directions = flag_or(parameters, "both_directions", false) ? 2.0 : 1.0;
        MarkRule rule{true, static_cast<uint64_t>(2 * directions) * at};
        if (probe == "bandwidth.transfer" && transfer_crosses_link(parameters)) {
            rule.link = true;
            rule.directions = directions;
            rule.what = text_or(parameters, "direction", "");
        }
        return rule;
    }
    return std::nullopt;
}

std::string mark_text(const json &figure)
{
    const std::string status = text_or(figure, "status", "");
    const std::string error = text_or(figure, "error", "");
    return status == "suspect" && !error.empty() ? "suspect: " + error : status;
}

// Marks one figure (a result, or a point of a curve: `point`, whose ok carries no error
// at all) as its rule says.
void remark(json &figure, const std::optional<MarkRule> &rule, const DeviceRecord &device, bool point,
            const std::string &where, SuspectMarks &out)
{
    const std::string status = text_or(figure, "status", "");
    if (status != "ok" && status != "suspect") return;
    if (!figure.contains("value") || !figure["value"].is_number()) return;
    if (!rule) {
        ++out.kept;
        return;
    }
    ++out.rederived;
    const double value = figure["value"].get<double>();
    std::optional<std::string> sentence;
    if (rule->peak) sentence = peak_suspicion(value, device, rule->footprint);
    if (rule->link)
        if (auto past = link_suspicion(value, device, rule->directions, rule->what))
            sentence = sentence ? *past + "; " + *sentence : *past;
    const std::string before = mark_text(figure);
    if (sentence) {
        figure["status"] = "suspect";
        figure["error"] = *sentence;
    } else if (status == "suspect") {
        figure["status"] = "ok";
        if (point)
            figure.erase("error");
        else
            figure["error"] = nullptr;
    }
    if (const std::string after = mark_text(figure); after != before) out.changes.push_back({where, before, after});
}

std::string figure_name(const json &r)
{
    const json &parameters = object_or_empty(r, "parameters");
    std::string out = fmt::format("{} {} {}", text_or(r, "device", ""), text_or(r, "probe", ""),
                                  text_or(parameters, "operation", text_or(parameters, "direction", "")));
    // Each width of a stream or vector operation is a figure of its own.
    if (const auto width = whole(parameters, "element_bytes");
        width && !object_or_empty(object_or_empty(r, "extra"), "curve").contains("points"))
        out += fmt::format(" {}B", *width);
    for (const char *key : {"indices", "pair"})
        if (parameters.contains(key) && parameters[key].is_string()) out += " " + parameters[key].get<std::string>();
    if (text_or(r, "probe", "") == "memory.kinds") out += " on " + text_or(parameters, "memory_kind", "");
    return out;
}

} // namespace

SuspectMarks rederive_suspect_marks(json &set)
{
    SuspectMarks out;
    if (!set.is_object() || !set.contains("results") || !set["results"].is_array()) return out;
    const SetDevices devices(set);
    for (json &r : set["results"]) {
        if (!r.is_object() || text_or(r, "metric", "") != "bandwidth") continue;
        const DeviceRecord *record = devices.find(text_or(r, "device", ""));
        if (!record) continue;
        const std::string name = figure_name(r);
        if (r.contains("extra") && r["extra"].is_object() && r["extra"].contains("curve") &&
            r["extra"]["curve"].is_object()) {
            json &curve = r["extra"]["curve"];
            const std::string x = text_or(curve, "x", "");
            if (curve.contains("points") && curve["points"].is_array())
                for (json &p : curve["points"]) {
                    if (!p.is_object()) continue;
                    const double at = number_or(p, x.c_str(), 0);
                    remark(p, point_rule(r, p, at), *record, true, fmt::format("{} at {} {:.0f}", name, x, at), out);
                }
        }
        remark(r, result_rule(r, *record), *record, false, name, out);
    }
    return out;
}

} // namespace vrb::analysis
