// Devices described the way a backend would describe them, for tests that feed the
// device table, the peak choice and the planner without the hardware.
#pragma once

#include <vrambench/core/results/device_record.hpp>

#include <cstdio>
#include <string>

namespace vrb::test {

struct Description {
    std::string api = "CUDA";
    uint32_t vendor = 0, device = 0; // PCI ids; 0: not reported
    double memory_gib = 0;           // total memory; 0: not reported
    uint32_t compute_units = 0;      // 0: not reported
    uint32_t bus_bits = 0, memory_clock_mhz = 0;
    uint64_t llc_bytes = 0; // a level-2 cache the API reports; 0: none
    uint32_t llc_level = 2;
    uint32_t type = VRB_DEVICE_DISCRETE_GPU;
    std::string name = "described device";
};

inline DeviceRecord describe(const Description &d)
{
    DeviceRecord r;
    r.id = "described:0";
    r.backend = "described";
    vrb_device_info &i = r.info;
    i.struct_size = sizeof i;
    i.type = d.type;
    std::snprintf(i.api, sizeof i.api, "%s", d.api.c_str());
    std::snprintf(i.name, sizeof i.name, "%s", d.name.c_str());
    if (d.vendor) {
        i.pci_vendor_id = d.vendor;
        i.pci_device_id = d.device;
        i.known |= VRB_KNOWN_PCI_IDS;
    }
    if (d.memory_gib > 0) {
        i.total_memory_bytes = static_cast<uint64_t>(d.memory_gib * (1ull << 30));
        i.free_memory_bytes = i.total_memory_bytes / 100 * 98;
        i.known |= VRB_KNOWN_TOTAL_MEMORY | VRB_KNOWN_FREE_MEMORY;
    }
    if (d.compute_units) {
        i.compute_units = d.compute_units;
        i.known |= VRB_KNOWN_COMPUTE_UNITS;
    }
    if (d.bus_bits && d.memory_clock_mhz) {
        i.memory_bus_width_bits = d.bus_bits;
        i.memory_clock_khz = d.memory_clock_mhz * 1000;
        i.known |= VRB_KNOWN_BUS_WIDTH | VRB_KNOWN_MEMORY_CLOCK;
    }
    if (d.llc_bytes) {
        vrb_cache_info &c = i.caches[i.cache_count++];
        c.level = d.llc_level;
        c.bytes = d.llc_bytes;
        std::snprintf(c.kind, sizeof c.kind, "unified");
    }
    vrb_memory_kind_info kind{};
    kind.struct_size = sizeof kind;
    kind.flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS;
    std::snprintf(kind.name, sizeof kind.name, "device");
    r.kinds.push_back(kind);
    return r;
}

inline Description h200()
{
    Description d;
    d.vendor = 0x10de;
    d.device = 0x2335;
    d.memory_gib = 141;
    d.compute_units = 132;
    d.bus_bits = 6144;
    d.memory_clock_mhz = 3201;
    d.llc_bytes = 50ull << 20;
    d.name = "NVIDIA H200";
    return d;
}

inline Description mi300x()
{
    Description d;
    d.api = "HIP";
    d.vendor = 0x1002;
    d.device = 0x74a1;
    d.memory_gib = 192;
    d.compute_units = 304;
    d.bus_bits = 8192;
    d.memory_clock_mhz = 1300;
    d.llc_bytes = 256ull << 20;
    d.llc_level = 3;
    d.name = "AMD Instinct MI300X";
    return d;
}

// An H200's ids at a PCI address, as a module that reports its address describes it:
// for tests of what is read by address (the link, the card's telemetry).
inline DeviceRecord card_at_pci_address(const std::string &address)
{
    Description d;
    d.vendor = 0x10de;
    d.device = 0x2335;
    DeviceRecord r = describe(d);
    std::snprintf(r.info.pci_address, sizeof r.info.pci_address, "%s", address.c_str());
    r.info.known |= VRB_KNOWN_PCI_ADDRESS;
    return r;
}

} // namespace vrb::test
