// A device's description as the result set records it.
#pragma once

#include <vrambench/plugin.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace vrb {

struct DeviceRecord {
    std::string id; // "vulkan:0"
    std::string backend;
    uint32_t index = 0;
    vrb_device_info info{};
    std::vector<vrb_memory_kind_info> kinds;

    // pci:ADDRESS when the API tells it (drivers disagree on UUIDs across APIs), else
    // uuid:HEX, else the id: one physical card seen through several APIs, one key.
    std::string key() const;
    // From bus width and reported memory clock, when the backend knows both.
    std::optional<double> peak_gb_per_s() const;
    // The largest last-level cache the device reports, or 0.
    uint64_t last_level_cache_bytes() const;
    bool has_cache_info() const { return info.cache_count > 0; }
};

nlohmann::json to_json(const DeviceRecord &device);

std::string memory_flags_text(uint32_t flags); // "device-local,host-visible"
std::vector<std::string> memory_flag_names(uint32_t flags);
std::string uuid_text(const uint8_t (&uuid)[16]);

} // namespace vrb
