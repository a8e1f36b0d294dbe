// Where an OpenCL device sits on the PCI bus, from whichever query its driver answers:
// cl_khr_pci_bus_info (Mesa, PoCL, newer drivers: the whole address), AMD's
// cl_amd_device_attribute_query topology (ROCm: bus, device and function, no domain) or
// NVIDIA's cl_nv_device_attribute_query bus and slot (with the domain where the driver
// answers CL_DEVICE_PCI_DOMAIN_ID_NV). Plain logic, tested without a device.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vrb::opencl {

struct PciLocation {
    std::optional<uint32_t> domain; // unknown from AMD's topology and from older NVIDIA drivers
    uint32_t bus = 0, device = 0, function = 0;
};

// AMD's CL_DEVICE_TOPOLOGY_AMD answer as the driver fills it: a type word (1: PCIe),
// then bus, device and function as single bytes at offsets 21-23. nullopt for another
// type or a short answer.
std::optional<PciLocation> from_amd_topology(const std::vector<unsigned char> &topology);

// NVIDIA's CL_DEVICE_PCI_BUS_ID_NV and CL_DEVICE_PCI_SLOT_ID_NV (device << 3 | function).
PciLocation from_nv_bus_slot(uint32_t bus, uint32_t slot, std::optional<uint32_t> domain);

// "dddd:bb:dd.f". Where the domain is unknown, `present` (the names of the PCI devices
// this machine has, as in /sys/bus/pci/devices) decides it: the one that ends in
// bb:dd.f; "" when none or several domains have one there, rather than a guess.
std::string pci_address(const PciLocation &where, const std::vector<std::string> &present);

// The names under /sys/bus/pci/devices ("0000:c1:00.0" ...); empty where it cannot be read.
std::vector<std::string> pci_devices_present();

} // namespace vrb::opencl
