// The kinds of memory an OpenCL device offers, in a fixed order per device: a plain
// buffer, CL_MEM_ALLOC_HOST_PTR (pinned host memory on a discrete GPU),
// CL_MEM_USE_HOST_PTR over the host's own pages, and shared virtual memory, coarse-
// and fine-grained, where the device has it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vrb::opencl {

enum class Allocation { Buffer, AllocHostPtr, UseHostPtr, SvmCoarse, SvmFine };

struct MemoryKind {
    Allocation allocation;
    std::string name;
    uint32_t flags; // VRB_MEMORY_*
};

// host_memory: the device's own memory is the host's (a CPU, an integrated GPU).
// svm: CL_DEVICE_SVM_CAPABILITIES (0 before OpenCL 2.0).
std::vector<MemoryKind> memory_kinds(bool host_memory, uint64_t svm);

} // namespace vrb::opencl
