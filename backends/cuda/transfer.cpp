#include "transfer.hpp"

#include "timing.hpp"

#include <vrambench/plugin_support.hpp>

using vrb::plugin::fail;

namespace vrb::gpu {
namespace {

struct Copy {
    void *dst = nullptr;
    const void *src = nullptr;
    CopyKind kind = CopyKind::device_to_device;
    // Between the memory of two devices (peer_query admitted the other's buffer): the
    // ordinals the runtime's peer copy is given.
    bool between_devices = false;
    int dst_device = 0, src_device = 0;

    Error enqueue(uint64_t bytes, StreamHandle stream) const
    {
        if (between_devices) return copy_peer_async(dst, dst_device, src, src_device, bytes, stream);
        return copy_async(dst, src, bytes, kind, stream);
    }
};

// Overlapping copies have no defined result, so none is timed.
void check_disjoint(const vrb_operand &dst, const vrb_operand &src, uint64_t bytes, const char *what)
{
    if (dst.buffer != src.buffer || bytes == 0) return;
    const bool apart = dst.offset + bytes <= src.offset || src.offset + bytes <= dst.offset;
    if (!apart) fail(VRB_ERROR_INVALID_ARGUMENT, std::string(what) + ": source and destination overlap");
}

Copy resolve(const vrb_operand &dst, const vrb_operand &src)
{
    const vrb_buffer &d = *dst.buffer;
    const vrb_buffer &s = *src.buffer;
    Copy c;
    c.dst = static_cast<char *>(d.copy_address()) + dst.offset;
    c.src = static_cast<const char *>(s.copy_address()) + src.offset;
    // The direction comes from the kinds, not from the runtime's guess: a pageable
    // pointer is unknown to the runtime, and the kind says exactly where memory lives.
    if (s.in_host_memory())
        c.kind = d.in_host_memory() ? CopyKind::host_to_host : CopyKind::host_to_device;
    else
        c.kind = d.in_host_memory() ? CopyKind::device_to_host : CopyKind::device_to_device;
    if (c.kind == CopyKind::device_to_device && d.owner != s.owner) {
        c.between_devices = true;
        c.dst_device = d.owner->ordinal;
        c.src_device = s.owner->ordinal;
    }
    return c;
}

} // namespace

bool runs_sequentially(const vrb_operation &op)
{
    if (op.src2.buffer == nullptr) return false;
    for (const vrb_operand *o : {&op.dst, &op.src1, &op.dst2, &op.src2})
        if (o->buffer && o->buffer->in_pageable_memory()) return true;
    return false;
}

vrb_timer_kind run_transfer(vrb_device &device, const vrb_operation &op, uint32_t passes, uint32_t repetitions,
                            double *seconds, uint32_t &flags)
{
    const bool both_ways = op.src2.buffer != nullptr;
    if (runs_sequentially(op)) flags |= VRB_OUTPUT_SEQUENTIAL;
    check_disjoint(op.dst, op.src1, op.count, "transfer src1 to dst");
    const Copy first = resolve(op.dst, op.src1);
    Copy second;
    if (both_ways) {
        check_disjoint(op.dst2, op.src2, op.count, "transfer src2 to dst2");
        second = resolve(op.dst2, op.src2);
    }
    StreamHandle a = device.stream.get();
    StreamHandle b = device.second_stream.get();

    // A copy between two host buffers puts nothing on the device between the run's
    // events (the runtime may do it on the calling thread), so the host's clock times it.
    if (first.kind == CopyKind::host_to_host || (both_ways && second.kind == CopyKind::host_to_host)) {
        time_runs_on_host(device, repetitions, seconds, [&] {
            for (uint32_t pass = 0; pass < passes; ++pass) {
                check(first.enqueue(op.count, a), "enqueueing a transfer");
                if (both_ways) check(second.enqueue(op.count, b), "enqueueing the second transfer");
            }
            check(stream_synchronize(a), "waiting for a transfer");
            check(stream_synchronize(b), "waiting for the second transfer");
        });
        return VRB_TIMER_HOST_MONOTONIC;
    }

    time_runs(device, repetitions, seconds, [&](RunEvents &events) {
        // The second copy starts with the run and the run ends with it: both copies
        // lie between the run's events, on two streams so the engines overlap them.
        if (both_ways) check(stream_wait(b, events.start.get()), "starting the second stream with the run");
        for (uint32_t pass = 0; pass < passes; ++pass) {
            check(first.enqueue(op.count, a), "enqueueing a transfer");
            if (both_ways) check(second.enqueue(op.count, b), "enqueueing the second transfer");
        }
        if (both_ways) {
            check(event_record(events.joined.get(), b), "recording the second transfer's end");
            check(stream_wait(a, events.joined.get()), "joining the second transfer into the run");
        }
    });
    return VRB_TIMER_DEVICE_EVENTS;
}

} // namespace vrb::gpu
