// `fit --device ID`: the few figures fit needs, measured now through the runner
// (capacity.report, capacity.total, capacity.max-alloc, capacity.fragmentation and the
// quick suite's stream read), host RAM's stream read beside them.
#pragma once

#include <vrambench/core/fit/card.hpp>
#include <vrambench/core/modules/registry.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace vrb::fit {

// The probes measured on the card.
const std::vector<std::string> &fit_probes();

// The result set of that short run (schema v1). Throws UsageError naming the device
// when it does not exist, its backend is unavailable, or it fails before giving the
// figures (fit exits 2: it has nothing to judge with).
// With `link`, the card's memory.kinds too: its read of pinned host memory, the route of
// offloaded weights (--offload).
nlohmann::json measure_for_fit(const std::string &device, const DiscoveryOptions &discovery, double timeout_seconds,
                               bool link = false);

// host:0's stream read measured now on this machine (the quick suite's bandwidth.stream);
// nullopt when the host backend gives none.
std::optional<Figure> measure_host_read(const DiscoveryOptions &discovery, double timeout_seconds);

Card measure_card(const std::string &device, const DiscoveryOptions &discovery, double timeout_seconds,
                  bool link = false);

} // namespace vrb::fit
