#include "pair_plans.hpp"

#include "curve_plan.hpp"
#include "interop_pairs.hpp"
#include "probe_plans.hpp"
#include "stream_plan.hpp"

#include <vrambench/core/measurement/traffic.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace vrb {

namespace {

double interop_pairs(const ProbeOptions &options)
{
    return static_cast<double>(options.partner_modules.size());
}

std::string pairs_text(double pairs, std::string_view what)
{
    return fmt::format("costed for {} {}{}: each is found as the probe runs", pairs, what, pairs == 1 ? "" : "s");
}

} // namespace

double pair_open_seconds(const DeviceRecord &device)
{
    return device.info.type == VRB_DEVICE_CPU ? 0.02 : 0.3;
}

ProbePlan plan_interop_bandwidth(const DeviceRecord &device, const ProbeOptions &options)
{
    const StreamPlan s = plan_stream(device, options);
    const double pairs = interop_pairs(options);
    ProbePlan p;
    p.reason = s.reason;
    p.size_rule = s.size_rule;
    // As the run caps it by what the device shares in one allocation (its partners' bounds
    // are found as it runs).
    const uint64_t array =
        interop::cap_to_shareable(interop::shareable_bytes(s.bytes / 16 * 16), 16, device, {}, p.size_rule);
    const double bytes = static_cast<double>(array);
    p.size_rule += "; " + pairs_text(pairs, "partner backend");
    p.sizes = {{"array_bytes", array}, {"pairs", pairs}, {"operations", {"read", "copy", "triad"}}};
    if (pairs == 0) return p; // no partner: nothing allocated, nothing run
    // Three arrays of its own, freed before any pair shares three: each shared array is
    // resident twice in this one process where the memory is the machine's RAM (the
    // exporter's mapping and the importer's).
    p.held_bytes = 6 * array;
    p.cost.runs.push_back({2 * (1 + pairs), bytes, 0, 0, 0}); // the sources filled
    for (double side = 0; side < 1 + pairs; ++side)
        for (const uint32_t op : {VRB_OP_READ, VRB_OP_COPY, VRB_OP_TRIAD}) {
            const double moved = static_cast<double>(bytes_moved(op, 16, array / 16).total());
            p.cost.runs.push_back(timed_point_runs(moved, s.reps, 3 * stream_least_run_seconds));
            p.cost.host_bytes += bytes; // the answer checked
        }
    p.cost.fixed_seconds = pairs * pair_open_seconds(device); // each partner opened
    return p;
}

ProbePlan plan_interop_handoff(const DeviceRecord &device, const ProbeOptions &options, uint64_t bytes)
{
    const double pairs = interop_pairs(options), b = static_cast<double>(bytes);
    ProbePlan p;
    p.reason = options.size ? "option" : "default";
    p.size_rule =
        fmt::format("{} written and checked both ways; {}", format_size(bytes), pairs_text(pairs, "partner backend"));
    p.sizes = {{"array_bytes", bytes}, {"pairs", pairs}};
    if (pairs == 0) return p;
    p.held_bytes = bytes;
    p.cost.runs.push_back({4 * pairs, b, 0, 0, 0}); // a fill and a check each way
    p.cost.first_touch_bytes = pairs * b;
    p.cost.fixed_seconds = pairs * pair_open_seconds(device);
    return p;
}

ProbePlan plan_interop_import(const DeviceRecord &device, const ProbeOptions &options,
                              const std::vector<uint64_t> &sizes, uint32_t reps)
{
    const double pairs = interop_pairs(options);
    ProbePlan p;
    p.reason = options.size ? "option" : "default";
    p.size_rule = fmt::format("{} repetitions of each size exported, imported and read; {}", reps,
                              pairs_text(pairs, "partner backend"));
    p.sizes = {{"array_bytes", sizes}, {"pairs", pairs}};
    if (pairs == 0 || sizes.empty()) return p;
    p.held_bytes = sizes.back();
    const uint64_t most = interop::max_shared_bytes(device.info);
    for (const uint64_t x : sizes) {
        if (most && x > most) continue; // refused at its allocation: the device shares no more in one
        const double b = static_cast<double>(x);
        // A fresh allocation each repetition, first touched by the exporter's fill; the
        // importer's first read is the run.
        p.cost.runs.push_back({reps * pairs, b, 0, 0, 0});
        p.cost.first_touch_bytes += reps * pairs * b;
    }
    p.cost.fixed_seconds = pairs * pair_open_seconds(device);
    return p;
}

ProbePlan plan_interop_sync(const DeviceRecord &device, const ProbeOptions &options, uint32_t trips)
{
    const double pairs = interop_pairs(options);
    ProbePlan p;
    p.reason = "default";
    p.size_rule = fmt::format("{} round trips through a shared timeline semaphore; {}", trips,
                              pairs_text(pairs, "partner backend"));
    p.sizes = {{"trips", trips}, {"pairs", pairs}};
    if (pairs == 0) return p;
    // Each trip a signal and a wait on each side: a dispatch's overhead twice.
    p.cost.runs.push_back({2 * trips * pairs, 0, 0, 0, 0});
    p.cost.fixed_seconds = pairs * pair_open_seconds(device);
    return p;
}

ProbePlan plan_peer_bandwidth(const DeviceRecord &device, const ProbeOptions &options)
{
    const CurvePlan plan = plan_transfer(device, options);
    const std::vector<uint64_t> sizes = geometric_sizes(plan.from, plan.to, plan.ratio, 4096);
    const double peers = options.peer_devices;
    ProbePlan p;
    p.reason = options.size ? "option" : "default";
    p.size_rule = plan.size_rule + "; " + pairs_text(peers, "peer device");
    p.sizes = {{"from_bytes", sizes.front()}, {"to_bytes", sizes.back()}, {"points", sizes.size()}, {"peers", peers}};
    if (peers == 0) return p;
    p.held_bytes = 2 * sizes.back(); // this device's side of both legs
    for (const double directions : {1.0, 2.0})
        for (const uint64_t x : sizes)
            p.cost.runs.push_back(
                timed_point_runs(peers * 2 * directions * static_cast<double>(x), plan.reps, plan.target_seconds));
    return p;
}

ProbePlan plan_peer_latency(const DeviceRecord &device, const ProbeOptions &options)
{
    const CurvePlan plan = plan_chase(device, options);
    const double peers = options.peer_devices;
    const uint64_t bytes = plan.to / line_bytes * line_bytes;
    const double steps = static_cast<double>(std::max(std::min(bytes / line_bytes, plan.most_steps), plan.least_steps));
    ProbePlan p;
    p.reason = plan.reason;
    p.size_rule = plan.size_rule + "; " + pairs_text(peers, "peer device");
    p.sizes = {{"working_set_bytes", bytes}, {"steps", steps}, {"peers", peers}};
    if (peers == 0) return p;
    p.held_bytes = bytes;
    // Its own memory once, then each peer's, every load to memory.
    p.cost.runs.push_back({(1 + peers) * (plan.warmups + plan.reps), 0, 0, steps, 0});
    p.cost.host_bytes = (1 + peers) * static_cast<double>(bytes); // the chain written and uploaded
    return p;
}

} // namespace vrb
