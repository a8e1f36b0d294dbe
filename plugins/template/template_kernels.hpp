// The operations of the vocabulary as "kernels": one pass of one operation over memory
// the device can address. This is the file a vendor rewrites in the API's own language
// (CUDA/HIP kernels, GLSL or SPIR-V compute shaders, OpenCL C); the template runs the
// same arithmetic as plain single-threaded loops so each formula is easy to read.
#pragma once

#include <vrambench/plugin.h>

#include <cstdint>

namespace vrb::tpl {

// What a kernel is launched with: the operands already resolved to addresses (on a
// GPU, device pointers or descriptor bindings), offsets applied.
struct KernelArgs {
    uint32_t *dst = nullptr;
    const uint32_t *src1 = nullptr;
    const uint32_t *src2 = nullptr;
    // Lanes of src1 from its offset to its buffer's end: GATHER and CHASE read where
    // their indices say, so the kernel itself must bound them.
    uint64_t src1_lanes = 0;
};

// The answer of one pass. On a GPU it is written to a small device buffer by the
// kernel (an atomic add per work-group, or a second reduction pass) and downloaded
// after the timed region.
struct KernelAnswer {
    uint64_t checksum = 0;
    uint64_t mismatches = 0;
    uint64_t first_mismatch = 0; // lane index; 0 when there is no mismatch
};

// One pass of `op` (any kind but VRB_OP_TRANSFER, which is the copy engine's job).
// Throws vrb::plugin::Failure for an index outside src1 or an unknown kind.
KernelAnswer launch_kernel(const vrb_operation &op, const KernelArgs &args);

} // namespace vrb::tpl
