#include "pci_location.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

namespace vrb::opencl {

namespace {
constexpr std::size_t kTopologyBytes = 24;     // the union: six 32-bit words
constexpr uint32_t kTopologyTypePcie = 1;      // CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD
constexpr std::size_t kTopologyBusOffset = 21; // after the type word and 17 unused bytes
} // namespace

std::optional<PciLocation> from_amd_topology(const std::vector<unsigned char> &topology)
{
    if (topology.size() < kTopologyBytes) return std::nullopt;
    uint32_t type = 0;
    for (int i = 3; i >= 0; --i)
        type = type << 8 | topology[std::size_t(i)]; // the driver's own (little-endian) word
    if (type != kTopologyTypePcie) return std::nullopt;
    // The header declares these bytes cl_char: read unsigned, or a bus past 0x7f turns
    // negative.
    PciLocation where;
    where.bus = topology[kTopologyBusOffset];
    where.device = topology[kTopologyBusOffset + 1];
    where.function = topology[kTopologyBusOffset + 2];
    return where;
}

PciLocation from_nv_bus_slot(uint32_t bus, uint32_t slot, std::optional<uint32_t> domain)
{
    PciLocation where;
    where.domain = domain;
    where.bus = bus & 0xff;
    where.device = (slot >> 3) & 0x1f;
    where.function = slot & 7;
    return where;
}

std::string pci_address(const PciLocation &where, const std::vector<std::string> &present)
{
    char text[32];
    if (where.domain) {
        std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", *where.domain, where.bus, where.device, where.function);
        return text;
    }
    std::snprintf(text, sizeof text, ":%02x:%02x.%x", where.bus, where.device, where.function);
    const std::string tail = text;
    std::string found;
    for (const std::string &name : present) {
        if (name.size() <= tail.size() || name.compare(name.size() - tail.size(), tail.size(), tail) != 0) continue;
        if (!found.empty()) return {}; // two domains have a device there
        found = name;
    }
    return found;
}

std::vector<std::string> pci_devices_present()
{
    std::vector<std::string> names;
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator("/sys/bus/pci/devices", error))
        names.push_back(entry.path().filename().string());
    return names;
}

} // namespace vrb::opencl
