#include "memory_kinds.hpp"

#include "cl.hpp"

#include <vrambench/plugin.h>

namespace vrb::opencl {

std::vector<MemoryKind> memory_kinds(bool host_memory, uint64_t svm)
{
    const uint32_t own = host_memory ? uint32_t(VRB_MEMORY_HOST_MEMORY) : 0u;
    std::vector<MemoryKind> kinds{
        {Allocation::Buffer, "device", VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS | own},
        {Allocation::AllocHostPtr, "pinned",
         VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_PINNED | VRB_MEMORY_DEVICE_ACCESS | VRB_MEMORY_HOST_MEMORY},
        // The host's ordinary pages, handed to the driver: what clEnqueueReadBuffer and
        // clEnqueueWriteBuffer move data to and from.
        {Allocation::UseHostPtr, "host-pointer",
         VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_HOST_CACHED | VRB_MEMORY_PAGEABLE | VRB_MEMORY_DEVICE_ACCESS |
             VRB_MEMORY_HOST_MEMORY},
    };
    if (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)
        kinds.push_back({Allocation::SvmCoarse, "svm-coarse",
                         VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_DEVICE_ACCESS | own});
    if (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)
        kinds.push_back({Allocation::SvmFine, "svm-fine",
                         VRB_MEMORY_HOST_VISIBLE | VRB_MEMORY_HOST_COHERENT | VRB_MEMORY_DEVICE_ACCESS | own});
    return kinds;
}

} // namespace vrb::opencl
