// latency.chase: dependent-load latency against working-set size, one thread chasing
// a random cyclic chain the core made, with the plateaus each cache level makes.
#include "chain.hpp"
#include "curve.hpp"
#include "curve_plan.hpp"
#include "curve_probes.hpp"

#include <vrambench/core/sizes.hpp>
#include <vrambench/operation.hpp>

#include <fmt/format.h>

namespace vrb {

namespace {

// One node per 64-byte line, so every line of the working set is in the chain and a
// line holds no second node a load could find already cached.
constexpr uint32_t spacing_lanes = 16;
constexpr uint64_t chain_seed = 0xc4a5e;

uint64_t min_steps(Suite suite)
{
    return suite == Suite::quick ? 1u << 16 : suite == Suite::standard ? 1u << 17 : 1u << 18;
}

class ChaseProbe final : public Probe {
  public:
    std::string_view id() const override { return "latency.chase"; }
    std::string_view summary() const override
    {
        return "dependent-load latency against working-set size (one thread, a random cyclic chain)";
    }

    void run(ProbeContext &ctx) const override
    {
        const CurvePlan plan = plan_chase(ctx.record, ctx.options);
        const std::vector<uint64_t> sizes = geometric_sizes(plan.from, plan.to, plan.ratio, spacing_lanes * 4);
        const bool is_cpu = ctx.record.info.type == VRB_DEVICE_CPU;
        uint32_t kind = 0;
        try {
            kind = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS | (is_cpu ? 0 : VRB_MEMORY_DEVICE_LOCAL));
        } catch (const RunError &) {
            kind = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS);
        }
        auto chain = ctx.device.acquire(kind, sizes.back());
        const auto &info = ctx.record.info;
        const bool clock = (info.known & VRB_KNOWN_CORE_CLOCK) && info.core_clock_khz > 0;
        const auto caches = cache_reach(info, 1);

        Curve curve("working_set_bytes", "bytes");
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            const uint64_t x = sizes[i];
            ctx.progress(fmt::format("chain over {}", format_size(x)), static_cast<double>(i) / sizes.size());
            const auto nodes = static_cast<uint32_t>(x / (spacing_lanes * 4));
            ProbeResult point = make_result(ctx, id());
            nlohmann::json detail = nlohmann::json::object();
            try {
                const std::vector<uint32_t> next = sattolo_cycle(nodes, chain_seed + i);
                const std::vector<uint32_t> lanes = chain_lanes(next, spacing_lanes);
                chain->upload(0, std::as_bytes(std::span(lanes)));
                // At least one whole lap, so every line of the working set is loaded.
                vrb_operation op =
                    make_operation(VRB_OP_CHASE, 4, std::max<uint64_t>(nodes, min_steps(ctx.options.suite)));
                op.passes = 1;
                op.src1 = {chain->handle(), 0};
                const Timing t = time_operation(ctx.device, op, plan.warmups, plan.reps);
                const uint64_t steps = op.count * std::max(t.output.passes, 1u);
                set_latency(point, t, steps, ctx);
                detail["steps"] = steps;
                if (clock) detail["cycles"] = *point.value * info.core_clock_khz / 1e6;
                const uint64_t want = chase_end(next, spacing_lanes, op.count);
                if (t.output.checksum != want)
                    mark_verification_failed(
                        point, fmt::format("the chase ended at lane {}, expected {}", t.output.checksum, want));
                else
                    point.verification = {Verification::Status::passed,
                                          fmt::format("ended at lane {} as the host's walk does", want)};
            } catch (const Error &e) {
                mark_run_failed(point, e);
            }
            curve.add(static_cast<double>(x), point, std::move(detail));
        }
        ProbeResult r = make_result(ctx, id());
        r.metric = "latency";
        r.unit = "ns";
        r.parameters = {{"operation", "chase"},
                        {"from_bytes", sizes.front()},
                        {"to_bytes", sizes.back()},
                        {"points", sizes.size()},
                        {"ratio", plan.ratio},
                        {"node_spacing_bytes", spacing_lanes * 4},
                        {"memory_kind", ctx.record.kinds.at(kind).name},
                        {"warmups", plan.warmups},
                        {"repetitions", plan.reps},
                        {"size_rule", plan.size_rule}};
        r.byte_counting = "none: latency is the run's seconds / dependent loads (steps), in ns";
        r = curve.finish(std::move(r), &caches);
        if (clock) {
            r.extra["core_clock_khz"] = info.core_clock_khz;
            for (auto &p : r.extra["curve"]["plateaus"])
                p["cycles"] = p["value"].get<double>() * info.core_clock_khz / 1e6;
        }
        ctx.emit(std::move(r));
    }
};

} // namespace

std::unique_ptr<Probe> make_chase_probe()
{
    return std::make_unique<ChaseProbe>();
}

} // namespace vrb
