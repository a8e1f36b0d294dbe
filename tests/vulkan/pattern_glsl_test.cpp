// shaders/pattern.glsl against pattern.h, lane for lane, at lane numbers a CPU device's
// buffers cannot reach (past 2^32): the shader is run directly, outside the backend.
#include "vulkan_test_spirv.hpp"

#include <volk.h>
#include <vrambench/pattern.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace vrb::vulkan::test {
namespace {

std::vector<std::string> messages;

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT,
                                          const VkDebugUtilsMessengerCallbackDataEXT *data, void *)
{
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT && data && data->pMessage &&
        !(data->pMessageIdName && std::strcmp(data->pMessageIdName, "Loader Message") == 0))
        messages.emplace_back(data->pMessage);
    return VK_FALSE;
}

#define VK_OK(call) ASSERT_EQ((call), VK_SUCCESS) << #call

struct Lanes {
    uint64_t lane;
    uint32_t seed;
};

TEST(PatternGlsl, matches_pattern_h_for_every_pattern_at_lanes_past_2_to_the_32)
{
    ASSERT_EQ(volkInitialize(), VK_SUCCESS) << "no Vulkan loader";
    const bool validate =
        std::getenv("VRAMBENCH_VULKAN_VALIDATION") && std::strcmp(std::getenv("VRAMBENCH_VULKAN_VALIDATION"), "1") == 0;
    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType =
        VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    messenger.pfnUserCallback = on_message;
    const char *layer = "VK_LAYER_KHRONOS_validation";
    const char *extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instance_info.pNext = validate ? &messenger : nullptr;
    instance_info.pApplicationInfo = &app;
    instance_info.enabledLayerCount = validate ? 1 : 0;
    instance_info.ppEnabledLayerNames = &layer;
    instance_info.enabledExtensionCount = validate ? 1 : 0;
    instance_info.ppEnabledExtensionNames = &extension;
    VkInstance instance = VK_NULL_HANDLE;
    VK_OK(vkCreateInstance(&instance_info, nullptr, &instance));
    volkLoadInstance(instance);
    uint32_t count = 1;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    ASSERT_GE(vkEnumeratePhysicalDevices(instance, &count, &physical), 0);
    ASSERT_EQ(count, 1u);

    // The cases: every pattern, at lanes around 2^32, 2^33, 2^40, 2^63 and 2^64 - 1.
    std::vector<Lanes> lanes;
    for (uint64_t base : {uint64_t(0), uint64_t(1) << 31, uint64_t(1) << 32, uint64_t(1) << 33, uint64_t(1) << 40,
                          uint64_t(1) << 63, ~uint64_t(0) - 40})
        for (uint64_t d = 0; d < 41; ++d)
            lanes.push_back({base + d - (base ? 20 : 0), uint32_t(d * 2654435761u)});
    std::vector<uint32_t> cases;
    for (uint32_t pattern = 0; pattern < VRB_PATTERN_COUNT; ++pattern)
        for (const Lanes &l : lanes)
            cases.insert(cases.end(), {uint32_t(l.lane), uint32_t(l.lane >> 32), l.seed, pattern});
    const uint32_t n = static_cast<uint32_t>(cases.size() / 4);
    const VkDeviceSize bytes = cases.size() * 4;

    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, families.data());
    uint32_t family = 0;
    while (family < family_count && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
        ++family;
    ASSERT_LT(family, family_count);
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue_info.queueFamilyIndex = family;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    VkDevice device = VK_NULL_HANDLE;
    VK_OK(vkCreateDevice(physical, &device_info, nullptr, &device));
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(device, family, 0, &queue);

    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(physical, &memory);
    VkBuffer buffers[2];
    VkDeviceMemory allocations[2];
    void *mapped[2];
    for (int b = 0; b < 2; ++b) {
        VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        info.size = bytes;
        info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        VK_OK(vkCreateBuffer(device, &info, nullptr, &buffers[b]));
        VkMemoryRequirements requirements;
        vkGetBufferMemoryRequirements(device, buffers[b], &requirements);
        const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        uint32_t type = 0;
        while (type < memory.memoryTypeCount && (!(requirements.memoryTypeBits & (1u << type)) ||
                                                 (memory.memoryTypes[type].propertyFlags & wanted) != wanted))
            ++type;
        ASSERT_LT(type, memory.memoryTypeCount);
        VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        allocate.allocationSize = requirements.size;
        allocate.memoryTypeIndex = type;
        VK_OK(vkAllocateMemory(device, &allocate, nullptr, &allocations[b]));
        VK_OK(vkBindBufferMemory(device, buffers[b], allocations[b], 0));
        VK_OK(vkMapMemory(device, allocations[b], 0, VK_WHOLE_SIZE, 0, &mapped[b]));
    }
    std::memcpy(mapped[0], cases.data(), bytes);

    VkDescriptorSetLayoutBinding bindings[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_info.bindingCount = 2;
    set_info.pBindings = bindings;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VK_OK(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout));
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 96};
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &range;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VK_OK(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout));
    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = sizeof spirv::pattern_probe;
    module_info.pCode = spirv::pattern_probe;
    VkShaderModule module = VK_NULL_HANDLE;
    VK_OK(vkCreateShaderModule(device, &module_info, nullptr, &module));
    const uint32_t local_size = 64;
    const VkSpecializationMapEntry entry{0, 0, 4};
    const VkSpecializationInfo specialization{1, &entry, 4, &local_size};
    VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipeline_info.stage.module = module;
    pipeline_info.stage.pName = "main";
    pipeline_info.stage.pSpecializationInfo = &specialization;
    pipeline_info.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VK_OK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline));

    const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &pool_size;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VK_OK(vkCreateDescriptorPool(device, &pool_info, nullptr, &pool));
    VkDescriptorSetAllocateInfo set_allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    set_allocate.descriptorPool = pool;
    set_allocate.descriptorSetCount = 1;
    set_allocate.pSetLayouts = &set_layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    VK_OK(vkAllocateDescriptorSets(device, &set_allocate, &set));
    const VkDescriptorBufferInfo infos[2] = {{buffers[0], 0, VK_WHOLE_SIZE}, {buffers[1], 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set;
    write.descriptorCount = 2;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = infos;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);

    VkCommandPoolCreateInfo command_pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    command_pool_info.queueFamilyIndex = family;
    VkCommandPool command_pool = VK_NULL_HANDLE;
    VK_OK(vkCreateCommandPool(device, &command_pool_info, nullptr, &command_pool));
    VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    command_info.commandPool = command_pool;
    command_info.commandBufferCount = 1;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VK_OK(vkAllocateCommandBuffers(device, &command_info, &commands));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK_OK(vkBeginCommandBuffer(commands, &begin));
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    uint32_t push[24] = {n};
    vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
    vkCmdDispatch(commands, (n + local_size - 1) / local_size, 1, 1);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                         nullptr, 0, nullptr);
    VK_OK(vkEndCommandBuffer(commands));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    VK_OK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
    VK_OK(vkQueueWaitIdle(queue));

    const auto *answers = static_cast<const uint32_t *>(mapped[1]);
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t lane = cases[4 * i] | uint64_t(cases[4 * i + 1]) << 32;
        const uint32_t seed = cases[4 * i + 2], pattern = cases[4 * i + 3];
        SCOPED_TRACE("pattern " + std::to_string(pattern) + " lane " + std::to_string(lane));
        EXPECT_EQ(answers[4 * i], vrb_pattern(pattern, lane, seed));
        const uint64_t sum = lane + 0xffffffffu;
        EXPECT_EQ(answers[4 * i + 1], uint32_t(sum));
        EXPECT_EQ(answers[4 * i + 2], uint32_t(sum >> 32));
        EXPECT_EQ(answers[4 * i + 3], uint32_t(lane >> 7));
    }

    vkDestroyCommandPool(device, command_pool, nullptr);
    vkDestroyDescriptorPool(device, pool, nullptr);
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyShaderModule(device, module, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
    for (int b = 0; b < 2; ++b) {
        vkDestroyBuffer(device, buffers[b], nullptr);
        vkFreeMemory(device, allocations[b], nullptr);
    }
    vkDestroyDevice(device, nullptr);
    vkDestroyInstance(instance, nullptr);
    for (const std::string &m : messages)
        ADD_FAILURE() << "validation: " << m;
}

} // namespace
} // namespace vrb::vulkan::test
