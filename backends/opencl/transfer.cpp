// TRANSFER: the driver's copy commands between any two buffers. Between two device
// segments clEnqueueCopyBuffer; where one side is host memory, clEnqueueWriteBuffer or
// clEnqueueReadBuffer from or to its host address: an ALLOC_HOST_PTR or USE_HOST_PTR
// buffer is mapped for that, since a driver may keep a device-side copy of it (NVIDIA's
// does) and clEnqueueCopyBuffer would then copy within the device, never crossing the
// link. Where one side is shared virtual memory (a host address) likewise; between two
// SVM segments clEnqueueSVMMemcpy. With src2 and dst2 set, the second copy goes to the
// second queue, so a device with two copy engines runs both directions at once.
#include "device.hpp"
#include "segments.hpp"
#include "timing.hpp"

#include <vrambench/plugin_support.hpp>

#include <map>
#include <utility>

namespace vrb::opencl {

namespace {

bool host_side(const Buffer &buffer)
{
    const Allocation a = buffer.kind().allocation;
    return a == Allocation::AllocHostPtr || a == Allocation::UseHostPtr;
}

// The host addresses of the host-memory regions a transfer copies, mapped while its runs
// last and unmapped after them, so the driver brings any device-side copy up to date
// outside the timing. Only the region is mapped, a source for reading and a destination
// to be overwritten: a driver with a device-side copy moves what a mapping asks for, and
// a 4 KiB copy out of a 1 GiB buffer should not pay for the gigabyte, twice, every run call.
class HostMappings {
  public:
    explicit HostMappings(cl_command_queue queue) : queue_(queue) {}
    ~HostMappings()
    {
        for (const auto &[where, address] : mapped_)
            clEnqueueUnmapMemObject(queue_, where.first, address, 0, nullptr, nullptr);
        if (!mapped_.empty()) clFinish(queue_);
    }
    HostMappings(const HostMappings &) = delete;
    HostMappings &operator=(const HostMappings &) = delete;

    std::byte *address(const Segment &segment, uint64_t offset, uint64_t bytes, bool source)
    {
        const std::pair<cl_mem, uint64_t> where{segment.mem.get(), offset};
        if (const auto found = mapped_.find(where); found != mapped_.end())
            return static_cast<std::byte *>(found->second);
        cl_int status = CL_SUCCESS;
        void *address =
            clEnqueueMapBuffer(queue_, where.first, CL_TRUE, source ? CL_MAP_READ : CL_MAP_WRITE_INVALIDATE_REGION,
                               offset, bytes, 0, nullptr, nullptr, &status);
        check(status, "clEnqueueMapBuffer (a host-memory region, for its host address)");
        mapped_.emplace(where, address);
        return static_cast<std::byte *>(address);
    }

  private:
    cl_command_queue queue_;
    std::map<std::pair<cl_mem, uint64_t>, void *> mapped_;
};

// Where a copy's side lives for the copy command: a host address (SVM, or a mapped
// host-memory region), else the device segment itself.
struct Side {
    const Segment *segment = nullptr;
    std::byte *host = nullptr; // at the region's offset
};

Side side_of(const Segment &segment, uint64_t offset, uint64_t bytes, bool host_memory, bool source,
             HostMappings &mappings)
{
    if (segment.svm) return {&segment, segment.svm_at(offset)};
    if (host_memory) return {&segment, mappings.address(segment, offset, bytes, source)};
    return {&segment, nullptr};
}

cl_event copy_region(cl_command_queue queue, const Side &src, uint64_t src_offset, const Side &dst, uint64_t dst_offset,
                     uint64_t bytes)
{
    cl_event event = nullptr;
    if (src.segment->svm && dst.segment->svm)
        check(clEnqueueSVMMemcpy(queue, CL_FALSE, dst.host, src.host, bytes, 0, nullptr, &event), "clEnqueueSVMMemcpy");
    else if (src.host && !dst.host)
        check(clEnqueueWriteBuffer(queue, dst.segment->mem.get(), CL_FALSE, dst_offset, bytes, src.host, 0, nullptr,
                                   &event),
              "clEnqueueWriteBuffer");
    else if (dst.host && !src.host)
        check(clEnqueueReadBuffer(queue, src.segment->mem.get(), CL_FALSE, src_offset, bytes, dst.host, 0, nullptr,
                                  &event),
              "clEnqueueReadBuffer");
    else
        check(clEnqueueCopyBuffer(queue, src.segment->mem.get(), dst.segment->mem.get(), src_offset, dst_offset, bytes,
                                  0, nullptr, &event),
              "clEnqueueCopyBuffer");
    return event;
}

void enqueue_copy(cl_command_queue queue, const vrb_operand &from, const vrb_operand &to, uint64_t bytes,
                  HostMappings &mappings, std::vector<EventHandle> &events)
{
    const Buffer &src = buffer_of(from), &dst = buffer_of(to);
    // Only a copy between host memory and the device's own buffers crosses the link: one
    // with SVM on the other side already names a host address there, and host to host
    // is the driver's to copy between the buffers.
    const bool src_device = src.kind().allocation == Allocation::Buffer;
    const bool dst_device = dst.kind().allocation == Allocation::Buffer;
    const bool src_host = host_side(src) && dst_device, dst_host = host_side(dst) && src_device;
    for (const CopyRegion &r : split_copy(from.offset, src.segment_bytes(), to.offset, dst.segment_bytes(), bytes)) {
        const Side s = side_of(src.segments()[r.src_segment], r.src_offset, r.bytes, src_host, true, mappings);
        const Side d = side_of(dst.segments()[r.dst_segment], r.dst_offset, r.bytes, dst_host, false, mappings);
        events.emplace_back(copy_region(queue, s, r.src_offset, d, r.dst_offset, r.bytes));
    }
}

} // namespace

void Device::run_transfer(const vrb_operation &op, std::span<double> seconds, vrb_op_output &)
{
    if (op.count == 0) plugin::fail(VRB_ERROR_INVALID_ARGUMENT, "a transfer of 0 bytes has nothing to time");
    const bool both = op.src2.buffer && op.dst2.buffer;
    const uint32_t passes = plugin::operation_passes(op);
    HostMappings mappings(queue_.get());
    for (std::size_t r = 0; r < seconds.size(); ++r) {
        check_cancelled();
        std::vector<EventHandle> events;
        for (uint32_t p = 0; p < passes; ++p) {
            enqueue_copy(queue_.get(), op.src1, op.dst, op.count, mappings, events);
            if (both) enqueue_copy(second_queue_.get(), op.src2, op.dst2, op.count, mappings, events);
        }
        check(clFlush(queue_.get()), "clFlush");
        if (both) check(clFlush(second_queue_.get()), "clFlush");
        seconds[r] = span_seconds(event_times(events), "OpenCL transfer, run " + std::to_string(r));
    }
}

} // namespace vrb::opencl
