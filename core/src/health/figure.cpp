#include <vrambench/core/analysis/levels.hpp>
#include <vrambench/core/health/figure.hpp>
#include <vrambench/core/health/thresholds.hpp>
#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace vrb::health {

namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 7> stream_operations{"read", "write", "copy", "scale", "add", "triad", "dot"};

// The transfer curve's point at transfer_bytes: its value, status and verification.
const json *transfer_point(const json &result)
{
    const json &curve = object_or_empty(object_or_empty(result, "extra"), "curve");
    for (const json &p : array_or_empty(curve, "points"))
        if (std::fabs(number_or(p, "transfer_bytes", -1) - double(transfer_bytes)) < 0.5) return &p;
    return nullptr;
}

} // namespace

std::string figure_text(const FigureKey &key)
{
    if (key.probe == "bandwidth.stream")
        return key.element_bytes ? fmt::format("{} {} ({} B)", key.probe, key.operation, key.element_bytes)
                                 : fmt::format("{} {}", key.probe, key.operation);
    if (key.probe == "bandwidth.transfer")
        return fmt::format("{} {} at {}", key.probe, key.operation, format_size(transfer_bytes));
    return key.operation.empty() ? key.probe : fmt::format("{} {}", key.probe, key.operation);
}

std::optional<std::string_view> figure_unit(std::string_view probe)
{
    if (probe == "bandwidth.stream" || probe == "bandwidth.transfer") return "GB/s";
    if (probe == "latency.chase") return "ns";
    return std::nullopt;
}

bool figure_lower_is_better(std::string_view probe)
{
    return probe == "latency.chase";
}

bool is_stream_operation(std::string_view operation)
{
    for (const auto op : stream_operations)
        if (op == operation) return true;
    return false;
}

std::optional<Figure> health_figure(const json &result)
{
    const std::string probe = text_or(result, "probe", "");
    const json &parameters = object_or_empty(result, "parameters");
    Figure f;
    f.key.probe = probe;
    f.unit = text_or(result, "unit", "");
    const json *source = &result;
    if (probe == "bandwidth.stream") {
        // A figure sized by --size may sit inside a cache: not the memory's.
        if (text_or(parameters, "size_rule", "").starts_with("as given by --size")) return std::nullopt;
        f.key.operation = text_or(parameters, "operation", "");
        f.key.element_bytes = count_or(parameters, "element_bytes", 0);
        if (f.key.operation.empty()) return std::nullopt;
    } else if (probe == "bandwidth.transfer") {
        f.key.operation = text_or(parameters, "direction", "");
        if (f.key.operation.empty() || text_or(parameters, "engine", "ce") != "ce") return std::nullopt;
        // A failed route has no curve: its status is the result's.
        if (const json *point = transfer_point(result))
            source = point;
        else if (text_or(result, "status", "") == "ok" || text_or(result, "status", "") == "suspect")
            return std::nullopt; // measured, but never at the figure's size
    } else if (probe != "latency.chase") {
        return std::nullopt;
    }
    if (probe == "latency.chase") {
        const auto memory = analysis::memory_latency(result);
        // A chase that stayed inside the caches (a quick suite's) measured no memory
        // latency: nothing of the memory's to judge, and no failure of the card's.
        const std::string status = text_or(result, "status", "");
        if (!memory && (status == "ok" || status == "suspect")) return std::nullopt;
        if (memory) f.value = memory->ns;
    } else if (source->contains("value") && (*source)["value"].is_number()) {
        f.value = (*source)["value"].get<double>();
    }
    f.status = text_or(*source, "status", text_or(result, "status", ""));
    const json &verification = object_or_empty(*source, "verification");
    f.verification = text_or(verification, "status", "unverified");
    f.verification_detail = text_or(verification, "detail", "");
    return f;
}

bool card_figure(const FigureKey &key)
{
    return !(key.probe == "bandwidth.transfer" && key.operation.find("pageable") != std::string::npos);
}

bool trusted(const Figure &figure)
{
    return figure.value && *figure.value > 0 && figure.status == "ok" && figure.verification == "passed";
}

} // namespace vrb::health
