// CUDA's side of the neutral runtime vocabulary (gpu_runtime.hpp): the runtime's
// prefix, and the few things that differ by more than that prefix.
#pragma once

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#else
#include <cuda_runtime_api.h>
#endif

// Every runtime call gpu_runtime.hpp makes is `cuda` + the name both runtimes share.
#define VRB_GPU_API(name) cuda##name

namespace vrb::gpu::vendor {

inline constexpr const char *kApiName = "CUDA";
inline constexpr const char *kBackendName = "cuda";
inline constexpr const char *kVendorName = "NVIDIA";
inline constexpr uint32_t kPciVendorId = 0x10de;

using Properties = cudaDeviceProp;

inline cudaDeviceAttr native(Attribute a)
{
    switch (a) {
    case Attribute::warp_size: return cudaDevAttrWarpSize;
    case Attribute::core_clock_khz: return cudaDevAttrClockRate;
    case Attribute::memory_clock_khz: return cudaDevAttrMemoryClockRate;
    case Attribute::memory_bus_width_bits: return cudaDevAttrGlobalMemoryBusWidth;
    case Attribute::l2_cache_bytes: return cudaDevAttrL2CacheSize;
    case Attribute::compute_units: return cudaDevAttrMultiProcessorCount;
    case Attribute::integrated: return cudaDevAttrIntegrated;
    case Attribute::can_map_host_memory: return cudaDevAttrCanMapHostMemory;
    case Attribute::ecc_enabled: return cudaDevAttrEccEnabled;
    case Attribute::pageable_memory_access: return cudaDevAttrPageableMemoryAccess;
    case Attribute::max_threads_per_compute_unit: return cudaDevAttrMaxThreadsPerMultiProcessor;
    case Attribute::shared_memory_per_compute_unit: return cudaDevAttrMaxSharedMemoryPerMultiprocessor;
    case Attribute::compute_capability_major: return cudaDevAttrComputeCapabilityMajor;
    case Attribute::compute_capability_minor: return cudaDevAttrComputeCapabilityMinor;
    case Attribute::pci_domain: return cudaDevAttrPciDomainId;
    case Attribute::pci_bus: return cudaDevAttrPciBusId;
    case Attribute::pci_device: return cudaDevAttrPciDeviceId;
    }
    return cudaDevAttrWarpSize;
}

inline cudaError_t host_alloc(void **p, std::size_t bytes, bool mapped)
{
    return cudaHostAlloc(p, bytes, cudaHostAllocPortable | (mapped ? cudaHostAllocMapped : 0u));
}
inline cudaError_t host_free(void *p)
{
    return cudaFreeHost(p);
}

inline cudaError_t uuid(int d, uint8_t (&out)[16])
{
    cudaDeviceProp prop{};
    const cudaError_t e = cudaGetDeviceProperties(&prop, d);
    if (e != cudaSuccess) return e;
    for (int i = 0; i < 16; ++i)
        out[i] = static_cast<uint8_t>(prop.uuid.bytes[i]);
    return e;
}

// CUDA names architectures by compute capability, which the attributes carry.
inline const char *architecture(const Properties &)
{
    return "";
}

inline bool is_out_of_memory(cudaError_t e)
{
    return e == cudaErrorMemoryAllocation;
}
inline bool is_unavailable(cudaError_t e)
{
    return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorInitializationError ||
           e == cudaErrorSystemDriverMismatch || e == cudaErrorCompatNotSupportedOnDevice ||
           e == cudaErrorDevicesUnavailable;
}
// CUDA's own strings are words already.
inline const char *plain_words(cudaError_t)
{
    return nullptr;
}

} // namespace vrb::gpu::vendor
