#include "run.hpp"

#include "abi_handles.hpp"
#include "buffer.hpp"
#include "commands.hpp"
#include "compute_ops.hpp"
#include "device.hpp"
#include "timestamps.hpp"
#include "timing.hpp"
#include "transfer_ops.hpp"

#include <span>
#include <vector>

namespace vrb::vulkan {

namespace {

struct Outcome {
    uint32_t timer = 0;
    OperationAnswer answer;
};

Outcome run_compute(Device &device, const vrb_operation &op, uint32_t repetitions, uint32_t passes, double *seconds)
{
    const ComputeOperation operation(device, op);
    const QueueRef queue = device.queues().compute;
    const uint32_t bits = device.timestamp_bits(queue.family);
    Outcome outcome;
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
    return outcome;
}

} // namespace

void run_operation(Device &device, const vrb_operation *op, uint32_t repetitions, double *seconds, vrb_op_output *out)
{
    if (!op) fail(VRB_ERROR_INVALID_ARGUMENT, "no operation given");
    if (repetitions == 0) fail(VRB_ERROR_INVALID_ARGUMENT, "repetitions must be at least 1");
    if (!seconds) fail(VRB_ERROR_INVALID_ARGUMENT, "no array for the durations");
    plugin::check_operation(*op, [&](vrb_buffer *handle) {
        const Buffer *buffer = from_abi(handle);
        if (!device.owns(buffer)) fail(VRB_ERROR_INVALID_ARGUMENT, "an operand is not a live buffer of this device");
        return buffer->size();
    });
    if (device.context().cancelled()) fail(VRB_ERROR_CANCELLED, "cancelled");

    const uint32_t passes = plugin::operation_passes(*op);
    Outcome outcome;
    if (op->kind == VRB_OP_TRANSFER)
        outcome.timer = run_transfer(device, *op, repetitions, passes, seconds);
    else
        outcome = run_compute(device, *op, repetitions, passes, seconds);

    if (out) {
        if (VRB_FITS(*out, timer)) out->timer = outcome.timer;
        if (VRB_FITS(*out, checksum)) out->checksum = outcome.answer.checksum;
        if (VRB_FITS(*out, mismatches)) out->mismatches = outcome.answer.mismatches;
        if (VRB_FITS(*out, first_mismatch)) out->first_mismatch = outcome.answer.first_mismatch;
        if (VRB_FITS(*out, passes)) out->passes = passes;
    }
}

} // namespace vrb::vulkan
