// The recording runtime stand-in: see standin_journal.hpp for how it behaves.
#include "gpu_runtime.hpp"
#include "standin_journal.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

struct standinStream {
    std::vector<std::function<void()>> queued; // what lands at the next synchronisation
};
struct standinEvent {};

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
void note(Call call, standinStream *stream = nullptr, void *dst = nullptr, const void *src = nullptr,
          std::size_t bytes = 0, int kind = -1)
{
    records().push_back(Record{call, stream, dst, src, bytes, kind});
}

} // namespace

const std::vector<Record> &journal()
{
    return records();
}
void clear()
{
    records().clear();
}
void set_device_count(int count)
{
    device_count() = count;
}

std::string describe(const Record &r)
{
    static const char *const names[] = {"legacy copy",        "async copy",    "async memset",
                                        "stream synchronize", "stream create", "other"};
    char text[160];
    std::snprintf(text, sizeof text, "%s (stream %p, %zu bytes, kind %d)", names[int(r.call)],
                  static_cast<void *>(r.stream), r.bytes, r.kind);
    return text;
}

} // namespace vrb::test::standin

using vrb::test::standin::Call;
using vrb::test::standin::note;

const char *standinGetErrorString(standinError_t e)
{
    return e == standinSuccess ? "no error" : "stand-in error";
}
const char *standinGetErrorName(standinError_t e)
{
    return e == standinSuccess ? "standinSuccess" : "standinError";
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
    return d >= 0 && d < vrb::test::standin::device_count() ? standinSuccess : standinErrorInvalidValue;
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
    std::snprintf(out, std::size_t(size), "0000:00:00.0");
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
