// Settings read from the environment when a backend context or device is created.
//   VRAMBENCH_VULKAN_VALIDATION=1       the Khronos validation layer; any message fails
//   VRAMBENCH_VULKAN_SEGMENT_BYTES=n    smaller buffer segments (a power of two), so
//                                       small buffers exercise the multi-segment paths
//   VRAMBENCH_VULKAN_STAGING=always     uploads and downloads through the staging
//                                       buffer even when the memory is host-visible
//   VRAMBENCH_VULKAN_STAGING_BYTES=n    staging chunk size (default 64 MiB)
//   VRAMBENCH_VULKAN_SHADERS=gpu|cpu    the streaming shaders written for GPUs or tuned
//                                       for CPU implementations (default: by device
//                                       type; shaders/access.glsl says how they differ)
//   VRAMBENCH_VULKAN_TIMER=host         time runs by the host clock, as on queues
//                                       without timestamps
//   VRAMBENCH_VULKAN_LOCAL_SIZE=n       workgroup width (a power of two)
//   VRAMBENCH_VULKAN_GROUPS=n           most workgroups per dispatch
//   VRAMBENCH_VULKAN_UNITS=n            the device has n compute units, whatever its
//                                       driver says (or does not: drivers without
//                                       NVIDIA's or AMD's core properties), each keeping
//                                       2048 invocations resident where nothing says; on
//                                       a CPU device, a GPU's geometry
//   VRAMBENCH_VULKAN_CHASE=indices|addresses  CHASE walks the chain's indices, or
//                                       links of 64-bit device addresses (default:
//                                       addresses where the device offers them)
// The validation setting is read when the context is created, the others whenever a
// device is opened.
#pragma once

#include <cstdint>

namespace vrb::vulkan {

enum class Tuning { Automatic, Gpu, Cpu };
enum class ChaseWalk { Automatic, Indices, Addresses };

struct Options {
    bool validation = false;
    Tuning tuning = Tuning::Automatic;
    uint64_t segment_bytes = 0; // 0: from the device's limits
    bool always_stage = false;
    bool host_timer = false;
    uint64_t staging_bytes = uint64_t(64) << 20;
    uint32_t local_size = 0; // 0: the device's default
    uint32_t max_groups = 0; // 0: the device's default
    uint32_t units = 0;      // 0: what the driver says
    ChaseWalk chase = ChaseWalk::Automatic;
};

// Throws Failure(VRB_ERROR_INVALID_ARGUMENT) naming a malformed variable.
Options read_options();

} // namespace vrb::vulkan
