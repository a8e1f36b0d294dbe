// TRANSFER: the driver's copy commands between any two buffers. Between two cl_mem
// segments clEnqueueCopyBuffer; where one side is shared virtual memory (a host
// address) clEnqueueWriteBuffer or clEnqueueReadBuffer; between two SVM segments
// clEnqueueSVMMemcpy. With src2 and dst2 set, the second copy goes to the second queue,
// so a device with two copy engines runs both directions at once.
#include "device.hpp"
#include "segments.hpp"
#include "timing.hpp"

#include <vrambench/plugin_support.hpp>

namespace vrb::opencl {

namespace {

cl_event copy_region(cl_command_queue queue, const Segment &src, uint64_t src_offset, const Segment &dst,
                     uint64_t dst_offset, uint64_t bytes)
{
    cl_event event = nullptr;
    if (src.svm && dst.svm)
        check(clEnqueueSVMMemcpy(queue, CL_FALSE, dst.svm_at(dst_offset), src.svm_at(src_offset), bytes, 0, nullptr,
                                 &event),
              "clEnqueueSVMMemcpy");
    else if (src.svm)
        check(clEnqueueWriteBuffer(queue, dst.mem.get(), CL_FALSE, dst_offset, bytes, src.svm_at(src_offset), 0,
                                   nullptr, &event),
              "clEnqueueWriteBuffer");
    else if (dst.svm)
        check(clEnqueueReadBuffer(queue, src.mem.get(), CL_FALSE, src_offset, bytes, dst.svm_at(dst_offset), 0, nullptr,
                                  &event),
              "clEnqueueReadBuffer");
    else
        check(
            clEnqueueCopyBuffer(queue, src.mem.get(), dst.mem.get(), src_offset, dst_offset, bytes, 0, nullptr, &event),
            "clEnqueueCopyBuffer");
    return event;
}

void enqueue_copy(cl_command_queue queue, const vrb_operand &from, const vrb_operand &to, uint64_t bytes,
                  std::vector<EventHandle> &events)
{
    const Buffer &src = buffer_of(from), &dst = buffer_of(to);
    for (const CopyRegion &r : split_copy(from.offset, src.segment_bytes(), to.offset, dst.segment_bytes(), bytes))
        events.emplace_back(copy_region(queue, src.segments()[r.src_segment], r.src_offset,
                                        dst.segments()[r.dst_segment], r.dst_offset, r.bytes));
}

} // namespace

void Device::run_transfer(const vrb_operation &op, std::span<double> seconds, vrb_op_output &)
{
    if (op.count == 0) plugin::fail(VRB_ERROR_INVALID_ARGUMENT, "a transfer of 0 bytes has nothing to time");
    const bool both = op.src2.buffer && op.dst2.buffer;
    const uint32_t passes = plugin::operation_passes(op);
    for (std::size_t r = 0; r < seconds.size(); ++r) {
        check_cancelled();
        std::vector<EventHandle> events;
        for (uint32_t p = 0; p < passes; ++p) {
            enqueue_copy(queue_.get(), op.src1, op.dst, op.count, events);
            if (both) enqueue_copy(second_queue_.get(), op.src2, op.dst2, op.count, events);
        }
        check(clFlush(queue_.get()), "clFlush");
        if (both) check(clFlush(second_queue_.get()), "clFlush");
        seconds[r] = span_seconds(event_times(events), "OpenCL transfer, run " + std::to_string(r));
    }
}

} // namespace vrb::opencl
