#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/core/planning/plan.hpp>
#include <vrambench/core/probes/probe.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace vrb {

Throughput assumed_throughput(const DeviceRecord &device)
{
    Throughput t;
    const bool cpu = device.info.type == VRB_DEVICE_CPU;
    if (!cpu) {
        t.seconds_per_run = 50e-6; // a launch or a dispatch and its wait
        t.first_touch_gb_per_s = 0;
        t.cache_load_ns = 200;
        t.memory_load_ns = 700;
        t.warm_seconds_per_point = kGpuWarmSeconds;
    }
    const PeakChoice peak = device.peak();
    if (peak.gb_per_s) {
        t.device_gb_per_s = 0.7 * *peak.gb_per_s;
        t.source = fmt::format("70 % of the {:.0f} GB/s {} peak", *peak.gb_per_s, peak.source);
    } else {
        t.source = "an assumed 10 GB/s: no peak is known";
    }
    return t;
}

double estimate_seconds(const Cost &cost, const Throughput &t)
{
    double seconds = cost.host_bytes / (t.host_gb_per_s * 1e9);
    if (t.first_touch_gb_per_s > 0) seconds += cost.first_touch_bytes / (t.first_touch_gb_per_s * 1e9);
    for (const PlannedRuns &r : cost.runs) {
        const double one = r.bytes / (t.device_gb_per_s * 1e9) + r.cache_loads * t.cache_load_ns * 1e-9 +
                           r.memory_loads * t.memory_load_ns * 1e-9 + t.seconds_per_run;
        const double calibration = one >= 10 * r.floor_seconds ? std::min(r.calibration, 1.0) : r.calibration;
        seconds += (r.runs + calibration) * std::max(one, r.floor_seconds);
        if (r.calibration > 0) seconds += t.warm_seconds_per_point;
    }
    return seconds;
}

DevicePlan plan_device(const DeviceRecord &device, std::span<const Probe *const> probes, const ProbeOptions &options)
{
    DevicePlan plan;
    plan.device = device.id;
    plan.name = module_string(device.info.name);
    plan.last_level_cache = device.last_level_cache();
    plan.peak = device.peak();
    plan.throughput = assumed_throughput(device);
    for (const Probe *probe : probes) {
        ProbePlan p = probe->plan(device, options);
        p.probe = probe->id();
        if (p.estimated) {
            p.seconds = estimate_seconds(p.cost, plan.throughput);
            plan.seconds += p.seconds;
        }
        plan.probes.push_back(std::move(p));
    }
    return plan;
}

double device_budget_seconds(const ProbeOptions &options)
{
    if (options.device_budget_seconds) return std::max(*options.device_budget_seconds, 0.0);
    return options.suite == Suite::standard ? standard_budget_seconds : 0;
}

std::string economy_text(uint32_t economy)
{
    switch (economy) {
    case 0: return "nothing";
    case 1: return "fewer repetitions";
    default: return "fewer repetitions and points";
    }
}

DevicePlan plan_within_budget(const DeviceRecord &device, std::span<const Probe *const> probes,
                              const ProbeOptions &options)
{
    const double budget = device_budget_seconds(options);
    ProbeOptions o = options;
    o.economy = 0;
    DevicePlan plan = plan_device(device, probes, o);
    const double unbudgeted = plan.seconds;
    // Only the standard suite trades repetitions and points for time: the quick suite's
    // sizes are capped already, the full suite is asked for in full.
    while (budget > 0 && options.suite == Suite::standard && plan.seconds > budget && o.economy < most_economy) {
        ++o.economy;
        plan = plan_device(device, probes, o);
    }
    plan.budget_seconds = budget;
    plan.economy = o.economy;
    plan.unbudgeted_seconds = unbudgeted;
    return plan;
}

std::optional<nlohmann::json> budget_json(const DevicePlan &plan)
{
    if (plan.budget_seconds <= 0) return std::nullopt;
    return nlohmann::json{{"budget_seconds", plan.budget_seconds},
                          {"estimate_seconds", plan.seconds},
                          {"unbudgeted_estimate_seconds", plan.unbudgeted_seconds},
                          {"economy", plan.economy},
                          {"given_up", economy_text(plan.economy)},
                          {"kept", plan.seconds <= plan.budget_seconds}};
}

std::string budget_text(const DevicePlan &plan)
{
    if (plan.budget_seconds <= 0) return "no time budget";
    std::string text = fmt::format("time budget {:.0f} s: estimated {:.1f} s", plan.budget_seconds, plan.seconds);
    if (plan.economy > 0)
        text += fmt::format(" with {} (all of them: {:.1f} s)", economy_text(plan.economy), plan.unbudgeted_seconds);
    if (plan.seconds > plan.budget_seconds)
        text += "; over the budget even so: sizes keep their rules, so the run takes longer";
    return text;
}

nlohmann::json to_json(const DevicePlan &plan)
{
    nlohmann::json probes = nlohmann::json::array();
    for (const ProbePlan &p : plan.probes)
        probes.push_back({{"probe", p.probe},
                          {"reason", p.reason},
                          {"size_rule", p.size_rule},
                          {"sizes", p.sizes},
                          {"estimate_seconds", p.estimated ? nlohmann::json(p.seconds) : nlohmann::json()}});
    return {{"device", plan.device},
            {"name", plan.name},
            {"last_level_cache", to_json(plan.last_level_cache)},
            {"peak", to_json(plan.peak)},
            {"throughput",
             {{"device_gb_per_s", plan.throughput.device_gb_per_s},
              {"host_gb_per_s", plan.throughput.host_gb_per_s},
              {"seconds_per_run", plan.throughput.seconds_per_run},
              {"source", plan.throughput.source}}},
            {"probes", probes},
            {"estimate_seconds", plan.seconds},
            {"time_budget", budget_json(plan).value_or(nullptr)}};
}

namespace {

// A plan's size in the unit a person reads it in: bytes as sizes, seconds as ms or µs.
std::string size_text(const std::string &key, const nlohmann::json &value)
{
    if (value.is_number_unsigned() && key.ends_with("bytes")) return format_size(value.get<uint64_t>());
    if (value.is_number() && key.ends_with("seconds")) {
        const double s = value.get<double>();
        return s < 1e-3 ? fmt::format("{:.1f} µs", s * 1e6)
               : s < 1  ? fmt::format("{:.2f} ms", s * 1e3)
                        : fmt::format("{:.2f} s", s);
    }
    return value.dump();
}

} // namespace

std::string plan_text(const DevicePlan &plan)
{
    std::string out = fmt::format("{}: {}\n", plan.device, plan.name);
    const LastLevelCache &llc = plan.last_level_cache;
    out += fmt::format("  last-level cache: {} ({}: {})\n", llc.bytes ? format_size(llc.bytes) : "unknown", llc.source,
                       llc.detail);
    out += fmt::format("  peak: {} ({}{})\n",
                       plan.peak.gb_per_s ? fmt::format("{:.1f} GB/s", *plan.peak.gb_per_s) : "unknown",
                       plan.peak.source, plan.peak.convention.empty() ? "" : ": " + plan.peak.convention);
    if (!plan.peak.note.empty()) out += fmt::format("    {}\n", plan.peak.note);
    out += fmt::format("  estimate from {}\n", plan.throughput.source);
    std::vector<std::string_view> left_out;
    for (const ProbePlan &p : plan.probes) {
        out += fmt::format("  {:<24} {:>9}  [{}] {}\n", p.probe,
                           p.estimated ? fmt::format("{:.2f} s", p.seconds) : std::string("?"), p.reason, p.size_rule);
        std::string sizes;
        for (const auto &[key, value] : p.sizes.items())
            sizes += fmt::format("{}{}={}", sizes.empty() ? "" : ", ", key, size_text(key, value));
        if (!sizes.empty()) out += fmt::format("  {:<24} {:>9}  {}\n", "", "", sizes);
        if (!p.estimated) left_out.push_back(p.probe);
    }
    out += fmt::format("  {}\n", budget_text(plan));
    out += fmt::format("  estimated duration: {:.1f} s{}\n", plan.seconds,
                       left_out.empty()
                           ? std::string()
                           : fmt::format(" (not counting {}, which decide as they run)", fmt::join(left_out, ", ")));
    return out;
}

} // namespace vrb
