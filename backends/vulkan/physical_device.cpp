#include "physical_device.hpp"

#include <algorithm>

namespace vrb::vulkan {

bool PhysicalDevice::has_extension(const char *name) const
{
    return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

PhysicalDevice query_physical_device(VkPhysicalDevice handle, uint32_t instance_api_version)
{
    PhysicalDevice d;
    d.handle = handle;
    vkGetPhysicalDeviceProperties(handle, &d.properties);
    d.api_version = std::min(d.properties.apiVersion, instance_api_version);

    uint32_t count = 0;
    check(vkEnumerateDeviceExtensionProperties(handle, nullptr, &count, nullptr), "listing device extensions");
    std::vector<VkExtensionProperties> list(count);
    check(vkEnumerateDeviceExtensionProperties(handle, nullptr, &count, list.data()), "listing device extensions");
    for (uint32_t i = 0; i < count; ++i)
        d.extensions.emplace_back(list[i].extensionName);

    const bool v11 = d.api_version >= VK_API_VERSION_1_1;
    const bool v12 = d.api_version >= VK_API_VERSION_1_2;
    if (v11) {
        // Each structure goes into the chain only where the device knows it.
        void *chain = nullptr;
        auto link = [&](auto &s) {
            s.pNext = chain;
            chain = &s;
        };
        d.has_id = true;
        link(d.id);
        d.has_subgroup = true;
        link(d.subgroup);
        link(d.maintenance3);
        if (v12 || d.has_extension(VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME)) {
            d.has_driver = true;
            link(d.driver);
        }
        if (d.has_extension(VK_EXT_PCI_BUS_INFO_EXTENSION_NAME)) {
            d.has_pci = true;
            link(d.pci);
        }
        if (d.has_extension(VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
            d.has_sm = true;
            link(d.sm);
        }
        if (d.has_extension(VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
            d.has_amd_cores = true;
            link(d.amd_cores);
        }
        VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        properties.pNext = chain;
        vkGetPhysicalDeviceProperties2(handle, &properties);
        d.properties = properties.properties;
    }

    // Features, as the properties: each structure chained only where the device knows it.
    VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceBufferDeviceAddressFeaturesKHR address{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES_KHR};
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executables{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    const bool address_khr = !v12 && v11 && d.has_extension(VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME);
    const bool statistics = v11 && d.has_extension(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    if (v11) {
        VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        auto link = [&](auto &s) {
            s.pNext = features.pNext;
            features.pNext = &s;
        };
        if (v12) link(features12);
        if (address_khr) link(address);
        if (statistics) link(executables);
        vkGetPhysicalDeviceFeatures2(handle, &features);
        d.features = features.features;
    } else {
        vkGetPhysicalDeviceFeatures(handle, &d.features);
    }
    if (v12) {
        d.host_query_reset = features12.hostQueryReset;
        d.nonuniform_storage_buffer_indexing = features12.shaderStorageBufferArrayNonUniformIndexing;
        d.timeline_semaphore = features12.timelineSemaphore;
        d.buffer_device_address = features12.bufferDeviceAddress;
    } else if (address_khr) {
        d.buffer_device_address = address.bufferDeviceAddress;
        d.buffer_device_address_khr = address.bufferDeviceAddress;
    }
    d.pipeline_statistics = statistics && executables.pipelineExecutableInfo;

    vkGetPhysicalDeviceQueueFamilyProperties(handle, &count, nullptr);
    d.queue_families.resize(count);
    vkGetPhysicalDeviceQueueFamilyProperties(handle, &count, d.queue_families.data());
    d.queue_families.resize(count);

    if (v11 && d.has_extension(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME)) {
        d.has_budget = true;
        VkPhysicalDeviceMemoryProperties2 memory{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
        memory.pNext = &d.budget;
        vkGetPhysicalDeviceMemoryProperties2(handle, &memory);
        d.memory = memory.memoryProperties;
    } else {
        vkGetPhysicalDeviceMemoryProperties(handle, &d.memory);
    }
    return d;
}

} // namespace vrb::vulkan
