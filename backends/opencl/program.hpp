// The kernels: OpenCL C embedded at build time (kernels/*.cl, with pattern.h as it
// stands), built once per opened device, each kernel object created once.
#pragma once

#include "cl.hpp"

#include <map>
#include <string>

namespace vrb::opencl {

// The whole program text: pattern.h, common.cl, and width.cl for 1, 2 and 4 lanes.
std::string program_source();

class Program {
  public:
    // Throws Failure(VRB_ERROR_DEVICE) with the driver's build log when it refuses the source.
    Program(cl_context context, cl_device_id device, const std::string &device_name, uint32_t local_size, bool cpu);

    // The kernel of that name; created on first use.
    cl_kernel kernel(const std::string &name);

  private:
    cl_device_id device_;
    uint32_t local_size_;
    ProgramHandle program_;
    std::map<std::string, KernelHandle> kernels_;
};

} // namespace vrb::opencl
