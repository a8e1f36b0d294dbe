#include "pipelines.hpp"

#include "push_constants.hpp"
#include "shader_statistics.hpp"
#include "vulkan_spirv.hpp"

#include <array>
#include <cmath>
#include <span>
#include <string>
#include <utility>
#include <vector>

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

Pipelines::Pipelines(VkDevice device, bool chain_layout, bool statistics, Note note)
    : device_(device), statistics_(statistics), note_(std::move(note))
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
    return build(shader, kind, local_size).pipeline.get();
}

ShaderResources Pipelines::resources(std::string_view shader, LayoutKind kind, uint32_t local_size)
{
    return build(shader, kind, local_size).resources;
}

const Pipelines::Built &Pipelines::build(std::string_view shader, LayoutKind kind, uint32_t local_size)
{
    auto key = std::make_pair(std::string(shader), local_size);
    if (auto it = pipelines_.find(key); it != pipelines_.end()) return it->second;

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
    if (statistics_) info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = &specialization;
    info.layout = layout(kind);
    VkPipeline pipeline = VK_NULL_HANDLE;
    check(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
          "creating compute pipeline " + key.first);
    Built built{Owned<VkPipeline>(device_, pipeline), {}};
    if (statistics_) {
        built.resources = read_resources(pipeline);
        if (note_)
            note_(key.first + " x " + std::to_string(local_size) + ": the driver says " +
                  std::to_string(built.resources.registers) + " registers an invocation, " +
                  std::to_string(built.resources.subgroups_per_simd) + " subgroups a SIMD, subgroups of " +
                  std::to_string(built.resources.subgroup_size) + " (0: not said)");
    }
    return pipelines_.emplace(std::move(key), std::move(built)).first->second;
}

ShaderResources Pipelines::read_resources(VkPipeline pipeline) const
{
    // volk leaves an entry point the loader does not know null.
    if (!vkGetPipelineExecutablePropertiesKHR || !vkGetPipelineExecutableStatisticsKHR) return {};
    VkPipelineInfoKHR pipeline_info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
    pipeline_info.pipeline = pipeline;
    uint32_t count = 0;
    if (vkGetPipelineExecutablePropertiesKHR(device_, &pipeline_info, &count, nullptr) != VK_SUCCESS || count == 0)
        return {};
    std::vector<VkPipelineExecutablePropertiesKHR> executables(
        count, VkPipelineExecutablePropertiesKHR{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
    if (vkGetPipelineExecutablePropertiesKHR(device_, &pipeline_info, &count, executables.data()) < 0) return {};

    // A compute pipeline holds one executable, its compute shader.
    VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    executable.pipeline = pipeline;
    executable.executableIndex = 0;
    uint32_t statistic_count = 0;
    if (vkGetPipelineExecutableStatisticsKHR(device_, &executable, &statistic_count, nullptr) != VK_SUCCESS) return {};
    std::vector<VkPipelineExecutableStatisticKHR> raw(
        statistic_count, VkPipelineExecutableStatisticKHR{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    if (vkGetPipelineExecutableStatisticsKHR(device_, &executable, &statistic_count, raw.data()) < 0) return {};
    raw.resize(statistic_count);

    std::vector<Statistic> statistics;
    for (const VkPipelineExecutableStatisticKHR &s : raw) {
        Statistic statistic{s.name, 0};
        switch (s.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: statistic.value = s.value.u64; break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
            statistic.value = s.value.i64 > 0 ? uint64_t(s.value.i64) : 0;
            break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
            statistic.value = s.value.f64 > 0 ? uint64_t(std::llround(s.value.f64)) : 0;
            break;
        default: continue; // a yes-or-no statistic says nothing of how much
        }
        statistics.push_back(std::move(statistic));
    }
    return shader_resources(statistics, executables[0].subgroupSize);
}

} // namespace vrb::vulkan
