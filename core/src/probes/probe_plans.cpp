#include "probe_plans.hpp"

#include "curve_plan.hpp"
#include "stream_plan.hpp"

#include <vrambench/core/measurement/traffic.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace vrb {

namespace {

constexpr double target = 1e-3; // pattern.vector and memory.kinds stretch runs to 1 ms

// Filling on the device: one run over `bytes`.
PlannedRuns fill(double bytes)
{
    return {1, bytes, 0, 0, 0};
}

} // namespace

ProbePlan plan_stream_probe(const DeviceRecord &device, const ProbeOptions &options)
{
    const StreamPlan s = plan_stream(device, options);
    ProbePlan p;
    p.reason = s.reason;
    p.size_rule = s.size_rule;
    p.sizes = {{"array_bytes", s.bytes},
               {"arrays", 3},
               {"element_bytes", s.widths},
               {"least_run_seconds", stream_least_run_seconds}};
    // How long one pass of the read and of the copy takes at the peak: below the least
    // run, each run makes several passes.
    if (const PeakChoice peak = device.peak(); peak.gb_per_s)
        for (const uint32_t op : {VRB_OP_READ, VRB_OP_COPY})
            p.sizes[fmt::format("{}_pass_seconds_at_peak", op == VRB_OP_READ ? "read" : "copy")] =
                static_cast<double>(bytes_moved(op, 16, s.bytes / 16).total()) / (*peak.gb_per_s * 1e9);
    p.held_bytes = 3 * s.bytes;
    p.cost.runs.push_back({3, static_cast<double>(s.bytes), 0, 0, 0});
    constexpr uint32_t ops[] = {VRB_OP_READ, VRB_OP_WRITE, VRB_OP_COPY, VRB_OP_SCALE,
                                VRB_OP_ADD,  VRB_OP_TRIAD, VRB_OP_DOT};
    for (uint32_t width : s.widths)
        for (uint32_t op : ops) {
            const double bytes = static_cast<double>(bytes_moved(op, width, s.bytes / width).total());
            p.cost.runs.push_back(timed_point_runs(bytes, s.reps, 1.5 * stream_least_run_seconds));
            p.cost.host_bytes += static_cast<double>(s.bytes); // the destination checked, or the sum made once
        }
    return p;
}

ProbePlan plan_vector_probe(const DeviceRecord &device, const ProbeOptions &options)
{
    const StreamPlan s = plan_stream(device, options);
    ProbePlan p;
    p.reason = s.reason;
    p.size_rule = s.size_rule;
    p.sizes = {{"array_bytes", s.bytes}, {"element_bytes", {4, 8, 16}}};
    p.held_bytes = 2 * s.bytes;
    p.cost.runs.push_back(fill(static_cast<double>(s.bytes)));
    for (int width = 0; width < 3; ++width) {
        p.cost.runs.push_back(timed_point_runs(static_cast<double>(s.bytes), s.reps, target));
        p.cost.runs.push_back(fill(static_cast<double>(s.bytes)));
        p.cost.runs.push_back(timed_point_runs(2.0 * s.bytes, s.reps, target));
        p.cost.host_bytes += 2.0 * s.bytes;
    }
    return p;
}

ProbePlan plan_sweep_probe(const DeviceRecord &device, const ProbeOptions &options)
{
    const CurvePlan c = plan_sweep(device, options);
    const auto sizes = sweep_sizes(c);
    ProbePlan p;
    p.reason = c.reason;
    p.size_rule = c.size_rule;
    p.sizes = {{"from_bytes", sizes.front()},
               {"to_bytes", sizes.back()},
               {"points", sizes.size()},
               {"operations", {"read", "write", "copy"}}};
    nlohmann::json plateaus = nlohmann::json::array();
    for (const PlannedPlateau &plateau : sweep_plateaus(device, sizes))
        plateaus.push_back({{"name", plateau.name},
                            {"from_bytes", plateau.from_bytes},
                            {"to_bytes", std::min(plateau.to_bytes, sizes.back())},
                            {"points", plateau.points}});
    p.sizes["plateaus"] = std::move(plateaus);
    add_growth_sizes(p.sizes, c);
    p.held_bytes = 2 * std::max(sizes.back(), first_grown(c, 4096)); // a copy's two buffers
    // A growing plan's estimate counts its first doubling, the fewest a settled curve takes.
    auto costed = sizes;
    if (const uint64_t grown = first_grown(c, 4096)) costed.push_back(grown);
    p.cost.runs.push_back(fill(static_cast<double>(costed.back())));
    for (uint64_t x : costed) {
        const double bytes = static_cast<double>(x);
        for (int op = 0; op < 3; ++op)
            p.cost.runs.push_back(timed_point_runs(bytes, c.reps, c.target_seconds));
        p.cost.runs.push_back(fill(bytes / 2)); // a copy's destination scrambled first
        p.cost.host_bytes += 3 * bytes;         // read's sum, write's and copy's lanes checked
    }
    return p;
}

ProbePlan plan_chase_probe(const DeviceRecord &device, const ProbeOptions &options)
{
    const CurvePlan c = plan_chase(device, options);
    const auto sizes = chase_sizes(c);
    const uint64_t llc = device.last_level_cache_bytes();
    uint64_t near = 0;
    for (uint32_t i = 0; i < std::min<uint32_t>(device.info.cache_count, VRB_MAX_CACHES); ++i)
        if (device.info.caches[i].bytes < llc) near = std::max(near, device.info.caches[i].bytes);
    ProbePlan p;
    p.reason = c.reason;
    p.size_rule = c.size_rule;
    uint64_t reach = 0;
    auto costed = sizes; // and a growing plan's first doubling, as the sweep's
    if (const uint64_t grown = first_grown(c, line_bytes)) costed.push_back(grown);
    for (uint64_t x : costed) {
        const uint64_t nodes = std::min<uint64_t>(x / line_bytes, c.most_steps);
        const double steps = static_cast<double>(std::max<uint64_t>(nodes, c.least_steps));
        const uint64_t footprint = nodes * line_bytes;
        if (x <= sizes.back()) reach = std::max(reach, footprint);
        // On a CPU, loads past the caches nearer the core than the last level are costed
        // as memory loads: a last-level hit costs a good share of a miss (more in a VM's
        // nested paging). A GPU's assumed cache latency is already its L2's.
        const bool memory = footprint > (device.info.type == VRB_DEVICE_CPU ? near : llc);
        const double runs = chase_warmups(c, footprint, llc) + chase_reps(c, footprint);
        p.cost.runs.push_back({runs, 0, memory ? 0 : steps, memory ? steps : 0, 0});
        p.cost.host_bytes += static_cast<double>(x); // the chain written and uploaded
    }
    p.sizes = {{"from_bytes", sizes.front()},      {"to_bytes", sizes.back()},
               {"points", sizes.size()},           {"most_steps", c.most_steps},
               {"largest_footprint_bytes", reach}, {"memory_reach_bytes", c.memory_reach}};
    add_growth_sizes(p.sizes, c);
    p.held_bytes = std::max(sizes.back(), first_grown(c, line_bytes));
    return p;
}

ProbePlan plan_stride_probe(const DeviceRecord &device, const ProbeOptions &options)
{
    const CurvePlan c = curve_pace(options);
    const FootprintPlan f = plan_footprint(device, options);
    const auto strides = stride_plan(options, 4);
    const uint64_t span = stride_span(f, strides.back(), 4);
    ProbePlan p;
    p.reason = f.reason;
    p.size_rule = f.size_rule;
    p.sizes = {{"footprint_bytes", f.bytes}, {"array_bytes", span}, {"strides", strides}};
    p.held_bytes = span;
    p.cost.runs.push_back(fill(static_cast<double>(span)));
    p.cost.first_touch_bytes = static_cast<double>(span);
    for (uint64_t stride : strides) {
        const uint64_t count = stride_count(f.bytes, stride, 4, span / 4);
        p.cost.runs.push_back(
            timed_point_runs(static_cast<double>(stride_footprint(count, stride, 4)), c.reps, c.target_seconds));
        p.cost.host_bytes += 4.0 * count; // the host's sum of the lanes read
    }
    return p;
}

ProbePlan plan_alignment_probe(const DeviceRecord &device, const ProbeOptions &options)
{
    const CurvePlan c = curve_pace(options);
    const FootprintPlan f = plan_footprint(device, options);
    const auto offsets = alignment_plan(options, 4);
    const uint64_t array = alignment_bytes(f, options.suite);
    const double bytes = static_cast<double>(array);
    ProbePlan p;
    p.reason = f.reason;
    p.size_rule = f.size_rule + share_note(options.suite, "a quarter");
    p.sizes = {{"array_bytes", array}, {"offsets", offsets}, {"operations", {"read", "copy"}}};
    p.held_bytes = 2 * (array + offsets.back() + 4096); // a source and a destination, each with room to shift
    p.cost.runs.push_back(fill(bytes));
    for (std::size_t o = 0; o < offsets.size(); ++o) {
        p.cost.runs.push_back(timed_point_runs(bytes, c.reps, c.target_seconds));
        p.cost.runs.push_back(fill(bytes));
        p.cost.runs.push_back(timed_point_runs(2 * bytes, c.reps, c.target_seconds));
        p.cost.host_bytes += 2 * bytes;
    }
    return p;
}

ProbePlan plan_gather_probe(const DeviceRecord &device, const ProbeOptions &options)
{
    const CurvePlan c = curve_pace(options);
    const FootprintPlan f = plan_footprint(device, options);
    const uint64_t n = gather_elements(f, options.suite);
    const double elements = static_cast<double>(n);
    ProbePlan p;
    p.reason = f.reason;
    p.size_rule = f.size_rule + gather_size_note(options.suite);
    p.sizes = {{"elements", n}, {"array_bytes", 4 * n}, {"index_bytes", 4 * n}, {"indices", {"sequential", "random"}}};
    p.held_bytes = 8 * n;
    p.cost.runs.push_back(fill(4 * elements));
    p.cost.runs.push_back(timed_point_runs(8 * elements, c.reps, c.target_seconds));
    // Random indices pull a whole line for each 4-byte element once past the caches, and
    // each load waits on memory, but the loads are independent: a CPU core keeps several
    // in flight (costed as 5: a 2-vCPU Xeon VM's host backend kept about 8, lavapipe 3,
    // PoCL 5), a GPU's compute unit many (costed as 64).
    PlannedRuns random = timed_point_runs(4 * elements + line_bytes * elements, c.reps, c.target_seconds);
    const double units = std::max<uint32_t>(device.info.compute_units, 1);
    random.memory_loads = elements / (device.info.type == VRB_DEVICE_CPU ? 5 * units : 64 * units);
    p.cost.runs.push_back(random);
    // The host's sum, the indices made twice and uploaded twice; a shuffle costs ~12 x its
    // bytes, a swap at a random place a cache miss (an H200's host took 0.55 s for the
    // random indices of 31 M elements, its card 3 ms for their runs).
    p.cost.host_bytes += 4 * elements + 2 * 2 * 4 * elements + 12 * 4 * elements;
    return p;
}

} // namespace vrb
