// The L1 data cache of one SM (NVIDIA) or CU (AMD), which neither CUDA nor HIP reports,
// from the vendors' architecture documents. Kernels that re-read their share of a
// working set on every pass keep it in these caches while it fits (132 x 256 KiB on an
// H200), so without them a sweep would call an L1 plateau by the next level's name.
// Plain C++, so the tables are tested without a GPU.
#pragma once

#include <cstdint>
#include <string_view>

namespace vrb::gpu {

struct L1Cache {
    uint64_t bytes = 0;    // one SM's or CU's; 0 when the architecture is not listed
    const char *note = ""; // what the figure is and where it comes from, for the device's properties
};

// NVIDIA, by compute capability: the unified L1 data cache and shared memory of one SM.
// The shared memory a kernel's carveout takes comes out of it, so it is the most the
// L1 can hold.
L1Cache nvidia_l1(int major, int minor);

// AMD, by architecture name ("gfx90a", "gfx942:sramecc+:xnack-"): one CU's vector L1.
L1Cache amd_l1(std::string_view architecture);

// AMD: how many of a device's `compute_units` CUs share one L2, which HIP does not say.
// CDNA 3 (gfx940-942) has one L2 per XCD of 38 active CUs (MI300X: 8 x 38, MI300A: 6 x
// 38, CDNA 3 whitepaper); other parts one L2 for the device (an MI250X's GCD is a device
// of its own). 0 where a CDNA 3 part's CUs do not divide into XCDs of 38 (unknown).
uint32_t amd_l2_shared_by(std::string_view architecture, uint32_t compute_units);

} // namespace vrb::gpu
