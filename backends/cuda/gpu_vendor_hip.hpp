// HIP's side of the neutral runtime vocabulary (gpu_runtime.hpp): the runtime's
// prefix, and the few things that differ by more than that prefix.
#pragma once

#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#else
#include <hip/hip_runtime_api.h>
#endif

// Every runtime call gpu_runtime.hpp makes is `hip` + the name both runtimes share.
#define VRB_GPU_API(name) hip##name

namespace vrb::gpu::vendor {

inline constexpr const char *kApiName = "HIP";
inline constexpr const char *kBackendName = "hip";
inline constexpr const char *kVendorName = "AMD";
inline constexpr uint32_t kPciVendorId = 0x1002;

using Properties = hipDeviceProp_t;

inline hipDeviceAttribute_t native(Attribute a)
{
    switch (a) {
    case Attribute::warp_size: return hipDeviceAttributeWarpSize;
    case Attribute::core_clock_khz: return hipDeviceAttributeClockRate;
    case Attribute::memory_clock_khz: return hipDeviceAttributeMemoryClockRate;
    case Attribute::memory_bus_width_bits: return hipDeviceAttributeMemoryBusWidth;
    case Attribute::l2_cache_bytes: return hipDeviceAttributeL2CacheSize;
    case Attribute::compute_units: return hipDeviceAttributeMultiprocessorCount;
    case Attribute::integrated: return hipDeviceAttributeIntegrated;
    case Attribute::can_map_host_memory: return hipDeviceAttributeCanMapHostMemory;
    case Attribute::ecc_enabled: return hipDeviceAttributeEccEnabled;
    case Attribute::pageable_memory_access: return hipDeviceAttributePageableMemoryAccess;
    case Attribute::max_threads_per_compute_unit: return hipDeviceAttributeMaxThreadsPerMultiProcessor;
    case Attribute::shared_memory_per_compute_unit: return hipDeviceAttributeMaxSharedMemoryPerMultiprocessor;
    case Attribute::compute_capability_major: return hipDeviceAttributeComputeCapabilityMajor;
    case Attribute::compute_capability_minor: return hipDeviceAttributeComputeCapabilityMinor;
    case Attribute::pci_domain: return hipDeviceAttributePciDomainID;
    case Attribute::pci_bus: return hipDeviceAttributePciBusId;
    case Attribute::pci_device: return hipDeviceAttributePciDeviceId;
    }
    return hipDeviceAttributeWarpSize;
}

inline hipError_t host_alloc(void **p, std::size_t bytes, bool mapped)
{
    return hipHostMalloc(p, bytes, hipHostMallocPortable | (mapped ? hipHostMallocMapped : 0u));
}
inline hipError_t host_free(void *p)
{
    return hipHostFree(p);
}

inline hipError_t uuid(int d, uint8_t (&out)[16])
{
    hipDevice_t device{};
    hipError_t e = hipDeviceGet(&device, d);
    if (e != hipSuccess) return e;
    hipUUID id{};
    e = hipDeviceGetUuid(&id, device);
    if (e != hipSuccess) return e;
    for (int i = 0; i < 16; ++i)
        out[i] = static_cast<uint8_t>(id.bytes[i]);
    return e;
}

// The architecture name (gfx90a...).
inline const char *architecture(const Properties &prop)
{
    return prop.gcnArchName;
}

inline bool is_out_of_memory(hipError_t e)
{
    return e == hipErrorOutOfMemory;
}
inline bool is_unavailable(hipError_t e)
{
    return e == hipErrorNoDevice || e == hipErrorInsufficientDriver || e == hipErrorNotInitialized;
}
// HIP 5 answers hipGetErrorString with the enumerator's name: the common ones in words.
inline const char *plain_words(hipError_t e)
{
    switch (e) {
    case hipErrorNoDevice: return "no HIP-capable device is detected";
    case hipErrorInsufficientDriver: return "the driver is older than the HIP runtime";
    case hipErrorNotInitialized: return "the HIP runtime could not be initialised";
    case hipErrorOutOfMemory: return "out of memory";
    case hipErrorInvalidValue: return "invalid argument";
    case hipErrorInvalidDevice: return "invalid device ordinal";
    case hipErrorLaunchFailure: return "a kernel failed";
    case hipErrorIllegalAddress: return "a kernel accessed an illegal address";
    default: return nullptr;
    }
}

} // namespace vrb::gpu::vendor
