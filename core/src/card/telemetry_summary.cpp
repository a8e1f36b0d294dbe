// Choosing a card's source, and turning its samples into what a result records.
#include <vrambench/core/card/telemetry.hpp>
#include <vrambench/core/card/throttle_reasons.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace vrb {

namespace {

// The median of values already in order (not empty).
double sorted_median(const std::vector<double> &values)
{
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

bool is_throttling_reason(const std::string &reason)
{
    const ThrottleReason *r = throttle_reason(reason);
    return r && r->kind != ThrottleClass::setting;
}

OpenedSource open_telemetry_source(const DeviceRecord &device)
{
    const vrb_device_info &info = device.info;
    if (info.type == VRB_DEVICE_CPU) return {host_telemetry_source(), {}};
    if (!(info.known & VRB_KNOWN_PCI_ADDRESS))
        return {nullptr,
                fmt::format("the {} backend reports no PCI address to find the card's telemetry by", device.backend)};
    const std::string address = module_string(info.pci_address);
    std::string amd_why, nvml_why;
    if (auto amd = amdgpu_telemetry_source(address, amd_why)) return {std::move(amd), {}};
    if (auto nvml = nvml_telemetry_source(address, nvml_why)) return {std::move(nvml), {}};
    return {nullptr, fmt::format("{}; {}", amd_why, nvml_why)};
}

nlohmann::json summarize_telemetry(const std::vector<TelemetrySample> &samples, const std::string &source,
                                   const std::map<std::string, std::string> &unavailable, const std::string &window,
                                   const std::map<std::string, std::string> &averaged)
{
    nlohmann::json figures = nlohmann::json::object(), missing = nlohmann::json::object();
    for (const char *figure : kTelemetryFigures) {
        std::vector<double> values;
        for (const auto &s : samples)
            if (const auto it = s.figures.find(figure); it != s.figures.end()) values.push_back(it->second);
        if (values.empty()) {
            figures[figure] = nullptr;
            const auto why = unavailable.find(figure);
            missing[figure] = why != unavailable.end() ? why->second
                              : samples.empty()        ? std::string("no sample was taken")
                                                       : fmt::format("{} did not report it", source);
            continue;
        }
        std::sort(values.begin(), values.end());
        figures[figure] = {{"min", values.front()}, {"median", sorted_median(values)}, {"max", values.back()}};
    }
    std::set<std::string> reasons;
    bool reasons_known = false;
    for (const auto &s : samples)
        if (s.throttle_reasons) {
            reasons_known = true;
            reasons.insert(s.throttle_reasons->begin(), s.throttle_reasons->end());
        }
    if (!reasons_known) {
        const auto why = unavailable.find("throttle_reasons");
        missing["throttle_reasons"] = why != unavailable.end() ? why->second : std::string("not reported");
    }
    nlohmann::json j = {{"source", source},
                        {"samples", samples.size()},
                        {"window", window},
                        {"figures", figures},
                        {"throttle_reasons", reasons_known ? nlohmann::json(reasons) : nlohmann::json()},
                        {"unavailable", missing}};
    nlohmann::json windows = nlohmann::json::object();
    for (const auto &[figure, over] : averaged)
        if (figures.contains(figure) && !figures[figure].is_null()) windows[figure] = over;
    if (!windows.empty()) j["averaged"] = windows;
    return j;
}

nlohmann::json throttled_json(const std::vector<TelemetrySample> &samples)
{
    std::set<std::string> reasons;
    std::size_t throttled = 0;
    for (const auto &s : samples) {
        if (!s.throttle_reasons) continue;
        bool any = false;
        for (const auto &r : *s.throttle_reasons)
            if (is_throttling_reason(r)) {
                reasons.insert(r);
                any = true;
            }
        throttled += any;
    }
    if (reasons.empty()) return nullptr;
    return {{"reasons", reasons},
            {"samples", throttled},
            {"detail", fmt::format("{} of {} samples saw the card held below its clocks by {}", throttled,
                                   samples.size(), fmt::join(reasons, ", "))}};
}

nlohmann::json with_clocked_down(nlohmann::json throttled, const std::vector<TelemetrySample> &timed, double peak_mhz)
{
    std::vector<double> clocks;
    for (const auto &s : timed)
        if (const auto it = s.figures.find("core_clock_mhz"); it != s.figures.end() && it->second > 0)
            clocks.push_back(it->second);
    if (clocks.empty() || peak_mhz <= 0) return throttled;
    std::sort(clocks.begin(), clocks.end());
    const double median = sorted_median(clocks);
    if (median >= kClockedDownShare * peak_mhz) return throttled;
    const auto low = static_cast<std::size_t>(
        std::count_if(clocks.begin(), clocks.end(), [&](double c) { return c < kClockedDownShare * peak_mhz; }));
    const std::string detail =
        fmt::format("the core clock was {:.0f} MHz during the timed runs, {:.0f}% of the {:.0f} MHz the card ran at "
                    "earlier in this run: it had clocked down (as a GPU does when it finds itself idle), so the "
                    "figure is low",
                    median, 100 * median / peak_mhz, peak_mhz);
    if (!throttled.is_object()) return {{"reasons", {kClockedDownReason}}, {"samples", low}, {"detail", detail}};
    throttled["reasons"].push_back(kClockedDownReason);
    throttled["samples"] = std::max<std::size_t>(throttled["samples"].get<std::size_t>(), low);
    throttled["detail"] = throttled["detail"].get<std::string>() + "; " + detail;
    return throttled;
}

std::size_t throttled_results(const nlohmann::json &document)
{
    std::size_t n = 0;
    for (const auto &r : array_or_empty(document, "results"))
        n += r.is_object() && r.contains("throttled") && r["throttled"].is_object();
    return n;
}

} // namespace vrb
