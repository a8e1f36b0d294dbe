#include "run.hpp"

#include "abi_handles.hpp"
#include "buffer.hpp"
#include "commands.hpp"
#include "compute_ops.hpp"
#include "device.hpp"
#include "timestamps.hpp"
#include "timing.hpp"
#include "transfer_ops.hpp"

#include <algorithm>
#include <span>
#include <vector>

namespace vrb::vulkan {

namespace {

struct Outcome {
    uint32_t timer = 0;
    OperationAnswer answer;
    uint32_t passes = 1; // of the whole operation's bytes, each run
    uint32_t flags = 0;
};

Outcome run_compute(Device &device, const vrb_operation &op, uint32_t repetitions, uint32_t asked, double *seconds)
{
    const ComputeOperation operation(device, op);
    // Where every workgroup walked the whole set, a pass moved it once per workgroup:
    // the passes made say so, so the core counts the bytes that moved.
    const uint32_t copies = operation.copies();
    const uint32_t passes = std::max(1u, std::min(asked, UINT32_MAX / copies));
    const QueueRef queue = device.queues().compute;
    const uint32_t bits = device.timestamp_bits(queue.family);
    Outcome outcome;
    if (operation.links_made_now()) {
        // Making the links wrote a chain's worth of them: one lap, untimed, puts the walk
        // back in the caches before the first timed lap starts.
        device.context().log(VRB_LOG_DEBUG, "CHASE walks a lap untimed: its links were just made");
        CommandBuffer commands(device, queue.family);
        full_barrier(commands.get());
        operation.record(commands.get(), passes);
        host_read_barrier(commands.get());
        commands.end();
        submit_and_wait(device, device.queue(queue), commands);
    }
    if (bits == 0) {
        for (uint32_t r = 0; r < repetitions; ++r) {
            if (device.context().cancelled()) fail(VRB_ERROR_CANCELLED, "cancelled");
            CommandBuffer commands(device, queue.family);
            full_barrier(commands.get());
            operation.record(commands.get(), passes);
            host_read_barrier(commands.get());
            commands.end();
            seconds[r] = host_seconds_or_fail(submit_and_wait(device, device.queue(queue), commands));
        }
        outcome.timer = VRB_TIMER_HOST_MONOTONIC;
    } else {
        TimestampQueries queries(device, 2 * repetitions);
        CommandBuffer commands(device, queue.family);
        queries.reset(commands);
        for (uint32_t r = 0; r < repetitions; ++r) {
            // Each repetition starts when the one before has finished, reads and writes included.
            full_barrier(commands.get());
            queries.write(commands.get(), 2 * r);
            operation.record(commands.get(), passes);
            queries.write(commands.get(), 2 * r + 1);
        }
        host_read_barrier(commands.get());
        commands.end();
        const double host = submit_and_wait(device, device.queue(queue), commands);
        const std::vector<uint64_t> t = queries.read();
        for (uint32_t r = 0; r < repetitions; ++r)
            seconds[r] = timestamp_seconds(t[2 * r], t[2 * r + 1], bits, device.timestamp_period_ns());
        check_against_host(std::span(seconds, repetitions), host);
        outcome.timer = VRB_TIMER_DEVICE_TIMESTAMPS;
    }
    outcome.answer = operation.finish();
    outcome.passes = passes * copies;
    if (copies > 1) outcome.flags |= VRB_OUTPUT_WHOLE_SET_PER_UNIT;
    return outcome;
}

// TRANSFER by the compute units (VRB_OPERATION_ENGINE_SM): the COPY shader over the same
// bytes, in the widest lanes the offsets and count allow, shared out once a pass as the
// transfer queue moves them (the flag stays on the operation: compute_ops.cpp reads it).
Outcome run_compute_transfer(Device &device, const vrb_operation &op, uint32_t repetitions, uint32_t asked,
                             double *seconds)
{
    if (op.src2.buffer)
        fail(VRB_ERROR_UNSUPPORTED,
             "TRANSFER by a compute shader copies one way; both ways at once go through the transfer queues");
    const uint64_t alignment = op.dst.offset | op.src1.offset | op.count;
    const uint32_t width = alignment % 16 == 0 ? 16 : alignment % 4 == 0 ? 4 : 0;
    if (width == 0)
        fail(VRB_ERROR_UNSUPPORTED, "TRANSFER by a compute shader copies whole 4-byte lanes: " +
                                        std::to_string(op.count) + " bytes at these offsets are not");
    vrb_operation copy = op;
    copy.kind = VRB_OP_COPY;
    copy.element_bytes = width;
    copy.count = op.count / width;
    Outcome outcome = run_compute(device, copy, repetitions, asked, seconds);
    outcome.flags |= VRB_OUTPUT_ENGINE_SM;
    return outcome;
}

// The buffers `op` writes: what they hold changes, so links made of a chain there are stale.
void mark_written(const vrb_operation &op)
{
    switch (op.kind) {
    case VRB_OP_READ:
    case VRB_OP_DOT:
    case VRB_OP_STRIDED_READ:
    case VRB_OP_GATHER:
    case VRB_OP_CHASE:
    case VRB_OP_CHECK: return;
    default:
        for (const vrb_operand *written : {&op.dst, &op.dst2})
            if (written->buffer) from_abi(written->buffer)->changed();
    }
}

} // namespace

void run_operation(Device &device, const vrb_operation &op, std::span<double> seconds, vrb_op_output &out)
{
    if (device.context().cancelled()) fail(VRB_ERROR_CANCELLED, "cancelled");
    mark_written(op);
    const auto repetitions = static_cast<uint32_t>(seconds.size());
    const uint32_t passes = plugin::operation_passes(op);
    Outcome outcome;
    outcome.passes = passes;
    if (op.kind == VRB_OP_TRANSFER && (plugin::operation_flags(op) & VRB_OPERATION_ENGINE_SM))
        outcome = run_compute_transfer(device, op, repetitions, passes, seconds.data());
    else if (op.kind == VRB_OP_TRANSFER)
        outcome.timer = run_transfer(device, op, repetitions, passes, seconds.data());
    else
        outcome = run_compute(device, op, repetitions, passes, seconds.data());

    out.timer = outcome.timer;
    out.checksum = outcome.answer.checksum;
    out.mismatches = outcome.answer.mismatches;
    out.first_mismatch = outcome.answer.first_mismatch;
    out.passes = outcome.passes;
    out.flags = outcome.flags;
}

} // namespace vrb::vulkan
