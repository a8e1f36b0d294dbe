#include <vrambench/core/card/fabric.hpp>
#include <vrambench/core/modules/module_text.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace vrb {

namespace {

nlohmann::json text_or_null(const std::string &s)
{
    return s.empty() ? nlohmann::json() : nlohmann::json(s);
}

template <typename T> nlohmann::json value_or_null(const std::optional<T> &v)
{
    return v ? nlohmann::json(*v) : nlohmann::json();
}

template <typename T> std::optional<T> optional_number(const nlohmann::json &j, const char *key)
{
    if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nullopt;
    return j[key].get<T>();
}

std::optional<double> total_rate(const std::vector<FabricPeer> &peers)
{
    if (peers.empty()) return std::nullopt;
    double total = 0;
    for (const auto &p : peers) {
        if (!p.rate_gb_per_s) return std::nullopt;
        total += *p.rate_gb_per_s;
    }
    return total;
}

std::string far_end(const FabricPeer &p)
{
    const std::string address = p.address.empty() ? "an end NVML could not name" : p.address;
    return p.type == "nvswitch" ? "NVSwitch " + address : p.type == "ibm-npu" ? "IBM NPU " + address : address;
}

std::string rate_words(std::optional<double> rate, const std::string &why, bool in_all)
{
    if (rate) return fmt::format("{:.1f} GB/s per direction{}", *rate, in_all ? " in all" : "");
    return "rate unknown" + (why.empty() ? std::string() : ": " + why);
}

// The version every link shares, else empty.
std::optional<uint32_t> common_version(const std::vector<FabricLink> &links)
{
    if (links.empty() || !links.front().version) return std::nullopt;
    for (const auto &l : links)
        if (l.version != links.front().version) return std::nullopt;
    return links.front().version;
}

std::string nvlink_summary(const Fabric &f)
{
    if (f.links.empty())
        return f.inactive_links ? fmt::format("NVLink: no active links ({} present, all down)", f.inactive_links)
                                : "NVLink: no links";
    const auto version = common_version(f.links);
    std::string text = fmt::format("{} NVLink link{} of {} to ", f.links.size(), f.links.size() == 1 ? "" : "s",
                                   version ? fmt::format("version {}", *version) : "mixed or unknown versions");
    std::vector<std::string> ends;
    for (const auto &p : f.peers)
        ends.push_back(f.peers.size() == 1 ? far_end(p)
                                           : fmt::format("{} ({} link{})", far_end(p), p.links.value_or(0),
                                                         p.links.value_or(0) == 1 ? "" : "s"));
    text += fmt::format("{}", fmt::join(ends, ", "));
    const std::string why = f.peers.size() == 1 ? f.peers.front().rate_source : "not every far end's rate is known";
    text += " (" + rate_words(total_rate(f.peers), why, f.peers.size() > 1) + ")";
    if (f.inactive_links) text += fmt::format("; {} more down", f.inactive_links);
    return text;
}

std::string xgmi_summary(const Fabric &f)
{
    std::vector<std::string> members;
    for (const auto &p : f.peers)
        members.push_back(p.address.empty() ? "a member whose address is unknown" : p.address);
    const std::string hive = f.hive_id.empty() ? "xGMI hive (id unknown)" : "xGMI hive " + f.hive_id;
    if (members.empty()) return hive + " with no other member";
    return fmt::format("{} with {} (rate unknown: amdgpu's sysfs names the hive's members, not the links' count or "
                       "speed)",
                       hive, fmt::join(members, ", "));
}

} // namespace

std::optional<double> nvlink_link_rate_gb_per_s(uint32_t version)
{
    // One link, one direction, from NVIDIA's totals per GPU (bidirectional, all links):
    //   v1 (P100): 160 GB/s over 4 links  -> 20 GB/s (Tesla P100 whitepaper, "NVLink")
    //   v2 (V100): 300 GB/s over 6 links  -> 25 GB/s (Tesla V100 whitepaper, "NVLink")
    //   v3 (A100): 600 GB/s over 12 links -> 25 GB/s (NVIDIA A100 Tensor Core GPU
    //              Architecture whitepaper, "Third-generation NVLink")
    //   v4 (H100, H200): 900 GB/s over 18 links -> 25 GB/s (NVIDIA H100 Tensor Core GPU
    //              Architecture whitepaper, "Fourth-generation NVLink"; H200 datasheet)
    // Later versions are left out: nvml.h's nvmlNvlinkVersion_t numbers versions its own
    // way (3 is NVLink 2.2, 4 is 3.0, 6 is 4.0, 7 is 5.0), drivers have been seen to answer
    // either numbering, and from 5 on the two give different rates (NVLink 5 carries
    // 50 GB/s per link, 3.1 25). For 1 to 4 the two readings agree on the rate except
    // for 1, which only the P100 era answers.
    switch (version) {
    case 1: return 20.0;
    case 2:
    case 3:
    case 4: return 25.0;
    default: return std::nullopt;
    }
}

std::vector<FabricPeer> peers_of(const std::vector<FabricLink> &links)
{
    std::map<std::string, std::vector<const FabricLink *>> by_end;
    for (const auto &l : links)
        by_end[l.remote_address].push_back(&l);
    std::vector<FabricPeer> peers;
    for (const auto &[address, group] : by_end) {
        FabricPeer p;
        p.address = address;
        p.links = static_cast<uint32_t>(group.size());
        p.type = group.front()->remote_type;
        std::vector<FabricLink> copies;
        for (const FabricLink *l : group) {
            copies.push_back(*l);
            if (l->remote_type != p.type) p.type.clear();
        }
        p.version = common_version(copies);
        const auto per_link = p.version ? nvlink_link_rate_gb_per_s(*p.version) : std::nullopt;
        const bool speeds = std::all_of(copies.begin(), copies.end(), [](const auto &l) { return l.speed_gb_per_s; });
        if (per_link) {
            p.rate_gb_per_s = *per_link * group.size();
            p.rate_source = "NVIDIA's published rate of the NVLink version";
        } else if (speeds) {
            double sum = 0;
            for (const auto &l : copies)
                sum += *l.speed_gb_per_s;
            p.rate_gb_per_s = sum;
            p.rate_source = "the link speed NVML reports";
        } else {
            p.rate_source = p.version ? fmt::format("NVLink version {} is not in the table of NVIDIA's published "
                                                    "rates, and NVML gave no link speed",
                                                    *p.version)
                                      : "the links' version is unknown, and NVML gave no link speed";
        }
        peers.push_back(std::move(p));
    }
    return peers;
}

std::string fabric_summary(const Fabric &f)
{
    return f.kind == "xgmi" ? xgmi_summary(f) : nvlink_summary(f);
}

nlohmann::json to_json(const Fabric &f)
{
    nlohmann::json links = nlohmann::json::array(), peers = nlohmann::json::array(), unknown = nlohmann::json::object();
    for (const auto &l : f.links)
        links.push_back({{"index", l.index},
                         {"remote_address", text_or_null(l.remote_address)},
                         {"remote_type", text_or_null(l.remote_type)},
                         {"version", value_or_null(l.version)},
                         {"speed_gb_per_s", value_or_null(l.speed_gb_per_s)}});
    for (const auto &p : f.peers)
        peers.push_back({{"address", text_or_null(p.address)},
                         {"type", text_or_null(p.type)},
                         {"links", value_or_null(p.links)},
                         {"version", value_or_null(p.version)},
                         {"rate_gb_per_s", value_or_null(p.rate_gb_per_s)},
                         {"rate_source", p.rate_source}});
    for (const auto &[field, why] : f.unknown)
        unknown[field] = why;
    return {{"kind", f.kind},
            {"source", f.source},
            {"address", f.address},
            {"summary", fabric_summary(f)},
            {"links", links},
            {"inactive_links", f.inactive_links},
            {"peers", peers},
            {"rate_gb_per_s", value_or_null(total_rate(f.peers))},
            {"hive_id", text_or_null(f.hive_id)},
            {"device_id", text_or_null(f.device_id)},
            {"physical_id", text_or_null(f.physical_id)},
            {"taken", "at description"},
            {"unknown", unknown}};
}

Fabric fabric_from_json(const nlohmann::json &j)
{
    Fabric f;
    f.kind = text_or(j, "kind", "");
    f.source = text_or(j, "source", "");
    f.address = text_or(j, "address", "");
    f.hive_id = text_or(j, "hive_id", "");
    f.device_id = text_or(j, "device_id", "");
    f.physical_id = text_or(j, "physical_id", "");
    f.inactive_links = static_cast<uint32_t>(count_or(j, "inactive_links", 0));
    for (const auto &l : array_or_empty(j, "links")) {
        FabricLink link;
        link.index = static_cast<uint32_t>(count_or(l, "index", 0));
        link.remote_address = text_or(l, "remote_address", "");
        link.remote_type = text_or(l, "remote_type", "");
        link.version = optional_number<uint32_t>(l, "version");
        link.speed_gb_per_s = optional_number<double>(l, "speed_gb_per_s");
        f.links.push_back(std::move(link));
    }
    for (const auto &p : array_or_empty(j, "peers")) {
        FabricPeer peer;
        peer.address = text_or(p, "address", "");
        peer.type = text_or(p, "type", "");
        peer.links = optional_number<uint32_t>(p, "links");
        peer.version = optional_number<uint32_t>(p, "version");
        peer.rate_gb_per_s = optional_number<double>(p, "rate_gb_per_s");
        peer.rate_source = text_or(p, "rate_source", "");
        f.peers.push_back(std::move(peer));
    }
    for (const auto &[field, why] : object_or_empty(j, "unknown").items())
        if (why.is_string()) f.unknown[field] = why.get<std::string>();
    return f;
}

void describe_fabric(DeviceRecord &device)
{
    const vrb_device_info &info = device.info;
    device.fabric = nlohmann::json();
    if (info.type == VRB_DEVICE_CPU) {
        device.fabric_unknown = "a CPU is not a GPU, so it has no GPU-to-GPU fabric";
        return;
    }
    if (!(info.known & VRB_KNOWN_PCI_ADDRESS)) {
        device.fabric_unknown =
            fmt::format("the {} backend reports no PCI address to read NVLink or xGMI by", device.backend);
        return;
    }
    FabricReading reading = read_fabric(module_string(info.pci_address));
    if (reading.fabric)
        device.fabric = to_json(*reading.fabric);
    else
        device.fabric_unknown = reading.why_none;
}

std::string fabric_summary_text(const nlohmann::json &device)
{
    if (!device.is_object() || !device.contains("fabric")) return {};
    const nlohmann::json &j = device["fabric"];
    if (!j.is_object()) return "none: " + text_or(object_or_empty(device, "unknown"), "fabric", "not read");
    std::string text = text_or(j, "summary", fabric_summary(fabric_from_json(j)));
    for (const auto &[field, why] : object_or_empty(j, "unknown").items())
        if (why.is_string()) text += fmt::format("; {} not available: {}", field, why.get<std::string>());
    return text;
}

void annotate_peer(ProbeResult &r, const nlohmann::json &fabric, const std::string &peer_address)
{
    if (r.probe != "bandwidth.peer" || !fabric.is_object() || r.status == ProbeResult::Status::skipped) return;
    const Fabric f = fabric_from_json(fabric);
    const std::string name = f.kind == "xgmi" ? "xGMI" : "NVLink";
    nlohmann::json out = {{"kind", f.kind}, {"peer_address", text_or_null(peer_address)}};
    const auto peer = std::find_if(f.peers.begin(), f.peers.end(), [&](const FabricPeer &p) {
        return !peer_address.empty() && p.address == peer_address;
    });
    if (peer_address.empty()) {
        out["shared"] = nullptr;
        out["summary"] = fmt::format("the peer's PCI address is unknown, so whether it shares the card's {} is not "
                                     "known",
                                     name);
    } else if (peer != f.peers.end()) {
        out["shared"] = true;
        out["links"] = value_or_null(peer->links);
        out["version"] = value_or_null(peer->version);
        out["rate_gb_per_s"] = value_or_null(peer->rate_gb_per_s);
        out["rate_source"] = peer->rate_source;
        const std::string links =
            peer->links ? fmt::format("{} {} link{}", *peer->links, name, *peer->links == 1 ? "" : "s") : name;
        out["summary"] = fmt::format("{}{} between {} and {} ({})", links,
                                     peer->version ? fmt::format(" of version {}", *peer->version) : "", f.address,
                                     peer_address, rate_words(peer->rate_gb_per_s, peer->rate_source, false));
        if (r.value && peer->rate_gb_per_s && *peer->rate_gb_per_s > 0) {
            // Both ways at once use both directions of the links, each at its rate.
            const bool both = flag_or(r.parameters, "both_directions", false);
            r.fabric_efficiency = *r.value / (*peer->rate_gb_per_s * (both ? 2 : 1));
        }
    } else if (std::any_of(f.peers.begin(), f.peers.end(), [](const FabricPeer &p) { return p.type == "nvswitch"; })) {
        out["shared"] = nullptr;
        out["summary"] = fmt::format("the card's NVLink links go to NVSwitches; whether {} is on the same switches "
                                     "is not read",
                                     peer_address);
    } else {
        out["shared"] = false;
        out["summary"] =
            fmt::format("no {} link between {} and {}: the copy takes PCIe or the host", name, f.address, peer_address);
    }
    r.fabric = std::move(out);
}

} // namespace vrb
