// The recording runtime stand-in: see standin_journal.hpp for how it behaves.
#include "gpu_runtime.hpp"
#include "standin_journal.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

struct standinStream {
    std::vector<std::function<void()>> queued; // what lands at the next synchronisation
};
struct standinEvent {};
struct standinExternalSemaphore {
    int fd = -1; // taken from the importer, closed when destroyed
};
struct standinExternalMemory {
    int fd = -1; // taken from the importer, closed when destroyed
    unsigned long long size = 0;
};

namespace vrb::test::standin {
namespace {

std::vector<Record> &records()
{
    static std::vector<Record> r;
    return r;
}
int &device_count()
{
    static int n = 1;
    return n;
}
int &current_device()
{
    static int d = 0;
    return d;
}
bool &peer_access_possible()
{
    static bool possible = true;
    return possible;
}
// (current device, peer) pairs whose access is on.
std::set<std::pair<int, int>> &peers_enabled()
{
    static std::set<std::pair<int, int>> on;
    return on;
}
void note(Call call, standinStream *stream = nullptr, void *dst = nullptr, const void *src = nullptr,
          std::size_t bytes = 0, int kind = -1)
{
    records().push_back(Record{call, stream, dst, src, bytes, kind, false});
}

// The calls to fail once, each with the answer it is to get.
std::map<Call, standinError_t> &failing()
{
    static std::map<Call, standinError_t> calls;
    return calls;
}
std::set<std::string> &hidden()
{
    static std::set<std::string> names;
    return names;
}
unsigned char *uuid_bytes()
{
    static unsigned char bytes[16] = {0x5a, 0x17, 0x0d, 0x1e, 0x00, 0x01, 0x40, 0x00,
                                      0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01};
    return bytes;
}
std::string &pci_address_text()
{
    static std::string address = "0000:00:00.0";
    return address;
}
int &live()
{
    static int count = 0;
    return count;
}
// Device pointers of imported memory: freed by munmap, not free().
std::map<void *, std::size_t> &external_mappings()
{
    static std::map<void *, std::size_t> m;
    return m;
}

// Records the call; the error it is to answer when it is to fail (fail_next), which is
// recorded too, else standinSuccess.
standinError_t noted_fails(Call call, void *dst = nullptr, std::size_t bytes = 0)
{
    note(call, nullptr, dst, nullptr, bytes);
    const auto found = failing().find(call);
    if (found == failing().end()) return standinSuccess;
    const standinError_t error = found->second;
    failing().erase(found);
    records().back().failed = true;
    return error;
}

} // namespace

void fail_next(Call call, Failure how)
{
    failing()[call] = how == Failure::not_supported ? standinErrorNotSupported : standinErrorInvalidValue;
}
void hide_driver_symbol(const std::string &name)
{
    if (name.empty())
        hidden().clear();
    else
        hidden().insert(name);
}
void set_uuid(const unsigned char (&uuid)[16])
{
    std::memcpy(uuid_bytes(), uuid, 16);
}
void set_pci_address(const std::string &address)
{
    pci_address_text() = address;
}
int live_resources()
{
    return live();
}

const char *name(Call call)
{
    static const char *const names[] = {"legacy copy",         "async copy",       "async memset",
                                        "stream synchronize",  "stream create",    "other",
                                        "vm create",           "vm release",       "vm reserve",
                                        "vm address free",     "vm map",           "vm unmap",
                                        "vm set access",       "vm export",        "vm import",
                                        "external import",     "external map",     "external destroy",
                                        "host register",       "host unregister",  "mem advise host resident",
                                        "semaphore import",    "semaphore signal", "semaphore wait",
                                        "semaphore destroy",   "can access peer",  "enable peer access",
                                        "disable peer access", "peer copy",        "chase links made",
                                        "chase walk"};
    return names[int(call)];
}

void enqueue(Call call, standinStream *stream, std::function<void()> work)
{
    note(call, stream);
    stream->queued.push_back(std::move(work));
}

const std::vector<Record> &journal()
{
    return records();
}
void clear()
{
    records().clear();
}
std::string &timeline_gap()
{
    static std::string why;
    return why;
}
void set_timeline_semaphore_gap(const std::string &why)
{
    timeline_gap() = why;
}
void set_device_count(int count)
{
    device_count() = count;
}
std::string &link_text()
{
    static std::string link;
    return link;
}
void set_link_between(const std::string &link)
{
    link_text() = link;
}
void set_peer_access(bool possible)
{
    peer_access_possible() = possible;
}

std::string describe(const Record &r)
{
    char text[160];
    std::snprintf(text, sizeof text, "%s (stream %p, %zu bytes, kind %d%s)", name(r.call),
                  static_cast<void *>(r.stream), r.bytes, r.kind, r.failed ? ", failed" : "");
    return text;
}

} // namespace vrb::test::standin

using vrb::test::standin::Call;
using vrb::test::standin::note;
using vrb::test::standin::noted_fails;

// The runtime's words and names for its errors, as CUDA gives them.
const char *standinGetErrorString(standinError_t e)
{
    switch (e) {
    case standinSuccess: return "no error";
    case standinErrorNotSupported: return "operation not supported";
    default: return "stand-in error";
    }
}
const char *standinGetErrorName(standinError_t e)
{
    switch (e) {
    case standinSuccess: return "standinSuccess";
    case standinErrorNotSupported: return "standinErrorNotSupported";
    default: return "standinError";
    }
}
standinError_t standinGetLastError()
{
    return standinSuccess;
}
standinError_t standinGetDeviceCount(int *n)
{
    *n = vrb::test::standin::device_count();
    return *n > 0 ? standinSuccess : standinErrorNoDevice;
}
standinError_t standinSetDevice(int d)
{
    if (d < 0 || d >= vrb::test::standin::device_count()) return standinErrorInvalidValue;
    vrb::test::standin::current_device() = d;
    return standinSuccess;
}
standinError_t standinDeviceGetAttribute(int *v, standinDeviceAttr, int)
{
    *v = 1;
    return standinSuccess;
}
standinError_t standinGetDeviceProperties(standinDeviceProp *p, int)
{
    std::snprintf(p->name, sizeof p->name, "recording stand-in");
    return standinSuccess;
}
standinError_t standinDeviceGetPCIBusId(char *out, int size, int)
{
    std::snprintf(out, std::size_t(size), "%s", vrb::test::standin::pci_address_text().c_str());
    return standinSuccess;
}
standinError_t standinMemGetInfo(std::size_t *free_bytes, std::size_t *total_bytes)
{
    *free_bytes = *total_bytes = std::size_t(1) << 30;
    return standinSuccess;
}
standinError_t standinDriverGetVersion(int *v)
{
    *v = 1000;
    return standinSuccess;
}
standinError_t standinRuntimeGetVersion(int *v)
{
    *v = 1000;
    return standinSuccess;
}

standinError_t standinMalloc(void **p, std::size_t bytes)
{
    *p = std::malloc(bytes);
    return *p ? standinSuccess : standinErrorMemoryAllocation;
}
standinError_t standinFree(void *p)
{
    auto &mappings = vrb::test::standin::external_mappings();
    if (const auto found = mappings.find(p); found != mappings.end()) {
        ::munmap(p, found->second);
        mappings.erase(found);
        --vrb::test::standin::live();
        return standinSuccess;
    }
    std::free(p);
    return standinSuccess;
}
standinError_t standinHostAlloc(void **p, std::size_t bytes)
{
    return standinMalloc(p, bytes);
}
standinError_t standinFreeHost(void *p)
{
    return standinFree(p);
}
standinError_t standinHostGetDevicePointer(void **device, void *host, unsigned)
{
    *device = host;
    return standinSuccess;
}

standinError_t standinMemcpy(void *dst, const void *src, std::size_t bytes, standinMemcpyKind kind)
{
    note(Call::legacy_copy, nullptr, dst, src, bytes, kind);
    std::memcpy(dst, src, bytes);
    return standinSuccess;
}
standinError_t standinMemcpyAsync(void *dst, const void *src, std::size_t bytes, standinMemcpyKind kind,
                                  standinStream_t s)
{
    note(Call::async_copy, s, dst, src, bytes, kind);
    if (!s) return standinErrorInvalidValue; // the backend never uses the legacy stream
    s->queued.push_back([=] { std::memcpy(dst, src, bytes); });
    return standinSuccess;
}
standinError_t standinMemsetAsync(void *dst, int value, std::size_t bytes, standinStream_t s)
{
    note(Call::async_memset, s, dst, nullptr, bytes);
    if (!s) return standinErrorInvalidValue;
    s->queued.push_back([=] { std::memset(dst, value, bytes); });
    return standinSuccess;
}

// ---- other devices: each device's memory is host memory, so a peer copy is a copy

namespace {
bool valid_device(int d)
{
    return d >= 0 && d < vrb::test::standin::device_count();
}
} // namespace

standinError_t standinDeviceCanAccessPeer(int *can, int device, int peer)
{
    if (const standinError_t failed = noted_fails(Call::can_access_peer)) return failed;
    vrb::test::standin::records().back().device = device;
    vrb::test::standin::records().back().peer = peer;
    if (!valid_device(device) || !valid_device(peer)) return standinErrorInvalidValue;
    *can = device != peer && vrb::test::standin::peer_access_possible();
    return standinSuccess;
}
standinError_t standinDeviceEnablePeerAccess(int peer, unsigned flags)
{
    const int device = vrb::test::standin::current_device();
    if (const standinError_t failed = noted_fails(Call::enable_peer_access)) return failed;
    vrb::test::standin::records().back().device = device;
    vrb::test::standin::records().back().peer = peer;
    if (!valid_device(peer) || peer == device || flags != 0 || !vrb::test::standin::peer_access_possible())
        return standinErrorInvalidValue;
    return vrb::test::standin::peers_enabled().emplace(device, peer).second ? standinSuccess
                                                                            : standinErrorPeerAccessAlreadyEnabled;
}
standinError_t standinDeviceDisablePeerAccess(int peer)
{
    const int device = vrb::test::standin::current_device();
    note(Call::disable_peer_access);
    vrb::test::standin::records().back().device = device;
    vrb::test::standin::records().back().peer = peer;
    return vrb::test::standin::peers_enabled().erase({device, peer}) ? standinSuccess : standinErrorInvalidValue;
}
standinError_t standinMemcpyPeerAsync(void *dst, int dst_device, const void *src, int src_device, std::size_t bytes,
                                      standinStream_t s)
{
    note(Call::peer_copy, s, dst, src, bytes);
    vrb::test::standin::records().back().device = dst_device;
    vrb::test::standin::records().back().peer = src_device;
    if (!s || !valid_device(dst_device) || !valid_device(src_device)) return standinErrorInvalidValue;
    s->queued.push_back([=] { std::memcpy(dst, src, bytes); });
    return standinSuccess;
}

standinError_t standinStreamCreateWithFlags(standinStream_t *s, unsigned)
{
    *s = new standinStream;
    note(Call::stream_create, *s);
    return standinSuccess;
}
standinError_t standinStreamDestroy(standinStream_t s)
{
    delete s;
    return standinSuccess;
}
standinError_t standinStreamSynchronize(standinStream_t s)
{
    note(Call::stream_synchronize, s);
    if (!s) return standinErrorInvalidValue;
    for (auto &work : s->queued)
        work();
    s->queued.clear();
    return standinSuccess;
}
standinError_t standinStreamWaitEvent(standinStream_t, standinEvent_t, unsigned)
{
    return standinSuccess;
}

standinError_t standinEventCreateWithFlags(standinEvent_t *e, unsigned)
{
    *e = new standinEvent;
    return standinSuccess;
}
standinError_t standinEventDestroy(standinEvent_t e)
{
    delete e;
    return standinSuccess;
}
standinError_t standinEventRecord(standinEvent_t, standinStream_t)
{
    return standinSuccess;
}
standinError_t standinEventSynchronize(standinEvent_t)
{
    return standinSuccess;
}
standinError_t standinEventElapsedTime(float *ms, standinEvent_t, standinEvent_t)
{
    *ms = 1.0f;
    return standinSuccess;
}

standinError_t standinImportExternalSemaphore(standinExternalSemaphore_t *semaphore,
                                              const standinExternalSemaphoreHandleDesc *desc)
{
    if (const standinError_t failed = vrb::test::standin::noted_fails(vrb::test::standin::Call::semaphore_import))
        return failed;
    vrb::test::standin::records().back().kind = int(desc->type);
    *semaphore = new standinExternalSemaphore{desc->handle.fd}; // the fd is the runtime's now
    ++vrb::test::standin::live();
    return standinSuccess;
}
standinError_t standinSignalExternalSemaphoresAsync(const standinExternalSemaphore_t *,
                                                    const standinExternalSemaphoreSignalParams *params, unsigned count,
                                                    standinStream_t stream)
{
    if (const standinError_t failed = vrb::test::standin::noted_fails(vrb::test::standin::Call::semaphore_signal))
        return failed;
    vrb::test::standin::records().back().stream = stream;
    vrb::test::standin::records().back().value = params[0].params.fence.value;
    return count == 1 ? standinSuccess : standinErrorInvalidValue;
}
standinError_t standinWaitExternalSemaphoresAsync(const standinExternalSemaphore_t *,
                                                  const standinExternalSemaphoreWaitParams *params, unsigned count,
                                                  standinStream_t stream)
{
    if (const standinError_t failed = vrb::test::standin::noted_fails(vrb::test::standin::Call::semaphore_wait))
        return failed;
    vrb::test::standin::records().back().stream = stream;
    vrb::test::standin::records().back().value = params[0].params.fence.value;
    return count == 1 ? standinSuccess : standinErrorInvalidValue;
}
standinError_t standinDestroyExternalSemaphore(standinExternalSemaphore_t semaphore)
{
    vrb::test::standin::note(vrb::test::standin::Call::semaphore_destroy);
    ::close(semaphore->fd);
    delete semaphore;
    --vrb::test::standin::live();
    return standinSuccess;
}
standinError_t standinEventQuery(standinEvent_t)
{
    return standinSuccess;
}
const char *standinLinkBetween(int, int)
{
    return vrb::test::standin::link_text().c_str();
}

const char *standinTimelineSemaphoreGap()
{
    return vrb::test::standin::timeline_gap().c_str();
}

standinError_t standinDeviceUuid(int, uint8_t (&out)[16])
{
    std::memcpy(out, vrb::test::standin::uuid_bytes(), 16);
    return standinSuccess;
}

// ---- memory of another API

standinError_t standinImportExternalMemory(standinExternalMemory_t *memory, const standinExternalMemoryHandleDesc *desc)
{
    if (const standinError_t failed = noted_fails(Call::external_import, nullptr, desc->size)) return failed;
    *memory = new standinExternalMemory{desc->handle.fd, desc->size}; // the fd is the runtime's now
    ++vrb::test::standin::live();
    return standinSuccess;
}
standinError_t standinExternalMemoryGetMappedBuffer(void **p, standinExternalMemory_t memory,
                                                    const standinExternalMemoryBufferDesc *desc)
{
    if (const standinError_t failed = noted_fails(Call::external_map, nullptr, desc->size)) return failed;
    if (desc->offset + desc->size > memory->size) return standinErrorInvalidValue;
    void *mapped = ::mmap(nullptr, desc->size, PROT_READ | PROT_WRITE, MAP_SHARED, memory->fd, off_t(desc->offset));
    if (mapped == MAP_FAILED) return standinErrorMemoryAllocation;
    vrb::test::standin::external_mappings()[mapped] = desc->size;
    ++vrb::test::standin::live();
    *p = mapped;
    return standinSuccess;
}
standinError_t standinDestroyExternalMemory(standinExternalMemory_t memory)
{
    note(Call::external_destroy, nullptr, nullptr, nullptr, memory->size);
    ::close(memory->fd);
    delete memory;
    --vrb::test::standin::live();
    return standinSuccess;
}
standinError_t standinHostRegister(void *p, std::size_t bytes, unsigned)
{
    if (const standinError_t failed = noted_fails(Call::host_register, p, bytes)) return failed;
    ++vrb::test::standin::live();
    return standinSuccess;
}
standinError_t standinMemAdviseHostResident(void *p, std::size_t bytes, int device)
{
    if (noted_fails(Call::mem_advise_host_resident, p, bytes)) return standinErrorNotSupported;
    vrb::test::standin::records().back().device = device;
    return standinSuccess;
}
standinError_t standinHostUnregister(void *p)
{
    note(Call::host_unregister, nullptr, p);
    --vrb::test::standin::live();
    return standinSuccess;
}

// ---- the driver's virtual memory API: memfds mapped over reserved address ranges

namespace {
constexpr std::size_t kGranularity = 64 * 1024;
}

standinDrvResult standinDrvMemGetAllocationGranularity(std::size_t *bytes, const standinDrvAllocationProp *, int)
{
    *bytes = kGranularity;
    return standinSuccess;
}
standinDrvResult standinDrvMemCreate(standinDrvHandle *handle, std::size_t bytes, const standinDrvAllocationProp *,
                                     unsigned long long)
{
    if (const standinError_t failed = noted_fails(Call::vm_create, nullptr, bytes)) return failed;
    if (bytes % kGranularity != 0) return standinErrorInvalidValue;
    const int fd = ::memfd_create("standin-vm", MFD_CLOEXEC);
    if (fd < 0) return standinErrorMemoryAllocation;
    if (::ftruncate(fd, off_t(bytes)) != 0) {
        ::close(fd);
        return standinErrorMemoryAllocation;
    }
    *handle = standinDrvHandle(fd);
    ++vrb::test::standin::live();
    return standinSuccess;
}
standinDrvResult standinDrvMemRelease(standinDrvHandle handle)
{
    note(Call::vm_release);
    ::close(int(handle));
    --vrb::test::standin::live();
    return standinSuccess;
}
standinDrvResult standinDrvMemAddressReserve(standinDrvAddress *address, std::size_t bytes, std::size_t,
                                             standinDrvAddress, unsigned long long)
{
    if (const standinError_t failed = noted_fails(Call::vm_reserve, nullptr, bytes)) return failed;
    void *p = ::mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return standinErrorMemoryAllocation;
    *address = standinDrvAddress(reinterpret_cast<uintptr_t>(p));
    ++vrb::test::standin::live();
    return standinSuccess;
}
standinDrvResult standinDrvMemAddressFree(standinDrvAddress address, std::size_t bytes)
{
    void *p = reinterpret_cast<void *>(uintptr_t(address));
    note(Call::vm_address_free, nullptr, p, nullptr, bytes);
    ::munmap(p, bytes);
    --vrb::test::standin::live();
    return standinSuccess;
}
standinDrvResult standinDrvMemMap(standinDrvAddress address, std::size_t bytes, std::size_t offset,
                                  standinDrvHandle handle, unsigned long long)
{
    void *p = reinterpret_cast<void *>(uintptr_t(address));
    if (const standinError_t failed = noted_fails(Call::vm_map, p, bytes)) return failed;
    if (::mmap(p, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, int(handle), off_t(offset)) == MAP_FAILED)
        return standinErrorInvalidValue;
    ++vrb::test::standin::live();
    return standinSuccess;
}
standinDrvResult standinDrvMemUnmap(standinDrvAddress address, std::size_t bytes)
{
    void *p = reinterpret_cast<void *>(uintptr_t(address));
    note(Call::vm_unmap, nullptr, p, nullptr, bytes);
    // The range stays reserved: inaccessible again, as before it was mapped.
    ::mmap(p, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    --vrb::test::standin::live();
    return standinSuccess;
}
standinDrvResult standinDrvMemSetAccess(standinDrvAddress address, std::size_t bytes, const standinDrvAccessDesc *,
                                        std::size_t)
{
    if (const standinError_t failed =
            noted_fails(Call::vm_set_access, reinterpret_cast<void *>(uintptr_t(address)), bytes))
        return failed;
    return standinSuccess;
}
standinDrvResult standinDrvMemExportToShareableHandle(void *shareable, standinDrvHandle handle, int, unsigned long long)
{
    if (const standinError_t failed = noted_fails(Call::vm_export)) return failed;
    const int fd = ::fcntl(int(handle), F_DUPFD_CLOEXEC, 0);
    if (fd < 0) return standinErrorInvalidValue;
    *static_cast<int *>(shareable) = fd;
    return standinSuccess;
}
standinDrvResult standinDrvMemImportFromShareableHandle(standinDrvHandle *handle, void *os_handle, int)
{
    if (const standinError_t failed = noted_fails(Call::vm_import)) return failed;
    const int fd = ::fcntl(int(reinterpret_cast<intptr_t>(os_handle)), F_DUPFD_CLOEXEC, 0);
    if (fd < 0) return standinErrorInvalidValue;
    *handle = standinDrvHandle(fd); // the caller's fd stays the caller's
    ++vrb::test::standin::live();
    return standinSuccess;
}

void *standinDriverSymbol(const char *name)
{
#define VRB_STANDIN_SYMBOL(fn)                                                                                         \
    {                                                                                                                  \
#fn, reinterpret_cast < void *>(&fn)                                                                           \
    }
    static const std::map<std::string, void *> symbols = {
        VRB_STANDIN_SYMBOL(standinDrvMemGetAllocationGranularity),
        VRB_STANDIN_SYMBOL(standinDrvMemCreate),
        VRB_STANDIN_SYMBOL(standinDrvMemRelease),
        VRB_STANDIN_SYMBOL(standinDrvMemAddressReserve),
        VRB_STANDIN_SYMBOL(standinDrvMemAddressFree),
        VRB_STANDIN_SYMBOL(standinDrvMemMap),
        VRB_STANDIN_SYMBOL(standinDrvMemUnmap),
        VRB_STANDIN_SYMBOL(standinDrvMemSetAccess),
        VRB_STANDIN_SYMBOL(standinDrvMemExportToShareableHandle),
        VRB_STANDIN_SYMBOL(standinDrvMemImportFromShareableHandle),
    };
#undef VRB_STANDIN_SYMBOL
    if (vrb::test::standin::hidden().count(name)) return nullptr;
    const auto found = symbols.find(name);
    return found == symbols.end() ? nullptr : found->second;
}
