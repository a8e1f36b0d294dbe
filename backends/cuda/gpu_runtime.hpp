// The one place that knows whether this build speaks CUDA or HIP.
//
// Every other file of the backend, kernels included, uses only the names below, so the
// same sources compile with nvcc (CUDA) and with hipcc (HIP, VRB_GPU_HIP defined). The
// vocabulary is a set of small functions over the few runtime calls the backend needs,
// not a renaming of one vendor's API into the other's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#if defined(VRB_GPU_HIP)
#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#else
#include <hip/hip_runtime_api.h>
#endif
#else
#if defined(__CUDACC__)
#include <cuda_runtime.h>
#else
#include <cuda_runtime_api.h>
#endif
#endif

namespace vrb::gpu {

// Device attributes the backend reads; each maps onto the runtime's own enumerator.
enum class Attribute {
    warp_size,
    core_clock_khz,
    memory_clock_khz, // as the runtime reports it: half the per-pin data rate
    memory_bus_width_bits,
    l2_cache_bytes,
    compute_units,
    integrated,
    can_map_host_memory,
    ecc_enabled,
    pageable_memory_access,
    max_threads_per_compute_unit,
    shared_memory_per_compute_unit,
    compute_capability_major,
    compute_capability_minor,
    pci_domain,
    pci_bus,
    pci_device,
};

enum class CopyKind { host_to_host, host_to_device, device_to_host, device_to_device };

#if defined(VRB_GPU_HIP)

using Error = hipError_t;
using StreamHandle = hipStream_t;
using EventHandle = hipEvent_t;
inline constexpr Error kSuccess = hipSuccess;
inline constexpr const char *kApiName = "HIP";
inline constexpr const char *kBackendName = "hip";
inline constexpr const char *kVendorName = "AMD";
inline constexpr uint32_t kPciVendorId = 0x1002;

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

inline hipMemcpyKind native(CopyKind k)
{
    switch (k) {
    case CopyKind::host_to_host: return hipMemcpyHostToHost;
    case CopyKind::host_to_device: return hipMemcpyHostToDevice;
    case CopyKind::device_to_host: return hipMemcpyDeviceToHost;
    case CopyKind::device_to_device: return hipMemcpyDeviceToDevice;
    }
    return hipMemcpyDefault;
}

inline const char *error_string(Error e)
{
    return hipGetErrorString(e);
}
inline const char *error_name(Error e)
{
    return hipGetErrorName(e);
}
inline bool is_out_of_memory(Error e)
{
    return e == hipErrorOutOfMemory;
}
inline const char *plain_words(Error e)
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
inline bool is_unavailable(Error e)
{
    return e == hipErrorNoDevice || e == hipErrorInsufficientDriver || e == hipErrorNotInitialized;
}
inline Error take_last_error()
{
    return hipGetLastError();
}

inline Error device_count(int *n)
{
    return hipGetDeviceCount(n);
}
inline Error set_device(int d)
{
    return hipSetDevice(d);
}
inline Error attribute(int *v, Attribute a, int d)
{
    return hipDeviceGetAttribute(v, native(a), d);
}
inline Error device_name(int d, char *out, std::size_t size)
{
    hipDeviceProp_t prop{};
    const Error e = hipGetDeviceProperties(&prop, d);
    if (e != hipSuccess) return e;
    std::size_t i = 0;
    for (; i + 1 < size && prop.name[i] && i + 1 < sizeof prop.name; ++i)
        out[i] = prop.name[i];
    out[i] = '\0';
    return e;
}
// The architecture name (gfx90a...) where the runtime has one.
inline Error device_architecture(int d, char *out, std::size_t size)
{
    hipDeviceProp_t prop{};
    const Error e = hipGetDeviceProperties(&prop, d);
    if (e != hipSuccess) return e;
    std::size_t i = 0;
    for (; i + 1 < size && prop.gcnArchName[i] && i + 1 < sizeof prop.gcnArchName; ++i)
        out[i] = prop.gcnArchName[i];
    out[i] = '\0';
    return e;
}
inline Error device_uuid(int d, uint8_t (&out)[16])
{
    hipDevice_t device{};
    Error e = hipDeviceGet(&device, d);
    if (e != hipSuccess) return e;
    hipUUID uuid{};
    e = hipDeviceGetUuid(&uuid, device);
    if (e != hipSuccess) return e;
    for (int i = 0; i < 16; ++i)
        out[i] = static_cast<uint8_t>(uuid.bytes[i]);
    return e;
}
inline Error pci_bus_id(char *out, int size, int d)
{
    return hipDeviceGetPCIBusId(out, size, d);
}
inline Error memory_info(std::size_t *free_bytes, std::size_t *total_bytes)
{
    return hipMemGetInfo(free_bytes, total_bytes);
}
inline Error driver_version(int *v)
{
    return hipDriverGetVersion(v);
}
inline Error runtime_version(int *v)
{
    return hipRuntimeGetVersion(v);
}

inline Error malloc_device(void **p, std::size_t bytes)
{
    return hipMalloc(p, bytes);
}
inline Error free_device(void *p)
{
    return hipFree(p);
}
inline Error malloc_pinned(void **p, std::size_t bytes, bool mapped)
{
    return hipHostMalloc(p, bytes, hipHostMallocPortable | (mapped ? hipHostMallocMapped : 0u));
}
inline Error free_pinned(void *p)
{
    return hipHostFree(p);
}
inline Error mapped_device_pointer(void **device, void *host)
{
    return hipHostGetDevicePointer(device, host, 0);
}

inline Error copy(void *dst, const void *src, std::size_t bytes, CopyKind k)
{
    return hipMemcpy(dst, src, bytes, native(k));
}
inline Error copy_async(void *dst, const void *src, std::size_t bytes, CopyKind k, StreamHandle s)
{
    return hipMemcpyAsync(dst, src, bytes, native(k), s);
}
inline Error memset_async(void *dst, int value, std::size_t bytes, StreamHandle s)
{
    return hipMemsetAsync(dst, value, bytes, s);
}

inline Error stream_create(StreamHandle *s)
{
    return hipStreamCreateWithFlags(s, hipStreamNonBlocking);
}
inline Error stream_destroy(StreamHandle s)
{
    return hipStreamDestroy(s);
}
inline Error stream_synchronize(StreamHandle s)
{
    return hipStreamSynchronize(s);
}
inline Error stream_wait(StreamHandle s, EventHandle e)
{
    return hipStreamWaitEvent(s, e, 0);
}

inline Error event_create(EventHandle *e)
{
    return hipEventCreateWithFlags(e, hipEventDefault);
}
inline Error event_destroy(EventHandle e)
{
    return hipEventDestroy(e);
}
inline Error event_record(EventHandle e, StreamHandle s)
{
    return hipEventRecord(e, s);
}
inline Error event_synchronize(EventHandle e)
{
    return hipEventSynchronize(e);
}
inline Error event_elapsed_ms(float *ms, EventHandle start, EventHandle stop)
{
    return hipEventElapsedTime(ms, start, stop);
}

#if defined(__HIPCC__)
template <typename Kernel> Error max_active_blocks(int *blocks, Kernel kernel, int threads, std::size_t shared_bytes)
{
    return hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void *>(kernel), threads,
                                                        shared_bytes);
}
#endif

#else // CUDA

using Error = cudaError_t;
using StreamHandle = cudaStream_t;
using EventHandle = cudaEvent_t;
inline constexpr Error kSuccess = cudaSuccess;
inline constexpr const char *kApiName = "CUDA";
inline constexpr const char *kBackendName = "cuda";
inline constexpr const char *kVendorName = "NVIDIA";
inline constexpr uint32_t kPciVendorId = 0x10de;

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

inline cudaMemcpyKind native(CopyKind k)
{
    switch (k) {
    case CopyKind::host_to_host: return cudaMemcpyHostToHost;
    case CopyKind::host_to_device: return cudaMemcpyHostToDevice;
    case CopyKind::device_to_host: return cudaMemcpyDeviceToHost;
    case CopyKind::device_to_device: return cudaMemcpyDeviceToDevice;
    }
    return cudaMemcpyDefault;
}

inline const char *error_string(Error e)
{
    return cudaGetErrorString(e);
}
inline const char *error_name(Error e)
{
    return cudaGetErrorName(e);
}
inline bool is_out_of_memory(Error e)
{
    return e == cudaErrorMemoryAllocation;
}
inline const char *plain_words(Error)
{
    return nullptr;
} // CUDA's own strings are words
inline bool is_unavailable(Error e)
{
    return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorInitializationError ||
           e == cudaErrorSystemDriverMismatch || e == cudaErrorCompatNotSupportedOnDevice ||
           e == cudaErrorDevicesUnavailable;
}
inline Error take_last_error()
{
    return cudaGetLastError();
}

inline Error device_count(int *n)
{
    return cudaGetDeviceCount(n);
}
inline Error set_device(int d)
{
    return cudaSetDevice(d);
}
inline Error attribute(int *v, Attribute a, int d)
{
    return cudaDeviceGetAttribute(v, native(a), d);
}
inline Error device_name(int d, char *out, std::size_t size)
{
    cudaDeviceProp prop{};
    const Error e = cudaGetDeviceProperties(&prop, d);
    if (e != cudaSuccess) return e;
    std::size_t i = 0;
    for (; i + 1 < size && prop.name[i] && i + 1 < sizeof prop.name; ++i)
        out[i] = prop.name[i];
    out[i] = '\0';
    return e;
}
// CUDA names architectures by compute capability, which the attributes carry.
inline Error device_architecture(int, char *out, std::size_t size)
{
    if (size > 0) out[0] = '\0';
    return cudaSuccess;
}
inline Error device_uuid(int d, uint8_t (&out)[16])
{
    cudaDeviceProp prop{};
    const Error e = cudaGetDeviceProperties(&prop, d);
    if (e != cudaSuccess) return e;
    for (int i = 0; i < 16; ++i)
        out[i] = static_cast<uint8_t>(prop.uuid.bytes[i]);
    return e;
}
inline Error pci_bus_id(char *out, int size, int d)
{
    return cudaDeviceGetPCIBusId(out, size, d);
}
inline Error memory_info(std::size_t *free_bytes, std::size_t *total_bytes)
{
    return cudaMemGetInfo(free_bytes, total_bytes);
}
inline Error driver_version(int *v)
{
    return cudaDriverGetVersion(v);
}
inline Error runtime_version(int *v)
{
    return cudaRuntimeGetVersion(v);
}

inline Error malloc_device(void **p, std::size_t bytes)
{
    return cudaMalloc(p, bytes);
}
inline Error free_device(void *p)
{
    return cudaFree(p);
}
inline Error malloc_pinned(void **p, std::size_t bytes, bool mapped)
{
    return cudaHostAlloc(p, bytes, cudaHostAllocPortable | (mapped ? cudaHostAllocMapped : 0u));
}
inline Error free_pinned(void *p)
{
    return cudaFreeHost(p);
}
inline Error mapped_device_pointer(void **device, void *host)
{
    return cudaHostGetDevicePointer(device, host, 0);
}

inline Error copy(void *dst, const void *src, std::size_t bytes, CopyKind k)
{
    return cudaMemcpy(dst, src, bytes, native(k));
}
inline Error copy_async(void *dst, const void *src, std::size_t bytes, CopyKind k, StreamHandle s)
{
    return cudaMemcpyAsync(dst, src, bytes, native(k), s);
}
inline Error memset_async(void *dst, int value, std::size_t bytes, StreamHandle s)
{
    return cudaMemsetAsync(dst, value, bytes, s);
}

inline Error stream_create(StreamHandle *s)
{
    return cudaStreamCreateWithFlags(s, cudaStreamNonBlocking);
}
inline Error stream_destroy(StreamHandle s)
{
    return cudaStreamDestroy(s);
}
inline Error stream_synchronize(StreamHandle s)
{
    return cudaStreamSynchronize(s);
}
inline Error stream_wait(StreamHandle s, EventHandle e)
{
    return cudaStreamWaitEvent(s, e, 0);
}

inline Error event_create(EventHandle *e)
{
    return cudaEventCreateWithFlags(e, cudaEventDefault);
}
inline Error event_destroy(EventHandle e)
{
    return cudaEventDestroy(e);
}
inline Error event_record(EventHandle e, StreamHandle s)
{
    return cudaEventRecord(e, s);
}
inline Error event_synchronize(EventHandle e)
{
    return cudaEventSynchronize(e);
}
inline Error event_elapsed_ms(float *ms, EventHandle start, EventHandle stop)
{
    return cudaEventElapsedTime(ms, start, stop);
}

#if defined(__CUDACC__)
template <typename Kernel> Error max_active_blocks(int *blocks, Kernel kernel, int threads, std::size_t shared_bytes)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void *>(kernel), threads,
                                                         shared_bytes);
}
#endif

#endif

// Throws the backend's failure for a runtime error: out of memory, unavailable or a
// device error, with the runtime's own words. Defined in gpu_errors.cpp so kernel
// files need not see the plugin SDK.
[[noreturn]] void raise_error(Error error, const char *what);

// The runtime's description of an error, with its name where that adds anything.
std::string describe_error(Error error);

inline void check(Error error, const char *what)
{
    if (error != kSuccess) raise_error(error, what);
}

// Reads an attribute, or returns `fallback` when the runtime cannot tell it.
inline int attribute_or(Attribute a, int device, int fallback)
{
    int value = 0;
    if (attribute(&value, a, device) != kSuccess) {
        (void)take_last_error();
        return fallback;
    }
    return value;
}

} // namespace vrb::gpu

#define GPU_CHECK(call) ::vrb::gpu::check((call), #call)
