// Timeline semaphores another API exported (docs/interop.md, interop.sync), imported
// with cudaImportExternalSemaphore / hipImportExternalSemaphore as a timeline semaphore
// fd, signalled and waited for on the device's stream. Neither runtime can export a
// semaphore: a pair with CUDA or HIP has the other API create and export it.
#include "backend.hpp"

#include <vrambench/external_handle.hpp>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <thread>
#include <unistd.h>

using vrb::plugin::fail;

namespace vrb::gpu {
namespace {

void release_semaphore(const ExternalSemaphoreHandle &semaphore) noexcept
{
    (void)destroy_external_semaphore(semaphore);
}

} // namespace
} // namespace vrb::gpu

vrb_semaphore::~vrb_semaphore()
{
    // Destroyed in its own device's context.
    if (semaphore) (void)vrb::gpu::set_device(ordinal);
}

void vrb_semaphore::export_handle(vrb_external_handle &)
{
    fail(VRB_ERROR_UNSUPPORTED, std::string(vrb::gpu::kApiName) +
                                    " exports no semaphore: the runtime imports one another API made, and has no "
                                    "call that hands out its own");
}

void vrb_semaphore::host_wait(uint64_t value, uint64_t timeout_ns)
{
    using namespace vrb::gpu;
    make_current(ordinal);
    check(wait_semaphore_async(semaphore.get(), value, host_wait_stream.get()), "waiting for a semaphore");
    check(event_record(reached.get(), host_wait_stream.get()), "marking where the semaphore's wait ends");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(timeout_ns);
    for (;;) {
        const Error e = event_query(reached.get());
        if (e == kSuccess) return;
        if (e != kNotReady) raise_error(e, "waiting for a semaphore");
        (void)take_last_error(); // "not ready" is an answer, not an error to keep
        if (std::chrono::steady_clock::now() >= deadline)
            fail(VRB_ERROR_DEVICE, "the semaphore did not reach " + std::to_string(value) + " within " +
                                       std::to_string(timeout_ns) + " ns (" + kApiName +
                                       " cannot read the value of an imported semaphore)");
        std::this_thread::yield();
    }
}

std::unique_ptr<vrb_semaphore> vrb_device::create_exportable_semaphore(uint32_t)
{
    fail(VRB_ERROR_UNSUPPORTED, std::string(vrb::gpu::kApiName) +
                                    " creates no exportable semaphore: its runtime imports timeline semaphores "
                                    "other APIs export, and exports none");
}

std::unique_ptr<vrb_semaphore> vrb_device::import_semaphore(const vrb_external_handle &handle)
{
    using namespace vrb::gpu;
    // Everything that can be refused without the driver is refused before it is asked.
    vrb::plugin::check_semaphore_handle(&handle, importer_of(*this));
    make_current(ordinal);
    // The device is asked, not the runtime's version: the same ROCm or CUDA release
    // imports them on one card and not on another (vGPU, MIG, an APU).
    if (const std::string gap = timeline_semaphore_gap(ordinal); !gap.empty())
        fail(VRB_ERROR_UNSUPPORTED, std::string(kApiName) + " device " + std::to_string(ordinal) + ": " + gap);
    auto made = std::make_unique<vrb_semaphore>();
    made->device = this;
    made->ordinal = ordinal;
    made->host_wait_stream = create_stream();
    made->reached = create_event();
    // The driver takes the fd it imports: it gets a duplicate, so a failure leaves the
    // caller's fd the caller's, and the caller's is closed once the import succeeded.
    const int duplicate = ::fcntl(static_cast<int>(handle.handle), F_DUPFD_CLOEXEC, 0);
    if (duplicate < 0)
        fail(VRB_ERROR_DEVICE,
             "cannot duplicate file descriptor " + std::to_string(handle.handle) + ": " + std::strerror(errno));
    ExternalSemaphoreHandle imported{};
    const Error e = import_timeline_semaphore_fd(&imported, duplicate);
    if (e != kSuccess) {
        ::close(duplicate);
        if (refuses_semaphore_type(e)) {
            (void)take_last_error();
            fail(VRB_ERROR_UNSUPPORTED, std::string(kApiName) + " imports no timeline semaphore on device " +
                                            std::to_string(ordinal) + ": asked to import one, it answered " +
                                            describe_error(e));
        }
        raise_error(e, "importing a timeline semaphore from an opaque fd");
    }
    made->semaphore = Held<ExternalSemaphoreHandle>(imported, release_semaphore);
    ::close(static_cast<int>(handle.handle)); // imported: the fd the caller gave is ours to close
    return made;
}

void vrb_device::signal(vrb_semaphore &semaphore, uint64_t value)
{
    using namespace vrb::gpu;
    make_current(ordinal);
    check(signal_semaphore_async(semaphore.semaphore.get(), value, stream.get()), "signalling a semaphore");
}

void vrb_device::device_wait(vrb_semaphore &semaphore, uint64_t value)
{
    using namespace vrb::gpu;
    make_current(ordinal);
    check(wait_semaphore_async(semaphore.semaphore.get(), value, stream.get()), "waiting for a semaphore");
}
