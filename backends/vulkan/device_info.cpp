#include "device_info.hpp"

#include "cpu_caches.hpp"

#include "chase_links.hpp"
#include "memory_kinds.hpp"
#include "options.hpp"
#include "queues.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace vrb::vulkan {

namespace {

using plugin::add_property;
using plugin::copy_string;

vrb_device_type device_type(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return VRB_DEVICE_INTEGRATED_GPU;
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return VRB_DEVICE_DISCRETE_GPU;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return VRB_DEVICE_VIRTUAL_GPU;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return VRB_DEVICE_CPU;
    default: return VRB_DEVICE_OTHER;
    }
}

std::string hex(uint64_t v)
{
    char text[24];
    std::snprintf(text, sizeof text, "0x%" PRIx64, v);
    return text;
}

std::string uuid_string(const uint8_t (&uuid)[VK_UUID_SIZE])
{
    std::string s;
    char byte[3];
    for (unsigned i = 0; i < VK_UUID_SIZE; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
        std::snprintf(byte, sizeof byte, "%02x", uuid[i]);
        s += byte;
    }
    return s;
}

// driverVersion is vendor-encoded; these are the encodings the vendors document.
std::string decode_driver_version(uint32_t vendor, uint32_t v)
{
    char text[48];
    if (vendor == 0x10de)
        std::snprintf(text, sizeof text, "%u.%u.%u.%u", v >> 22, (v >> 14) & 0xff, (v >> 6) & 0xff, v & 0x3f);
    else
        return version_string(v);
    return text;
}

} // namespace

std::string pci_address_string(uint32_t domain, uint32_t bus, uint32_t device, uint32_t function)
{
    char text[32];
    std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", domain & 0xffffu, bus & 0xffu, device & 0x1fu,
                  function & 0x7u);
    return text;
}

std::string vendor_name(uint32_t id)
{
    switch (id) {
    case 0x1002: return "AMD";
    case 0x1010: return "Imagination Technologies";
    case 0x106b: return "Apple";
    case 0x10de: return "NVIDIA";
    case 0x13b5: return "ARM";
    case 0x14e4: return "Broadcom";
    case 0x1ae0: return "Google";
    case 0x5143: return "Qualcomm";
    case 0x8086: return "Intel";
    case VK_VENDOR_ID_VIV: return "Vivante";
    case VK_VENDOR_ID_VSI: return "VeriSilicon";
    case VK_VENDOR_ID_KAZAN: return "Kazan";
    case VK_VENDOR_ID_CODEPLAY: return "Codeplay";
    case VK_VENDOR_ID_MESA: return "Mesa";
    case VK_VENDOR_ID_POCL: return "PoCL";
    default: return hex(id);
    }
}

void describe_device(const PhysicalDevice &d, vrb_device_info &out)
{
    const VkPhysicalDeviceProperties &p = d.properties;
    const VkPhysicalDeviceLimits &limits = p.limits;
    vrb_device_info &info = out;
    info.type = device_type(p.deviceType);
    copy_string(info.name, p.deviceName);
    copy_string(info.vendor, vendor_name(p.vendorID));
    copy_string(info.api, "Vulkan");
    copy_string(info.api_version, version_string(p.apiVersion));
    info.known |= VRB_KNOWN_API_VERSION;

    if (d.has_driver) {
        std::string driver = d.driver.driverName;
        if (d.driver.driverInfo[0]) driver += std::string(" ") + d.driver.driverInfo;
        copy_string(info.driver_version, driver);
    } else {
        copy_string(info.driver_version, decode_driver_version(p.vendorID, p.driverVersion));
    }
    info.known |= VRB_KNOWN_DRIVER_VERSION;

    // Vendor ids from 0x10000 up are Khronos-assigned, not PCI: such a device has no PCI ids.
    if (p.vendorID < 0x10000) {
        info.pci_vendor_id = p.vendorID;
        info.pci_device_id = p.deviceID;
        info.known |= VRB_KNOWN_PCI_IDS;
    }
    if (d.has_pci) {
        copy_string(info.pci_address,
                    pci_address_string(d.pci.pciDomain, d.pci.pciBus, d.pci.pciDevice, d.pci.pciFunction));
        info.known |= VRB_KNOWN_PCI_ADDRESS;
    }
    if (d.has_id) {
        std::memcpy(info.uuid, d.id.deviceUUID, sizeof info.uuid);
        info.known |= VRB_KNOWN_UUID;
    }
    if (d.has_sm) {
        info.compute_units = d.sm.shaderSMCount;
        info.known |= VRB_KNOWN_COMPUTE_UNITS;
    } else if (d.has_amd_cores) {
        info.compute_units = d.amd_cores.shaderEngineCount * d.amd_cores.shaderArraysPerEngineCount *
                             d.amd_cores.computeUnitsPerShaderArray;
        info.known |= VRB_KNOWN_COMPUTE_UNITS;
    }

    // Heaps, and the device's memory as the sum of its device-local heaps.
    uint64_t total = 0, free = 0;
    bool any_local = false;
    info.heap_count = std::min<uint32_t>(d.memory.memoryHeapCount, VRB_MAX_HEAPS);
    for (uint32_t h = 0; h < info.heap_count; ++h) {
        const VkMemoryHeap &heap = d.memory.memoryHeaps[h];
        vrb_heap_info &out_heap = info.heaps[h];
        out_heap.bytes = heap.size;
        out_heap.flags = heap_flags(heap.flags, p.deviceType);
        if (d.has_budget) out_heap.budget_bytes = d.budget.heapBudget[h];
        if (heap.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) {
            any_local = true;
            total += heap.size;
            if (d.has_budget && d.budget.heapBudget[h] > d.budget.heapUsage[h])
                free += d.budget.heapBudget[h] - d.budget.heapUsage[h];
        }
    }
    if (any_local) {
        info.total_memory_bytes = total;
        info.known |= VRB_KNOWN_TOTAL_MEMORY;
        if (d.has_budget) {
            info.free_memory_bytes = free;
            info.known |= VRB_KNOWN_FREE_MEMORY;
        }
    }

    add_property(info, "vulkan.device_type",
                 p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU              ? "cpu"
                 : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU   ? "discrete-gpu"
                 : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? "integrated-gpu"
                 : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU    ? "virtual-gpu"
                                                                          : "other");
    add_property(info, "vulkan.vendor_id", hex(p.vendorID));
    add_property(info, "vulkan.device_id", hex(p.deviceID));
    add_property(info, "vulkan.driver_version_raw", hex(p.driverVersion));
    if (d.has_driver) {
        add_property(info, "vulkan.driver_name", d.driver.driverName);
        add_property(info, "vulkan.driver_info", d.driver.driverInfo);
        add_property(info, "vulkan.driver_id", std::to_string(d.driver.driverID));
    }
    if (d.has_id) add_property(info, "vulkan.driver_uuid", uuid_string(d.id.driverUUID));
    if (d.has_subgroup) add_property(info, "vulkan.subgroup_size", std::to_string(d.subgroup.subgroupSize));
    add_property(info, "vulkan.max_storage_buffer_range", std::to_string(limits.maxStorageBufferRange));
    if (d.api_version >= VK_API_VERSION_1_1)
        add_property(info, "vulkan.max_memory_allocation_size", std::to_string(d.maintenance3.maxMemoryAllocationSize));
    add_property(info, "vulkan.max_compute_work_group_count",
                 std::to_string(limits.maxComputeWorkGroupCount[0]) + "," +
                     std::to_string(limits.maxComputeWorkGroupCount[1]) + "," +
                     std::to_string(limits.maxComputeWorkGroupCount[2]));
    add_property(info, "vulkan.max_compute_work_group_invocations",
                 std::to_string(limits.maxComputeWorkGroupInvocations));
    add_property(info, "vulkan.timestamp_period_ns", std::to_string(limits.timestampPeriod));
    if (!d.queue_families.empty()) {
        const QueuePlan queues = plan_queues(d.queue_families);
        add_property(info, "vulkan.timestamp_valid_bits",
                     std::to_string(d.queue_families[queues.compute.family].timestampValidBits));
        add_property(info, "vulkan.transfer_queue",
                     queues.dedicated_transfer ? "family " + std::to_string(queues.transfer.family) + " (copy engine)"
                                               : std::string("the compute queue"));
    }
    // Vulkan has no cache query. A CPU device (lavapipe, SwiftShader) runs its shaders on
    // this CPU, so its loads meet this CPU's caches: without them every size would be
    // planned blind, and its curves would name no level.
    if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) cpu::describe_cpu_caches(info, "the host CPU's, from ");
    add_property(info, "vulkan.memory_budget", d.has_budget ? "yes" : "no");
    add_property(info, "vulkan.shader_int64", d.features.shaderInt64 ? "yes" : "no");
    // The walk a chase takes on this device as the environment sets it; a malformed
    // setting fails when the device is opened, and reads here as the default.
    ChaseWalk requested = ChaseWalk::Automatic;
    try {
        requested = read_options().chase;
    } catch (const Failure &) {
    }
    bool by_address = false;
    try {
        by_address = chase_by_address(d, requested);
    } catch (const Failure &) {
        // Addresses asked for where they are not offered: the device's opening says so.
    }
    add_property(info, "vulkan.chase_walk", chase_walk_name(by_address));
}

} // namespace vrb::vulkan
