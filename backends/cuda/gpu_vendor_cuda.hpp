// CUDA's side of the neutral runtime vocabulary (gpu_runtime.hpp): the runtime's and
// the driver's prefixes, and the few things that differ by more than a prefix.
#pragma once

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#else
#include <cuda_runtime_api.h>
#endif
#include <cuda.h>

#include "l1_caches.hpp"

#include <dlfcn.h>

#include <string>

// Every runtime call gpu_runtime.hpp makes is `cuda` + the name both runtimes share,
// every driver call `cu` + the name both drivers share.
#define VRB_GPU_API(name) cuda##name
#define VRB_GPU_DRIVER(name) cu##name
#define VRB_GPU_DRIVER_NAME(name) "cu" #name

namespace vrb::gpu::vendor {

#if defined(__CUDACC__)
// Loads that are served from L2 and never allocate in the SM's L1 (ld.global.cg): a
// grid that shares a working set out would otherwise find each block's share in its
// own SM's L1, and 132 L1s hold some 30 MiB of an H200's 50 MiB L2.
__device__ __forceinline__ uint32_t load_past_l1(const uint32_t *p)
{
    return __ldcg(p);
}
__device__ __forceinline__ uint2 load_past_l1(const uint2 *p)
{
    return __ldcg(p);
}
__device__ __forceinline__ uint4 load_past_l1(const uint4 *p)
{
    return __ldcg(p);
}
// Stores the same way (st.global.cg): a shared-out write sweep lands in L2 and shows
// its plateau, where stores that allocate in L1 would split it into two.
__device__ __forceinline__ void store_past_l1(uint32_t *p, uint32_t v)
{
    __stcg(p, v);
}
__device__ __forceinline__ void store_past_l1(uint2 *p, uint2 v)
{
    __stcg(p, v);
}
__device__ __forceinline__ void store_past_l1(uint4 *p, uint4 v)
{
    __stcg(p, v);
}
#endif

// How the runtime says two devices are joined, or "": the CUDA runtime has no link type
// between two devices (NVLink is read through NVML by the core, card/fabric.hpp).
inline std::string link_between(int, int)
{
    return "";
}

inline constexpr const char *kApiName = "CUDA";
inline constexpr const char *kBackendName = "cuda";
inline constexpr const char *kVendorName = "NVIDIA";
inline constexpr uint32_t kPciVendorId = 0x10de;
inline constexpr const char *kDescription = "NVIDIA GPUs through CUDA: kernels, copy engines and cudaEvent timing";

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

// 1000 * major + 10 * minor.
inline std::string format_version(int v)
{
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

// The kernel driver's own version, which the runtime does not report: the version word
// after the marker in the file's first line, in the proprietary module's banner
// ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Tue ...") as in the open
// module's ("... Open Kernel Module for x86_64  580.159.04  Release Build ...").
inline constexpr const char *kKernelDriverFile = "/proc/driver/nvidia/version";
inline constexpr const char *kKernelDriverMarker = "Kernel Module";

// The runtime's words for "no driver" can mislead (it says the driver is too old when
// there is none at all): say what is actually missing where that can be seen.
inline std::string missing_driver_hint()
{
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!driver) return "; the NVIDIA driver library libcuda.so.1 is not installed or not on the library path";
    dlclose(driver);
    return {};
}

// One L2 serves every SM.
inline uint32_t l2_shared_by(const char *, uint32_t compute_units)
{
    return compute_units;
}

// Asks the driver to keep system-allocated (pageable) memory where it lies, in host
// memory, and mapped for `device`: with HMM the driver may otherwise move the pages a
// kernel touches into device memory, and a pageable figure would be device memory's.
inline cudaError_t keep_in_host_memory(void *p, std::size_t bytes, int device)
{
#if CUDART_VERSION >= 12020
    cudaMemLocation host{}, gpu{};
    host.type = cudaMemLocationTypeHost;
    gpu.type = cudaMemLocationTypeDevice;
    gpu.id = device;
#if CUDART_VERSION >= 13000
    cudaError_t e = cudaMemAdvise(p, bytes, cudaMemAdviseSetPreferredLocation, host);
    if (e == cudaSuccess) e = cudaMemAdvise(p, bytes, cudaMemAdviseSetAccessedBy, gpu);
#else
    cudaError_t e = cudaMemAdvise_v2(p, bytes, cudaMemAdviseSetPreferredLocation, host);
    if (e == cudaSuccess) e = cudaMemAdvise_v2(p, bytes, cudaMemAdviseSetAccessedBy, gpu);
#endif
#else
    cudaError_t e = cudaMemAdvise(p, bytes, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId);
    if (e == cudaSuccess) e = cudaMemAdvise(p, bytes, cudaMemAdviseSetAccessedBy, device);
#endif
    return e;
}

// An SM's L1, which CUDA does not report, by compute capability.
inline L1Cache unit_l1(int major, int minor, const char *)
{
    return nvidia_l1(major, minor);
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
// The driver API's answers reach here cast (from_driver): its "not supported" is the
// runtime's.
static_assert(int(CUDA_ERROR_NOT_SUPPORTED) == int(cudaErrorNotSupported));
inline bool is_unsupported(cudaError_t e)
{
    return e == cudaErrorNotSupported;
}
// CUDA's own strings are words already.
inline const char *plain_words(cudaError_t)
{
    return nullptr;
}

// ---- the driver's virtual memory API, reached through the statically linked runtime

using DriverResult = CUresult;
using PhysicalHandle = CUmemGenericAllocationHandle;
using DeviceAddress = CUdeviceptr;
using AllocationProp = CUmemAllocationProp;
using AccessDesc = CUmemAccessDesc;
inline constexpr CUmemAllocationHandleType kPosixFd = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
inline constexpr CUmemAllocationGranularity_flags kGranularityMinimum = CU_MEM_ALLOC_GRANULARITY_MINIMUM;
inline constexpr unsigned kExternalDedicated = cudaExternalMemoryDedicated;

// The runtime's error codes are the driver's for every error these calls return.
inline cudaError_t from_driver(CUresult r)
{
    return static_cast<cudaError_t>(r);
}

// A driver function by name, or null where this driver lacks it. The module does not
// link libcuda: the runtime, which loaded it, hands out its entry points.
inline void *driver_symbol(const char *name)
{
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
    const cudaError_t e = cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found);
#else
    const cudaError_t e = cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault, &found);
#endif
    if (e != cudaSuccess || found != cudaDriverEntryPointSuccess) {
        (void)cudaGetLastError();
        return nullptr;
    }
    return fn;
}

// Device memory of `device` that can be exported as a POSIX fd.
inline AllocationProp allocation_prop(int device)
{
    AllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.requestedHandleTypes = kPosixFd;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    return prop;
}
inline AccessDesc read_write_access(int device)
{
    AccessDesc access{};
    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access.location.id = device;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    return access;
}

inline void set_timeline_semaphore_fd(cudaExternalSemaphoreHandleDesc &desc)
{
    desc.type = cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
}
// Asked of the device, not of a version: the driver says for this card whether it
// imports timeline semaphores (a vGPU or an old driver says no, or knows no such
// attribute, which is no as well).
inline std::string timeline_semaphore_gap(int device)
{
#if CUDART_VERSION >= 11020
    int supported = 0;
    const cudaError_t e = cudaDeviceGetAttribute(&supported, cudaDevAttrTimelineSemaphoreInteropSupported, device);
    if (e == cudaSuccess && supported) return {};
    if (e == cudaSuccess)
        return "the device imports no timeline semaphore (cudaDevAttrTimelineSemaphoreInteropSupported is 0)";
    (void)cudaGetLastError();
    return std::string("the driver does not say that the device imports timeline semaphores "
                       "(cudaDevAttrTimelineSemaphoreInteropSupported: ") +
           cudaGetErrorString(e) + ")";
#else
    (void)device;
    return "this build's CUDA runtime predates timeline semaphore import (11.2)";
#endif
}
// What the import itself answers where the driver cannot import a timeline semaphore.
inline bool refuses_semaphore_type(cudaError_t e)
{
    return e == cudaErrorNotSupported;
}

} // namespace vrb::gpu::vendor
