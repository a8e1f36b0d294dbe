#include "buffer.hpp"

#include "device.hpp"
#include "segments.hpp"

#include <vrambench/plugin_support.hpp>

#include <cstdlib>

namespace vrb::opencl {

void HostFree::operator()(void *memory) const noexcept
{
    std::free(memory);
}

void SvmFree::operator()(void *memory) const noexcept
{
    clSVMFree(context, memory);
}

void Segment::bind(cl_kernel kernel, cl_uint index) const
{
    if (svm)
        check(clSetKernelArgSVMPointer(kernel, index, svm.get()), "clSetKernelArgSVMPointer");
    else {
        cl_mem handle = mem.get();
        check(clSetKernelArg(kernel, index, sizeof handle, &handle), "clSetKernelArg");
    }
}

namespace {

constexpr uint64_t kPage = 4096;

Segment allocate_segment(cl_context context, Allocation allocation, uint64_t bytes)
{
    Segment segment;
    segment.bytes = bytes;
    cl_int status = CL_SUCCESS;
    switch (allocation) {
    case Allocation::Buffer:
        segment.mem.reset(clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status));
        break;
    case Allocation::AllocHostPtr:
        segment.mem.reset(clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &status));
        break;
    case Allocation::UseHostPtr: {
        const uint64_t rounded = (bytes + kPage - 1) / kPage * kPage;
        segment.storage.reset(std::aligned_alloc(kPage, rounded));
        if (!segment.storage)
            plugin::fail(VRB_ERROR_OUT_OF_MEMORY, "host memory of " + std::to_string(bytes) + " bytes");
        segment.mem.reset(
            clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, segment.storage.get(), &status));
        break;
    }
    case Allocation::SvmCoarse:
    case Allocation::SvmFine: {
        const cl_svm_mem_flags flags =
            CL_MEM_READ_WRITE | (allocation == Allocation::SvmFine ? CL_MEM_SVM_FINE_GRAIN_BUFFER : 0);
        segment.svm = std::unique_ptr<void, SvmFree>(clSVMAlloc(context, flags, bytes, 0), SvmFree{context});
        if (!segment.svm) plugin::fail(VRB_ERROR_OUT_OF_MEMORY, "clSVMAlloc returned NULL");
        return segment;
    }
    }
    check(status, "clCreateBuffer");
    return segment;
}

} // namespace

Buffer::Buffer(Device &device, uint32_t kind, uint64_t bytes)
    : device_(&device), kind_(kind), bytes_(bytes), segment_bytes_(device.segment_bytes())
{
    const MemoryKind &k = device.kind(kind);
    // The driver may accept more than the device holds and fail only on first use (and
    // the host's overcommit hides it until the OOM killer comes); the capacity probes
    // need the refusal here.
    if (bytes > device.global_memory_bytes())
        plugin::fail(VRB_ERROR_OUT_OF_MEMORY, "OpenCL: " + std::to_string(bytes) + " bytes of memory kind \"" + k.name +
                                                  "\" exceed the device's " +
                                                  std::to_string(device.global_memory_bytes()) + " bytes");
    check(clRetainContext(device.context()), "clRetainContext");
    context_.reset(device.context());
    try {
        for (uint64_t size : segment_sizes(bytes, segment_bytes_))
            segments_.push_back(allocate_segment(context_.get(), k.allocation, size));
    } catch (const plugin::Failure &failure) {
        plugin::fail(failure.status(), "OpenCL: allocating " + std::to_string(bytes) + " bytes of memory kind \"" +
                                           k.name + "\" (segment " + std::to_string(segments_.size()) + " of " +
                                           std::to_string(segment_sizes(bytes, segment_bytes_).size()) +
                                           "): " + failure.what());
    }
}

Buffer::~Buffer()
{
    // Every command that used the buffer has finished: run(), upload and download wait
    // for their queues before returning.
    segments_.clear();
}

const MemoryKind &Buffer::kind() const
{
    return device_->kind(kind_);
}

void Buffer::upload(uint64_t offset, const void *src, uint64_t bytes)
{
    cl_command_queue queue = device_->queue(0);
    const auto *from = static_cast<const std::byte *>(src);
    for (const CopyRegion &r : split_copy(0, UINT64_MAX, offset, segment_bytes_, bytes)) {
        const Segment &s = segments_[r.dst_segment];
        if (s.svm)
            check(clEnqueueSVMMemcpy(queue, CL_TRUE, s.svm_at(r.dst_offset), from + r.src_offset, r.bytes, 0, nullptr,
                                     nullptr),
                  "clEnqueueSVMMemcpy");
        else
            check(clEnqueueWriteBuffer(queue, s.mem.get(), CL_TRUE, r.dst_offset, r.bytes, from + r.src_offset, 0,
                                       nullptr, nullptr),
                  "clEnqueueWriteBuffer");
    }
}

void Buffer::download(uint64_t offset, void *dst, uint64_t bytes)
{
    cl_command_queue queue = device_->queue(0);
    auto *to = static_cast<std::byte *>(dst);
    for (const CopyRegion &r : split_copy(offset, segment_bytes_, 0, UINT64_MAX, bytes)) {
        const Segment &s = segments_[r.src_segment];
        if (s.svm)
            check(clEnqueueSVMMemcpy(queue, CL_TRUE, to + r.dst_offset, s.svm_at(r.src_offset), r.bytes, 0, nullptr,
                                     nullptr),
                  "clEnqueueSVMMemcpy");
        else
            check(clEnqueueReadBuffer(queue, s.mem.get(), CL_TRUE, r.src_offset, r.bytes, to + r.dst_offset, 0, nullptr,
                                      nullptr),
                  "clEnqueueReadBuffer");
    }
}

} // namespace vrb::opencl
