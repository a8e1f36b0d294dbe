#include "../probes/capacity_budget.hpp"

#include <vrambench/core/error.hpp>
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
    const std::string api = module_string(device.info.api);
    if (cpu) {
        // Past the TLB's reach on a VM each dependent load also walks the nested page
        // tables: the Xeon VM's chases over 2 GB ran 200-300 ns a load where tinymembench
        // put its DRAM at 150-163 ns.
        t.memory_load_ns = 200;
        if (api == "host") {
            t.first_touch_gb_per_s = 5;
            t.device_gb_per_s = 20; // two cores of the Xeon VM: 27 GB/s read, 43 copied
        } else {
            // A GPU API on the CPU: its kernels run on the same cores, its memory is
            // malloc'ed in 4 KiB pages, faulted one by one and given back the same way.
            t.first_touch_gb_per_s = 1.5;
            t.release_gb_per_s = 3;
            if (api == "Vulkan") {
                // lavapipe: shaders compiled to 8-lane SIMD over its thread pool, each
                // dispatch a submit that wakes the pool and a fence waited on; the Xeon VM's
                // moved 3.3-10 GB/s (4-byte vector reads at 3.3, writes at 4.3) where the host
                // module moved 27-43.
                t.device_gb_per_s = 3.6;
                t.seconds_per_run = 200e-6;
            } else {
                t.device_gb_per_s = 16; // PoCL: reads as the host does, writes at 13 GB/s
            }
        }
    } else {
        t.seconds_per_run = 50e-6; // a launch or a dispatch and its wait
        t.first_touch_gb_per_s = 200;
        t.cache_load_ns = 200;
        t.memory_load_ns = 700;
        t.warm_seconds_per_point = kGpuWarmSeconds;
        // 80 % of the link's rate where it was read (an H200's PCIe 5 x16: 63 GB/s; it
        // read pinned host memory at 51), else a PCIe 4 x16's.
        if (device.link && device.link->is_object() && device.link->contains("current") &&
            (*device.link)["current"].is_object() && (*device.link)["current"].contains("rate_gb_per_s") &&
            (*device.link)["current"]["rate_gb_per_s"].is_number())
            t.link_gb_per_s = 0.8 * (*device.link)["current"]["rate_gb_per_s"].get<double>();
    }
    const PeakChoice peak = device.peak();
    if (peak.gb_per_s) {
        t.device_gb_per_s = 0.7 * *peak.gb_per_s;
        t.source = fmt::format("70 % of the {:.0f} GB/s {} peak", *peak.gb_per_s, peak.source);
    } else {
        t.source = fmt::format("an assumed {:g} GB/s: no peak is known", t.device_gb_per_s);
    }
    return t;
}

double estimate_seconds(const Cost &cost, const Throughput &t)
{
    double seconds = cost.host_bytes / (t.host_gb_per_s * 1e9) + cost.fixed_seconds;
    if (t.first_touch_gb_per_s > 0) seconds += cost.first_touch_bytes / (t.first_touch_gb_per_s * 1e9);
    if (t.release_gb_per_s > 0) seconds += cost.released_bytes / (t.release_gb_per_s * 1e9);
    for (const PlannedRuns &r : cost.runs) {
        const double one = r.bytes / (t.device_gb_per_s * 1e9) + r.link_bytes / (t.link_gb_per_s * 1e9) +
                           r.cache_loads * t.cache_load_ns * 1e-9 + r.memory_loads * t.memory_load_ns * 1e-9 +
                           t.seconds_per_run;
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
        plan.planned_peak_bytes = std::max(plan.planned_peak_bytes, p.held_bytes);
        plan.probes.push_back(std::move(p));
    }
    return plan;
}

bool memory_is_system_ram(const DeviceRecord &device)
{
    if (device.info.type == VRB_DEVICE_CPU) return true;
    try {
        return device.kinds.at(capacity::capacity_memory_kind(device)).flags & VRB_MEMORY_HOST_MEMORY;
    } catch (const std::exception &) {
        return false; // no kind the device reaches: nothing of the RAM's to hold
    }
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
    case 2: return "fewer repetitions and points";
    default: return "fewer repetitions, points and sizes";
    }
}

DevicePlan plan_within_budget(const DeviceRecord &device, std::span<const Probe *const> probes,
                              const ProbeOptions &options)
{
    const double budget = device_budget_seconds(options);
    ProbeOptions o = options;
    o.economy = 0;
    DevicePlan plan = plan_device(device, probes, o);
    // System RAM first: what the run may hold of it is a limit, not a wish. Arrays are
    // capped (a quarter of the budget, then halves) until no probe holds more.
    uint64_t ram_budget = 0, ram_reserve = 0, ram_cap = 0;
    std::string ram_rule;
    if (memory_is_system_ram(device) && !options.size) {
        try {
            // The quick suite's capacity probes keep to 32 MiB to stay quick; its arrays
            // are held to the standard suite's share of the RAM, as the rest of a run.
            ProbeOptions share = options;
            if (share.suite == Suite::quick) share.suite = Suite::standard;
            const capacity::CapacityBudget b = capacity::plan_capacity_budget(device, share);
            ram_budget = b.bytes + b.host_reserve;
            ram_reserve = b.host_reserve;
            ram_rule = b.rule;
        } catch (const Error &) {
            // No memory figure and no --memory-limit: the capacity probes say so as they run.
        }
        for (uint64_t cap = (ram_budget - ram_reserve) / 4 / (1u << 20) * (1u << 20);
             ram_budget && plan.planned_peak_bytes + ram_reserve > ram_budget && cap >= (1u << 20); cap /= 2) {
            o.most_array_bytes = ram_cap = cap;
            plan = plan_device(device, probes, o);
        }
    }
    const double unbudgeted = plan.seconds;
    // Only the standard suite trades repetitions and points for time: the quick suite's
    // sizes are capped already, the full suite is asked for in full.
    const bool standard = budget > 0 && options.suite == Suite::standard;
    // --size names the sizes: the grids and chases it sets are the user's, not the budget's.
    const uint32_t last = options.size ? 2 : most_economy;
    while (standard && plan.seconds > budget && o.economy < last) {
        ++o.economy;
        plan = plan_device(device, probes, o);
    }
    // Sizes last: arrays capped by what one run may take, halved until the budget is kept.
    uint64_t cap = 0;
    double run_seconds = 0;
    if (standard && plan.seconds > budget && !options.size) {
        const double bytes_per_second = plan.throughput.device_gb_per_s * 1e9;
        for (double s = first_run_seconds;; s /= 2) {
            uint64_t x = std::max(least_capped_array_bytes,
                                  static_cast<uint64_t>(s * bytes_per_second) / (1u << 20) * (1u << 20));
            if (ram_cap) x = std::min(x, ram_cap);
            if (cap && x >= cap) {
                if (x <= least_capped_array_bytes) break; // the floor was reached: nothing smaller to try
                continue;                                 // held at the RAM budget's cap for now
            }
            o.most_array_bytes = cap = x;
            run_seconds = static_cast<double>(x) / bytes_per_second;
            plan = plan_device(device, probes, o);
            if (plan.seconds <= budget) break;
        }
    }
    plan.budget_seconds = budget;
    plan.economy = o.economy;
    plan.unbudgeted_seconds = unbudgeted;
    plan.most_array_bytes = cap ? cap : ram_cap;
    plan.most_run_seconds = run_seconds;
    plan.ram_budget_bytes = ram_budget;
    plan.ram_reserve_bytes = ram_reserve;
    plan.ram_budget_rule = ram_rule;
    return plan;
}

std::string sizes_given_up_text(const DevicePlan &plan)
{
    std::string text = fmt::format("sweep and chase double past the last cache they pass; the chase makes at most "
                                   "{} dependent loads a run",
                                   economy_chase_steps);
    if (plan.most_array_bytes && plan.most_run_seconds > 0)
        text += fmt::format("; arrays of at most {}, one run of {:.0f} ms at {:.1f} GB/s, whatever the size rules ask",
                            format_size(plan.most_array_bytes), plan.most_run_seconds * 1e3,
                            plan.throughput.device_gb_per_s);
    return text;
}

std::optional<nlohmann::json> budget_json(const DevicePlan &plan)
{
    if (plan.budget_seconds <= 0) return std::nullopt;
    nlohmann::json j{{"budget_seconds", plan.budget_seconds},
                     {"estimate_seconds", plan.seconds},
                     {"unbudgeted_estimate_seconds", plan.unbudgeted_seconds},
                     {"economy", plan.economy},
                     {"given_up", economy_text(plan.economy)},
                     {"kept", plan.seconds <= plan.budget_seconds}};
    if (plan.economy >= 3) j["sizes_given_up"] = sizes_given_up_text(plan);
    if (plan.most_array_bytes) {
        j["most_array_bytes"] = plan.most_array_bytes;
        j["most_run_seconds"] = plan.most_run_seconds;
    }
    return j;
}

std::optional<nlohmann::json> ram_budget_json(const DevicePlan &plan)
{
    if (!plan.ram_budget_bytes) return std::nullopt;
    nlohmann::json j{{"bytes", plan.ram_budget_bytes},
                     {"rule", plan.ram_budget_rule},
                     {"planned_peak_bytes", plan.planned_peak_bytes}};
    if (plan.most_array_bytes) j["most_array_bytes"] = plan.most_array_bytes;
    return j;
}

std::string ram_budget_text(const DevicePlan &plan)
{
    if (!plan.ram_budget_bytes) return "no RAM budget: the device's memory is its own";
    return fmt::format("RAM budget {} ({}): planned peak {} of buffers{}", format_size(plan.ram_budget_bytes),
                       plan.ram_budget_rule, format_size(plan.planned_peak_bytes),
                       plan.planned_peak_bytes + plan.ram_reserve_bytes > plan.ram_budget_bytes
                           ? ", over it even with the smallest arrays"
                           : "");
}

std::string budget_text(const DevicePlan &plan)
{
    if (plan.budget_seconds <= 0) return "no time budget";
    std::string text = fmt::format("time budget {:.0f} s: estimated {:.1f} s", plan.budget_seconds, plan.seconds);
    if (plan.economy > 0)
        text += fmt::format(" with {} (all of them: {:.1f} s)", economy_text(plan.economy), plan.unbudgeted_seconds);
    if (plan.economy >= 3) text += fmt::format("\n    sizes given up: {}", sizes_given_up_text(plan));
    if (plan.seconds > plan.budget_seconds)
        text += "; over the budget even so: the smallest sizes it may give up to still take longer";
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
                          {"held_bytes", p.held_bytes},
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
            {"time_budget", budget_json(plan).value_or(nullptr)},
            {"ram_budget", ram_budget_json(plan).value_or(nullptr)}};
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
    out += fmt::format("  {}\n", ram_budget_text(plan));
    out += fmt::format("  estimated duration: {:.1f} s{}\n", plan.seconds,
                       left_out.empty()
                           ? std::string()
                           : fmt::format(" (not counting {}, which decide as they run)", fmt::join(left_out, ", ")));
    return out;
}

} // namespace vrb
