// Timeline semaphores (ABI 1.4): what a module that offers the slots must do with them.
// A module without them, or a device that declines to create an exportable one, passes:
// the slots are optional, and interop.sync skips such a pair with the module's reason.
#include "checks.hpp"
#include "lanes.hpp"

#include <vrambench/core/modules/external_semaphore.hpp>

#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <fcntl.h>

namespace vrb::conformance {

namespace {

using Clock = std::chrono::steady_clock;
constexpr uint64_t second_ns = 1'000'000'000;
constexpr uint64_t short_ns = 50'000'000;

// Whether waiting for `value` on the host times out as it must: VRB_ERROR_DEVICE, soon.
void expect_timeout(Semaphore &s, uint64_t value, const std::string &what, Findings &findings)
{
    const auto start = Clock::now();
    try {
        s.host_wait(value, short_ns);
        findings.fail(
            fmt::format("{}: the host wait for {} returned as reached, but nothing signalled it", what, value));
    } catch (const BackendError &e) {
        if (e.status() != VRB_ERROR_DEVICE)
            findings.fail(fmt::format("{}: a host wait that timed out answered status {} ({}), not "
                                      "VRB_ERROR_DEVICE",
                                      what, static_cast<int>(e.status()), e.what()));
    }
    if (Clock::now() - start > std::chrono::seconds(5))
        findings.fail(
            fmt::format("{}: a host wait of {} ms took more than 5 s to time out", what, short_ns / 1'000'000));
}

} // namespace

void check_semaphores(const Target &target, Findings &findings)
{
    const Module &module = target.backend->module();
    if (semaphore_export_gap(module)) return; // offers no exportable semaphores: nothing to hold it to
    attempt(findings, target.id, [&] {
        auto device = target.backend->open(target.index);
        std::unique_ptr<Semaphore> a;
        try {
            a = create_exportable_semaphore(*device, VRB_EXTERNAL_OPAQUE_FD);
        } catch (const BackendError &e) {
            // The device may decline (lavapipe offers no external semaphore fd); it must say why.
            if (e.status() != VRB_ERROR_UNSUPPORTED)
                findings.fail(fmt::format("{}: semaphore_create_exportable failed with status {}, not "
                                          "VRB_ERROR_UNSUPPORTED: {}",
                                          target.id, static_cast<int>(e.status()), e.what()));
            return;
        }
        const std::string at = target.id + ", semaphore";
        a->signal(1);
        a->host_wait(1, second_ns);
        expect_timeout(*a, 3, at, findings);

        ExternalHandle handle = export_semaphore(*a);
        const vrb_external_handle &h = handle.get();
        if (h.type != VRB_EXTERNAL_OPAQUE_FD)
            findings.fail(fmt::format("{}: exported as handle type {}, asked for an opaque fd", at, h.type));
        else if (h.handle < 0 || ::fcntl(static_cast<int>(h.handle), F_GETFD) < 0)
            findings.fail(fmt::format("{}: the exported fd {} is not open", at, h.handle));
        const vrb_device_info info = device->describe();
        if ((info.known & VRB_KNOWN_UUID) && std::memcmp(h.device_uuid, info.uuid, sizeof info.uuid) != 0)
            findings.fail(fmt::format("{}: the exported handle names another card than the device's UUID", at));
        if (semaphore_import_gap(module)) return;

        // The module imports its own export on a second device of the same card: signals
        // cross both ways, and a device-side wait holds back what was enqueued after it.
        auto other = target.backend->open(target.index);
        std::unique_ptr<Semaphore> b = import_semaphore(*other, handle);
        a->signal(2);
        b->host_wait(2, second_ns);
        b->device_wait(3);
        b->signal(4);
        expect_timeout(*a, 4, at + " (a signal enqueued behind a device-side wait for 3)", findings);
        a->signal(3);
        a->host_wait(4, second_ns);
        b.reset();
        a.reset();
    });
}

} // namespace vrb::conformance
