// vrb_device_info for one physical device, from what Vulkan tells and nothing more:
// a value the API does not report keeps its VRB_KNOWN_ bit clear.
#pragma once

#include "physical_device.hpp"

namespace vrb::vulkan {

// Fills `out`, which arrives zeroed and whole (the adapter copies to the host's size).
void describe_device(const PhysicalDevice &device, vrb_device_info &out);

// "dddd:bb:dd.f"
std::string pci_address_string(uint32_t domain, uint32_t bus, uint32_t device, uint32_t function);

// Vendor names for PCI vendor ids and for Khronos-registered vendor ids (VkVendorId).
std::string vendor_name(uint32_t vendor_id);

} // namespace vrb::vulkan
