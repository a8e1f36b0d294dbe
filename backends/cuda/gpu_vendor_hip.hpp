// HIP's side of the neutral runtime vocabulary (gpu_runtime.hpp): the runtime's
// prefix (HIP's driver calls share it), and the few things that differ by more.
#pragma once

#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#else
#include <hip/hip_runtime_api.h>
#endif

#include "l1_caches.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstring>
#include <string>

// Every runtime call gpu_runtime.hpp makes is `hip` + the name both runtimes share;
// HIP's driver-level calls (hipMemCreate ...) live in the runtime under the same prefix.
#define VRB_GPU_API(name) hip##name
#define VRB_GPU_DRIVER(name) hip##name
#define VRB_GPU_DRIVER_NAME(name) "hip" #name

namespace vrb::gpu::vendor {

#if defined(__HIPCC__)
// Loads past the CU's vector L1: clang's non-temporal load, which the AMDGPU back end
// issues with the L1's miss-evict policy (glc slc on gfx90a, nt on gfx94x), so a grid
// that shares a working set out does not find each block's share in its own CU's L1.
// Done on the native vector types: the builtin does not take HIP's vector structs.
using NativeU32x2 = unsigned int __attribute__((ext_vector_type(2)));
using NativeU32x4 = unsigned int __attribute__((ext_vector_type(4)));

__device__ __forceinline__ uint32_t load_past_l1(const uint32_t *p)
{
    return __builtin_nontemporal_load(p);
}
__device__ __forceinline__ uint2 load_past_l1(const uint2 *p)
{
    const NativeU32x2 v = __builtin_nontemporal_load(reinterpret_cast<const NativeU32x2 *>(p));
    return make_uint2(v.x, v.y);
}
__device__ __forceinline__ uint4 load_past_l1(const uint4 *p)
{
    const NativeU32x4 v = __builtin_nontemporal_load(reinterpret_cast<const NativeU32x4 *>(p));
    return make_uint4(v.x, v.y, v.z, v.w);
}
// Plain stores: the CU's vector L1 is write-through, so stores reach L2 as they are; the
// non-temporal store would also mark the lines for L2's early eviction, hiding the L2
// plateau a write sweep must show.
template <typename T> __device__ __forceinline__ void store_past_l1(T *p, T v)
{
    *p = v;
}
#endif

// How the runtime says two devices are joined ("xGMI, 1 hop"), or "" where it does not
// say: ROCr knows the link type between two agents (HSA_AMD_LINK_INFO_TYPE_*), which
// the core's sysfs reading of an xGMI hive cannot tell per pair.
inline std::string link_between(int from, int to)
{
    uint32_t type = 0, hops = 0;
    if (hipExtGetLinkTypeAndHopCount(from, to, &type, &hops) != hipSuccess) {
        (void)hipGetLastError();
        return "";
    }
    const char *names[] = {"HyperTransport", "QPI", "PCIe", "InfiniBand", "xGMI"};
    const std::string name = type < std::size(names) ? names[type] : "link type " + std::to_string(type);
    return name + ", " + std::to_string(hops) + (hops == 1 ? " hop" : " hops");
}

inline constexpr const char *kApiName = "HIP";
inline constexpr const char *kBackendName = "hip";
inline constexpr const char *kVendorName = "AMD";
inline constexpr uint32_t kPciVendorId = 0x1002;
inline constexpr const char *kDescription = "AMD GPUs through HIP: kernels, copy engines and hipEvent timing";

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

// 10^7 * major + 10^5 * minor + patch.
inline std::string format_version(int v)
{
    return std::to_string(v / 10000000) + "." + std::to_string(v / 100000 % 100) + "." + std::to_string(v % 100000);
}

// The kernel driver's own version, which the runtime does not report: the file's
// first line, whole.
inline constexpr const char *kKernelDriverFile = "/sys/module/amdgpu/version";
inline constexpr const char *kKernelDriverMarker = nullptr;

inline std::string missing_driver_hint()
{
    if (access("/dev/kfd", F_OK) != 0)
        return "; there is no /dev/kfd, so the amdgpu kernel driver is not loaded or not visible here";
    return {};
}

// Multi-die parts have one L2 per die, which the runtime does not tell: by architecture.
inline uint32_t l2_shared_by(const char *architecture, uint32_t compute_units)
{
    return amd_l2_shared_by(architecture ? architecture : "", compute_units);
}

// Asks the driver to keep system-allocated (pageable) memory where it lies, in host
// memory, and mapped for `device`: with HMM (XNACK) the driver may otherwise move the
// pages a kernel touches into device memory, and a pageable figure would be device
// memory's.
inline hipError_t keep_in_host_memory(void *p, std::size_t bytes, int device)
{
    hipError_t e = hipMemAdvise(p, bytes, hipMemAdviseSetPreferredLocation, hipCpuDeviceId);
    if (e == hipSuccess) e = hipMemAdvise(p, bytes, hipMemAdviseSetAccessedBy, device);
    return e;
}

// A CU's vector L1, which HIP does not report, by architecture name (its compute
// capability numbers are not NVIDIA's).
inline L1Cache unit_l1(int, int, const char *architecture)
{
    return amd_l1(architecture ? architecture : "");
}

inline bool is_out_of_memory(hipError_t e)
{
    return e == hipErrorOutOfMemory;
}
inline bool is_unavailable(hipError_t e)
{
    return e == hipErrorNoDevice || e == hipErrorInsufficientDriver || e == hipErrorNotInitialized;
}
inline bool is_unsupported(hipError_t e)
{
    return e == hipErrorNotSupported;
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
    case hipErrorNotSupported: return "not supported by this runtime or device";
    default: return nullptr;
    }
}

// ---- the virtual memory API, looked up in the loaded runtime (ROCm before 5.1 lacks it)

using DriverResult = hipError_t;
using PhysicalHandle = hipMemGenericAllocationHandle_t;
using DeviceAddress = void *;
using AllocationProp = hipMemAllocationProp;
using AccessDesc = hipMemAccessDesc;
inline constexpr hipMemAllocationHandleType kPosixFd = hipMemHandleTypePosixFileDescriptor;
inline constexpr hipMemAllocationGranularity_flags kGranularityMinimum = hipMemAllocationGranularityMinimum;
#if defined(hipExternalMemoryDedicated)
inline constexpr unsigned kExternalDedicated = hipExternalMemoryDedicated;
#else
// HIP 5 has no name for the flag; ROCm 6 names it, with CUDA's value.
inline constexpr unsigned kExternalDedicated = 0x1;
#endif

inline hipError_t from_driver(hipError_t r)
{
    return r;
}

// A runtime function by name, or null where the loaded runtime lacks it: looked up in
// the very library that holds hipRuntimeGetVersion, which this module loaded with
// RTLD_LOCAL.
inline void *driver_symbol(const char *name)
{
    hipError_t (*known)(int *) = &hipRuntimeGetVersion;
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void *>(known), &info) || !info.dli_fname) return nullptr;
    void *library = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!library) return nullptr;
    void *fn = dlsym(library, name);
    dlclose(library); // only the reference taken here: the module's own keeps it loaded
    return fn;
}

inline AllocationProp allocation_prop(int device)
{
    AllocationProp prop{};
    prop.type = hipMemAllocationTypePinned;
    prop.requestedHandleType = kPosixFd;
    prop.location.type = hipMemLocationTypeDevice;
    prop.location.id = device;
    return prop;
}
inline AccessDesc read_write_access(int device)
{
    AccessDesc access{};
    access.location.type = hipMemLocationTypeDevice;
    access.location.id = device;
    access.flags = hipMemAccessFlagsProtReadWrite;
    return access;
}

// HIP 5's headers name only binary semaphore types, and their enum cannot hold the value
// ROCm later gives hipExternalSemaphoreHandleTypeTimelineSemaphoreFd (CUDA's, 9): it is
// written as the int the field is.
inline void set_timeline_semaphore_fd(hipExternalSemaphoreHandleDesc &desc)
{
    static_assert(sizeof desc.type == sizeof(int), "the handle type is an int in the runtime's ABI");
    const int timeline_fd = 9;
    std::memcpy(&desc.type, &timeline_fd, sizeof timeline_fd);
}
// HIP has no attribute that tells whether a device imports timeline semaphores (CUDA's
// cudaDevAttrTimelineSemaphoreInteropSupported has no HIP counterpart), and ROCm's
// version says nothing about this device and driver: the import itself is the question
// (refuses_semaphore_type), so nothing is refused beforehand.
inline std::string timeline_semaphore_gap(int)
{
    return {};
}
// The import's answer where the runtime cannot import a timeline semaphore: "not
// supported", or "invalid value" from a runtime whose enum lacks the type (everything
// else in the handle was checked before the runtime was asked).
inline bool refuses_semaphore_type(hipError_t e)
{
    return e == hipErrorNotSupported || e == hipErrorInvalidValue;
}

} // namespace vrb::gpu::vendor
