// The one place that knows whether this build speaks CUDA or HIP.
//
// Every other file of the backend, kernels included, uses only the names below, so the
// same sources compile with nvcc (CUDA) and with hipcc (HIP, VRB_GPU_HIP defined). The
// functions are written once: the two runtimes (and the two drivers' virtual memory
// APIs) name their calls alike after their prefix, so a vendor header gives the prefixes
// (VRB_GPU_API, VRB_GPU_DRIVER) and the handful of things that differ by more, instead
// of renaming one vendor's API into the other's.
//
// A test may define VRB_GPU_STANDIN and put its own gpu_vendor_standin.hpp on the
// include path: the host code then runs against a recording stand-in of the runtime.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

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

} // namespace vrb::gpu

#if defined(VRB_GPU_STANDIN)
#include "gpu_vendor_standin.hpp"
#elif defined(VRB_GPU_HIP)
#include "gpu_vendor_hip.hpp"
#else
#include "gpu_vendor_cuda.hpp"
#endif

namespace vrb::gpu {

using Error = VRB_GPU_API(Error_t);
using StreamHandle = VRB_GPU_API(Stream_t);
using EventHandle = VRB_GPU_API(Event_t);
inline constexpr Error kSuccess = VRB_GPU_API(Success);
using vendor::kApiName;
using vendor::kBackendName;
using vendor::kDescription;
using vendor::kKernelDriverFile;
using vendor::kKernelDriverMarker;
using vendor::kPciVendorId;
using vendor::kVendorName;

using vendor::format_version;
using vendor::is_out_of_memory;
using vendor::is_unavailable;
using vendor::is_unsupported;
using vendor::keep_in_host_memory;
using vendor::l2_shared_by;
using vendor::missing_driver_hint;
using vendor::plain_words;
using vendor::unit_l1;

inline const char *error_string(Error e)
{
    return VRB_GPU_API(GetErrorString)(e);
}
inline const char *error_name(Error e)
{
    return VRB_GPU_API(GetErrorName)(e);
}
inline Error take_last_error()
{
    return VRB_GPU_API(GetLastError)();
}

inline Error device_count(int *n)
{
    return VRB_GPU_API(GetDeviceCount)(n);
}
inline Error set_device(int d)
{
    return VRB_GPU_API(SetDevice)(d);
}
inline Error attribute(int *v, Attribute a, int d)
{
    return VRB_GPU_API(DeviceGetAttribute)(v, vendor::native(a), d);
}

namespace detail {
inline void copy_name(const char *from, char *out, std::size_t size)
{
    if (size == 0) return;
    std::size_t i = 0;
    for (; i + 1 < size && from[i]; ++i)
        out[i] = from[i];
    out[i] = '\0';
}
} // namespace detail

inline Error device_name(int d, char *out, std::size_t size)
{
    vendor::Properties prop{};
    const Error e = VRB_GPU_API(GetDeviceProperties)(&prop, d);
    if (e == kSuccess) detail::copy_name(prop.name, out, size);
    return e;
}
// The architecture's name where the runtime has one; empty where it has none.
inline Error device_architecture(int d, char *out, std::size_t size)
{
    vendor::Properties prop{};
    const Error e = VRB_GPU_API(GetDeviceProperties)(&prop, d);
    if (e == kSuccess) detail::copy_name(vendor::architecture(prop), out, size);
    return e;
}
inline Error device_uuid(int d, uint8_t (&out)[16])
{
    return vendor::uuid(d, out);
}
inline Error pci_bus_id(char *out, int size, int d)
{
    return VRB_GPU_API(DeviceGetPCIBusId)(out, size, d);
}
inline Error memory_info(std::size_t *free_bytes, std::size_t *total_bytes)
{
    return VRB_GPU_API(MemGetInfo)(free_bytes, total_bytes);
}
inline Error driver_version(int *v)
{
    return VRB_GPU_API(DriverGetVersion)(v);
}
inline Error runtime_version(int *v)
{
    return VRB_GPU_API(RuntimeGetVersion)(v);
}

inline Error malloc_device(void **p, std::size_t bytes)
{
    return VRB_GPU_API(Malloc)(p, bytes);
}
inline Error free_device(void *p)
{
    return VRB_GPU_API(Free)(p);
}
inline Error malloc_pinned(void **p, std::size_t bytes, bool mapped)
{
    return vendor::host_alloc(p, bytes, mapped);
}
inline Error free_pinned(void *p)
{
    return vendor::host_free(p);
}
inline Error mapped_device_pointer(void **device, void *host)
{
    return VRB_GPU_API(HostGetDevicePointer)(device, host, 0);
}

inline auto native(CopyKind k)
{
    switch (k) {
    case CopyKind::host_to_host: return VRB_GPU_API(MemcpyHostToHost);
    case CopyKind::host_to_device: return VRB_GPU_API(MemcpyHostToDevice);
    case CopyKind::device_to_host: return VRB_GPU_API(MemcpyDeviceToHost);
    case CopyKind::device_to_device: return VRB_GPU_API(MemcpyDeviceToDevice);
    }
    return VRB_GPU_API(MemcpyDefault);
}

inline Error copy_async(void *dst, const void *src, std::size_t bytes, CopyKind k, StreamHandle s)
{
    return VRB_GPU_API(MemcpyAsync)(dst, src, bytes, native(k), s);
}
inline Error memset_async(void *dst, int value, std::size_t bytes, StreamHandle s)
{
    return VRB_GPU_API(MemsetAsync)(dst, value, bytes, s);
}

inline Error stream_create(StreamHandle *s)
{
    return VRB_GPU_API(StreamCreateWithFlags)(s, VRB_GPU_API(StreamNonBlocking));
}
inline Error stream_destroy(StreamHandle s)
{
    return VRB_GPU_API(StreamDestroy)(s);
}
inline Error stream_synchronize(StreamHandle s)
{
    return VRB_GPU_API(StreamSynchronize)(s);
}
inline Error stream_wait(StreamHandle s, EventHandle e)
{
    return VRB_GPU_API(StreamWaitEvent)(s, e, 0);
}

inline Error event_create(EventHandle *e)
{
    return VRB_GPU_API(EventCreateWithFlags)(e, VRB_GPU_API(EventDefault));
}
inline Error event_destroy(EventHandle e)
{
    return VRB_GPU_API(EventDestroy)(e);
}
inline Error event_record(EventHandle e, StreamHandle s)
{
    return VRB_GPU_API(EventRecord)(e, s);
}
inline Error event_synchronize(EventHandle e)
{
    return VRB_GPU_API(EventSynchronize)(e);
}
inline Error event_elapsed_ms(float *ms, EventHandle start, EventHandle stop)
{
    return VRB_GPU_API(EventElapsedTime)(ms, start, stop);
}

// ---- peers: another device of the same runtime

// Whether `device`'s kernels can reach `peer`'s memory once access is enabled.
inline Error can_access_peer(int *can, int device, int peer)
{
    return VRB_GPU_API(DeviceCanAccessPeer)(can, device, peer);
}
// For the current device. A second call answers kPeerAccessAlreadyEnabled.
inline Error enable_peer_access(int peer)
{
    return VRB_GPU_API(DeviceEnablePeerAccess)(peer, 0);
}
inline Error disable_peer_access(int peer)
{
    return VRB_GPU_API(DeviceDisablePeerAccess)(peer);
}
inline constexpr Error kPeerAccessAlreadyEnabled = VRB_GPU_API(ErrorPeerAccessAlreadyEnabled);
// Between the memory of two devices: direct where peer access is on, else staged
// through host memory by the runtime.
inline Error copy_peer_async(void *dst, int dst_device, const void *src, int src_device, std::size_t bytes,
                             StreamHandle s)
{
    return VRB_GPU_API(MemcpyPeerAsync)(dst, dst_device, src, src_device, bytes, s);
}

// ---- memory another API made: imported by fd, or host memory registered in place

using ExternalMemoryHandle = VRB_GPU_API(ExternalMemory_t);

// Takes `fd` on success (the driver closes it when the memory is destroyed).
inline Error import_external_fd(ExternalMemoryHandle *memory, int fd, std::size_t allocation_bytes, bool dedicated)
{
    VRB_GPU_API(ExternalMemoryHandleDesc) desc{};
    desc.type = VRB_GPU_API(ExternalMemoryHandleTypeOpaqueFd);
    desc.handle.fd = fd;
    desc.size = allocation_bytes;
    desc.flags = dedicated ? vendor::kExternalDedicated : 0u;
    return VRB_GPU_API(ImportExternalMemory)(memory, &desc);
}
// The first `bytes` of imported memory as a device pointer, freed with free_device.
inline Error map_external(void **p, ExternalMemoryHandle memory, std::size_t bytes)
{
    VRB_GPU_API(ExternalMemoryBufferDesc) desc{};
    desc.offset = 0;
    desc.size = bytes;
    return VRB_GPU_API(ExternalMemoryGetMappedBuffer)(p, memory, &desc);
}
inline Error destroy_external(ExternalMemoryHandle memory)
{
    return VRB_GPU_API(DestroyExternalMemory)(memory);
}
inline Error host_register(void *p, std::size_t bytes)
{
    return VRB_GPU_API(HostRegister)(p, bytes, VRB_GPU_API(HostRegisterPortable) | VRB_GPU_API(HostRegisterMapped));
}
inline Error host_unregister(void *p)
{
    return VRB_GPU_API(HostUnregister)(p);
}

// ---- timeline semaphores another API made, imported by fd (the runtimes export none)

using ExternalSemaphoreHandle = VRB_GPU_API(ExternalSemaphore_t);
// "" where the device may import timeline semaphores, else why not, as the device
// answers (CUDA: a device attribute; HIP has none, and its import answers instead).
using vendor::timeline_semaphore_gap;
// Whether an import's error is the runtime refusing timeline semaphores on this device.
using vendor::refuses_semaphore_type;

// Takes `fd` on success (the driver closes it when the semaphore is destroyed).
inline Error import_timeline_semaphore_fd(ExternalSemaphoreHandle *semaphore, int fd)
{
    VRB_GPU_API(ExternalSemaphoreHandleDesc) desc{};
    vendor::set_timeline_semaphore_fd(desc);
    desc.handle.fd = fd;
    return VRB_GPU_API(ImportExternalSemaphore)(semaphore, &desc);
}
// Enqueued on `stream`: sets the semaphore to `value` after the stream's earlier work.
inline Error signal_semaphore_async(ExternalSemaphoreHandle semaphore, uint64_t value, StreamHandle stream)
{
    VRB_GPU_API(ExternalSemaphoreSignalParams) params{};
    params.params.fence.value = value;
    return VRB_GPU_API(SignalExternalSemaphoresAsync)(&semaphore, &params, 1, stream);
}
// Enqueued on `stream`: the stream's later work waits until the semaphore holds `value`.
inline Error wait_semaphore_async(ExternalSemaphoreHandle semaphore, uint64_t value, StreamHandle stream)
{
    VRB_GPU_API(ExternalSemaphoreWaitParams) params{};
    params.params.fence.value = value;
    return VRB_GPU_API(WaitExternalSemaphoresAsync)(&semaphore, &params, 1, stream);
}
inline Error destroy_external_semaphore(ExternalSemaphoreHandle semaphore)
{
    return VRB_GPU_API(DestroyExternalSemaphore)(semaphore);
}
// Whether the event's work is done: kSuccess, or the runtime's "not ready".
inline Error event_query(EventHandle e)
{
    return VRB_GPU_API(EventQuery)(e);
}
inline constexpr Error kNotReady = VRB_GPU_API(ErrorNotReady);

// ---- exportable device memory: the driver's virtual memory API, looked up at run time

using PhysicalHandle = vendor::PhysicalHandle;

// The calls, each null until found; `missing` names the first the driver lacks.
struct VirtualMemoryCalls {
    decltype(&VRB_GPU_DRIVER(MemGetAllocationGranularity)) granularity = nullptr;
    decltype(&VRB_GPU_DRIVER(MemCreate)) create = nullptr;
    decltype(&VRB_GPU_DRIVER(MemRelease)) release = nullptr;
    decltype(&VRB_GPU_DRIVER(MemAddressReserve)) reserve = nullptr;
    decltype(&VRB_GPU_DRIVER(MemAddressFree)) address_free = nullptr;
    decltype(&VRB_GPU_DRIVER(MemMap)) map = nullptr;
    decltype(&VRB_GPU_DRIVER(MemUnmap)) unmap = nullptr;
    decltype(&VRB_GPU_DRIVER(MemSetAccess)) set_access = nullptr;
    decltype(&VRB_GPU_DRIVER(MemExportToShareableHandle)) export_handle = nullptr;
    decltype(&VRB_GPU_DRIVER(MemImportFromShareableHandle)) import_handle = nullptr;
    std::string missing;

    bool complete() const { return missing.empty(); }
};

inline VirtualMemoryCalls find_virtual_memory_calls()
{
    VirtualMemoryCalls calls;
    auto find = [&](auto &fn, const char *name) {
        if (!calls.missing.empty()) return;
        if (void *found = vendor::driver_symbol(name))
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(found);
        else
            calls.missing = name;
    };
    find(calls.granularity, VRB_GPU_DRIVER_NAME(MemGetAllocationGranularity));
    find(calls.create, VRB_GPU_DRIVER_NAME(MemCreate));
    find(calls.release, VRB_GPU_DRIVER_NAME(MemRelease));
    find(calls.reserve, VRB_GPU_DRIVER_NAME(MemAddressReserve));
    find(calls.address_free, VRB_GPU_DRIVER_NAME(MemAddressFree));
    find(calls.map, VRB_GPU_DRIVER_NAME(MemMap));
    find(calls.unmap, VRB_GPU_DRIVER_NAME(MemUnmap));
    find(calls.set_access, VRB_GPU_DRIVER_NAME(MemSetAccess));
    find(calls.export_handle, VRB_GPU_DRIVER_NAME(MemExportToShareableHandle));
    find(calls.import_handle, VRB_GPU_DRIVER_NAME(MemImportFromShareableHandle));
    return calls;
}

namespace detail {
// One driver gives device addresses as integers, the other as pointers.
template <typename Address> void *as_pointer(Address a)
{
    if constexpr (std::is_pointer_v<Address>)
        return a;
    else
        return reinterpret_cast<void *>(static_cast<uintptr_t>(a));
}
template <typename Address> Address as_address(void *p)
{
    if constexpr (std::is_pointer_v<Address>)
        return p;
    else
        return static_cast<Address>(reinterpret_cast<uintptr_t>(p));
}
} // namespace detail

inline Error vm_granularity(const VirtualMemoryCalls &vm, std::size_t *bytes, int device)
{
    const vendor::AllocationProp prop = vendor::allocation_prop(device);
    return vendor::from_driver(vm.granularity(bytes, &prop, vendor::kGranularityMinimum));
}
inline Error vm_create(const VirtualMemoryCalls &vm, PhysicalHandle *handle, std::size_t bytes, int device)
{
    const vendor::AllocationProp prop = vendor::allocation_prop(device);
    return vendor::from_driver(vm.create(handle, bytes, &prop, 0));
}
inline Error vm_release(const VirtualMemoryCalls &vm, PhysicalHandle handle)
{
    return vendor::from_driver(vm.release(handle));
}
inline Error vm_reserve(const VirtualMemoryCalls &vm, void **base, std::size_t bytes, std::size_t alignment)
{
    vendor::DeviceAddress address{};
    const Error e = vendor::from_driver(vm.reserve(&address, bytes, alignment, vendor::DeviceAddress{}, 0));
    *base = detail::as_pointer(address);
    return e;
}
inline Error vm_address_free(const VirtualMemoryCalls &vm, void *base, std::size_t bytes)
{
    return vendor::from_driver(vm.address_free(detail::as_address<vendor::DeviceAddress>(base), bytes));
}
inline Error vm_map(const VirtualMemoryCalls &vm, void *base, std::size_t bytes, PhysicalHandle handle)
{
    return vendor::from_driver(vm.map(detail::as_address<vendor::DeviceAddress>(base), bytes, 0, handle, 0));
}
inline Error vm_unmap(const VirtualMemoryCalls &vm, void *base, std::size_t bytes)
{
    return vendor::from_driver(vm.unmap(detail::as_address<vendor::DeviceAddress>(base), bytes));
}
inline Error vm_set_access(const VirtualMemoryCalls &vm, void *base, std::size_t bytes, int device)
{
    const vendor::AccessDesc access = vendor::read_write_access(device);
    return vendor::from_driver(vm.set_access(detail::as_address<vendor::DeviceAddress>(base), bytes, &access, 1));
}
// A new fd the caller owns.
inline Error vm_export_fd(const VirtualMemoryCalls &vm, int *fd, PhysicalHandle handle)
{
    return vendor::from_driver(vm.export_handle(fd, handle, vendor::kPosixFd, 0));
}
// The fd stays the caller's.
inline Error vm_import_fd(const VirtualMemoryCalls &vm, PhysicalHandle *handle, int fd)
{
    return vendor::from_driver(
        vm.import_handle(handle, reinterpret_cast<void *>(static_cast<intptr_t>(fd)), vendor::kPosixFd));
}

#if defined(__CUDACC__) || defined(__HIPCC__)
template <typename Kernel> Error max_active_blocks(int *blocks, Kernel kernel, int threads, std::size_t shared_bytes)
{
    return VRB_GPU_API(OccupancyMaxActiveBlocksPerMultiprocessor)(blocks, reinterpret_cast<const void *>(kernel),
                                                                  threads, shared_bytes);
}
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

#undef VRB_GPU_API
#undef VRB_GPU_DRIVER
#undef VRB_GPU_DRIVER_NAME

#define GPU_CHECK(call) ::vrb::gpu::check((call), #call)
