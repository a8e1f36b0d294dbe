// Everything the backend asks of a physical device, gathered once: core and chained
// properties (each chained only where the device's version or an extension provides
// it), features, queue families and memory (with budgets where the driver tells).
#pragma once

#include "vk.hpp"

#include <string>
#include <vector>

namespace vrb::vulkan {

struct PhysicalDevice {
    VkPhysicalDevice handle = VK_NULL_HANDLE;
    uint32_t api_version = 0; // what the backend uses: the lower of the device's and the instance's
    std::vector<std::string> extensions;

    VkPhysicalDeviceProperties properties{};
    bool has_id = false;
    VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    bool has_driver = false;
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    bool has_pci = false;
    VkPhysicalDevicePCIBusInfoPropertiesEXT pci{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT};
    bool has_subgroup = false;
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceMaintenance3Properties maintenance3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
    bool has_sm = false;
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
    bool has_amd_cores = false;
    VkPhysicalDeviceShaderCorePropertiesAMD amd_cores{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};

    VkPhysicalDeviceFeatures features{};
    bool host_query_reset = false;
    bool nonuniform_storage_buffer_indexing = false;
    bool timeline_semaphore = false;
    // Buffer device addresses: a Vulkan 1.2 feature, or VK_KHR_buffer_device_address's
    // on a 1.1 device (buffer_device_address_khr: enabling it takes the extension).
    bool buffer_device_address = false;
    bool buffer_device_address_khr = false;
    // VK_KHR_pipeline_executable_properties: what a compiled shader needs (its registers)
    bool pipeline_statistics = false;

    std::vector<VkQueueFamilyProperties> queue_families;
    VkPhysicalDeviceMemoryProperties memory{};
    bool has_budget = false;
    VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};

    bool has_extension(const char *name) const;
};

PhysicalDevice query_physical_device(VkPhysicalDevice handle, uint32_t instance_api_version);

} // namespace vrb::vulkan
