#include "peer_pairs.hpp"

#include <vrambench/core/measurement/measure.hpp>

#include <fmt/format.h>

namespace vrb::peer {

namespace {

std::string path_words(uint32_t flags)
{
    std::string words;
    if (flags & VRB_PEER_COPY) words = "copy";
    if (flags & VRB_PEER_ACCESS) words += words.empty() ? "access" : " and access";
    if (flags & VRB_PEER_THROUGH_HOST) words += " through host memory";
    return words.empty() ? "none" : words;
}

} // namespace

std::vector<Peer> find_peers(const ProbeContext &ctx, uint32_t needed, std::vector<Unmeasured> &unmeasured)
{
    std::vector<Peer> peers;
    const Backend &backend = ctx.device.backend();
    const uint32_t count = backend.device_count();
    if (count < 2) {
        unmeasured.push_back(
            {{},
             {},
             fmt::format("no peer of {} to measure: it is the only device of {}", ctx.record.id, backend.name())});
        return peers;
    }
    for (uint32_t i = 0; i < count; ++i) {
        if (i == ctx.device.index()) continue;
        const std::string id = fmt::format("{}:{}", backend.name(), i);
        const std::string pair = fmt::format("{}->{}", ctx.record.id, id);
        try {
            Peer peer;
            peer.id = id;
            peer.pair = pair;
            peer.device = backend.open(i);
            const std::optional<uint32_t> flags = ctx.device.peer_flags(*peer.device);
            if (!flags) {
                unmeasured.assign(1, {{},
                                      {},
                                      fmt::format("no peer of {} to measure: the {} module has no peer_query (peer "
                                                  "paths, ABI 1.5)",
                                                  ctx.record.id, backend.name())});
                return {};
            }
            peer.flags = *flags;
            if (!(peer.flags & needed)) {
                unmeasured.push_back(
                    {pair, id,
                     fmt::format("{} has no peer {} to {} (peer_query answered {})", ctx.record.id,
                                 needed == VRB_PEER_COPY ? "copy" : "access", id, path_words(peer.flags))});
                continue;
            }
            peers.push_back(std::move(peer));
        } catch (const Error &e) {
            unmeasured.push_back({pair, id, fmt::format("{}: {}", id, e.what())});
        }
    }
    return peers;
}

ProbeResult make_peer_result(const ProbeContext &ctx, std::string_view probe, const Peer &peer)
{
    ProbeResult r = make_result(ctx, probe);
    r.parameters["pair"] = peer.pair;
    r.parameters["peer"] = peer.id;
    r.parameters["peer_access"] = (peer.flags & VRB_PEER_ACCESS) != 0;
    r.parameters["through_host"] = (peer.flags & VRB_PEER_THROUGH_HOST) != 0;
    return r;
}

ProbeResult make_unmeasured_result(const ProbeContext &ctx, std::string_view probe, const Unmeasured &unmeasured)
{
    ProbeResult r = make_result(ctx, probe);
    r.metric = "count";
    r.unit = std::string("1");
    r.status = ProbeResult::Status::skipped;
    if (!unmeasured.pair.empty()) {
        r.parameters["pair"] = unmeasured.pair;
        r.parameters["peer"] = unmeasured.peer;
    }
    r.error = unmeasured.why;
    r.verification = {Verification::Status::unverified, "nothing was measured"};
    return r;
}

uint32_t peer_memory_kind(const Device &device)
{
    try {
        return device.find_kind(VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_DEVICE_LOCAL);
    } catch (const RunError &) {
        return device.find_kind(VRB_MEMORY_DEVICE_ACCESS);
    }
}

} // namespace vrb::peer
