// Compute pipelines built from the embedded SPIR-V, on first use, once per shader
// variant and workgroup width; and the layouts they use: the stream layout (dst, src1,
// src2, results as storage buffers), its variant reading src1 and src2 as uniform texel
// buffers, and the chain layout (index, results, an array of segments). Where the
// driver gives statistics of what it compiled, each pipeline keeps what its shader
// needs to run (its registers), which sizes the wave of workgroups it is given.
#pragma once

#include "filling_grid.hpp"
#include "handles.hpp"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace vrb::vulkan {

enum class LayoutKind { Stream, StreamTexel, Chain };

class Pipelines {
  public:
    // The chain layout exists only where the device allows its array of bindings; asking
    // for it elsewhere is Failure(VRB_ERROR_UNSUPPORTED).
    // `statistics`: VK_KHR_pipeline_executable_properties is enabled on the device; what
    // each pipeline's statistics say goes to `note` once, as it is built.
    using Note = std::function<void(const std::string &)>;
    Pipelines(VkDevice device, bool chain_layout, bool statistics, Note note = {});

    VkDescriptorSetLayout set_layout(LayoutKind kind) const;
    VkPipelineLayout layout(LayoutKind kind) const;
    // Throws Failure(VRB_ERROR_INTERNAL) for a shader that was not embedded.
    VkPipeline get(std::string_view shader, LayoutKind kind, uint32_t local_size);
    // What the driver says the pipeline's shader needs, building it first; all zero where
    // the driver says nothing (statistics are advice: a failed query is not an error).
    ShaderResources resources(std::string_view shader, LayoutKind kind, uint32_t local_size);

  private:
    VkDevice device_;
    bool statistics_;
    Note note_;
    struct Built {
        Owned<VkPipeline> pipeline;
        ShaderResources resources;
    };
    const Built &build(std::string_view shader, LayoutKind kind, uint32_t local_size);
    ShaderResources read_resources(VkPipeline pipeline) const;
    struct Layout {
        Owned<VkDescriptorSetLayout> set;
        Owned<VkPipelineLayout> pipeline;
    };
    const Layout &find(LayoutKind kind) const;

    Layout stream_, stream_texel_, chain_;
    std::map<std::pair<std::string, uint32_t>, Built> pipelines_;
};

} // namespace vrb::vulkan
