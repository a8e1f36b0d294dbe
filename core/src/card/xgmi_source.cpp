// xGMI as amdgpu describes it in sysfs (Documentation/gpu/amdgpu/xgmi.rst): each card of
// a hive has xgmi_device_id (and on newer kernels xgmi_physical_id) in its device folder,
// and xgmi_hive_info/ with xgmi_hive_id and one nodeN entry per member of the hive, a
// link to that member's device folder. The hive names its members; it does not give the
// links' count or speed, so the rate stays unknown.
#include <vrambench/core/card/fabric.hpp>
#include <vrambench/core/card/sysfs.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <regex>

namespace vrb {

namespace {

bool is_pci_address(const std::string &name)
{
    static const std::regex address("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
    return std::regex_match(name, address);
}

} // namespace

FabricReading read_xgmi(const std::string &address)
{
    const std::string folder = pci_device_folder(address);
    const FileText device_id = read_system_file(folder + "/xgmi_device_id");
    if (!device_id.text)
        return {std::nullopt,
                fmt::format("not available: amdgpu writes no xgmi_device_id for this card ({})", device_id.why)};
    Fabric f;
    f.kind = "xgmi";
    f.source = "amdgpu-sysfs";
    f.address = address;
    f.device_id = *device_id.text;
    if (const FileText physical = read_system_file(folder + "/xgmi_physical_id"); physical.text)
        f.physical_id = *physical.text;
    const std::string hive = folder + "/xgmi_hive_info";
    if (const FileText id = read_system_file(hive + "/xgmi_hive_id"); id.text)
        f.hive_id = *id.text;
    else
        f.unknown["hive_id"] = id.why;
    std::error_code ec;
    std::vector<std::filesystem::path> nodes;
    for (const auto &entry : std::filesystem::directory_iterator(system_path(hive), ec))
        if (entry.path().filename().string().rfind("node", 0) == 0) nodes.push_back(entry.path());
    if (ec) {
        f.unknown["peers"] = fmt::format("cannot list {}: {}", system_path(hive).string(), ec.message());
        return {std::move(f), {}};
    }
    std::sort(nodes.begin(), nodes.end());
    for (const auto &node : nodes) {
        const std::string name = node.filename().string();
        const std::string node_path = hive + "/" + name;
        const FileText member = read_system_file(node_path + "/xgmi_device_id");
        if (!member.text) {
            f.unknown[name] = member.why;
            continue;
        }
        if (*member.text == f.device_id) continue; // the card itself is a member of its hive
        FabricPeer peer;
        peer.type = "gpu";
        // The node entry is a link to the member's device folder, named by its PCI address.
        const std::filesystem::path real = std::filesystem::canonical(node, ec);
        if (!ec && is_pci_address(real.filename().string()))
            peer.address = real.filename().string();
        else
            f.unknown[name + ".address"] =
                fmt::format("{} does not lead to a PCI device's folder", system_path(node_path).string());
        peer.rate_source = "amdgpu's sysfs names the hive's members, not the links' count or speed";
        f.peers.push_back(std::move(peer));
    }
    if (f.peers.empty() && !f.unknown.contains("peers"))
        f.unknown["peers"] = fmt::format("{} lists no member but the card itself", system_path(hive).string());
    return {std::move(f), {}};
}

FabricReading read_fabric(const std::string &address)
{
    FabricReading nvlink = read_nvlink(address);
    if (nvlink.fabric) return nvlink;
    FabricReading xgmi = read_xgmi(address);
    if (xgmi.fabric) return xgmi;
    return {std::nullopt, fmt::format("NVLink {}; xGMI {}", nvlink.why_none, xgmi.why_none)};
}

} // namespace vrb
