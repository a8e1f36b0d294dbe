#include "transfer_ops.hpp"

#include "abi_handles.hpp"
#include "buffer.hpp"
#include "commands.hpp"
#include "device.hpp"
#include "timestamps.hpp"
#include "timing.hpp"

#include <array>
#include <span>
#include <vector>

namespace vrb::vulkan {

namespace {

struct Copy {
    const Buffer *src;
    const Buffer *dst;
    std::vector<CopyRegion> regions;
};

Copy plan_copy(const vrb_operand &src, const vrb_operand &dst, uint64_t bytes)
{
    const Buffer *s = from_abi(src.buffer);
    const Buffer *d = from_abi(dst.buffer);
    return {s, d, split_copy(src.offset, s->segment_bytes(), dst.offset, d->segment_bytes(), bytes)};
}

void record_copy(VkCommandBuffer commands, const Copy &copy)
{
    for (const CopyRegion &r : copy.regions) {
        const VkBufferCopy region{r.src_offset, r.dst_offset, r.bytes};
        vkCmdCopyBuffer(commands, copy.src->segments()[r.src_segment].buffer.get(),
                        copy.dst->segments()[r.dst_segment].buffer.get(), 1, &region);
    }
}

// The copies of one run: all of them at once, `passes` times over.
void record_copies(VkCommandBuffer commands, const std::vector<Copy> &copies, uint32_t passes)
{
    for (uint32_t pass = 0; pass < passes; ++pass) {
        if (pass > 0) full_barrier(commands);
        // No barrier between the two directions: they may overlap, as intended.
        for (const Copy &copy : copies)
            record_copy(commands, copy);
    }
}

void check_cancelled(Device &device)
{
    if (device.context().cancelled()) fail(VRB_ERROR_CANCELLED, "cancelled");
}

// All copies on one queue, one submission, each repetition between two timestamps.
uint32_t run_on_one_queue(Device &device, QueueRef queue, const std::vector<Copy> &copies, uint32_t repetitions,
                          uint32_t passes, double *seconds)
{
    const uint32_t bits = device.timestamp_bits(queue.family);
    if (bits == 0) {
        for (uint32_t r = 0; r < repetitions; ++r) {
            check_cancelled(device);
            CommandBuffer commands(device, queue.family);
            full_barrier(commands.get());
            record_copies(commands.get(), copies, passes);
            full_barrier(commands.get());
            commands.end();
            seconds[r] = host_seconds_or_fail(submit_and_wait(device, device.queue(queue), commands));
        }
        return VRB_TIMER_HOST_MONOTONIC;
    }
    TimestampQueries queries(device, 2 * repetitions);
    CommandBuffer commands(device, queue.family);
    queries.reset(commands);
    for (uint32_t r = 0; r < repetitions; ++r) {
        full_barrier(commands.get());
        queries.write(commands.get(), 2 * r);
        record_copies(commands.get(), copies, passes);
        queries.write(commands.get(), 2 * r + 1);
    }
    full_barrier(commands.get());
    commands.end();
    const double host = submit_and_wait(device, device.queue(queue), commands);
    const std::vector<uint64_t> t = queries.read();
    for (uint32_t r = 0; r < repetitions; ++r)
        seconds[r] = timestamp_seconds(t[2 * r], t[2 * r + 1], bits, device.timestamp_period_ns());
    check_against_host(std::span(seconds, repetitions), host);
    return VRB_TIMER_DEVICE_TIMESTAMPS;
}

// One copy per queue, both submitted before either is waited for. Timestamps of two
// queues are not comparable as they stand, so a run is the span on the host's clock:
// each queue's timestamps placed there through a calibration where the device offers
// one, else the host's own wait from the first submission to the last fence.
uint32_t run_on_two_queues(Device &device, std::array<QueueRef, 2> queues, const std::vector<Copy> &copies,
                           uint32_t repetitions, uint32_t passes, double *seconds)
{
    const uint32_t bits = std::min(device.timestamp_bits(queues[0].family), device.timestamp_bits(queues[1].family));
    const bool calibrated = bits > 0 && device.calibrated_timestamps();
    for (uint32_t r = 0; r < repetitions; ++r) {
        check_cancelled(device);
        std::vector<CommandBuffer> commands;
        std::vector<TimestampQueries> queries;
        for (int q = 0; q < 2; ++q) {
            commands.emplace_back(device, queues[q].family);
            if (bits) {
                queries.emplace_back(device, 2);
                queries.back().reset(commands.back());
            }
            full_barrier(commands.back().get());
            if (bits) queries.back().write(commands.back().get(), 0);
            record_copies(commands.back().get(), {copies[q]}, passes);
            if (bits) queries.back().write(commands.back().get(), 1);
            full_barrier(commands.back().get());
            commands.back().end();
        }
        const Fence first(device.handle()), second(device.handle());
        HostWindow window;
        window.begin_ns = host_monotonic_ns();
        // Both queues wait for what the host asked the device to wait for.
        const std::vector<PendingWait> waits = device.take_pending_waits();
        submit(device.queue(queues[0]), commands[0].get(), first.get(), waits);
        submit(device.queue(queues[1]), commands[1].get(), second.get(), waits);
        first.wait();
        second.wait();
        window.end_ns = host_monotonic_ns();
        const double host = host_seconds_or_fail(double(window.end_ns - window.begin_ns) * 1e-9);
        if (!bits) {
            seconds[r] = host;
            continue;
        }
        const std::array<std::vector<uint64_t>, 2> t{queries[0].read(), queries[1].read()};
        if (calibrated) {
            // One device domain serves every queue of the device; the window check
            // catches a queue whose counter does not follow it.
            const Calibration c = calibrate(device, bits);
            const std::array<QueueRun, 2> runs{QueueRun{t[0][0], t[0][1], c.pair}, QueueRun{t[1][0], t[1][1], c.pair}};
            seconds[r] = calibrated_span_seconds(runs, bits, device.timestamp_period_ns(), window, c.deviation_ns);
            continue;
        }
        // Each queue's own duration still has to fit inside the host's wait.
        for (const auto &q : t) {
            const double own = timestamp_seconds(q[0], q[1], bits, device.timestamp_period_ns());
            check_against_host(std::span(&own, 1), host);
        }
        seconds[r] = host;
    }
    return calibrated ? VRB_TIMER_CALIBRATED_TIMESTAMPS : VRB_TIMER_HOST_MONOTONIC;
}

} // namespace

uint32_t run_transfer(Device &device, const vrb_operation &op, uint32_t repetitions, uint32_t passes, double *seconds)
{
    std::vector<Copy> copies{plan_copy(op.src1, op.dst, op.count)};
    const bool both_ways = op.src2.buffer != nullptr;
    if (both_ways) {
        if (!op.dst2.buffer) fail(VRB_ERROR_INVALID_ARGUMENT, "TRANSFER with src2 needs dst2");
        copies.push_back(plan_copy(op.src2, op.dst2, op.count));
    }
    const QueuePlan &plan = device.queues();
    std::vector<CopyEnds> ends;
    for (const Copy &copy : copies)
        ends.push_back({copy.src->kind().flags, copy.dst->kind().flags});
    if (transfer_queue(ends) == CopyQueue::Compute) {
        device.context().log(VRB_LOG_DEBUG, "TRANSFER within device memory runs on the compute queue (family " +
                                                std::to_string(plan.compute.family) + ")");
        return run_on_one_queue(device, plan.compute, copies, repetitions, passes, seconds);
    }
    device.context().log(VRB_LOG_DEBUG, std::string("TRANSFER runs on ") +
                                            (plan.dedicated_transfer ? "the copy engine" : "the compute queue") +
                                            " (family " + std::to_string(plan.transfer.family) + ")");
    if (both_ways && plan.two_transfer_queues)
        return run_on_two_queues(device, {plan.transfer, plan.second_transfer}, copies, repetitions, passes, seconds);
    return run_on_one_queue(device, plan.transfer, copies, repetitions, passes, seconds);
}

} // namespace vrb::vulkan
