// What the recording runtime stand-in (gpu_vendor_standin.hpp) saw, for tests to read.
//
// It behaves like an asynchronous device where that matters to ordering: device memory
// is host memory of its own, and a copy queued on a stream lands only when that stream
// is synchronised, so host code that reads or reuses memory before waiting is caught.
// A copy on the legacy stream (standinMemcpy) is recorded as such and done at once.
//
// Its virtual memory API is real memory sharing: an allocation is a memfd, a reserved
// range an inaccessible mapping, a mapped range the memfd mapped there, and an exported
// handle a duplicate of the memfd. So memory exported by one device and imported by
// another holds the same bytes on both sides, and every fd it hands out can be counted.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

struct standinStream;

namespace vrb::test::standin {

enum class Call {
    legacy_copy,
    async_copy,
    async_memset,
    stream_synchronize,
    stream_create,
    other,
    // the driver's virtual memory API
    vm_create,
    vm_release,
    vm_reserve,
    vm_address_free,
    vm_map,
    vm_unmap,
    vm_set_access,
    vm_export,
    vm_import,
    // memory of another API, and host memory registered in place
    external_import,
    external_map,
    external_destroy,
    host_register,
    host_unregister,
    mem_advise_host_resident,
    // semaphores of another API
    semaphore_import,
    semaphore_signal,
    semaphore_wait,
    semaphore_destroy,
    // other devices of the runtime
    can_access_peer,
    enable_peer_access,
    disable_peer_access,
    peer_copy,
    // the stand-in's kernels (standin_kernels.cpp): CHASE's links made, a walk of them
    chase_links_made,
    chase_walk,
};

struct Record {
    Call call = Call::other;
    standinStream *stream = nullptr; // the stream a queued call went to or waited for
    void *dst = nullptr;
    const void *src = nullptr;
    std::size_t bytes = 0;
    int kind = -1;                // standinMemcpyKind of a copy; the handle type of a semaphore import
    unsigned long long value = 0; // the value a semaphore is signalled to or waited for
    bool failed = false;          // the stand-in answered it with an error (fail_next)
    // The devices a peer call names: the asking (or current) device and its peer; for a
    // peer copy, the destination's device and the source's.
    int device = -1, peer = -1;
};

// The calls since the last clear(), in order.
const std::vector<Record> &journal();
void clear();

// How many devices the stand-in offers (1 unless changed).
void set_device_count(int count);
// Whether its devices can reach each other's memory (can_access_peer; true unless changed).
void set_peer_access(bool possible);
// The link its runtime names between two devices, as HIP's link query would ("": none).
void set_link_between(const std::string &link);

// How a call made to fail answers: invalid value, or the driver's "not supported" (what
// a vGPU, MIG or confidential-computing driver says to exportable memory or semaphores).
enum class Failure { invalid_value, not_supported };
// The next call of `call`'s kind fails, once, as `how` says.
void fail_next(Call call, Failure how = Failure::invalid_value);
// A driver entry point the stand-in's driver lacks from now on ("" restores them all).
void hide_driver_symbol(const std::string &name);
// The UUID every device reports (16 bytes; all zero: unknown).
void set_uuid(const unsigned char (&uuid)[16]);
// The PCI address every device reports, as the runtime writes it ("0000:00:00.0" unless changed).
void set_pci_address(const std::string &address);

// What the stand-in says when asked whether it imports timeline semaphores: "" (it
// does), or the reason it does not.
void set_timeline_semaphore_gap(const std::string &why);

// Resources of the virtual memory API, external memory, semaphores and host registrations that
// are made and not yet released: 0 when nothing leaked.
int live_resources();

// Queues `work` on `stream` as a kernel launch would: it runs at the stream's next
// synchronisation, after what was queued before it. Recorded as `call`.
void enqueue(Call call, standinStream *stream, std::function<void()> work);

const char *name(Call call);
std::string describe(const Record &r);

} // namespace vrb::test::standin
