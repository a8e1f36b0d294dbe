// latency.chase: dependent-load latency against working-set size, one thread chasing
// a random cyclic chain the core made, with the plateaus each cache level makes.
#include "chain.hpp"
#include "curve.hpp"
#include "curve_plan.hpp"
#include "curve_probes.hpp"
#include "growth.hpp"
#include "offered.hpp"
#include "probe_plans.hpp"

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/operation.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>

namespace vrb {

namespace {

// One node per 64-byte line, so every line of the working set is in the chain and a
// line holds no second node a load could find already cached.
constexpr uint32_t spacing_lanes = 16;
constexpr uint64_t chain_seed = 0xc4a5e;

class ChaseProbe final : public Probe {
  public:
    std::string_view id() const override { return "latency.chase"; }
    std::string_view summary() const override
    {
        return "dependent-load latency against working-set size (one thread, a random cyclic chain)";
    }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_chase_probe(device, options);
    }

    void run(ProbeContext &ctx) const override
    {
        const CurvePlan plan = plan_chase(ctx.record, ctx.options);
        const std::vector<uint64_t> planned = chase_sizes(plan);
        const bool is_cpu = ctx.record.info.type == VRB_DEVICE_CPU;
        uint32_t kind = 0;
        try {
            kind = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS | (is_cpu ? 0 : VRB_MEMORY_DEVICE_LOCAL));
        } catch (const RunError &) {
            kind = ctx.device.find_kind(VRB_MEMORY_DEVICE_ACCESS);
        }
        if (ProbeResult declined = make_result(ctx, id()); !offered(ctx, declined, VRB_OP_CHASE, 4, kind)) {
            declined.parameters = {{"operation", "chase"},
                                   {"element_bytes", 4},
                                   {"memory_kind", module_string(ctx.record.kinds.at(kind).name)}};
            ctx.emit(std::move(declined));
            return;
        }
        std::unique_ptr<Buffer> chain = ctx.device.acquire(kind, planned.back());
        const auto &info = ctx.record.info;
        const bool clock = (info.known & VRB_KNOWN_CORE_CLOCK) && info.core_clock_khz > 0;
        const auto caches = plan_caches(ctx.record, 1);
        uint64_t reach = 0;
        PageSizes pages;

        Curve curve("working_set_bytes", "bytes");
        CurveGrowth growth(plan.grow, plan.to, spacing_lanes * 4);
        std::vector<uint64_t> sizes;
        auto measure = [&](uint64_t x) {
            const auto begun = std::chrono::steady_clock::now();
            const std::size_t i = sizes.size();
            const uint64_t lines = x / (spacing_lanes * 4);
            // As many nodes as a run loads, at most one per line: a small chain is lapped
            // whole, a large one is crossed once by most_steps loads to distinct lines.
            const auto nodes = static_cast<uint32_t>(std::min<uint64_t>(lines, plan.most_steps));
            const uint64_t steps = std::max<uint64_t>(nodes, plan.least_steps);
            const uint64_t footprint = uint64_t{nodes} * spacing_lanes * 4;
            reach = std::max(reach, footprint);
            ProbeResult point = make_result(ctx, id());
            nlohmann::json detail = {{"footprint_bytes", footprint}, {"nodes", nodes}};
            try {
                const Chain chain_nodes = spread_chain(lines, nodes, chain_seed + i);
                upload_chain(*chain, chain_nodes, spacing_lanes, x);
                vrb_operation op = make_operation(VRB_OP_CHASE, 4, steps);
                op.passes = 1;
                op.src1 = {chain->handle(), 0};
                // A run past the last-level cache leaves nothing a cache could keep for the
                // next: a warm-up would cost a whole run and warm nothing.
                const uint32_t warmups = chase_warmups(plan, footprint, ctx.record.last_level_cache_bytes());
                const Timing t = time_operation(ctx.device, op, warmups, chase_reps(plan, footprint));
                const uint64_t loads = op.count * std::max(t.output.passes, 1u);
                set_latency(point, t, loads, ctx);
                detail["steps"] = loads;
                pages.add(t.output.page_bytes);
                if (t.output.page_bytes) detail["page_bytes"] = t.output.page_bytes;
                if (clock) detail["cycles"] = *point.value * info.core_clock_khz / 1e6;
                const uint64_t want = chase_end(chain_nodes, spacing_lanes, op.count);
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
            sizes.push_back(x);
            growth.add(x, point.value, std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count());
        };
        for (std::size_t i = 0; i < planned.size(); ++i) {
            ctx.progress(fmt::format("chain over {}", format_size(planned[i])),
                         static_cast<double>(i) / planned.size());
            measure(planned[i]);
        }
        // Where no cache size is known, on past the plan until the latency settles.
        while (const std::optional<uint64_t> x = growth.next()) {
            ctx.progress(fmt::format("chain over {} (growing until the latency settles)", format_size(*x)), 1);
            try {
                chain.reset(); // the old chain goes first: the new one may need its memory
                chain = ctx.device.acquire(kind, *x);
            } catch (const Error &e) {
                growth.refused(*x, e.what());
                break;
            }
            measure(*x);
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
                        {"most_steps", plan.most_steps},
                        {"largest_footprint_bytes", reach},
                        {"memory_kind", module_string(ctx.record.kinds.at(kind).name)},
                        {"warmups", plan.warmups},
                        {"repetitions", plan.reps},
                        {"size_rule", plan.grow ? plan.size_rule + "; " + growth.text() : plan.size_rule}};
        pages.record(r); // where the chain's pages are 4 KiB, the TLB reaches 512 times less than with 2 MiB
        r.byte_counting = "none: latency is the run's seconds / dependent loads (steps), in ns";
        r = curve.finish(std::move(r), &caches, static_cast<double>(reach), growth.settled(), tlb_reach(info));
        if (plan.grow) r.extra["growth"] = growth.to_json();
        if (clock) {
            r.extra["core_clock_khz"] = info.core_clock_khz;
            for (auto &p : r.extra["curve"]["plateaus"]) // as analysis::reanalyze gives them
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
