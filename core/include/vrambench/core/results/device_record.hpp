// A device's description as the result set records it.
#pragma once

#include <vrambench/core/planning/peak.hpp>
#include <vrambench/plugin.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace vrb {

// The cache nearest memory, which every probe that claims "memory" must outgrow 4 x.
struct LastLevelCache {
    uint64_t bytes = 0; // 0: unknown
    // "option" (--llc), "api" (the device's own report), "device-table", "measured"
    // (by the module, where its API reports only a total), or "none".
    std::string source;
    std::string detail; // one sentence: which cache, and why this source
};

struct DeviceRecord {
    std::string id; // "vulkan:0"
    std::string backend;
    uint32_t index = 0;
    vrb_device_info info{};
    std::vector<vrb_memory_kind_info> kinds;
    std::optional<uint64_t> llc_option; // --llc: the user's last-level cache size, over any other
    // The PCIe link as read when the device was described (card/link.hpp): absent when it
    // was never read; null with `link_unknown` saying why when there is none.
    std::optional<nlohmann::json> link;
    std::string link_unknown;
    // The standard suite's time budget as the run planned this device (plan.hpp:
    // budget_json): absent when no budget was kept.
    std::optional<nlohmann::json> time_budget;
    // What the run may hold of the machine's RAM on a device whose memory is RAM, as the
    // plan kept it (plan.hpp: ram_budget_json): absent elsewhere.
    std::optional<nlohmann::json> ram_budget;
    // The GPU-to-GPU fabric (NVLink, xGMI; card/fabric.hpp), the same way: absent when never
    // read, null with `fabric_unknown` saying why when there is none.
    std::optional<nlohmann::json> fabric;
    std::string fabric_unknown;

    // pci:ADDRESS when the API tells it (drivers disagree on UUIDs across APIs), else
    // uuid:HEX, else the id: one physical card seen through several APIs, one key.
    std::string key() const;
    // The datasheet's peak or the runtime clock's, with its source (peak.hpp).
    PeakChoice peak() const { return choose_peak(info); }
    std::optional<double> peak_gb_per_s() const { return peak().gb_per_s; }
    // --llc first; then the API's report, unless the device table knows a larger cache
    // nearer memory than the API reports (HIP reports an MI300X's L2, not its 256 MB
    // Infinity Cache); then the device table; else unknown.
    LastLevelCache last_level_cache() const;
    uint64_t last_level_cache_bytes() const { return last_level_cache().bytes; }
    // The largest data or unified cache of the highest level the API reports, or 0.
    uint64_t reported_last_level_cache_bytes() const;
    bool has_cache_info() const { return info.cache_count > 0; }
};

nlohmann::json to_json(const DeviceRecord &device);
// The inverse of to_json, for a device a worker described: what planning needs (ids,
// memory, clocks, caches, heaps, kinds). Throws UsageError naming the field on a
// malformed description.
DeviceRecord device_record_from_json(const nlohmann::json &device);
nlohmann::json to_json(const LastLevelCache &llc);

std::string memory_flags_text(uint32_t flags); // "device-local,host-visible"
std::vector<std::string> memory_flag_names(uint32_t flags);
std::string uuid_text(const uint8_t (&uuid)[16]);

} // namespace vrb
