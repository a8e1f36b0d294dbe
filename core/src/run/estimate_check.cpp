#include <vrambench/core/run/estimate_check.hpp>

#include <fmt/format.h>

#include <map>
#include <utility>

namespace vrb {

std::vector<ProbeWallTime> probe_wall_times(const nlohmann::json &document)
{
    std::vector<ProbeWallTime> out;
    std::map<std::pair<std::string, std::string>, std::size_t> index;
    if (!document.contains("results") || !document["results"].is_array()) return out;
    for (const auto &r : document["results"]) {
        if (!r.is_object() || !r.contains("extra") || !r["extra"].is_object()) continue;
        const auto wall = r["extra"].find("wall_time");
        if (wall == r["extra"].end() || !wall->is_object()) continue;
        const auto seconds = wall->find("probe_seconds");
        if (seconds == wall->end() || !seconds->is_number()) continue;
        const std::pair key{r.value("device", std::string()), r.value("probe", std::string())};
        auto [it, fresh] = index.try_emplace(key, out.size());
        if (fresh) out.push_back({key.first, key.second, 0, std::nullopt});
        ProbeWallTime &t = out[it->second];
        // probe_seconds counts from the probe's start: its last result holds the whole.
        t.seconds = std::max(t.seconds, seconds->get<double>());
        if (const auto e = wall->find("probe_estimate_seconds"); e != wall->end() && e->is_number())
            t.estimate = e->get<double>();
    }
    return out;
}

std::vector<std::string> estimate_warnings(const nlohmann::json &document)
{
    std::vector<std::string> lines;
    for (const ProbeWallTime &t : probe_wall_times(document)) {
        if (!t.estimate || t.seconds <= estimate_least_seconds) continue;
        if (t.seconds <= estimate_warning_factor * *t.estimate) continue;
        lines.push_back(fmt::format(
            "{} on {} took {:.1f} s, {} its plan's {:.2f} s estimate: the estimator does not "
            "know this device well (its plan, `vrambench run --plan`, sizes the run by it)",
            t.probe, t.device, t.seconds,
            *t.estimate > 0 ? fmt::format("{:.1f} x", t.seconds / *t.estimate) : std::string("far past"), *t.estimate));
    }
    return lines;
}

} // namespace vrb
