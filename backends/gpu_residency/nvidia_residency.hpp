// What one NVIDIA SM keeps resident of a kernel whose registers a driver reported: the
// arithmetic of CUDA's occupancy query, for the APIs that have none (Vulkan, OpenCL). A
// kernel's passes over its share assume every group of the grid is resident at once;
// a grid sized by threads alone is twice that for a kernel of 64 registers.
#pragma once

#include <cstdint>

namespace vrb::residency {

// Every NVIDIA SM since Kepler holds 64K 32-bit registers in four partitions; a warp
// takes its registers from one partition, in units of 256.
inline constexpr uint32_t kNvidiaRegistersPerSm = 65536;
inline constexpr uint32_t kNvidiaSmPartitions = 4;
inline constexpr uint32_t kNvidiaRegisterUnit = 256;
// The most registers a thread can take on any NVIDIA GPU: a larger count is no count
// a driver could mean, and is taken as this.
inline constexpr uint32_t kNvidiaMostRegisters = 255;
// The fewest blocks any NVIDIA SM since Volta keeps resident (Turing, GA10x: 16; V100,
// A100, H100: 32). The APIs do not say which; too few only shortens the wave.
inline constexpr uint32_t kNvidiaGroupsPerSm = 16;

// Groups of `local_size` invocations one SM keeps resident when each invocation takes
// `registers` and the SM holds `warps_per_sm` warps of `warp_size`; at least one (a
// launch the SM cannot hold at all fails at launch, not here).
uint32_t nvidia_groups_per_sm(uint32_t registers, uint32_t local_size, uint32_t warps_per_sm, uint32_t warp_size = 32);

} // namespace vrb::residency
