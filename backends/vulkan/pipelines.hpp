// Compute pipelines built from the embedded SPIR-V, on first use, once per shader
// variant and workgroup width; and the layouts they use: the stream layout (dst, src1,
// src2, results as storage buffers), its variant reading src1 and src2 as uniform texel
// buffers, and the chain layout (index, results, an array of segments).
#pragma once

#include "handles.hpp"

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
    Pipelines(VkDevice device, bool chain_layout);

    VkDescriptorSetLayout set_layout(LayoutKind kind) const;
    VkPipelineLayout layout(LayoutKind kind) const;
    // Throws Failure(VRB_ERROR_INTERNAL) for a shader that was not embedded.
    VkPipeline get(std::string_view shader, LayoutKind kind, uint32_t local_size);

  private:
    VkDevice device_;
    struct Layout {
        Owned<VkDescriptorSetLayout> set;
        Owned<VkPipelineLayout> pipeline;
    };
    const Layout &find(LayoutKind kind) const;

    Layout stream_, stream_texel_, chain_;
    std::map<std::pair<std::string, uint32_t>, Owned<VkPipeline>> pipelines_;
};

} // namespace vrb::vulkan
