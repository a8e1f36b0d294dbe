#include "pipelines.hpp"

#include "push_constants.hpp"
#include "vulkan_spirv.hpp"

#include <array>
#include <span>

namespace vrb::vulkan {

namespace {

Owned<VkDescriptorSetLayout> make_set_layout(VkDevice device, std::span<const VkDescriptorSetLayoutBinding> bindings)
{
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = static_cast<uint32_t>(bindings.size());
    info.pBindings = bindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    check(vkCreateDescriptorSetLayout(device, &info, nullptr, &layout), "creating a descriptor set layout");
    return Owned<VkDescriptorSetLayout>(device, layout);
}

Owned<VkPipelineLayout> make_pipeline_layout(VkDevice device, VkDescriptorSetLayout set)
{
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(PushConstants)};
    VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    info.setLayoutCount = 1;
    info.pSetLayouts = &set;
    info.pushConstantRangeCount = 1;
    info.pPushConstantRanges = &range;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    check(vkCreatePipelineLayout(device, &info, nullptr, &layout), "creating a pipeline layout");
    return Owned<VkPipelineLayout>(device, layout);
}

VkDescriptorSetLayoutBinding storage(uint32_t number, uint32_t count = 1)
{
    return {number, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
}

VkDescriptorSetLayoutBinding texels(uint32_t number)
{
    return {number, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
}

} // namespace

Pipelines::Pipelines(VkDevice device, bool chain_layout) : device_(device)
{
    auto make = [&](std::span<const VkDescriptorSetLayoutBinding> bindings) {
        Layout layout;
        layout.set = make_set_layout(device, bindings);
        layout.pipeline = make_pipeline_layout(device, layout.set.get());
        return layout;
    };
    const std::array stream = {storage(binding::dst), storage(binding::src1), storage(binding::src2),
                               storage(binding::results)};
    stream_ = make(stream);
    const std::array stream_texel = {storage(binding::dst), texels(binding::src1), texels(binding::src2),
                                     storage(binding::results)};
    stream_texel_ = make(stream_texel);
    if (chain_layout) {
        const std::array chain = {storage(binding::index), storage(binding::chain_results),
                                  storage(binding::chain, kChainSegmentSlots)};
        chain_ = make(chain);
    }
}

const Pipelines::Layout &Pipelines::find(LayoutKind kind) const
{
    const Layout &layout = kind == LayoutKind::Stream        ? stream_
                           : kind == LayoutKind::StreamTexel ? stream_texel_
                                                             : chain_;
    if (!layout.pipeline)
        fail(VRB_ERROR_UNSUPPORTED, "the device cannot bind enough storage buffers for this operation");
    return layout;
}

VkDescriptorSetLayout Pipelines::set_layout(LayoutKind kind) const
{
    return find(kind).set.get();
}

VkPipelineLayout Pipelines::layout(LayoutKind kind) const
{
    return find(kind).pipeline.get();
}

VkPipeline Pipelines::get(std::string_view shader, LayoutKind kind, uint32_t local_size)
{
    auto key = std::make_pair(std::string(shader), local_size);
    if (auto it = pipelines_.find(key); it != pipelines_.end()) return it->second.get();

    const spirv::EmbeddedSpirv *code = nullptr;
    for (const auto &entry : spirv::all)
        if (shader == entry.name) code = &entry;
    if (!code) fail(VRB_ERROR_INTERNAL, "no embedded shader named " + std::string(shader));

    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = code->words * sizeof(uint32_t);
    module_info.pCode = code->code;
    VkShaderModule module = VK_NULL_HANDLE;
    check(vkCreateShaderModule(device_, &module_info, nullptr, &module), "creating shader module " + key.first);
    const Owned<VkShaderModule> owned_module(device_, module);

    const VkSpecializationMapEntry entry{0, 0, sizeof(uint32_t)};
    const VkSpecializationInfo specialization{1, &entry, sizeof local_size, &local_size};
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = &specialization;
    info.layout = layout(kind);
    VkPipeline pipeline = VK_NULL_HANDLE;
    check(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
          "creating compute pipeline " + key.first);
    return pipelines_.emplace(std::move(key), Owned<VkPipeline>(device_, pipeline)).first->second.get();
}

} // namespace vrb::vulkan
