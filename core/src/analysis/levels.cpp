#include <vrambench/core/analysis/levels.hpp>
#include <vrambench/core/results/json_fields.hpp>

namespace vrb::analysis {

using nlohmann::json;

const json *level_plateau(const json &result, std::string_view name)
{
    const json &curve = object_or_empty(object_or_empty(result, "extra"), "curve");
    for (const json &p : array_or_empty(curve, "plateaus"))
        if (text_or(p, "name", "") == name && p.contains("value") && p["value"].is_number()) return &p;
    return nullptr;
}

std::optional<double> level_figure(const json &result, std::string_view name)
{
    if (const json *p = level_plateau(result, name)) return (*p)["value"].get<double>();
    return std::nullopt;
}

std::optional<MemoryLatency> memory_latency(const json &result)
{
    if (text_or(result, "probe", "") != "latency.chase") return std::nullopt;
    const json *p = level_plateau(result, "memory");
    if (!p) return std::nullopt;
    return MemoryLatency{(*p)["value"].get<double>(), number_or(*p, "from", 0.0)};
}

std::optional<MemoryLatency> memory_latency(const json &set, const std::string &device)
{
    for (const json &r : array_or_empty(set, "results")) {
        if (text_or(r, "device", "") != device) continue;
        const std::string status = text_or(r, "status", "");
        if (status != "ok" && status != "suspect") continue;
        if (const auto latency = memory_latency(r)) return latency;
    }
    return std::nullopt;
}

} // namespace vrb::analysis
