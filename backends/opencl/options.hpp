// Settings read from the environment whenever a device is opened.
//   VRAMBENCH_OPENCL_SEGMENT_BYTES=n   a smaller buffer segment (rounded down to a power
//                                      of two, at least 4096), so small buffers take the
//                                      paths of buffers past CL_DEVICE_MAX_MEM_ALLOC_SIZE
//   VRAMBENCH_OPENCL_LOCAL_SIZE=n      the work-group width (a power of two)
//   VRAMBENCH_OPENCL_GROUPS=n          the most work-groups per launch, whatever the passes
//   VRAMBENCH_OPENCL_KERNELS=gpu|cpu   the kernels written for GPUs, or those tuned for CPU
//                                      drivers (default: by the device's type), so a CPU
//                                      driver checks the GPU kernels' answers
#pragma once

#include <cstdint>

namespace vrb::opencl {

enum class Kernels { ByDeviceType, Gpu, Cpu };

struct Options {
    uint64_t segment_bytes = 0; // 0: from the device's limit
    uint32_t local_size = 0;    // 0: by device type
    uint32_t max_groups = 0;    // 0: by compute units
    Kernels kernels = Kernels::ByDeviceType;
};

// Throws Failure(VRB_ERROR_INVALID_ARGUMENT) naming a malformed variable.
Options read_options();

} // namespace vrb::opencl
