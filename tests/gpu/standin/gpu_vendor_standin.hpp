// A recording stand-in for the GPU runtime, in the shape of gpu_vendor_cuda.hpp: the
// backend's host code compiled against it runs without a driver, and every call it
// makes is kept in a journal (standin_journal.hpp) that tests read back.
#pragma once

#include "l1_caches.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

#define VRB_GPU_API(name) standin##name
#define VRB_GPU_DRIVER(name) standinDrv##name
#define VRB_GPU_DRIVER_NAME(name) "standinDrv" #name

enum standinError_t : int {
    standinSuccess = 0,
    standinErrorInvalidValue,
    standinErrorMemoryAllocation,
    standinErrorNoDevice,
    standinErrorNotSupported,
    standinErrorNotReady,
    standinErrorPeerAccessAlreadyEnabled,
};
enum standinMemcpyKind : int {
    standinMemcpyHostToHost,
    standinMemcpyHostToDevice,
    standinMemcpyDeviceToHost,
    standinMemcpyDeviceToDevice,
    standinMemcpyDefault,
};
enum standinDeviceAttr : int { standinDevAttrAny };
inline constexpr unsigned standinStreamNonBlocking = 1;
inline constexpr unsigned standinEventDefault = 0;

struct standinStream;
struct standinEvent;
using standinStream_t = standinStream *;
using standinEvent_t = standinEvent *;

struct standinDeviceProp {
    char name[64];
};

// Memory another API made, in the runtime's shape.
struct standinExternalMemory;
using standinExternalMemory_t = standinExternalMemory *;
enum standinExternalMemoryHandleType : int { standinExternalMemoryHandleTypeOpaqueFd = 1 };
struct standinExternalMemoryHandleDesc {
    standinExternalMemoryHandleType type;
    union {
        int fd;
    } handle;
    unsigned long long size;
    unsigned flags;
};
struct standinExternalMemoryBufferDesc {
    unsigned long long offset;
    unsigned long long size;
    unsigned flags;
};
// Semaphores another API made, in the runtime's shape.
struct standinExternalSemaphore;
using standinExternalSemaphore_t = standinExternalSemaphore *;
enum standinExternalSemaphoreHandleType : int {
    standinExternalSemaphoreHandleTypeOpaqueFd = 1,
    standinExternalSemaphoreHandleTypeTimelineSemaphoreFd = 9
};
struct standinExternalSemaphoreHandleDesc {
    standinExternalSemaphoreHandleType type;
    union {
        int fd;
    } handle;
    unsigned flags;
};
struct standinExternalSemaphoreSignalParams {
    struct {
        struct {
            unsigned long long value;
        } fence;
    } params;
    unsigned flags;
};
struct standinExternalSemaphoreWaitParams {
    struct {
        struct {
            unsigned long long value;
        } fence;
    } params;
    unsigned flags;
};
inline constexpr unsigned standinHostRegisterPortable = 1;
inline constexpr unsigned standinHostRegisterMapped = 2;

// The driver's virtual memory API, in CUDA's shape (integer addresses and handles).
using standinDrvResult = int;
using standinDrvHandle = unsigned long long;
using standinDrvAddress = unsigned long long;
struct standinDrvLocation {
    int type;
    int id;
};
struct standinDrvAllocationProp {
    int type;
    int requestedHandleTypes;
    standinDrvLocation location;
};
struct standinDrvAccessDesc {
    standinDrvLocation location;
    int flags;
};

const char *standinGetErrorString(standinError_t);
const char *standinGetErrorName(standinError_t);
standinError_t standinGetLastError();
standinError_t standinGetDeviceCount(int *);
standinError_t standinSetDevice(int);
standinError_t standinDeviceGetAttribute(int *, standinDeviceAttr, int);
standinError_t standinGetDeviceProperties(standinDeviceProp *, int);
standinError_t standinDeviceGetPCIBusId(char *, int, int);
standinError_t standinMemGetInfo(std::size_t *, std::size_t *);
standinError_t standinDriverGetVersion(int *);
standinError_t standinRuntimeGetVersion(int *);
standinError_t standinMalloc(void **, std::size_t);
standinError_t standinFree(void *);
standinError_t standinHostAlloc(void **, std::size_t);
standinError_t standinFreeHost(void *);
standinError_t standinHostGetDevicePointer(void **, void *, unsigned);
standinError_t standinMemcpy(void *, const void *, std::size_t, standinMemcpyKind);
standinError_t standinMemcpyAsync(void *, const void *, std::size_t, standinMemcpyKind, standinStream_t);
standinError_t standinMemsetAsync(void *, int, std::size_t, standinStream_t);
standinError_t standinStreamCreateWithFlags(standinStream_t *, unsigned);
standinError_t standinStreamDestroy(standinStream_t);
standinError_t standinStreamSynchronize(standinStream_t);
standinError_t standinStreamWaitEvent(standinStream_t, standinEvent_t, unsigned);
standinError_t standinEventCreateWithFlags(standinEvent_t *, unsigned);
standinError_t standinEventDestroy(standinEvent_t);
standinError_t standinEventRecord(standinEvent_t, standinStream_t);
standinError_t standinEventSynchronize(standinEvent_t);
standinError_t standinEventElapsedTime(float *, standinEvent_t, standinEvent_t);
standinError_t standinImportExternalMemory(standinExternalMemory_t *, const standinExternalMemoryHandleDesc *);
standinError_t standinExternalMemoryGetMappedBuffer(void **, standinExternalMemory_t,
                                                    const standinExternalMemoryBufferDesc *);
standinError_t standinDestroyExternalMemory(standinExternalMemory_t);
standinError_t standinImportExternalSemaphore(standinExternalSemaphore_t *, const standinExternalSemaphoreHandleDesc *);
standinError_t standinSignalExternalSemaphoresAsync(const standinExternalSemaphore_t *,
                                                    const standinExternalSemaphoreSignalParams *, unsigned,
                                                    standinStream_t);
standinError_t standinWaitExternalSemaphoresAsync(const standinExternalSemaphore_t *,
                                                  const standinExternalSemaphoreWaitParams *, unsigned,
                                                  standinStream_t);
standinError_t standinDestroyExternalSemaphore(standinExternalSemaphore_t);
standinError_t standinEventQuery(standinEvent_t);
standinError_t standinDeviceCanAccessPeer(int *, int, int);
standinError_t standinDeviceEnablePeerAccess(int, unsigned);
standinError_t standinDeviceDisablePeerAccess(int);
standinError_t standinMemcpyPeerAsync(void *, int, const void *, int, std::size_t, standinStream_t);
// What the stand-in answers when asked whether it imports timeline semaphores: "" (it
// does) unless a test said otherwise (standin_journal.hpp).
const char *standinTimelineSemaphoreGap();
// The link the stand-in's runtime names between any two of its devices ("": none).
const char *standinLinkBetween(int, int);
standinError_t standinHostRegister(void *, std::size_t, unsigned);
standinError_t standinHostUnregister(void *);
// cudaMemAdvise's preferred location (host) and accessed-by (device), as one call.
standinError_t standinMemAdviseHostResident(void *, std::size_t, int);

standinDrvResult standinDrvMemGetAllocationGranularity(std::size_t *, const standinDrvAllocationProp *, int);
standinDrvResult standinDrvMemCreate(standinDrvHandle *, std::size_t, const standinDrvAllocationProp *,
                                     unsigned long long);
standinDrvResult standinDrvMemRelease(standinDrvHandle);
standinDrvResult standinDrvMemAddressReserve(standinDrvAddress *, std::size_t, std::size_t, standinDrvAddress,
                                             unsigned long long);
standinDrvResult standinDrvMemAddressFree(standinDrvAddress, std::size_t);
standinDrvResult standinDrvMemMap(standinDrvAddress, std::size_t, std::size_t, standinDrvHandle, unsigned long long);
standinDrvResult standinDrvMemUnmap(standinDrvAddress, std::size_t);
standinDrvResult standinDrvMemSetAccess(standinDrvAddress, std::size_t, const standinDrvAccessDesc *, std::size_t);
standinDrvResult standinDrvMemExportToShareableHandle(void *, standinDrvHandle, int, unsigned long long);
standinDrvResult standinDrvMemImportFromShareableHandle(standinDrvHandle *, void *, int);

standinError_t standinDeviceUuid(int, uint8_t (&)[16]);

// The stand-in's driver entry points by name, as a runtime hands them out.
void *standinDriverSymbol(const char *name);

namespace vrb::gpu::vendor {

inline constexpr const char *kApiName = "stand-in";
inline constexpr const char *kBackendName = "standin";
inline constexpr const char *kVendorName = "nobody";
inline constexpr uint32_t kPciVendorId = 0;
inline constexpr const char *kDescription = "the recording stand-in of the GPU runtime";
// Not constant, so a test can hand the module a banner file of its own.
inline const char *kKernelDriverFile = "/nonexistent/standin-driver-version";
inline const char *kKernelDriverMarker = nullptr;
inline uint32_t l2_shared_by(const char *, uint32_t compute_units)
{
    return compute_units;
}

inline standinError_t keep_in_host_memory(void *p, std::size_t bytes, int device)
{
    return standinMemAdviseHostResident(p, bytes, device);
}

// The stand-in's SMs have the L1 of compute capability 9.0, so describing a device
// goes through the same steps as on an H200.
inline L1Cache unit_l1(int, int, const char *)
{
    return nvidia_l1(9, 0);
}

using Properties = standinDeviceProp;

// The stand-in answers every attribute alike: none of its tests turns on one.
inline standinDeviceAttr native(Attribute)
{
    return standinDevAttrAny;
}
inline standinError_t host_alloc(void **p, std::size_t bytes, bool)
{
    return standinHostAlloc(p, bytes);
}
inline standinError_t host_free(void *p)
{
    return standinFreeHost(p);
}
inline standinError_t uuid(int d, uint8_t (&out)[16])
{
    return standinDeviceUuid(d, out);
}
inline const char *architecture(const Properties &)
{
    return "";
}
inline bool is_out_of_memory(standinError_t e)
{
    return e == standinErrorMemoryAllocation;
}
inline bool is_unavailable(standinError_t e)
{
    return e == standinErrorNoDevice;
}
inline bool is_unsupported(standinError_t e)
{
    return e == standinErrorNotSupported;
}
inline const char *plain_words(standinError_t)
{
    return nullptr;
}
inline std::string format_version(int v)
{
    return std::to_string(v);
}
inline std::string missing_driver_hint()
{
    return {};
}

using DriverResult = standinDrvResult;
using PhysicalHandle = standinDrvHandle;
using DeviceAddress = standinDrvAddress;
using AllocationProp = standinDrvAllocationProp;
using AccessDesc = standinDrvAccessDesc;
inline constexpr int kPosixFd = 1;
inline constexpr int kGranularityMinimum = 0;
inline constexpr unsigned kExternalDedicated = 1;
inline void set_timeline_semaphore_fd(standinExternalSemaphoreHandleDesc &desc)
{
    desc.type = standinExternalSemaphoreHandleTypeTimelineSemaphoreFd;
}
inline std::string link_between(int from, int to)
{
    return standinLinkBetween(from, to);
}

inline std::string timeline_semaphore_gap(int)
{
    return standinTimelineSemaphoreGap();
}
inline bool refuses_semaphore_type(standinError_t e)
{
    return e == standinErrorNotSupported;
}

inline standinError_t from_driver(standinDrvResult r)
{
    return static_cast<standinError_t>(r);
}
inline void *driver_symbol(const char *name)
{
    return standinDriverSymbol(name);
}
inline AllocationProp allocation_prop(int device)
{
    return AllocationProp{1, kPosixFd, {1, device}};
}
inline AccessDesc read_write_access(int device)
{
    return AccessDesc{{1, device}, 3};
}

} // namespace vrb::gpu::vendor
