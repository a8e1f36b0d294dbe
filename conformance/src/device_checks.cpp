// What a device says about itself, transfers between its memory kinds, and the
// operations it must refuse.
#include "checks.hpp"
#include "lanes.hpp"

#include <fmt/format.h>

#include <cstring>

namespace vrb::conformance {

void check_description(const Target &target, Findings &findings)
{
    attempt(findings, target.id, [&] {
        const vrb_device_info info = target.backend->describe(target.index);
        if (strnlen(info.name, sizeof info.name) == 0) findings.fail(target.id + ": device_describe gave no name");
        if (strnlen(info.api, sizeof info.api) == 0) findings.fail(target.id + ": device_describe gave no api");
        auto device = target.backend->open(target.index);
        const auto kinds = all_kinds(*device);
        if (kinds.empty()) findings.fail(target.id + ": the device offers no memory kind");
        for (const Kind &kind : kinds)
            if (kind.name.empty()) findings.fail(fmt::format("{}: memory kind {} has no name", target.id, kind.index));
        if (!kinds.empty() && kernel_kinds(*device).empty())
            findings.fail(target.id + ": no memory kind kernels can use (VRB_MEMORY_DEVICE_ACCESS)");
    });
}

void check_transfers(const Target &target, Findings &findings)
{
    attempt(findings, target.id, [&] {
        auto device = target.backend->open(target.index);
        const auto kinds = all_kinds(*device);
        const uint64_t bytes = (1u << 20) + 12;
        const auto data = random_lanes(bytes / 4, 31), back = random_lanes(bytes / 4, 32);
        for (const Kind &from : kinds)
            for (const Kind &to : kinds) {
                const std::string at = fmt::format("transfer of {} bytes from memory kind \"{}\" ({}) to \"{}\" ({})",
                                                   bytes, from.name, from.index, to.name, to.index);
                attempt(findings, at, [&] {
                    if (declined(*device, VRB_OP_TRANSFER, 4, from, findings) |
                        declined(*device, VRB_OP_TRANSFER, 4, to, findings))
                        return;
                    auto src = device->allocate(from.index, bytes), dst = device->allocate(to.index, bytes);
                    auto src2 = device->allocate(to.index, bytes), dst2 = device->allocate(from.index, bytes);
                    upload(*src, data);
                    upload(*src2, back);
                    vrb_operation op = make_op(VRB_OP_TRANSFER, 1, bytes);
                    op.src1 = {src->handle(), 0};
                    op.dst = {dst->handle(), 0};
                    device->run(op, 1);
                    if (const auto d = lane_difference(download(*dst, bytes / 4), data); !d.empty())
                        findings.fail(at + ": " + d);
                    upload(*dst, back);
                    op.src2 = {src2->handle(), 0};
                    op.dst2 = {dst2->handle(), 0};
                    device->run(op, 1);
                    if (const auto d = lane_difference(download(*dst, bytes / 4), data); !d.empty())
                        findings.fail(at + ", both ways at once, the first copy: " + d);
                    if (const auto d = lane_difference(download(*dst2, bytes / 4), back); !d.empty())
                        findings.fail(at + ", both ways at once, the second copy (src2 -> dst2): " + d);
                });
            }
    });
}

namespace {

// Runs an operation the module must refuse with `wanted` (or any failure when wanted
// is VRB_OK), and says what happened otherwise.
void expect_refused(Findings &findings, Device &device, const vrb_operation &op, const std::string &what,
                    vrb_status wanted)
{
    try {
        device.run(op, 1);
        findings.fail(what + ": ran; it must be refused before any memory is touched");
    } catch (const BackendError &e) {
        if (wanted != VRB_OK && e.status() != wanted)
            findings.fail(
                fmt::format("{}: refused with {}, expected {}", what, to_string(e.status()), to_string(wanted)));
    }
}

} // namespace

void check_bad_arguments(const Target &target, Findings &findings)
{
    for_each_kernel_kind(target, findings, [&](Device &device, const Kind &kind) {
        // An operation the module declines may be refused as unsupported as well as invalid.
        auto refusal = [&](uint32_t op_kind) {
            return declined(device, op_kind, 4, kind, findings) ? VRB_OK : VRB_ERROR_INVALID_ARGUMENT;
        };
        const vrb_status copy_refusal = refusal(VRB_OP_COPY);
        auto a = device.allocate(kind.index, 4096), b = device.allocate(kind.index, 4096);
        vrb_operation op = make_op(VRB_OP_COPY, 4, 1025);
        op.dst = {a->handle(), 0};
        op.src1 = {b->handle(), 0};
        expect_refused(findings, device, op, where(VRB_OP_COPY, 4, kind, 1025) + " into 4096-byte buffers",
                       copy_refusal);
        op.count = 16;
        op.element_bytes = 3;
        expect_refused(findings, device, op, where(VRB_OP_COPY, 3, kind, 16) + " (3 is no element width)",
                       VRB_ERROR_INVALID_ARGUMENT);
        op.element_bytes = 4;
        op.dst = {a->handle(), 2};
        expect_refused(findings, device, op, where(VRB_OP_COPY, 4, kind, 16) + " at a dst offset of 2 bytes",
                       copy_refusal);
        op.dst = {nullptr, 0};
        expect_refused(findings, device, op, where(VRB_OP_COPY, 4, kind, 16) + " without a dst buffer", copy_refusal);
        op.dst = {a->handle(), 0};
        op.kind = VRB_OP_STRIDED_READ;
        op.stride = 0;
        expect_refused(findings, device, op, where(VRB_OP_STRIDED_READ, 4, kind, 16) + ", stride 0",
                       refusal(VRB_OP_STRIDED_READ));
        op.stride = 1;
        op.kind = 999;
        expect_refused(findings, device, op, "operation kind 999 (none of vrb_op_kind)", VRB_OK);

        // A gather index past its data is never followed.
        std::vector<uint32_t> index(16, 3);
        index[7] = 1u << 20;
        upload(*b, index);
        vrb_operation gather = make_op(VRB_OP_GATHER, 4, 16);
        gather.src1 = {a->handle(), 0};
        gather.src2 = {b->handle(), 0};
        expect_refused(findings, device, gather, where(VRB_OP_GATHER, 4, kind, 16) + " with index 1048576 past src1",
                       refusal(VRB_OP_GATHER));
    });
    attempt(findings, target.id, [&] {
        auto device = target.backend->open(target.index);
        const uint32_t kinds = static_cast<uint32_t>(device->memory_kinds().size());
        try {
            device->allocate(kinds, 4096);
            findings.fail(fmt::format("{}: buffer_alloc of memory kind {} (the device has {}) succeeded", target.id,
                                      kinds, kinds));
        } catch (const BackendError &) {
        }
    });
}

} // namespace vrb::conformance
