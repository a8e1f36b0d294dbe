// What a device can do with the memory of another device of the same runtime
// (peer_query, ABI 1.5): copy always, directly or staged through host memory by the
// runtime; read in place only where the runtime can turn peer access on.
#include "backend.hpp"

#include <vrambench/plugin_support.hpp>

#include <string>

uint32_t vrb_device::peer(const vrb_device &other)
{
    using namespace vrb::gpu;
    // Asked before every run that names the peer's memory: the runtime is asked once.
    if (const auto known = peer_answers.find(other.ordinal); known != peer_answers.end()) return known->second;

    const std::string pair = std::to_string(ordinal) + " and " + std::to_string(other.ordinal);
    int can = 0;
    check(can_access_peer(&can, ordinal, other.ordinal),
          ("asking whether devices " + pair + " reach each other").c_str());
    uint32_t answer = VRB_PEER_COPY | VRB_PEER_THROUGH_HOST;
    if (can) {
        // Access is the current device's to turn on, for its kernels and its copies.
        make_current(ordinal);
        const Error enabled = enable_peer_access(other.ordinal);
        if (enabled == kPeerAccessAlreadyEnabled)
            (void)take_last_error(); // turned on by an earlier open of this device: it stays on
        else
            check(enabled, ("turning on peer access between devices " + pair).c_str());
        if (enabled == kSuccess) peers_enabled.push_back(other.ordinal);
        answer = VRB_PEER_COPY | VRB_PEER_ACCESS;
    }
    peer_answers.emplace(other.ordinal, answer);
    return answer;
}
