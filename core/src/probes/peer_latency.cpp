// latency.peer: one thread of this device chasing a chain that lives in another device's
// memory, read in place over the peer path (no copy), beside the same chase in its own
// memory; for every other device of the backend the module gives peer access to.
#include "curve.hpp"
#include "curve_plan.hpp"
#include "pair_plans.hpp"
#include "peer_pairs.hpp"
#include "peer_probes.hpp"

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/operation.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace vrb {

namespace {

constexpr uint32_t peer_spacing_lanes = 16; // one node per 64-byte line, as latency.chase
constexpr uint64_t peer_chain_seed = 0x9e0c;

struct Chased {
    Timing timing;
    uint64_t loads = 0;
    std::optional<std::string> wrong;
};

// Chases `chain` (already in `memory`, which `device` reads) for `steps` loads.
Chased chase(Device &device, Buffer &memory, const Chain &chain, uint64_t steps, uint32_t warmups, uint32_t reps)
{
    vrb_operation op = make_operation(VRB_OP_CHASE, 4, steps);
    op.passes = 1;
    op.src1 = {memory.handle(), 0};
    Chased c;
    c.timing = time_operation(device, op, warmups, reps);
    c.loads = op.count * std::max(c.timing.output.passes, 1u);
    const uint64_t want = chase_end(chain, peer_spacing_lanes, op.count);
    if (c.timing.output.checksum != want)
        c.wrong = fmt::format("the chase ended at lane {}, expected {}", c.timing.output.checksum, want);
    return c;
}

class PeerLatencyProbe final : public Probe {
  public:
    std::string_view id() const override { return "latency.peer"; }
    std::string_view summary() const override
    {
        return "dependent-load latency into every other device's memory, read in place, beside the device's own";
    }
    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_peer_latency(device, options);
    }

    void run(ProbeContext &ctx) const override
    {
        std::vector<peer::Unmeasured> unmeasured;
        std::vector<peer::Peer> peers = peer::find_peers(ctx, VRB_PEER_ACCESS, unmeasured);
        for (const peer::Unmeasured &u : unmeasured)
            ctx.emit(peer::make_unmeasured_result(ctx, id(), u));
        if (peers.empty()) return;
        // The chase's largest working set: past the caches of the reading device.
        const CurvePlan plan = plan_chase(ctx.record, ctx.options);
        const uint64_t bytes = plan.to / (peer_spacing_lanes * 4) * (peer_spacing_lanes * 4);
        const uint64_t lines = bytes / (peer_spacing_lanes * 4);
        const auto nodes = static_cast<uint32_t>(std::min<uint64_t>(lines, plan.most_steps));
        const uint64_t steps = std::max<uint64_t>(nodes, plan.least_steps);
        const uint64_t footprint = uint64_t{nodes} * peer_spacing_lanes * 4;
        const uint32_t warmups = chase_warmups(plan, footprint, ctx.record.last_level_cache_bytes());
        const Chain chain = spread_chain(lines, nodes, peer_chain_seed);
        std::optional<Chased> own;
        for (std::size_t n = 0; n < peers.size(); ++n) {
            peer::Peer &peer = peers[n];
            ctx.progress(fmt::format("{} chain over {}", peer.pair, format_size(bytes)),
                         static_cast<double>(n) / peers.size());
            ProbeResult r = peer::make_peer_result(ctx, id(), peer);
            r.metric = "latency";
            r.unit = std::string("ns");
            r.parameters["operation"] = "chase";
            r.parameters["working_set_bytes"] = bytes;
            r.parameters["footprint_bytes"] = footprint;
            r.parameters["steps"] = steps;
            r.parameters["warmups"] = warmups;
            r.parameters["repetitions"] = plan.reps;
            r.parameters["size_rule"] = plan.size_rule;
            r.byte_counting = "none: latency is the run's seconds / dependent loads (steps), in ns";
            try {
                if (!own) {
                    auto mine = ctx.device.acquire(peer::peer_memory_kind(ctx.device), bytes);
                    upload_chain(*mine, chain, peer_spacing_lanes, bytes);
                    own = chase(ctx.device, *mine, chain, steps, warmups, plan.reps);
                }
                auto theirs = peer.device->acquire(peer::peer_memory_kind(*peer.device), bytes);
                upload_chain(*theirs, chain, peer_spacing_lanes, bytes);
                const Chased there = chase(ctx.device, *theirs, chain, steps, warmups, plan.reps);
                set_latency(r, there.timing, there.loads, ctx);
                const double own_ns = summarize(own->timing.seconds).median / static_cast<double>(own->loads) * 1e9;
                r.extra["own_memory_latency_ns"] = own_ns;
                if (r.value) r.extra["ratio_to_own_memory"] = *r.value / own_ns;
                if (there.wrong)
                    mark_verification_failed(r, "in the peer's memory: " + *there.wrong);
                else if (own->wrong)
                    mark_verification_failed(r, "in the device's own memory: " + *own->wrong);
                else
                    r.verification = {Verification::Status::passed, "both chases ended where the host's walk does"};
            } catch (const Error &e) {
                mark_run_failed(r, e);
            }
            ctx.emit(std::move(r));
        }
    }
};

} // namespace

std::unique_ptr<Probe> make_peer_latency_probe()
{
    return std::make_unique<PeerLatencyProbe>();
}

} // namespace vrb
