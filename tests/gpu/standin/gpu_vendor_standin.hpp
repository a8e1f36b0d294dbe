// A recording stand-in for the GPU runtime, in the shape of gpu_vendor_cuda.hpp: the
// backend's host code compiled against it runs without a driver, and every call it
// makes is kept in a journal (standin_journal.hpp) that tests read back.
#pragma once

#include <cstddef>
#include <cstdint>

#define VRB_GPU_API(name) standin##name

enum standinError_t : int {
    standinSuccess = 0,
    standinErrorInvalidValue,
    standinErrorMemoryAllocation,
    standinErrorNoDevice,
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

namespace vrb::gpu::vendor {

inline constexpr const char *kApiName = "stand-in";
inline constexpr const char *kBackendName = "standin";
inline constexpr const char *kVendorName = "nobody";
inline constexpr uint32_t kPciVendorId = 0;

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
inline standinError_t uuid(int, uint8_t (&out)[16])
{
    for (auto &b : out)
        b = 0;
    return standinSuccess;
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
inline const char *plain_words(standinError_t)
{
    return nullptr;
}

} // namespace vrb::gpu::vendor
