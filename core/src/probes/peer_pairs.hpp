// The peers the peer probes measure from one device: every other device of its backend,
// opened beside it in the same worker, with what the module says the device can do with
// that device's memory (peer_query, ABI 1.5). docs/probes.md, "Peer probes".
#pragma once

#include <vrambench/core/probes/probe.hpp>

#include <memory>
#include <string>
#include <vector>

namespace vrb::peer {

struct Peer {
    std::string id;   // "cuda:1"
    std::string pair; // "cuda:0->cuda:1": from the measured device to this one
    std::unique_ptr<Device> device;
    uint32_t flags = 0; // VRB_PEER_*: what the measured device can do with this one's memory
};

// What a probe does not measure, and why: one pair, or (pair empty) every pair of the
// device, when it is its backend's only device or the module has no peer_query.
struct Unmeasured {
    std::string pair, peer;
    std::string why;
};

// The other devices of ctx.device's backend that the module gives `needed` (a VRB_PEER_*
// bit) to; `unmeasured` names each other device without it, and why.
std::vector<Peer> find_peers(const ProbeContext &ctx, uint32_t needed, std::vector<Unmeasured> &unmeasured);

// A result skeleton naming the pair and the path the module reported.
ProbeResult make_peer_result(const ProbeContext &ctx, std::string_view probe, const Peer &peer);

// A skipped result for what is not measured, naming the pair where there is one.
ProbeResult make_unmeasured_result(const ProbeContext &ctx, std::string_view probe, const Unmeasured &unmeasured);

// The device's memory kind kernels use, device-local where it has one.
uint32_t peer_memory_kind(const Device &device);

} // namespace vrb::peer
