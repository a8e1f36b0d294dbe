// The optional interop slots held to plugin.h: memory exported and imported back with
// the ownership of every fd kept (interop.export-import), and the peer paths a module of
// two or more devices offers (interop.peers). A module without the slots passes both:
// they are optional, and the probes skip what a module does not offer.
#include "checks.hpp"
#include "lanes.hpp"

#include <vrambench/core/modules/external.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fcntl.h>
#include <sys/stat.h>

namespace vrb::conformance {

namespace {

std::string handle_type_name(uint32_t type)
{
    switch (type) {
    case VRB_EXTERNAL_OPAQUE_FD: return "opaque fd";
    case VRB_EXTERNAL_DMA_BUF: return "dma-buf";
    case VRB_EXTERNAL_HOST_POINTER: return "host pointer";
    default: return fmt::format("handle type {}", type);
    }
}

// The same open file: still open, and not closed and reused for another file meanwhile.
bool same_open_file(int fd, const struct stat &before)
{
    struct stat now {};
    return ::fstat(fd, &now) == 0 && now.st_dev == before.st_dev && now.st_ino == before.st_ino;
}

// A handle the importer must refuse before any driver call: its buffer is larger than its
// allocation. The fd in it stays the caller's (plugin.h), which is what is checked.
void expect_failed_import_keeps_fd(Device &importer, const vrb_external_handle &exported, uint32_t kind,
                                   const std::string &at, Findings &findings)
{
    const int fd = static_cast<int>(exported.handle);
    struct stat before {};
    if (::fstat(fd, &before) != 0) return; // reported by the caller
    vrb_external_handle bad = exported;
    bad.bytes = exported.allocation_bytes + 4096;
    const vrb_plugin_table &table = importer.module().table();
    vrb_buffer *out = nullptr;
    const vrb_status status = table.buffer_import(importer.handle(), &bad, kind, &out);
    if (status == VRB_OK) {
        findings.fail(fmt::format("{}: imported a handle of {} bytes whose allocation is {} bytes; it must be refused",
                                  at, bad.bytes, exported.allocation_bytes));
        if (out && table.buffer_free) table.buffer_free(out);
        return;
    }
    if (!same_open_file(fd, before))
        findings.fail(fmt::format("{}: a failed import closed the caller's fd {}; plugin.h leaves the fd of a failed "
                                  "import the caller's, who closes it",
                                  at, fd));
}

// One export, failed import, import and free. `count_fds`: whether the fds left open
// after it are held against the module.
void round_trip(const Target &target, Device &device, const Kind &kind, uint32_t type, bool count_fds,
                Findings &findings)
{
    const Module &module = device.module();
    const std::string at =
        fmt::format("{} memory kind \"{}\" ({}), {}", target.id, kind.name, kind.index, handle_type_name(type));
    constexpr uint64_t bytes = (1u << 20) + 4096;
    const auto fds_before = open_fds();
    bool exported_fd = false;
    {
        std::unique_ptr<Buffer> source;
        try {
            source = offers_exportable_alloc(module) ? allocate_exportable(device, kind.index, bytes, type)
                                                     : device.allocate(kind.index, bytes);
        } catch (const BackendError &e) {
            if (e.status() != VRB_ERROR_UNSUPPORTED) throw;
            findings.decline(
                fmt::format("export of memory kind \"{}\" ({}) as {}", kind.name, kind.index, handle_type_name(type)));
            return;
        }
        const auto data = random_lanes(bytes / 4, 61);
        upload(*source, data);
        ExternalHandle handle;
        try {
            handle = export_buffer(*source);
        } catch (const BackendError &e) {
            if (e.status() != VRB_ERROR_UNSUPPORTED) throw;
            findings.decline(fmt::format("export of memory kind \"{}\" ({}): {}", kind.name, kind.index, e.what()));
            return;
        }
        exported_fd = handle.is_fd();
        if (exported_fd && count_fds) {
            const vrb_external_handle &h = handle.get();
            if (h.handle < 0 || ::fcntl(static_cast<int>(h.handle), F_GETFD) < 0) {
                findings.fail(fmt::format("{}: the exported fd {} is not open", at, h.handle));
                handle.given_away(); // nothing of ours to close
                return;
            }
            if (fds_before.contains(static_cast<int>(h.handle)))
                findings.fail(fmt::format("{}: export handed out fd {}, which was open before: an export creates a "
                                          "new fd the caller owns",
                                          at, h.handle));
        }
        // Another opening of the same device imports it: the bytes agree both ways.
        auto importer = target.backend->open(target.index);
        if (handle.is_fd()) expect_failed_import_keeps_fd(*importer, handle.get(), kind.index, at, findings);
        std::unique_ptr<Buffer> imported = import_buffer(*importer, handle);
        if (imported->bytes() < bytes) {
            findings.fail(
                fmt::format("{}: the imported buffer holds {} bytes; {} were exported", at, imported->bytes(), bytes));
            return;
        }
        if (const auto d = lane_difference(download(*imported, bytes / 4), data); !d.empty())
            findings.fail(at + ": the imported buffer reads other bytes than were exported: " + d);
        const auto back = random_lanes(bytes / 4, 62);
        upload(*imported, back);
        if (const auto d = lane_difference(download(*source, bytes / 4), back); !d.empty())
            findings.fail(at + ": bytes written through the imported buffer do not reach the exporter's: " + d);
    }
    // Every buffer is freed and the importer closed: the fd the export made is gone.
    if (exported_fd && count_fds) {
        std::vector<std::string> left;
        for (const auto &[fd, file] : open_fds())
            if (!fds_before.contains(fd)) left.push_back(fmt::format("{} -> {}", fd, file));
        if (!left.empty())
            findings.fail(fmt::format("{}: {} more fds open after export, import and free than before: {}; an import "
                                      "takes the fd it is given (plugin.h) and closes it with the buffer, never a "
                                      "copy of it",
                                      at, left.size(), fmt::join(left, ", ")));
    }
}

} // namespace

void check_export_import(const Target &target, Findings &findings)
{
    const Module &module = target.backend->module();
    if (!offers_export(module) || !offers_import(module)) return; // optional slots, not offered
    attempt(findings, target.id, [&] {
        auto device = target.backend->open(target.index);
        for (const Kind &kind : kernel_kinds(*device)) {
            // A module without alloc_exportable exports what it allocates, as it is.
            const std::vector<uint32_t> types =
                offers_exportable_alloc(module) ? std::vector<uint32_t>{VRB_EXTERNAL_OPAQUE_FD, VRB_EXTERNAL_DMA_BUF}
                                                : std::vector<uint32_t>{VRB_EXTERNAL_HOST_POINTER};
            // A driver may open files of its own on its first import and keep them for the
            // process (a device node, a cache): the fds are counted over a second round trip.
            for (uint32_t type : types)
                attempt(findings, fmt::format("{} memory kind \"{}\" ({})", target.id, kind.name, kind.index), [&] {
                    const uint64_t failures = findings.count();
                    round_trip(target, *device, kind, type, false, findings);
                    if (findings.count() == failures) round_trip(target, *device, kind, type, true, findings);
                });
        }
    });
}

void check_peers(const Target &target, Findings &findings)
{
    attempt(findings, target.id, [&] {
        const uint32_t devices = target.backend->device_count();
        if (devices < 2) return; // one device: no peer to hold it to
        auto device = target.backend->open(target.index);
        const auto kinds = kernel_kinds(*device);
        if (kinds.empty()) return; // device.description says so
        constexpr uint64_t bytes = (1u << 20) + 12;
        const auto data = random_lanes(bytes / 4, 81), back = random_lanes(bytes / 4, 82);
        for (uint32_t j = 0; j < devices; ++j) {
            if (j == target.index) continue;
            auto peer = target.backend->open(j);
            const std::optional<uint32_t> flags = device->peer_flags(*peer);
            if (!flags) return; // no peer_query slot
            const auto peer_kinds = kernel_kinds(*peer);
            if (peer_kinds.empty()) continue;
            const std::string pair = fmt::format("{} with the memory of {}:{}", target.id, target.backend->name(), j);
            auto mine = device->allocate(kinds[0].index, bytes), theirs = peer->allocate(peer_kinds[0].index, bytes);
            auto mine2 = device->allocate(kinds[0].index, bytes), theirs2 = peer->allocate(peer_kinds[0].index, bytes);
            if (*flags & VRB_PEER_COPY)
                attempt(findings, pair + ", peer copy", [&] {
                    upload(*theirs, data);
                    upload(*mine2, back);
                    vrb_operation op = make_op(VRB_OP_TRANSFER, 1, bytes);
                    op.src1 = {theirs->handle(), 0};
                    op.dst = {mine->handle(), 0};
                    op.src2 = {mine2->handle(), 0};
                    op.dst2 = {theirs2->handle(), 0};
                    device->run(op, 1);
                    if (const auto d = lane_difference(download(*mine, bytes / 4), data); !d.empty())
                        findings.fail(fmt::format("{}, peer copy of {} bytes from the peer: {}", pair, bytes, d));
                    if (const auto d = lane_difference(download(*theirs2, bytes / 4), back); !d.empty())
                        findings.fail(fmt::format("{}, peer copy of {} bytes to the peer, both ways at once: {}", pair,
                                                  bytes, d));
                });
            if (*flags & VRB_PEER_ACCESS)
                attempt(findings, pair + ", in-place read", [&] {
                    upload(*theirs, data);
                    uint64_t sum = 0;
                    for (uint32_t lane : data)
                        sum += lane;
                    vrb_operation read = make_op(VRB_OP_READ, 4, bytes / 4);
                    read.src1 = {theirs->handle(), 0};
                    const uint64_t got = device->run(read, 1).output.checksum;
                    if (got != sum)
                        findings.fail(fmt::format("{}, read in place of {} lanes: checksum {}", pair, bytes / 4,
                                                  value_difference(sum, got)));
                    // A chase through the peer's memory: 0 -> 1 -> ... -> 63 -> 0.
                    std::vector<uint32_t> ring(64);
                    for (uint32_t i = 0; i < ring.size(); ++i)
                        ring[i] = (i + 1) % ring.size();
                    upload(*theirs2, ring);
                    vrb_operation chase = make_op(VRB_OP_CHASE, 4, 100);
                    chase.src1 = {theirs2->handle(), 0};
                    const uint64_t last = device->run(chase, 1).output.checksum;
                    if (last != 100 % ring.size())
                        findings.fail(fmt::format("{}, chase of 100 steps in place: last index {}", pair,
                                                  value_difference(100 % ring.size(), last)));
                });
        }
    });
}

} // namespace vrb::conformance
