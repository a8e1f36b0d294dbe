// The GPU-to-GPU fabric of a card: NVLink as NVML reports it (opened at run time), xGMI
// as amdgpu's sysfs files describe the hive, read by PCI address whichever API measures
// the card. What the fabric's links reach, their version and the rate each direction
// carries; a card on PCIe alone, or a runtime that cannot say, gives "not available"
// with the runtime's own words, never a failure.
#pragma once

#include <vrambench/core/results/device_record.hpp>
#include <vrambench/core/results/result.hpp>

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace vrb {

// One active NVLink link.
struct FabricLink {
    uint32_t index = 0;
    std::string remote_address;           // the far end's PCI address; empty when NVML could not say
    std::string remote_type;              // "gpu", "nvswitch", "ibm-npu"; empty when unknown
    std::optional<uint32_t> version;      // NVML's nvmlDeviceGetNvLinkVersion answer
    std::optional<double> speed_gb_per_s; // NVML's reported speed per direction, where it gives one
};

// The links towards one far end, added up.
struct FabricPeer {
    std::string address;
    std::string type;                    // as FabricLink::remote_type
    std::optional<uint32_t> links;       // how many; xGMI's sysfs does not say
    std::optional<uint32_t> version;     // when every link has the same one
    std::optional<double> rate_gb_per_s; // per direction, all its links together
    std::string rate_source;             // "NVLink version table", "NVML link speed"; why not when empty rate
};

struct Fabric {
    std::string kind;                            // "nvlink" or "xgmi"
    std::string source;                          // "nvml" or "amdgpu-sysfs"
    std::string address;                         // this card's
    std::vector<FabricLink> links;               // NVLink: the active links, in index order
    uint32_t inactive_links = 0;                 // NVLink: links the card has that are down
    std::vector<FabricPeer> peers;               // by far end, in order of address
    std::string hive_id, device_id, physical_id; // xGMI, as amdgpu writes them
    std::map<std::string, std::string> unknown;  // field -> why it could not be read
};

// A fabric, or why there is none ("not available: nvml: ... Not Supported (3)").
struct FabricReading {
    std::optional<Fabric> fabric;
    std::string why_none;
};

// NVIDIA's published rate of one NVLink link in one direction, in GB/s, by the version
// NVML reports; empty for a version outside the table (never guessed).
std::optional<double> nvlink_link_rate_gb_per_s(uint32_t version);

// NVLink through NVML (VRAMBENCH_NVML_LIBRARY, else libnvidia-ml.so.1): state, version,
// far end and speed of each link. Missing functions and NVML's errors give no fabric,
// with NVML's words.
FabricReading read_nvlink(const std::string &address);
// xGMI from amdgpu's sysfs under system_root(): xgmi_device_id, xgmi_physical_id and
// xgmi_hive_info/ (xgmi_hive_id and a node folder for each member of the hive).
FabricReading read_xgmi(const std::string &address);
// NVLink first, then xGMI; none with both reasons.
FabricReading read_fabric(const std::string &address);

// Groups the links by far end (peers), each with its count, version and rate.
std::vector<FabricPeer> peers_of(const std::vector<FabricLink> &links);

// "18 NVLink links of version 4 to 0000:11:00.0 (450.0 GB/s per direction)",
// "xGMI hive 0x4a1c with 0000:44:00.0 (rate unknown: ...)", "NVLink: no active links (18 down)".
std::string fabric_summary(const Fabric &fabric);

// The fabric as a device records it (schema: definitions/fabric), and back.
nlohmann::json to_json(const Fabric &fabric);
Fabric fabric_from_json(const nlohmann::json &fabric);

// Reads the device's fabric into device.fabric, or null with the reason in
// device.fabric_unknown: a CPU has none, a device without a PCI address cannot be read.
void describe_fabric(DeviceRecord &device);

// A device's fabric in one line for `list` and `info`: the summary, or "not available: why".
// Empty when the device records none at all (a set written before fabrics were read).
std::string fabric_summary_text(const nlohmann::json &device);

// A bandwidth.peer result between this card (whose recorded fabric is `fabric`) and the
// card at `peer_address`: whether the two share a fabric link, and its value over the
// link's rate (both directions at once count it twice). Other probes are left alone.
void annotate_peer(ProbeResult &result, const nlohmann::json &fabric, const std::string &peer_address);

} // namespace vrb
