// bandwidth.peer: copies from this device's memory to another device's of the same
// backend (cudaMemcpyPeerAsync and its kin, through the module's TRANSFER), one way and
// both ways at once, over the copy-engine size sweep; the pair's path (direct, through
// host memory, with or without peer access) as the module reports it.
#include "curve.hpp"
#include "curve_plan.hpp"
#include "pair_plans.hpp"
#include "peer_pairs.hpp"
#include "peer_probes.hpp"

#include <vrambench/core/measurement/sizes.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <fmt/format.h>

#include <optional>

namespace vrb {

namespace {

constexpr uint32_t peer_seed_there = 0x9e01, peer_seed_back = 0x9e02, peer_seed_stale = 0x9e10;

// One copy's buffers: what is read and what is written, each with the device it lives on.
struct Leg {
    Device *source_device, *destination_device;
    std::unique_ptr<Buffer> source, destination;
    uint32_t seed;
};

Leg make_leg(Device &from, Device &to, uint64_t bytes, uint32_t seed)
{
    Leg leg{&from, &to, from.acquire(peer::peer_memory_kind(from), bytes),
            to.acquire(peer::peer_memory_kind(to), bytes), seed};
    fill_random(from, *leg.source, bytes, seed);
    return leg;
}

// The lanes of `bytes` of the leg's destination that differ from its source's pattern,
// counted by the destination's own device.
uint64_t wrong_lanes(const Leg &leg, uint64_t bytes)
{
    return check_random(*leg.destination_device, *leg.destination, bytes, leg.seed).mismatches;
}

class PeerBandwidthProbe final : public Probe {
  public:
    std::string_view id() const override { return "bandwidth.peer"; }
    std::string_view summary() const override
    {
        return "copies to every other device of the backend, one way and both ways at once";
    }
    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_peer_bandwidth(device, options);
    }

    void run(ProbeContext &ctx) const override
    {
        std::vector<peer::Unmeasured> unmeasured;
        std::vector<peer::Peer> peers = peer::find_peers(ctx, VRB_PEER_COPY, unmeasured);
        for (const peer::Unmeasured &u : unmeasured)
            ctx.emit(peer::make_unmeasured_result(ctx, id(), u));
        if (peers.empty()) return;
        const CurvePlan plan = plan_transfer(ctx.record, ctx.options);
        const std::vector<uint64_t> sizes = geometric_sizes(plan.from, plan.to, plan.ratio, 4096);
        for (std::size_t n = 0; n < peers.size(); ++n) {
            peer::Peer &peer = peers[n];
            for (const bool both : {false, true}) {
                ProbeResult r = peer::make_peer_result(ctx, id(), peer);
                r.parameters["direction"] = both ? "both ways" : "one way";
                r.parameters["both_directions"] = both;
                r.parameters["from_bytes"] = sizes.front();
                r.parameters["to_bytes"] = sizes.back();
                r.parameters["ratio"] = plan.ratio;
                r.parameters["warmups"] = plan.warmups;
                r.parameters["repetitions"] = plan.reps;
                r.parameters["size_rule"] = plan.size_rule;
                r.byte_counting = std::string(both ? "2 x " : "") +
                                  "count bytes per direction, each byte counted once, per pass, times the passes "
                                  "each run made";
                Curve curve("transfer_bytes", "bytes");
                try {
                    Leg there = make_leg(ctx.device, *peer.device, sizes.back(), peer_seed_there);
                    std::optional<Leg> back;
                    if (both) back.emplace(make_leg(*peer.device, ctx.device, sizes.back(), peer_seed_back));
                    for (std::size_t i = 0; i < sizes.size(); ++i) {
                        ctx.progress(fmt::format("{} {}{}", peer.pair, both ? "both ways " : "", format_size(sizes[i])),
                                     (n + (both ? 0.5 : 0) + 0.5 * static_cast<double>(i) / sizes.size()) /
                                         peers.size());
                        curve.add(static_cast<double>(sizes[i]),
                                  measure(ctx, plan, sizes[i], there, back ? &*back : nullptr,
                                          peer_seed_stale + static_cast<uint32_t>(i)));
                    }
                } catch (const Error &e) {
                    mark_run_failed(r, e);
                    ctx.emit(std::move(r));
                    continue;
                }
                ctx.emit(curve.finish(std::move(r), nullptr));
            }
        }
    }

  private:
    ProbeResult measure(const ProbeContext &ctx, const CurvePlan &plan, uint64_t bytes, Leg &there, Leg *back,
                        uint32_t stale) const
    {
        ProbeResult point = make_result(ctx, id());
        try {
            // Destinations first hold other data, so a copy that moved nothing fails.
            fill_random(*there.destination_device, *there.destination, bytes, stale);
            if (back) fill_random(*back->destination_device, *back->destination, bytes, stale + 1);
            time_transfer(point, ctx, plan, bytes, *there.source, *there.destination,
                          back ? back->source.get() : nullptr, back ? back->destination.get() : nullptr);
            const uint64_t directions = back ? 2 : 1;
            uint64_t wrong = wrong_lanes(there, bytes);
            if (back) wrong += wrong_lanes(*back, bytes);
            if (wrong)
                mark_verification_failed(point, fmt::format("{} of {} lanes arrived wrong, as the destination's device "
                                                            "checked them",
                                                            wrong, bytes / 4 * directions));
            else
                point.verification = {
                    Verification::Status::passed,
                    fmt::format("all {} bytes arrived, as the destination's device checked them", bytes * directions)};
        } catch (const Error &e) {
            mark_run_failed(point, e);
        }
        return point;
    }
};

} // namespace

std::unique_ptr<Probe> make_peer_bandwidth_probe()
{
    return std::make_unique<PeerBandwidthProbe>();
}

} // namespace vrb
