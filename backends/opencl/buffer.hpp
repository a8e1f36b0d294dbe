// Memory of one kind on one device: a row of segments (segments.hpp), each a cl_mem
// or an SVM allocation, so a buffer may pass CL_DEVICE_MAX_MEM_ALLOC_SIZE.
#pragma once

#include "cl.hpp"
#include "memory_kinds.hpp"

#include <vrambench/plugin.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace vrb::opencl {

class Device;

struct HostFree {
    void operator()(void *memory) const noexcept;
};

struct SvmFree {
    cl_context context = nullptr;
    void operator()(void *memory) const noexcept;
};

struct Segment {
    uint64_t bytes = 0;
    // Declared before `mem`, so the cl_mem that uses them goes first.
    std::unique_ptr<void, HostFree> storage; // CL_MEM_USE_HOST_PTR's pages
    std::unique_ptr<void, SvmFree> svm;
    MemHandle mem; // NULL for SVM

    // The host address of an SVM segment; NULL otherwise.
    std::byte *svm_at(uint64_t offset) const { return svm ? static_cast<std::byte *>(svm.get()) + offset : nullptr; }
    // Binds the segment as argument `index` of a kernel.
    void bind(cl_kernel kernel, cl_uint index) const;
};

class Buffer {
  public:
    // Throws Failure(VRB_ERROR_OUT_OF_MEMORY) naming the kind and size when the driver
    // refuses, with nothing allocated left behind.
    Buffer(Device &device, uint32_t kind, uint64_t bytes);
    ~Buffer();
    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;

    uint64_t size() const { return bytes_; }
    Device *device() const { return device_; }
    const MemoryKind &kind() const;
    const std::vector<Segment> &segments() const { return segments_; }
    // The nominal size of every segment but the last: where byte offsets split.
    uint64_t segment_bytes() const { return segment_bytes_; }

    void upload(uint64_t offset, const void *src, uint64_t bytes);
    void download(uint64_t offset, void *dst, uint64_t bytes);

  private:
    Device *device_;
    uint32_t kind_;
    uint64_t bytes_;
    uint64_t segment_bytes_;
    ContextHandle context_; // retained: SVM is freed through it
    std::vector<Segment> segments_;
};

// The module's buffer behind an operand (make_table has checked it is one of ours).
inline const Buffer &buffer_of(const vrb_operand &operand)
{
    return *reinterpret_cast<const Buffer *>(operand.buffer);
}

} // namespace vrb::opencl
