// The peer probes: one device's copies to, and loads from, another device of its backend
// (docs/probes.md, "Peer probes").
#pragma once

#include <vrambench/core/probes/probe.hpp>

#include <memory>

namespace vrb {

std::unique_ptr<Probe> make_peer_bandwidth_probe();
std::unique_ptr<Probe> make_peer_latency_probe();

} // namespace vrb
